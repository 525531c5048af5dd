import { useTranslation } from 'react-i18next';

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
