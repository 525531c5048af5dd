import { useTranslation } from 'react-i18next';
import { useStore } from '../../../lib/store.ts';
import { updateStore } from '../pwa-state.ts';

export function UpdateNotice() {
  const { t } = useTranslation();
  const activate = useStore(updateStore);
  if (!activate) return null;
  return (
    <div className="update-notice" role="alert" data-testid="update-notice">
      <span>{t('pwa.update_available')}</span>
      <button type="button" className="button button--primary button--small" onClick={activate}>
        {t('pwa.update_now')}
      </button>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => updateStore.set(null)}
      >
        {t('common.later')}
      </button>
    </div>
  );
}
