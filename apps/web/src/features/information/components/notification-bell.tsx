import type { TNotificationPush } from '@sorte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { subscribeRealtime } from '../../../lib/realtime-messages.ts';
import { toast } from '../../../lib/toast.ts';
import { INFORMATION_KEY, UNREAD_KEY, useUnread } from '../api/information.ts';
import { notificationText } from './notification-text.ts';
import './information.css';

/** The header's bell: unread count, and a toast when a notification arrives live over /ws. */
export function NotificationBell() {
  const { t } = useTranslation();
  const unread = useUnread();
  const client = useQueryClient();
  useEffect(
    () =>
      subscribeRealtime((message) => {
        if (message.type !== 'notification') return;
        const push = message as unknown as TNotificationPush;
        client.setQueryData(UNREAD_KEY, { unread: push.unread });
        void client.invalidateQueries({ queryKey: INFORMATION_KEY, exact: false, refetchType: 'active' });
        toast.success(notificationText(t, push.notification));
      }),
    [client, t],
  );
  const count = unread.data?.unread ?? 0;
  return (
    <Link
      to="/notification"
      className="icon-button header__bell"
      aria-label={`${t('community.info.notifications')}${count > 0 ? ` · ${t('community.info.unread', { count })}` : ''}`}
      data-testid="header-bell"
    >
      <Icon name="bell" size={20} />
      {count > 0 && (
        <span className="header__badge" data-testid="unread-badge">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
