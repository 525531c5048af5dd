import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal.tsx';
import { InstallInstructions } from './install-instructions.tsx';

export default function InstallModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal title={t('pwa.install_title')} onClose={onClose} testId="install-modal">
      <div className="install__hero" aria-hidden="true">
        <img src="/icons/icon-192.png" alt="" width={72} height={72} />
      </div>
      <InstallInstructions onDone={onClose} />
      <button type="button" className="button button--ghost button--block" onClick={onClose}>
        {t('common.later')}
      </button>
    </Modal>
  );
}
