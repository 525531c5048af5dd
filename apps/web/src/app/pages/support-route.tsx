import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state.tsx';
import { PageFrame } from '../../components/page-frame.tsx';
import { LegalSections } from '../../features/legal/components/legal-sections.tsx';

/** Information center → support: contact channels (a later feature) and the rules players ask about. */
export default function SupportPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.support')}>
      <h2 className="section-title">{t('legal.channels')}</h2>
      <EmptyState message={t('empty.support')} icon="headset" />
      <h2 className="section-title">{t('legal.title')}</h2>
      <LegalSections />
    </PageFrame>
  );
}
