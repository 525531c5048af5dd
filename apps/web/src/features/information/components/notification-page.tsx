import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useMarkAllRead, useNotifications } from '../api/information.ts';
import { notificationText } from './notification-text.ts';
import './information.css';

/** `/notification`: the player's personal notifications, newest first, with the unread ones marked. */
export default function NotificationPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.notification')} requiresLogin>
      <Notifications />
    </PageFrame>
  );
}

function Notifications() {
  const { t } = useTranslation();
  const list = useNotifications();
  const markAll = useMarkAllRead();
  if (list.isPending) return <Spinner />;
  if (list.isError) return <LoadFail onRetry={() => void list.refetch()} />;
  const { data, unread } = list.data;
  if (data.length === 0) return <EmptyState message={t('empty.notifications')} icon="bell" />;
  return (
    <>
      <div className="info-toolbar">
        <span data-testid="unread-count">{t('community.info.unread', { count: unread })}</span>
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={unread === 0 || markAll.isPending}
          onClick={() => markAll.mutate()}
        >
          {t('community.info.mark_all_read')}
        </button>
      </div>
      <ul className="info-list">
        {data.map((item) => (
          <li
            key={item.id}
            className={`info-item${item.read ? '' : ' is-unread'}`}
            data-testid="notification"
          >
            <p className="info-item__body">{notificationText(t, item)}</p>
            <time className="info-item__time" dateTime={item.created_at}>
              {formatDateTime(item.created_at)}
            </time>
          </li>
        ))}
      </ul>
    </>
  );
}
