import type { TUserInfo } from '@sorte/contract';
import { queryClient, USER_QUERY_KEY } from './query-client.ts';
import { dispatchRealtime, type TRealtimeMessage } from './realtime-messages.ts';
import { getToken, subscribeToken } from './storage.ts';

/** A balance push of the realtime channel `/ws` (apps/server realtime.routes.ts). */
export interface TBalancePush {
  type: 'balance';
  money: string;
  fs_money: string;
  ml_money: string;
  total_money: string;
  /** Why it changed: 'snapshot' right after connecting, 'deposit_paid', 'withdraw_requested', a bet... */
  reason: string;
  order_no: string | null;
}

export interface TBalanceSocketOptions {
  /** Keeps proxies from closing an idle socket. */
  pingEveryMs: number;
  /** The first reconnection waits this long; each failure in a row doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * Failed connections in a row before giving up until the device is back online or the tab is
   * shown again: a phone in a tunnel must not spin its radio forever.
   */
  maxAttempts: number;
}

export const BALANCE_SOCKET_DEFAULTS: TBalanceSocketOptions = {
  pingEveryMs: 25_000,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxAttempts: 10,
};

/** The server's close code for a refused token (realtime.routes.ts). */
const CLOSE_UNAUTHENTICATED = 4401;
/** The server's close code when the member already holds the most sockets it allows. */
const CLOSE_TOO_MANY = 4429;
/** A push is a few hundred bytes; anything far larger is not one of ours. */
const MAX_MESSAGE_CHARS = 4096;

type TPushListener = (push: TBalancePush) => void;
const listeners = new Set<TPushListener>();

/** Pages that care why the balance moved (the payment step) listen here; the header needs nothing. */
export function subscribeBalancePush(listener: TPushListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function isBalancePush(value: unknown): value is TBalancePush {
  if (typeof value !== 'object' || value === null) return false;
  const push = value as Record<string, unknown>;
  return (
    push.type === 'balance' &&
    typeof push.money === 'string' &&
    typeof push.fs_money === 'string' &&
    typeof push.ml_money === 'string' &&
    typeof push.total_money === 'string'
  );
}

/**
 * The header reads the user info query: a push rewrites its balances in place, no reload. A user
 * info request already in flight was asked before this change and would answer the older figure
 * over it, so it is cancelled first. Before the first user info arrives there is nothing to rewrite:
 * that answer is fresh anyway.
 */
export function applyBalancePush(push: TBalancePush): void {
  const write = () =>
    queryClient.setQueryData<TUserInfo | null>(USER_QUERY_KEY, (user) =>
      user
        ? {
            ...user,
            money: push.money,
            fs_money: push.fs_money,
            ml_money: push.ml_money,
            total_money: push.total_money,
          }
        : user,
    );
  if (!queryClient.getQueryData(USER_QUERY_KEY)) return;
  if (queryClient.isFetching({ queryKey: USER_QUERY_KEY }) > 0) {
    void queryClient.cancelQueries({ queryKey: USER_QUERY_KEY }).then(write);
  } else {
    write();
  }
}

function socketUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}/ws`;
}

/**
 * The one realtime connection of a logged-in player (the app shell starts it). It follows the
 * stored token: opens when there is one, closes on logout or expiry, re-authenticates when another
 * player logs in. The token goes in the first message, never in the URL (proxies log URLs). A
 * dropped connection comes back after 1 s, 2 s, 4 s ... up to 30 s; after ten failures in a row it
 * waits for the device to come back online or the tab to be shown. The server answers every
 * (re)connection with a balance snapshot, so nothing missed while away stays missed.
 * Returns the function that stops it.
 */
export function connectBalanceSocket(options: TBalanceSocketOptions = BALANCE_SOCKET_DEFAULTS): () => void {
  if (typeof WebSocket === 'undefined') return () => undefined;
  let socket: WebSocket | null = null;
  let socketToken: string | null = null;
  let ping: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;

  const drop = () => {
    clearTimeout(retry);
    clearInterval(ping);
    retry = undefined;
    const current = socket;
    socket = null;
    socketToken = null;
    current?.close(1000);
  };

  const scheduleReconnect = () => {
    if (stopped || failures >= options.maxAttempts) return;
    const delay = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** failures);
    failures += 1;
    retry = setTimeout(open, delay);
  };

  function open() {
    retry = undefined;
    const token = getToken();
    if (stopped || !token) return;
    const current = new WebSocket(socketUrl());
    socket = current;
    socketToken = token;
    current.addEventListener('open', () => {
      current.send(JSON.stringify({ type: 'auth', token }));
      clearInterval(ping);
      ping = setInterval(() => current.send(JSON.stringify({ type: 'ping' })), options.pingEveryMs);
    });
    current.addEventListener('message', (event) => {
      if (typeof event.data !== 'string' || event.data.length > MAX_MESSAGE_CHARS) return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      // Authenticated: the connection works, so the next drop starts the back-off from the start.
      if ((message as { type?: unknown } | null)?.type === 'ready') failures = 0;
      if (!isBalancePush(message)) {
        const type = (message as { type?: unknown } | null)?.type;
        if (typeof type === 'string') dispatchRealtime(message as TRealtimeMessage);
        return;
      }
      applyBalancePush(message);
      for (const listener of listeners) listener(message);
    });
    current.addEventListener('close', (event) => {
      // A socket we replaced or dropped on purpose says nothing about the connection.
      if (socket !== current) return;
      socket = null;
      socketToken = null;
      clearInterval(ping);
      if (event.code === CLOSE_UNAUTHENTICATED) {
        // The session is over on the server: asking /api/auth/me lets the API client's 401
        // handling log the player out here, as for any other call.
        void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
        return;
      }
      // Other tabs hold the member's sockets; this one waits for the longest delay.
      if (event.code === CLOSE_TOO_MANY) failures = Math.max(failures, options.maxAttempts - 1);
      scheduleReconnect();
    });
  }

  const onTokenChange = () => {
    const token = getToken();
    if (token === socketToken && (socket || retry)) return;
    drop();
    failures = 0;
    open();
  };

  // Back online or back in front: try at once rather than waiting out the back-off.
  const wake = () => {
    if (stopped || socket || document.visibilityState === 'hidden') return;
    clearTimeout(retry);
    failures = 0;
    open();
  };

  const unsubscribe = subscribeToken(onTokenChange);
  window.addEventListener('online', wake);
  document.addEventListener('visibilitychange', wake);
  open();

  return () => {
    stopped = true;
    unsubscribe();
    window.removeEventListener('online', wake);
    document.removeEventListener('visibilitychange', wake);
    drop();
  };
}
