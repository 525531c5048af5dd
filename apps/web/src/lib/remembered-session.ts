import type { TSessionResponse } from '@sorte/contract';
import { ApiError, api } from './api-client.ts';
import { queryClient, USER_QUERY_KEY } from './query-client.ts';
import { getToken, setToken } from './storage.ts';

/**
 * "Keep me signed in". The bearer token stays in sessionStorage (the spec's rule: it dies with the
 * tab); a remembered device also holds an httpOnly refresh cookie the page cannot read. This flag
 * only says that such a cookie was set, so a guest's cold start sends no refresh request at all.
 */
export const REMEMBERED_KEY = 'remembered';
const REFRESH_LOCK = 'sorte-refresh';

export function isRemembered(): boolean {
  try {
    return localStorage.getItem(REMEMBERED_KEY) === '1';
  } catch {
    return false;
  }
}

export function setRemembered(remembered: boolean): void {
  try {
    if (remembered) localStorage.setItem(REMEMBERED_KEY, '1');
    else localStorage.removeItem(REMEMBERED_KEY);
  } catch {
    // Storage unavailable: the next cold start simply asks for the password.
  }
}

/**
 * Tabs opened together would each present the same cookie, and the second one would look like a
 * stolen, replayed token (and revoke the device). Under one lock the second tab sends the cookie
 * the first one's answer already rotated.
 */
let queue: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks) return locks.request(REFRESH_LOCK, work) as Promise<T>;
  // No Web Locks (an old browser): at least this tab's own calls wait for each other.
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}

/**
 * On a cold start (no bearer token in this tab) of a remembered device: trades the cookie for a
 * new session. True when the player is signed in afterwards.
 */
export async function restoreRememberedSession(): Promise<boolean> {
  if (getToken() !== null) return true;
  if (!isRemembered()) return false;
  return oneAtATime(async () => {
    if (getToken() !== null) return true;
    try {
      const session = await api.post<TSessionResponse>('/api/auth/refresh', {}, { silent: true });
      setToken(session.token);
      queryClient.setQueryData(USER_QUERY_KEY, session.user);
      return true;
    } catch (error) {
      // Refused (signed out elsewhere, revoked, expired): forget it. Offline: try next time.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) setRemembered(false);
      return false;
    }
  });
}
