import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal.tsx';
import { openModal } from '../../../lib/auth-modal.ts';
import { LoginForm } from './login-form.tsx';

export default function LoginModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal title={t('auth.log_in')} onClose={onClose} testId="login-modal">
      <p className="modal__lead">{t('auth.login_lead')}</p>
      <LoginForm onSuccess={onClose} onRegister={() => openModal('register')} />
    </Modal>
  );
}
