import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon.tsx';
import { unreachableStore } from '../../../lib/api-client.ts';
import { useStore } from '../../../lib/store.ts';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Shown while the browser says it is offline or the server could not be reached at all. */
export function OfflineNotice() {
  const { t } = useTranslation();
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
  const unreachable = useStore(unreachableStore);
  if (online && !unreachable) return null;
  return (
    <div className="offline-notice" data-testid="offline-notice" role="status" aria-live="polite">
      <Icon name="offline" size={18} />
      <span>{t('pwa.offline')}</span>
    </div>
  );
}
