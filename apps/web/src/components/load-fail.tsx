import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state.tsx';
import { Icon } from './icon.tsx';
import { Spinner } from './spinner.tsx';

/** 'Load Fail' (spec §8) where a list or panel should be, with a way to try again. */
export function LoadFail({ onRetry, testId }: { onRetry: () => void; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="empty-state load-fail" role="alert" data-testid={testId}>
      <span className="empty-state__icon">
        <Icon name="refresh" size={30} />
      </span>
      <p>{t('common.load_fail')}</p>
      <button type="button" className="button button--ghost button--small" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** A list's other states: loading, 'Load Fail' with a retry, or 'No records found' (spec §8); null when rows are there. */
export function QueryStates({
  isPending,
  isError,
  isEmpty,
  onRetry,
  testId,
}: {
  isPending: boolean;
  isError: boolean;
  isEmpty: boolean;
  onRetry: () => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (isPending) return <Spinner />;
  if (isError) return <LoadFail onRetry={onRetry} {...(testId ? { testId } : {})} />;
  if (isEmpty) return <EmptyState message={t('empty.records')} icon="list" />;
  return null;
}
