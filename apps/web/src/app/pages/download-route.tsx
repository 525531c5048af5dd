import { useTranslation } from 'react-i18next';
import { InstallInstructions } from '../../features/pwa/components/install-instructions.tsx';
import { BareFrame } from './bare-frame.tsx';

export default function DownloadPage() {
  const { t } = useTranslation();
  return (
    <BareFrame title={t('pwa.install_title')}>
      <div className="card card--narrow download">
        <img src="/icons/icon-192.png" alt="" width={96} height={96} className="download__icon" />
        <InstallInstructions />
      </div>
    </BareFrame>
  );
}
