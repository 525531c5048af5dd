import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Spinner } from '../../../components/spinner.tsx';

/** Loading, 'Load Fail' with a retry, or 'No records found' (spec §8); null when rows are there. */
export function RecordStates({
  isPending,
  isError,
  isEmpty,
  onRetry,
}: {
  isPending: boolean;
  isError: boolean;
  isEmpty: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  if (isPending) return <Spinner />;
  if (isError) {
    return (
      <div className="load-fail" role="alert" data-testid="records-load-fail">
        <p>{t('money.load_fail')}</p>
        <button type="button" className="button button--ghost button--small" onClick={onRetry}>
          {t('money.retry')}
        </button>
      </div>
    );
  }
  if (isEmpty) return <EmptyState message={t('empty.records')} icon="list" />;
  return null;
}

/** Previous (newer rows) / next (older rows) buttons of a keyset-paged list. */
export function Pager({
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  busy,
}: {
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav className="pager" aria-label={t('money.paging')}>
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={!hasPrevious || busy}
        onClick={onPrevious}
        data-testid="records-previous"
      >
        {t('money.previous')}
      </button>
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={!hasNext || busy}
        onClick={onNext}
        data-testid="records-next"
      >
        {t('money.next')}
      </button>
    </nav>
  );
}
