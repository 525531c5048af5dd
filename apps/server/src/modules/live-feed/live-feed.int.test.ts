import { randomUUID } from 'node:crypto';
import { maskPlayerName } from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_TEXT, call, fundedPlayer, seededDatabase } from '../../../test/app.ts';
import { crashClockStart, crashInstant, nextKnownRound, roundCrashingAtLeast } from '../../../test/crash.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import type { CrashEngine } from '../crash/crash.engine.ts';
import { findLatestRoundSecret } from '../crash/crash.repo.ts';

const kinds = await databaseKinds();

describe.each(kinds)('the live feed beside the in-house games on %s', (kind) => {
  let app: FastifyInstance;
  let engine: CrashEngine;
  let siteId: bigint;
  let now = Date.now();
  let saltBettor: { memberId: bigint };

  beforeAll(async () => {
    const database = await seededDatabase(kind);
    app = await buildApp({
      config: testConfig(),
      database,
      captchaGenerator: () => ({ text: CAPTCHA_TEXT, svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
    });
    await app.ready();
    engine = app.crash;
    // After every round earlier test files played on this process's database (they run their own clocks).
    now = await crashClockStart(database.db);
    await engine.start({ clock: () => now, autoRun: false });
    siteId = (await app.services.sites.byCode('sorte'))!.id;
    saltBettor = await fundedPlayer(app, 1_000_000n);
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  const secret = async () => (await findLatestRoundSecret(app.services.db))!;
  const get = (url: string, token?: string, headers?: Record<string, string>) =>
    call(app, { method: 'GET', url, ...(token ? { token } : {}), ...(headers ? { headers } : {}) });
  const post = (url: string, token: string, payload: Record<string, unknown>) =>
    call(app, { method: 'POST', url, token, payload });

  /** The next round that takes bets and crashes at `min` hundredths or more. */
  const bettingRound = (min: number) =>
    roundCrashingAtLeast(min, () =>
      nextKnownRound(
        app.services.db,
        engine,
        { now: () => now, advance: (ms) => (now += ms) },
        { siteId, memberId: saltBettor.memberId },
      ),
    );

  it("lists the round's real bets biggest first with masked names, then each cash-out as it is taken", async () => {
    const round = await bettingRound(150);
    const small = await fundedPlayer(app, 10_000n);
    const big = await fundedPlayer(app, 10_000n);
    await post('/api/crash/bet', small.token, { amount: '2.00' });
    await post('/api/crash/bet', big.token, { amount: '30.00' });
    const session = await call(app, { method: 'POST', url: '/api/originals/demo/session' });
    const demoHeaders = { 'x-demo-token': session.body.data.demo_token as string };
    await call(app, {
      method: 'POST',
      url: '/api/crash/bet',
      headers: demoHeaders,
      payload: { amount: '500.00' },
    });

    const seen = await get('/api/crash/round-bets', small.token);
    expect(seen.body.data).toMatchObject({ round_id: round.id.toString(), count: 2, total: '32.00' });
    // Fun money is never shown among the real stakes.
    expect(seen.body.data.list).toEqual([
      {
        player: maskPlayerName(big.user.name),
        amount: '30.00',
        status: 'placed',
        cashout_multiplier: null,
        payout: '0.00',
        mine: false,
      },
      {
        player: maskPlayerName(small.user.name),
        amount: '2.00',
        status: 'placed',
        cashout_multiplier: null,
        payout: '0.00',
        mine: true,
      },
    ]);
    expect(JSON.stringify(seen.body.data)).not.toContain(big.user.name);
    const guest = await get('/api/crash/round-bets');
    expect(guest.body.data.list.every((bet: { mine: boolean }) => !bet.mine)).toBe(true);

    // The round runs; the big bettor cashes out near ×1.20 while the small one rides on.
    now = round.bettingEndsAt;
    await engine.step();
    const started = (await secret()).startedAt!;
    now = started + crashInstant(120);
    await engine.step();
    const cashed = await post('/api/crash/cashout', big.token, { round_id: round.id.toString() });
    expect(cashed.body.status).toBe('success');
    const { cashout_multiplier: taken, payout } = cashed.body.data.bet;
    expect(Number(taken)).toBeGreaterThan(1.1);
    const during = await get('/api/crash/round-bets');
    expect(during.body.data.list[0]).toMatchObject({
      amount: '30.00',
      status: 'cashed',
      cashout_multiplier: taken,
      payout,
    });
    expect(during.body.data.list[1]).toMatchObject({ amount: '2.00', status: 'placed' });

    // Before the crash, "my bets" never shows the crash point; after it, it does.
    const mineRunning = await get('/api/crash/my-bets', small.token);
    expect(mineRunning.body.data.list[0]).toMatchObject({ round_id: round.id.toString(), crash_point: null });
    now = started + crashInstant(round.crashHundredths) + 1_000;
    await engine.step();
    const mineAfter = await get('/api/crash/my-bets', small.token);
    expect(mineAfter.body.data.list[0]).toMatchObject({
      round_id: round.id.toString(),
      amount: '2.00',
      crash_point: (round.crashHundredths / 100).toFixed(2),
    });
    const demoBets = await get('/api/crash/my-bets', undefined, demoHeaders);
    expect(demoBets.body.data.list[0]).toMatchObject({ amount: '500.00' });
    expect((await get('/api/crash/my-bets')).status).toBe(401);

    // The cash-out is a real win in the feed, the loss is not.
    const wins = await get('/api/games/recent-wins?game=crash');
    const win = wins.body.data.list.find(
      (row: { player: string }) => row.player === maskPlayerName(big.user.name),
    );
    expect(win).toMatchObject({ game: 'crash', amount: '30.00', multiplier: taken, payout });
  });

  it('shows the latest real wins of the instant games, never losses, fun money or other sites', async () => {
    const p = await fundedPlayer(app, 10_000n);
    let won: { id: string; payout: string } | null = null;
    for (let i = 0; i < 30 && !won; i++) {
      const bet = await post('/api/originals/dice/bet', p.token, {
        amount: '1.00',
        direction: 'under',
        target: 5000,
        idempotency_key: `feed-${randomUUID()}`,
      });
      const round = bet.body.data.round;
      if (round.payout !== '0.00') won = { id: round.id, payout: round.payout };
    }
    expect(won).not.toBeNull();
    const feed = await get('/api/games/recent-wins?game=dice');
    const mine = feed.body.data.list.filter(
      (row: { player: string }) => row.player === maskPlayerName(p.user.name),
    );
    expect(mine.length).toBeGreaterThan(0);
    expect(
      mine.every((row: { payout: string; amount: string }) => Number(row.payout) > Number(row.amount)),
    ).toBe(true);
    expect(mine[0]).toMatchObject({ game: 'dice', amount: '1.00', multiplier: '1.98' });
    const all = await get('/api/games/recent-wins');
    expect(all.body.data.list.length).toBeGreaterThan(0);
    const elsewhere = await call(app, { method: 'GET', url: '/api/games/recent-wins', host: 'br.localhost' });
    expect(elsewhere.body.data.list).toEqual([]);
    const bad = await get('/api/games/recent-wins?game=DROP%20TABLE');
    expect(bad.body).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED' });
  });
});
