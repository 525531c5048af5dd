import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame.tsx';
import { SupportChannels } from '../../features/information/components/support-channels.tsx';
import { LegalSections } from '../../features/legal/components/legal-sections.tsx';

/** Information center → support: the site's contact channels and the rules players ask about. */
export default function SupportPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.support')}>
      <h2 className="section-title">{t('legal.channels')}</h2>
      <SupportChannels />
      <h2 className="section-title">{t('legal.title')}</h2>
      <LegalSections />
    </PageFrame>
  );
}
