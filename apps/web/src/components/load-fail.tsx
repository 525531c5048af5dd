import { useTranslation } from 'react-i18next';
import { Icon } from './icon.tsx';

/** 'Load Fail' (spec §8) where a list or panel should be, with a way to try again. */
export function LoadFail({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="empty-state load-fail" role="alert">
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
