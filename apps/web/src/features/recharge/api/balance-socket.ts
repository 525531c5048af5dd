import type { TUserInfo } from '@sorte/contract';
import { useEffect, useRef } from 'react';
import { queryClient, USER_QUERY_KEY } from '../../../lib/query-client.ts';
import { getToken } from '../../../lib/storage.ts';

/** A balance push of the realtime channel (apps/server realtime.routes.ts). */
export interface TBalancePush {
  type: 'balance';
  money: string;
  fs_money: string;
  ml_money: string;
  total_money: string;
  reason: string;
  order_no: string | null;
}

const PING_EVERY_MS = 25_000;
const RECONNECT_BASE_MS = 1_000;
const RECONNECT_MAX_MS = 15_000;
/** After this many failed connections in a row the page relies on polling alone. */
const RECONNECT_ATTEMPTS_MAX = 6;

function isBalancePush(value: unknown): value is TBalancePush {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'balance' &&
    typeof (value as { money?: unknown }).money === 'string'
  );
}

/** The header reads the user info query: a push rewrites its balances in place, no reload. */
export function applyBalancePush(push: TBalancePush): void {
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
}

/**
 * Listens on `/ws` for the player's balance changes while the calling page is open. The token goes
 * in the first message, never in the URL. Reconnects with a growing delay, a bounded number of
 * times; the page's own polling covers the rest.
 */
export function useBalancePush(onPush: (push: TBalancePush) => void): void {
  const handler = useRef(onPush);
  handler.current = onPush;

  useEffect(() => {
    if (typeof WebSocket === 'undefined') return;
    let socket: WebSocket | null = null;
    let ping: ReturnType<typeof setInterval> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let stopped = false;

    const connect = () => {
      const token = getToken();
      if (!token || stopped) return;
      const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(`${scheme}//${window.location.host}/ws`);
      socket.addEventListener('open', () => {
        socket?.send(JSON.stringify({ type: 'auth', token }));
        ping = setInterval(() => socket?.send(JSON.stringify({ type: 'ping' })), PING_EVERY_MS);
      });
      socket.addEventListener('message', (event) => {
        let message: unknown;
        try {
          message = JSON.parse(String(event.data));
        } catch {
          return;
        }
        if ((message as { type?: unknown }).type === 'ready') attempts = 0;
        if (isBalancePush(message)) {
          applyBalancePush(message);
          handler.current(message);
        }
      });
      socket.addEventListener('close', (event) => {
        clearInterval(ping);
        // 4401: the token was refused; asking again with the same token cannot help.
        if (stopped || event.code === 4401 || attempts >= RECONNECT_ATTEMPTS_MAX) return;
        attempts += 1;
        retry = setTimeout(connect, Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** attempts));
      });
    };

    connect();
    return () => {
      stopped = true;
      clearInterval(ping);
      clearTimeout(retry);
      socket?.close();
    };
  }, []);
}
