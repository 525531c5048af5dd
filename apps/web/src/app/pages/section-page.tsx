import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state.tsx';
import { PageFrame } from '../../components/page-frame.tsx';
import type { TSection } from '../routes.tsx';

/**
 * A section whose data arrives with a later feature: the real frame and the state a player sees
 * when there is nothing to show yet.
 */
export default function SectionPage({ section }: { section: TSection }) {
  const { t } = useTranslation();
  return (
    <PageFrame title={t(section.titleKey)} requiresLogin={section.requiresLogin}>
      <EmptyState message={t(section.emptyKey)} icon={section.icon} />
    </PageFrame>
  );
}
