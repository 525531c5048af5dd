import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fundedPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { openSocket } from '../../../test/sockets.ts';
import { type MoneyHarness, startMoneyHarness } from '../deposits/money.fixtures.ts';
import { REALITY_CHECK } from './reality-check.ts';

const kinds = await databaseKinds();

describe.each(kinds)('reality check over the live socket on %s', (kind) => {
  let h: MoneyHarness;
  const minuteMs = REALITY_CHECK.minuteMs;
  beforeAll(async () => {
    // A "minute" of 150 ms, so the test sees several reminders (set before the app starts its jobs).
    REALITY_CHECK.minuteMs = 150;
    h = await startMoneyHarness(kind);
  }, 60_000);
  afterAll(async () => {
    REALITY_CHECK.minuteMs = minuteMs;
    await h?.close();
  });

  const listen = async (token: string) => {
    const socket = await openSocket(`${h.baseUrl.replace('http', 'ws')}/ws`);
    const messages: Record<string, unknown>[] = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(String(data))));
    socket.send(JSON.stringify({ type: 'auth', token }));
    return { socket, messages };
  };
  const waitFor = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('sends time played and the net result of the session every N minutes', async () => {
    const p = await fundedPlayer(h.app, 10_000n);
    const saved = await call(h.app, {
      method: 'POST',
      url: '/api/responsible-gaming/reality-check',
      token: p.token,
      payload: { minutes: 2 },
    });
    expect(saved.body.status).toBe('success');
    const bet = await call(h.app, {
      method: 'POST',
      url: '/api/originals/dice/bet',
      token: p.token,
      payload: { amount: '1.00', direction: 'under', target: 5000 },
    });
    expect(bet.status).toBe(200);
    const { socket, messages } = await listen(p.token);
    const checks = () => messages.filter((m) => m.type === 'reality_check');
    await waitFor(() => checks().length >= 2, 'two reality checks');
    const round = bet.body.data.round ?? bet.body.data;
    const first = checks()[0]!;
    // The session's net result is exactly the round's: payout − stake ("-1.00" or "0.98").
    expect(first).toMatchObject({
      type: 'reality_check',
      staked: '1.00',
      minutes_played: 0,
      net_result: round.win_loss,
    });
    socket.close();
  });

  it('sends none when the player turned it off, and stops when the session ends', async () => {
    const off = await fundedPlayer(h.app, 0n);
    await call(h.app, {
      method: 'POST',
      url: '/api/responsible-gaming/reality-check',
      token: off.token,
      payload: { minutes: 0 },
    });
    const quiet = await listen(off.token);
    await waitFor(() => quiet.messages.some((m) => m.type === 'ready'), 'ready');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(quiet.messages.filter((m) => m.type === 'reality_check')).toEqual([]);
    quiet.socket.close();

    const ends = await fundedPlayer(h.app, 0n);
    await call(h.app, {
      method: 'POST',
      url: '/api/responsible-gaming/reality-check',
      token: ends.token,
      payload: { minutes: 1 },
    });
    const live = await listen(ends.token);
    await waitFor(() => live.messages.some((m) => m.type === 'reality_check'), 'a reality check');
    await call(h.app, { method: 'POST', url: '/api/auth/logout', token: ends.token });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const count = live.messages.filter((m) => m.type === 'reality_check').length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(live.messages.filter((m) => m.type === 'reality_check').length).toBe(count);
    live.socket.close();
  });
});
