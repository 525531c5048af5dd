import { useTranslation } from 'react-i18next';

/** 'Load Fail' (spec §8) with a way to try again. */
export function LoadFail({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="load-fail" role="alert">
      <p>{t('money.load_fail')}</p>
      <button type="button" className="button button--ghost button--small" onClick={onRetry}>
        {t('money.retry')}
      </button>
    </div>
  );
}
