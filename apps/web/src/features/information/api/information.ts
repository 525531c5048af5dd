import type {
  TAnnouncementListResponse,
  TNotificationListResponse,
  TSupportResponse,
  TUnreadResponse,
} from '@sorte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useHasToken } from '../../../lib/session.ts';
import { siteCode } from './site-code.ts';

export const INFORMATION_KEY = ['information'] as const;
export const UNREAD_KEY = ['information', 'unread'] as const;

/** GET /api/informationcenter/notification?site= (failures are silent, spec §8). */
export function useNotifications() {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['information', 'notification'],
    queryFn: () =>
      api.get<TNotificationListResponse>('/api/informationcenter/notification', {
        query: { site: siteCode() },
        silent: true,
      }),
    enabled: hasToken,
    staleTime: 0,
  });
}

/** The header badge: how many notifications are unread. */
export function useUnread() {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: UNREAD_KEY,
    queryFn: () => api.get<TUnreadResponse>('/api/informationcenter/notification/unread', { silent: true }),
    enabled: hasToken,
    staleTime: 60_000,
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<TUnreadResponse>('/api/informationcenter/notification/read', { all: true }),
    onSuccess: () => void client.invalidateQueries({ queryKey: INFORMATION_KEY }),
  });
}

export function useAnnouncements() {
  return useQuery({
    queryKey: ['information', 'announcement'],
    queryFn: () =>
      api.get<TAnnouncementListResponse>('/api/informationcenter/announcement', {
        query: { site: siteCode() },
        silent: true,
      }),
    staleTime: 5 * 60_000,
  });
}

export function useSupport() {
  return useQuery({
    queryKey: ['information', 'support'],
    queryFn: () => api.get<TSupportResponse>('/api/informationcenter/support', { silent: true }),
    staleTime: 5 * 60_000,
  });
}
