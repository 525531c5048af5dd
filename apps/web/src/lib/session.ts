import type { TSessionResponse, TUserInfo } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api } from './api-client.ts';
import { PROFILE_PHOTO_QUERY_KEY, queryClient, USER_QUERY_KEY } from './query-client.ts';
import { setRemembered } from './remembered-session.ts';
import { getToken, setToken, subscribeToken } from './storage.ts';

/** True while a bearer token is stored (the player is, as far as we know, logged in). */
export function useHasToken(): boolean {
  return useSyncExternalStore(
    subscribeToken,
    () => getToken() !== null,
    () => false,
  );
}

export const fetchUser = () => api.post<TUserInfo>('/api/auth/me');

/** The logged-in player, or null for a guest. */
export function useUser() {
  const hasToken = useHasToken();
  const query = useQuery<TUserInfo | null>({
    queryKey: USER_QUERY_KEY,
    queryFn: fetchUser,
    enabled: hasToken,
    staleTime: 15_000,
  });
  return { ...query, user: hasToken ? (query.data ?? null) : null };
}

/** The player's profile photo URL (spec §4: fetched after the user info). */
export function useProfilePhoto(user: TUserInfo | null) {
  return useQuery<string | null>({
    queryKey: PROFILE_PHOTO_QUERY_KEY,
    queryFn: async () =>
      (
        await api.post<{ profileurl: string | null }>(
          '/api/profilepictures/user',
          { member_id: user?.id },
          { silent: true },
        )
      ).profileurl,
    enabled: user !== null,
    staleTime: 5 * 60_000,
  });
}

/**
 * After register or login: keep the token, load the user info, then the profile photo — in that
 * order, as spec §4 describes. `remember`: the answer set the "keep me signed in" cookie.
 */
export async function startSession(session: TSessionResponse, remember = false): Promise<TUserInfo> {
  setRemembered(remember);
  setToken(session.token);
  queryClient.setQueryData(USER_QUERY_KEY, session.user);
  const user = await queryClient.fetchQuery({ queryKey: USER_QUERY_KEY, queryFn: fetchUser, staleTime: 0 });
  const photo = await api
    .post<{ profileurl: string | null }>(
      '/api/profilepictures/user',
      { member_id: user.id },
      { silent: true },
    )
    .then((data) => data.profileurl)
    .catch(() => user.profileurl);
  queryClient.setQueryData(PROFILE_PHOTO_QUERY_KEY, photo ?? null);
  return user;
}

/** Logs out on the server (best effort) and forgets the session here either way. */
export async function endSession(): Promise<void> {
  try {
    if (getToken()) await api.post('/api/auth/logout', {}, { silent: true });
  } catch {
    // The local session ends regardless; the server session expires on its own.
  } finally {
    // The server cleared the cookie; this device is no longer remembered either way.
    setRemembered(false);
    setToken(null);
    queryClient.setQueryData(USER_QUERY_KEY, null);
    queryClient.setQueryData(PROFILE_PHOTO_QUERY_KEY, null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'site' });
  }
}
