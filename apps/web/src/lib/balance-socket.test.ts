import type { TUserInfo } from '@sorte/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../test/fixtures.ts';
import {
  BALANCE_SOCKET_DEFAULTS,
  connectBalanceSocket,
  subscribeBalancePush,
  type TBalancePush,
} from './balance-socket.ts';
import { queryClient, USER_QUERY_KEY } from './query-client.ts';
import { setToken } from './storage.ts';

/** A stand-in for the browser's WebSocket: records every socket opened and what it sent. */
class FakeSocket extends EventTarget {
  static all: FakeSocket[] = [];
  readonly url: string;
  readonly sent: unknown[] = [];
  closedByClient = false;
  constructor(url: string) {
    super();
    this.url = url;
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closedByClient = true;
  }
  /** The server side: the connection opens. */
  accept() {
    this.dispatchEvent(new Event('open'));
  }
  push(message: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
  /** The server side (or the network) ends the connection. */
  drop(code = 1006) {
    this.dispatchEvent(new CloseEvent('close', { code }));
  }
}

const last = () => FakeSocket.all.at(-1)!;

const push = (money: string, reason = 'deposit_paid'): TBalancePush => ({
  type: 'balance',
  money,
  fs_money: '0.00',
  ml_money: '0.00',
  total_money: money,
  reason,
  order_no: null,
});

const money = () => queryClient.getQueryData<TUserInfo>(USER_QUERY_KEY)?.money;

let stop: () => void = () => undefined;

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});

afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('balance socket', () => {
  it('opens no socket for a guest, and one when the player logs in', () => {
    stop = connectBalanceSocket();
    expect(FakeSocket.all).toHaveLength(0);
    setToken('player-token');
    expect(FakeSocket.all).toHaveLength(1);
    expect(last().url).toBe(`ws://${window.location.host}/ws`);
  });

  it('authenticates in the first message, never in the URL, and writes pushes into the header balance', () => {
    setToken('player-token');
    queryClient.setQueryData(USER_QUERY_KEY, makeUser({ money: '0.00' }));
    const heard: string[] = [];
    const unsubscribe = subscribeBalancePush((message) => heard.push(message.reason));
    stop = connectBalanceSocket();
    last().accept();
    expect(last().sent).toEqual([{ type: 'auth', token: 'player-token' }]);
    expect(last().url).not.toContain('player-token');

    last().push({ type: 'ready' });
    last().push(push('25.00', 'snapshot'));
    last().push(push('125.00', 'deposit_paid'));
    expect(money()).toBe('125.00');
    expect(heard).toEqual(['snapshot', 'deposit_paid']);
    unsubscribe();

    // Not a balance, or not JSON: ignored.
    last().push({ type: 'balance', money: 5 });
    last().dispatchEvent(new MessageEvent('message', { data: '{not json' }));
    expect(money()).toBe('125.00');
  });

  it('cancels a user info request still in flight, which would answer the older balance', async () => {
    setToken('player-token');
    queryClient.setQueryData(USER_QUERY_KEY, makeUser({ money: '10.00' }));
    let answer: (user: TUserInfo) => void = () => undefined;
    const request = queryClient
      .fetchQuery({
        queryKey: USER_QUERY_KEY,
        queryFn: () => new Promise<TUserInfo>((resolve) => (answer = resolve)),
        staleTime: 0,
      })
      .catch(() => undefined);
    stop = connectBalanceSocket();
    last().accept();
    last().push(push('90.00'));
    await vi.waitFor(() => expect(money()).toBe('90.00'));
    answer(makeUser({ money: '10.00' }));
    await request;
    await vi.waitFor(() => expect(queryClient.isFetching({ queryKey: USER_QUERY_KEY })).toBe(0));
    expect(money()).toBe('90.00');
  });

  it('ignores a push before the user info has loaded (that answer is fresh anyway)', () => {
    setToken('player-token');
    stop = connectBalanceSocket();
    last().accept();
    last().push(push('90.00'));
    expect(queryClient.getQueryData(USER_QUERY_KEY)).toBeUndefined();
  });

  it('pings while connected so idle proxies keep the socket', () => {
    setToken('player-token');
    stop = connectBalanceSocket();
    last().accept();
    vi.advanceTimersByTime(BALANCE_SOCKET_DEFAULTS.pingEveryMs);
    expect(last().sent.at(-1)).toEqual({ type: 'ping' });
  });

  it('reconnects after a drop with a doubling delay, and starts over once authenticated again', () => {
    setToken('player-token');
    stop = connectBalanceSocket({
      pingEveryMs: 60_000,
      baseDelayMs: 1_000,
      maxDelayMs: 4_000,
      maxAttempts: 5,
    });
    last().accept();
    last().drop();
    expect(FakeSocket.all).toHaveLength(1);

    vi.advanceTimersByTime(999);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);

    last().drop();
    vi.advanceTimersByTime(1_999);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);

    // The third and later waits are capped at maxDelayMs.
    last().drop();
    vi.advanceTimersByTime(4_000);
    expect(FakeSocket.all).toHaveLength(4);

    // Authenticated again: the next drop waits the shortest delay.
    last().accept();
    last().push({ type: 'ready' });
    last().drop();
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.all).toHaveLength(5);
    expect(last().sent).toEqual([]);
    last().accept();
    expect(last().sent).toEqual([{ type: 'auth', token: 'player-token' }]);
  });

  it('gives up after maxAttempts failures in a row until the device is back online', () => {
    setToken('player-token');
    stop = connectBalanceSocket({ pingEveryMs: 60_000, baseDelayMs: 10, maxDelayMs: 10, maxAttempts: 3 });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      last().drop();
      vi.advanceTimersByTime(10);
    }
    expect(FakeSocket.all).toHaveLength(4);
    last().drop();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(4);

    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.all).toHaveLength(5);
  });

  it('closes on logout and stops reconnecting', () => {
    setToken('player-token');
    stop = connectBalanceSocket();
    const socket = last();
    socket.accept();
    setToken(null);
    expect(socket.closedByClient).toBe(true);
    // The close event of the socket we ended ourselves starts no reconnection.
    socket.drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('does not reconnect with a refused token and lets the user info call end the session', () => {
    setToken('stale-token');
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    stop = connectBalanceSocket();
    last().accept();
    last().drop(4401);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: USER_QUERY_KEY });
  });

  it('re-authenticates on a new socket when another player logs in', () => {
    setToken('first-token');
    stop = connectBalanceSocket();
    const first = last();
    first.accept();
    setToken('second-token');
    expect(first.closedByClient).toBe(true);
    expect(FakeSocket.all).toHaveLength(2);
    last().accept();
    expect(last().sent).toEqual([{ type: 'auth', token: 'second-token' }]);
  });

  it('closes when stopped (the shell unmounts)', () => {
    setToken('player-token');
    stop = connectBalanceSocket();
    const socket = last();
    stop();
    expect(socket.closedByClient).toBe(true);
    setToken('another-token');
    expect(FakeSocket.all).toHaveLength(1);
  });
});
