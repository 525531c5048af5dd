import type { TFail } from '@sorte/contract';
import i18next from 'i18next';
import { openModal } from './auth-modal.ts';
import { confirmDialog } from './dialog.ts';
import { currentLanguage } from './i18n.ts';
import { PROFILE_PHOTO_QUERY_KEY, queryClient, USER_QUERY_KEY } from './query-client.ts';
import { isRemembered, restoreRememberedSession } from './remembered-session.ts';
import { clearAllStorage, getDeviceId, getToken, setToken } from './storage.ts';
import { createStore } from './store.ts';
import { toast } from './toast.ts';

/** A failed call: `code` is the server's stable code (or NETWORK / BAD_RESPONSE for transport trouble). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly errors: Record<string, string>;
  readonly forceOffline: boolean;
  /** On a login refused by a pause or self-exclusion: the withdrawals-only session it opened. */
  readonly withdrawalSession: { token: string; expires_at: string } | null;
  /** The refusal's `data` (e.g. a sports bet's ODDS_CHANGED lists the new prices); null when none. */
  readonly data: unknown;

  constructor(init: {
    code: string;
    status: number;
    message: string;
    errors?: Record<string, string>;
    forceOffline?: boolean;
    withdrawalSession?: { token: string; expires_at: string } | null;
    data?: unknown;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status;
    this.errors = init.errors ?? {};
    this.forceOffline = init.forceOffline ?? false;
    this.withdrawalSession = init.withdrawalSession ?? null;
    this.data = init.data ?? null;
  }
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Do not toast the failure (the caller shows it, or the spec says failures are ignored). */
  silent?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Extra request headers (e.g. a bet's Idempotency-Key, a demo session's X-Demo-Token). */
  headers?: Record<string, string>;
  /** False to leave out the player's bearer token (fun-money demo calls act as the demo session). */
  withSession?: boolean;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * Whether the last request could not reach the server at all (fetch failed before any answer).
 * `navigator.onLine` alone misses many real outages (a dead Wi-Fi, a captive portal, an emulated
 * offline network), so the offline notice also listens to this; any answer of the server clears it
 * (one the service worker gave from its cache does not).
 */
export const unreachableStore = createStore(false);

/**
 * Set by the service worker on an answer it gave from its catalogue cache because the network
 * failed (vite.config.ts): the lobby still fills, but the server was not reached.
 */
const FROM_CACHE_HEADER = 'x-sorte-from-cache';
/** The browser's device id (storage.ts getDeviceId), read by the server at sign-up and login. */
const DEVICE_HEADER = 'X-Sorte-Device';

/** Builds `/api/<path>?…&lang=<active language>`; the spec's paths come with or without a leading slash. */
export function buildUrl(path: string, query: RequestOptions['query'] = {}): string {
  const clean = path.replace(/^\/+/, '');
  const url = new URL(`/${clean}`, window.location.origin);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  if (!url.searchParams.has('lang')) url.searchParams.set('lang', currentLanguage());
  return `${url.pathname}${url.search}`;
}

function isEnvelope(
  value: unknown,
): value is { status: string; code: unknown; message?: unknown; data?: unknown } {
  return typeof value === 'object' && value !== null && 'status' in value;
}

let expiryPromptOpen = false;

/**
 * A 401 "Unauthenticated.": the session is gone. Reset the player and say why — but only when the
 * answer is about the session this browser holds now. A request sent before a logout (or before a
 * newer login) can come back 401 afterwards; that is no expiry, and it must neither reset the new
 * session nor ask to log in again over the login form the player just opened.
 */
async function handleUnauthenticated(fail: TFail, sentToken: string | null): Promise<void> {
  if (sentToken !== null && getToken() !== sentToken) return;
  const hadToken = sentToken !== null;
  queryClient.setQueryData(USER_QUERY_KEY, null);
  queryClient.setQueryData(PROFILE_PHOTO_QUERY_KEY, null);
  if (fail.force_offline) {
    // An operator ended the session: nothing of it may remain in this browser.
    clearAllStorage();
    toast.error(i18next.t('network-error'), { id: 'network-error' });
    return;
  }
  setToken(null);
  if (!hadToken || expiryPromptOpen) return;
  // Idle past the site's limit: the rule asks for the password again, so no quiet sign-in (the
  // server would refuse the remembered device anyway); the prompt says why, in the server's words.
  const idle = fail.code === 'SESSION_IDLE';
  // A remembered device whose session ran out while the page was open signs back in quietly.
  if (!idle && isRemembered() && (await restoreRememberedSession())) return;
  expiryPromptOpen = true;
  try {
    const again = await confirmDialog(
      idle && fail.message ? fail.message : i18next.t('auth.login_expired'),
      i18next.t('auth.log_in'),
      i18next.t('common.cancel'),
    );
    if (again) openModal('login');
  } finally {
    expiryPromptOpen = false;
  }
}

/**
 * The one HTTP client. Adds `lang` and the bearer token, unwraps the envelope to its `data`, and
 * turns every failure into an ApiError (shown as a toast unless `silent`).
 */
export async function apiRequest<T>(
  method: 'GET' | 'POST',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const token = options.withSession === false ? null : getToken();
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  const device = getDeviceId();
  if (device) headers[DEVICE_HEADER] = device;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let response: Response;
  let payload: unknown;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller.signal,
      credentials: 'same-origin',
    });
    unreachableStore.set(response.headers.get(FROM_CACHE_HEADER) === '1');
    payload = await response.json().catch(() => undefined);
  } catch (thrown) {
    if (thrown instanceof TypeError) unreachableStore.set(true);
    const error = new ApiError({ code: 'NETWORK', status: 0, message: i18next.t('network-error') });
    if (!options.silent && !options.signal?.aborted) toast.error(error.message, { id: 'network-error' });
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }

  if (!isEnvelope(payload)) {
    const error = new ApiError({
      code: 'BAD_RESPONSE',
      status: response.status,
      message: i18next.t('network-error'),
    });
    if (!options.silent) toast.error(error.message, { id: 'network-error' });
    throw error;
  }
  if (payload.status === 'success') return payload.data as T;

  const fail = payload as TFail;
  const error = new ApiError({
    code: String(fail.code),
    status: response.status,
    message:
      typeof fail.message === 'string' && fail.message ? fail.message : i18next.t('common.error_generic'),
    errors: fail.errors,
    forceOffline: fail.force_offline === true,
    withdrawalSession: fail.withdrawal_session ?? null,
    data: fail.data,
  });
  // The spec recognises an ended session by its message, 'Unauthenticated.'; our server also
  // sends the stable code. A wrong password is a 401 too, but with INVALID_CREDENTIALS.
  if (
    response.status === 401 &&
    (fail.code === 'UNAUTHENTICATED' || fail.code === 'SESSION_IDLE' || fail.message === 'Unauthenticated.')
  ) {
    void handleUnauthenticated(fail, token);
    throw error;
  }
  if (!options.silent) toast.error(error.message);
  throw error;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('POST', path, { ...options, body: body ?? {} }),
};
