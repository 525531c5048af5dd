import { createHash, randomUUID } from 'node:crypto';
import { formatMinor } from '@sorte/contract';
import {
  CRASH_SALT_MAX_SEEDS,
  crashPointHundredths,
  crashSaltFromSeeds,
  createHashChain,
  createTerminalSeed,
  isNextRoundHash,
  sha256Hex,
  verifyCrashRound,
  verifyCrashSalt,
} from '@sorte/fairness';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, CAPTCHA_TEXT, call, fundedPlayer, seededDatabase } from '../../../test/app.ts';
import {
  crashClockStart,
  crashInstant,
  roundCrashingAtLeast as knownRoundCrashingAtLeast,
  nextKnownRound,
} from '../../../test/crash.ts';
import { databaseKinds, postgresAdminUrl } from '../../../test/databases.ts';
import { openWithInbox } from '../../../test/sockets.ts';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { rowsOf } from '../../db/sql.ts';
import { CRASH_RECORD_ID_BASE } from '../records/game-record.repo.ts';
import { getBalances } from '../wallet/balances.ts';
import { grantBonus } from '../wallet/bonus/grants.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { formatHundredths, tickMultiplierAt } from './crash.curve.ts';
import { type CrashEngine, ENGINE_LOCK_KEY } from './crash.engine.ts';
import { findLatestRoundSecret, type TRoundSecretRow } from './crash.repo.ts';

const kinds = await databaseKinds();

describe.each(kinds)('crash rounds on %s', (kind) => {
  let app: FastifyInstance;
  let engine: CrashEngine;
  let siteId: bigint;
  let now = Date.now();
  /** A member whose bet lets a new chain's first round run (any bettor's seed fixes the salt). */
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
    now = await crashClockStart(database.db);
    await engine.start({ clock: () => now, autoRun: false });
    siteId = (await app.services.sites.byCode('sorte'))!.id;
    saltBettor = await fundedPlayer(app, 1_000_000n);
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  const player = (fundMinor = 10_000n) => fundedPlayer(app, fundMinor);

  const cash = async (memberId: bigint) =>
    (await getBalances(app.services.db, memberId, { siteId })).cashMinor;
  const secret = async () => (await findLatestRoundSecret(app.services.db))!;
  const post = (url: string, token: string, payload: Record<string, unknown>) =>
    call(app, { method: 'POST', url, token, payload });

  /** The next betting round with a known crash point, driven by `driver` on this file's clock. */
  const nextRound = (driver: CrashEngine = engine) =>
    nextKnownRound(
      app.services.db,
      driver,
      { now: () => now, advance: (ms) => (now += ms) },
      { siteId, memberId: saltBettor.memberId },
    );

  /** A fresh betting round whose (secret) crash point is at least `min` hundredths. */
  const roundCrashingAtLeast = (min: number, driver: CrashEngine = engine) =>
    knownRoundCrashingAtLeast(min, () => nextRound(driver));

  /** Ends betting and starts the round; returns its start time. */
  async function run(round: TRoundSecretRow, driver: CrashEngine = engine): Promise<number> {
    now = round.bettingEndsAt;
    await driver.step();
    const started = await secret();
    expect(started).toMatchObject({ id: round.id, state: 'running' });
    return started.startedAt!;
  }

  it('takes bets only while betting: a late bet is refused and a retried bet is placed once', async () => {
    const round = await nextRound();
    const p = await player();
    const key = `crash-${randomUUID()}`;
    const bet = await post('/api/crash/bet', p.token, { amount: '2.00', idempotency_key: key });
    expect(bet.status).toBe(200);
    expect(bet.body.data.bet).toMatchObject({
      round_id: round.id.toString(),
      amount: '2.00',
      status: 'placed',
    });
    expect(bet.body.data.balance).toBe('98.00');

    const retry = await post('/api/crash/bet', p.token, { amount: '2.00', idempotency_key: key });
    expect(retry.body.data.bet.id).toBe(bet.body.data.bet.id);
    const conflict = await post('/api/crash/bet', p.token, { amount: '3.00', idempotency_key: key });
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');
    const second = await post('/api/crash/bet', p.token, { amount: '1.00' });
    expect(second.body.code).toBe('CRASH_ALREADY_BET');

    const late = await player();
    now = round.bettingEndsAt; // the betting phase is over even before the engine moves on
    const tooLate = await post('/api/crash/bet', late.token, { amount: '1.00' });
    expect(tooLate.status).toBe(409);
    expect(tooLate.body).toMatchObject({
      code: 'CRASH_BETTING_CLOSED',
      message: expect.stringContaining('closed'),
    });
    await engine.step();
    const running = await post('/api/crash/bet', late.token, { amount: '1.00' });
    expect(running.body.code).toBe('CRASH_BETTING_CLOSED');
    expect(await cash(late.memberId)).toBe(10_000n);
    expect(await cash(p.memberId)).toBe(9_800n);

    const invalid = await post('/api/crash/bet', late.token, { amount: '0.01' });
    expect(invalid.body.code).toBe('BET_OUT_OF_RANGE');
    const badAuto = await post('/api/crash/bet', late.token, { amount: '1.00', auto_cashout: '1.00' });
    expect(badAuto.status).toBe(422);
  });

  it('gives every concurrent copy of a keyed bet the original answer, over HTTP and over the socket', async () => {
    const round = await nextRound();
    const p = await player();
    const key = `crash-${randomUUID()}`;
    const copies = await Promise.all(
      Array.from({ length: 10 }, () =>
        post('/api/crash/bet', p.token, { amount: '1.00', idempotency_key: key }),
      ),
    );
    expect(copies.map((c) => c.status)).toEqual(Array(10).fill(200));
    expect(new Set(copies.map((c) => c.body.data.bet.id)).size).toBe(1);
    expect(copies[0]!.body.data.bet.round_id).toBe(round.id.toString());
    expect(await cash(p.memberId)).toBe(9_900n);

    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const q = await player();
    const { socket, inbox } = await openWithInbox(`ws://127.0.0.1:${port}/ws/crash`);
    try {
      socket.send(JSON.stringify({ type: 'auth', token: q.token }));
      await inbox.next((m) => m.type === 'ready', 'ready');
      const socketKey = `ws-${randomUUID()}`;
      // Five copies: the socket takes at most ten messages a second.
      for (let i = 0; i < 5; i++) {
        socket.send(JSON.stringify({ type: 'bet', amount: '1.00', idempotency_key: socketKey }));
      }
      const deadline = Date.now() + 15_000;
      const answers = () =>
        inbox.messages.filter((m) => m.type === 'bet_accepted' || m.type === 'bet_refused');
      while (answers().length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(answers().map((m) => m.type)).toEqual(Array(5).fill('bet_accepted'));
      expect(new Set(answers().map((m) => (m.bet as { id: string }).id)).size).toBe(1);
      // A NUL in a socket message is refused like one in a request, and changes nothing.
      socket.send(JSON.stringify({ type: 'bet', amount: '1.00', idempotency_key: 'a\u0000bcdefgh' }));
      const refused = await inbox.next((m) => m.type === 'error' && m.code === 'BAD_REQUEST', 'NUL refusal');
      expect(refused.message).toBe('Please enter the correct parameters');
    } finally {
      socket.close();
    }
    expect(await cash(q.memberId)).toBe(9_900n);
  });

  it('refuses stakes whose whole-centavo wins would miss the RTP shown and auto cash-outs past the cap; a big bet cashes out at the cap', async () => {
    await nextRound();
    const p = await player(600_000n);
    // R$ 1,50 cashed out at 1.09× would pay R$ 1,63 of 1.635: every cash-out point must pay 99 % ± 0.1 pp.
    const small = await call(app, {
      method: 'POST',
      url: '/api/crash/bet?lang=pt',
      token: p.token,
      payload: { amount: '1.50' },
    });
    expect(small.status).toBe(422);
    expect(small.body).toMatchObject({
      code: 'STAKE_TOO_SMALL_FOR_TARGET',
      data: { min_stake: '9.50', stake_step: '1.00' },
    });
    expect(small.body.message.replace(/\u00a0/g, ' ')).toBe(
      'Para esta escolha, aposte R$ 9,50 ou mais, ou um múltiplo de R$ 1,00: outros valores receberiam menos que o RTP informado',
    );
    const aboveCap = await post('/api/crash/bet', p.token, { amount: '5000.00', auto_cashout: '200.01' });
    expect(aboveCap.status).toBe(422);
    expect(aboveCap.body).toMatchObject({
      code: 'TARGET_ABOVE_CAP',
      message: 'The maximum win is R$1,000,000.00: at this bet amount the highest target is ×200.00',
      data: { max_target: '200.00', max_win: '1000000.00' },
    });
    expect(await cash(p.memberId)).toBe(600_000n);
    // Without a target, R$ 5.000 is cashed out at 200× where its win reaches the R$ 1.000.000 cap.
    const big = await post('/api/crash/bet', p.token, { amount: '5000.00' });
    expect(big.status).toBe(200);
    expect(big.body.data.bet).toMatchObject({ amount: '5000.00', auto_cashout: '200.00' });
  });

  it('pays no cash-out at or after the crash instant, even when they race the crash', async () => {
    const round = await roundCrashingAtLeast(120);
    const early = await Promise.all([player(), player(), player()]);
    const atCrash = await Promise.all([player(), player(), player(), player()]);
    for (const p of [...early, ...atCrash]) {
      expect((await post('/api/crash/bet', p.token, { amount: '10.00' })).status).toBe(200);
    }
    const startedAt = await run(round);
    const instant = crashInstant(round.crashHundredths);

    now = startedAt + instant - 1; // the last millisecond before the crash
    const paid = await Promise.all(
      early.map((p) => post('/api/crash/cashout', p.token, { round_id: round.id.toString() })),
    );
    for (const response of paid) {
      expect(response.status).toBe(200);
      const multiplier = Number(response.body.data.bet.cashout_multiplier.replace('.', ''));
      expect(multiplier).toBeLessThan(round.crashHundredths);
      expect(response.body.data.bet.status).toBe('cashed');
    }

    now = startedAt + instant; // the crash instant: cash-outs race the engine's crash
    const racing = await Promise.all([
      ...atCrash.map((p) => post('/api/crash/cashout', p.token, { round_id: round.id.toString() })),
      engine.step(),
    ]);
    for (const response of racing.slice(0, atCrash.length) as Awaited<ReturnType<typeof post>>[]) {
      expect(response.status).toBe(409);
      expect(['CRASH_CASHOUT_CLOSED', 'ROUND_NOT_ACTIVE']).toContain(response.body.code);
    }
    expect((await secret()).state).toBe('crashed');
    for (const p of atCrash) expect(await cash(p.memberId)).toBe(9_000n);
    const rows = await rowsOf<{ status: string; payout_minor: string; win_transfer_id: string | null }>(
      app.services.db,
      sql`SELECT status, payout_minor::text, win_transfer_id::text FROM crash_bets
          WHERE round_id = ${round.id.toString()}::bigint ORDER BY id`,
    );
    expect(rows.map((r) => r.status).sort()).toEqual([
      'cashed',
      'cashed',
      'cashed',
      'lost',
      'lost',
      'lost',
      'lost',
    ]);
    for (const row of rows.filter((r) => r.status === 'lost')) {
      expect(row).toMatchObject({ payout_minor: '0', win_transfer_id: null });
    }
    const after = await post('/api/crash/cashout', atCrash[0]!.token, { round_id: round.id.toString() });
    expect(after.body.code).toBe('ROUND_NOT_ACTIVE');
  });

  it('pays a cash-out taken before the crash instant even when its transaction runs after the crash', async () => {
    const round = await roundCrashingAtLeast(120);
    const [inTime, atInstant, never] = await Promise.all([player(), player(), player()]);
    for (const p of [inTime, atInstant, never]) {
      expect((await post('/api/crash/bet', p.token, { amount: '10.00' })).status).toBe(200);
    }
    const startedAt = await run(round);
    const instant = crashInstant(round.crashHundredths);
    // The presses reach the server, then the crash is settled before their transactions run (a
    // storm of cash-outs queued behind each other): the crash marks every open bet lost.
    const takenInTime = startedAt + instant - 1;
    now = startedAt + instant;
    await engine.step();
    expect((await secret()).state).toBe('crashed');
    const owner = (p: { memberId: bigint }) => ({ kind: 'member' as const, siteId, memberId: p.memberId });

    const paid = await engine.cashOut(owner(inTime), round.id, takenInTime);
    const tick = tickMultiplierAt(instant - 1, engine.tickMs);
    expect(paid.bet).toMatchObject({ status: 'cashed', cashout_multiplier: formatHundredths(tick) });
    expect(tick).toBeLessThan(round.crashHundredths);
    const payout = (1_000n * BigInt(tick)) / 100n;
    expect(paid.bet.payout).toBe(formatMinor(payout));
    expect(await cash(inTime.memberId)).toBe(9_000n + payout);
    // Once: a second press taken in time finds it cashed.
    await expect(engine.cashOut(owner(inTime), round.id, takenInTime)).rejects.toMatchObject({
      code: 'ROUND_NOT_ACTIVE',
    });
    // Taken at the crash instant: the bet stays lost.
    await expect(engine.cashOut(owner(atInstant), round.id, startedAt + instant)).rejects.toMatchObject({
      code: 'ROUND_NOT_ACTIVE',
    });
    expect(await cash(atInstant.memberId)).toBe(9_000n);
    const rows = await rowsOf<{ member_id: string; status: string; settled_ms: string; win: string | null }>(
      app.services.db,
      sql`SELECT member_id::text, status, (extract(epoch FROM settled_at) * 1000)::bigint::text AS settled_ms,
            win_transfer_id::text AS win
          FROM crash_bets WHERE round_id = ${round.id.toString()}::bigint`,
    );
    const of = (p: { memberId: bigint }) => rows.find((r) => r.member_id === p.memberId.toString())!;
    expect(of(inTime)).toMatchObject({ status: 'cashed', settled_ms: String(takenInTime) });
    expect(of(inTime).win).not.toBeNull();
    for (const p of [atInstant, never]) expect(of(p)).toMatchObject({ status: 'lost', win: null });
    expect((await reconcile(app.services.db, { siteId })).ok).toBe(true);
  });

  it('settles a bet once when two cash-outs, or a cash-out and its auto cash-out, race', async () => {
    const round = await roundCrashingAtLeast(150);
    const twice = await player();
    const auto = await player();
    await post('/api/crash/bet', twice.token, { amount: '10.00' });
    await post('/api/crash/bet', auto.token, { amount: '10.00', auto_cashout: '1.10' });
    const startedAt = await run(round);

    now = startedAt + 1_600; // the tick at 1.10×, below the crash point
    const [a, b, c, d] = await Promise.all([
      post('/api/crash/cashout', twice.token, { round_id: round.id.toString() }),
      post('/api/crash/cashout', twice.token, { round_id: round.id.toString() }),
      post('/api/crash/cashout', auto.token, { round_id: round.id.toString() }),
      engine.step(),
    ]);
    void d;
    const twiceStatuses = [a!.status, b!.status].sort();
    expect(twiceStatuses).toEqual([200, 409]);
    const won = a!.status === 200 ? a! : b!;
    expect(won.body.data.bet).toMatchObject({ cashout_multiplier: '1.10', payout: '11.00' });
    expect(await cash(twice.memberId)).toBe(10_100n);
    // The auto cash-out pays exactly its target, whoever settled it.
    if (c!.status !== 200) expect(c!.body.code).toBe('ROUND_NOT_ACTIVE');
    expect(await cash(auto.memberId)).toBe(10_100n);

    const wins = await rowsOf<{ n: number }>(
      app.services.db,
      sql`SELECT count(*)::int AS n FROM wallet_transfers t JOIN crash_bets b ON b.win_transfer_id = t.id
          WHERE b.round_id = ${round.id.toString()}::bigint`,
    );
    expect(Number(wins[0]!.n)).toBe(2);
    now = startedAt + crashInstant(round.crashHundredths);
    await engine.step();
    expect(await cash(twice.memberId)).toBe(10_100n);
  });

  it('splits a cash-out as the stake was: the bonus-funded part goes back to its grant, the rest is cash', async () => {
    const round = await roundCrashingAtLeast(150);
    const p = await player(400n);
    const { grant } = await grantBonus(app.services.db, {
      siteId,
      memberId: p.memberId,
      campaignCode: 'test-crash-bonus',
      periodKey: randomUUID(),
      amountMinor: 1_000n,
      wageringRequiredMinor: 2_000n,
      maxBetMinor: null,
      locksCash: false,
      expiresAt: new Date(Date.now() + 7 * 86_400_000),
      terms: {},
    });
    // 10.00 staked: the 4.00 of cash first, then 6.00 of bonus.
    const bet = await post('/api/crash/bet', p.token, { amount: '10.00' });
    expect(bet.status).toBe(200);
    expect(bet.body.data.balance).toBe('4.00');
    const startedAt = await run(round);
    now = startedAt + 1_600; // 1.10×, below the crash point
    const out = await post('/api/crash/cashout', p.token, { round_id: round.id.toString() });
    expect(out.body.data.bet).toMatchObject({ cashout_multiplier: '1.10', payout: '11.00' });
    // 11.00 back in the stake's proportion: 4.40 cash, 6.60 to the grant (still wagering 10.00 of 20.00).
    expect(await getBalances(app.services.db, p.memberId, { siteId })).toMatchObject({
      cashMinor: 440n,
      bonusMinor: 1_060n,
    });
    const [row] = await rowsOf<{ balance_minor: unknown; wagering_done_minor: unknown; status: string }>(
      app.services.db,
      sql`SELECT balance_minor, wagering_done_minor, status FROM bonus_grants WHERE id = ${grant.id.toString()}::bigint`,
    );
    expect([String(row!.balance_minor), String(row!.wagering_done_minor), row!.status]).toEqual([
      '1060',
      '1000',
      'active',
    ]);
    now = startedAt + crashInstant(round.crashHundredths);
    await engine.step();
    expect((await reconcile(app.services.db)).drift).toEqual([]);
  });

  it('never sends the crash point early and gives a reconnecting client its state and bet', async () => {
    const round = await roundCrashingAtLeast(130);
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const url = `ws://127.0.0.1:${port}/ws/crash`;
    const p = await player();
    const crashText = formatHundredths(round.crashHundredths);

    const { socket: watcherSocket, inbox: watcher } = await openWithInbox(url);
    const { socket: firstSocket, inbox } = await openWithInbox(url);
    firstSocket.send(JSON.stringify({ type: 'auth', token: p.token }));
    await inbox.next((m) => m.type === 'ready', 'ready');
    firstSocket.send(JSON.stringify({ type: 'bet', amount: '5.00', idempotency_key: `ws-${randomUUID()}` }));
    const accepted = await inbox.next((m) => m.type === 'bet_accepted', 'bet accepted');
    expect(accepted).toMatchObject({
      bet: { round_id: round.id.toString(), amount: '5.00' },
      balance: '95.00',
    });

    const startedAt = await run(round);
    await watcher.next((m) => m.type === 'state' && m.phase === 'running', 'running state');
    const instant = crashInstant(round.crashHundredths);
    for (const t of [100, 200, 300, Math.max(400, instant - 150)]) {
      if (t >= instant) break;
      now = startedAt + t;
      await engine.step();
    }
    await watcher.next((m) => m.type === 'tick', 'tick');
    firstSocket.close();

    // Reconnect: the state comes at once (guest view), then with the member's own bet after auth.
    const { socket: again, inbox: reconnect } = await openWithInbox(url);
    const guestState = await reconnect.next((m) => m.type === 'state', 'state');
    expect(guestState).toMatchObject({ round_id: round.id.toString(), phase: 'running', crash_point: null });
    expect(guestState.my_bet).toBeNull();
    again.send(JSON.stringify({ type: 'auth', token: p.token }));
    const memberState = await reconnect.next((m) => m.type === 'state' && m.my_bet !== null, 'member state');
    expect(memberState).toMatchObject({
      phase: 'running',
      crash_point: null,
      round_hash: null,
      my_bet: { amount: '5.00', status: 'placed' },
    });
    const http = await call(app, { method: 'GET', url: '/api/crash/state', token: p.token });
    expect(http.body.data).toMatchObject({
      crash_point: null,
      round_hash: null,
      my_bet: { status: 'placed' },
    });

    now = startedAt + instant;
    await engine.step();
    const crashed = await watcher.next((m) => m.type === 'crashed', 'crashed');
    expect(crashed).toMatchObject({ crash_point: crashText, round_hash: round.roundHash });

    // Every message before `crashed`, on every socket, keeps the secret.
    for (const inboxOf of [watcher, reconnect, inbox]) {
      const cut = inboxOf.messages.findIndex((m) => m.type === 'crashed');
      const before = cut === -1 ? inboxOf.raw : inboxOf.raw.slice(0, cut);
      expect(before.length).toBeGreaterThan(0);
      for (const text of before) {
        expect(text).not.toContain(round.roundHash);
        const message = JSON.parse(text) as Record<string, unknown>;
        expect(message.crash_point ?? null).toBeNull();
        expect(message.round_hash ?? null).toBeNull();
        if (typeof message.multiplier === 'string') {
          expect(Number(message.multiplier.replace('.', ''))).toBeLessThan(round.crashHundredths);
        }
      }
    }
    await reconnect.next((m) => m.type === 'crashed', 'crashed after reconnect');
    // Guests watch but cannot bet; a flood of messages is cut off.
    watcherSocket.send(
      JSON.stringify({ type: 'bet', amount: '1.00', idempotency_key: `guest-${randomUUID()}` }),
    );
    expect(await watcher.next((m) => m.type === 'bet_refused', 'guest refusal')).toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    for (let i = 0; i < 15; i++) watcherSocket.send(JSON.stringify({ type: 'ping' }));
    expect(await watcher.next((m) => m.code === 'RATE_LIMITED', 'rate limit')).toMatchObject({
      type: 'error',
    });
    again.close();
    watcherSocket.close();
  });

  it('keeps the newest round by number, not by text, once there are ten or more rounds', async () => {
    // Round ids are read as text; ordering by that text once put round 9 after round 12.
    const maxId = async () =>
      BigInt(
        (await rowsOf<{ id: string }>(app.services.db, sql`SELECT max(id)::text AS id FROM crash_rounds`))[0]!
          .id,
      );
    // At least one round through this engine: one moved on by another engine on this database (the
    // second-process test) is then this engine's view too, whatever order the tests ran in.
    do await nextRound();
    while ((await maxId()) < 12n);
    const latest = await secret();
    expect(latest.id).toBe(await maxId());
    const state = await call(app, { method: 'GET', url: '/api/crash/state' });
    expect(state.body.data.round_id).toBe(latest.id.toString());
  });

  it('settles nothing from a stale view when the round moved on outside the engine', async () => {
    const round = await roundCrashingAtLeast(120);
    const p = await player();
    await post('/api/crash/bet', p.token, { amount: '3.00', auto_cashout: '1.01' });
    const startedAt = await run(round);
    // Another process ended this round behind the engine's back.
    await app.services.db.execute(
      sql`UPDATE crash_rounds SET state = 'crashed', crashed_at = now() WHERE id = ${round.id.toString()}::bigint`,
    );
    now = startedAt + crashInstant(round.crashHundredths);
    await engine.step();
    const [bet] = await rowsOf<{ status: string; payout_minor: string }>(
      app.services.db,
      sql`SELECT status, payout_minor::text FROM crash_bets WHERE member_id = ${p.memberId.toString()}::bigint`,
    );
    expect(bet).toEqual({ status: 'placed', payout_minor: '0' });
    expect(await cash(p.memberId)).toBe(9_700n);
    const next = await secret();
    expect(next.id).toBeGreaterThan(round.id);
    expect(next.state).toBe('betting');
    const state = await call(app, { method: 'GET', url: '/api/crash/state' });
    expect(state.body.data).toMatchObject({ round_id: next.id.toString(), phase: 'betting' });
  });

  it('lets a guest bet fun money from a demo session: never the ledger, its own record', async () => {
    const session = await call(app, { method: 'POST', url: '/api/originals/demo/session' });
    const headers = { 'x-demo-token': session.body.data.demo_token as string };
    const demo = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      call(app, { method, url, headers, ...(payload ? { payload } : {}) });
    const round = await roundCrashingAtLeast(150);

    const bet = await demo('POST', '/api/crash/bet', { amount: '10.00' });
    expect(bet.status).toBe(200);
    expect(bet.body.data).toMatchObject({ bet: { round_id: round.id.toString(), status: 'placed' } });
    expect(bet.body.data.balance).toBe('990.00');
    expect((await demo('POST', '/api/crash/bet', { amount: '1.00' })).body.code).toBe('CRASH_ALREADY_BET');
    const state = await demo('GET', '/api/crash/state');
    expect(state.body.data.my_bet).toMatchObject({ amount: '10.00', status: 'placed' });
    // Fun money is not shown among the table's real stakes.
    expect(state.body.data.bets).toEqual({ count: 0, total: '0.00' });

    const startedAt = await run(round);
    now = startedAt + 2_000; // the tick at 1.12×
    const cashed = await demo('POST', '/api/crash/cashout', { round_id: round.id.toString() });
    expect(cashed.body.data).toMatchObject({
      bet: { status: 'cashed', cashout_multiplier: '1.12', payout: '11.20' },
      balance: '1001.20',
    });
    now = startedAt + crashInstant(round.crashHundredths);
    await engine.step();
    const moved = await rowsOf<{ n: number }>(
      app.services.db,
      sql`SELECT count(*)::int AS n FROM wallet_transfers WHERE reference = ${`crash-round:${round.id}`}`,
    );
    expect(Number(moved[0]!.n)).toBe(0);

    // The guest's record holds the bet, with the round's evidence once it crashed.
    const record = await demo('POST', '/api/game/record', { period: 'all', game: 'crash' });
    expect(record.body.data.list).toHaveLength(1);
    expect(record.body.data.list[0]).toMatchObject({ game: 'crash', bet_amount: '10.00', win_loss: '1.20' });
    const details = await demo('POST', '/api/game/record/details', { id: record.body.data.list[0].id });
    expect(details.body.data).toMatchObject({
      demo: true,
      outcome: { crash_point: formatHundredths(round.crashHundredths), round_hash: round.roundHash },
    });
    const member = await player();
    const foreign = await post('/api/game/record/details', member.token, { id: record.body.data.list[0].id });
    expect(foreign.body.code).toBe('NOT_FOUND');

    // An unknown token, or a stake above the fun money left, changes nothing.
    const next = await nextRound();
    const unknown = await call(app, {
      method: 'POST',
      url: '/api/crash/bet',
      headers: { 'x-demo-token': 'A'.repeat(43) },
      payload: { amount: '1.00' },
    });
    expect(unknown.body.code).toBe('DEMO_SESSION_INVALID');
    const tooMuch = await demo('POST', '/api/crash/bet', { amount: '1001.21' });
    expect(tooMuch.body.code).toBe('INSUFFICIENT_FUNDS');
    expect((await demo('GET', '/api/crash/state')).body.data).toMatchObject({
      round_id: next.id.toString(),
      my_bet: null,
    });
  });

  it('takes a guest demo bet over the socket and pays its auto cash-out in fun money', async () => {
    const round = await roundCrashingAtLeast(130);
    const session = await call(app, { method: 'POST', url: '/api/originals/demo/session' });
    const demoToken = session.body.data.demo_token as string;
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const { socket, inbox } = await openWithInbox(`ws://127.0.0.1:${port}/ws/crash`);
    const { socket: otherSocket, inbox: other } = await openWithInbox(`ws://127.0.0.1:${port}/ws/crash`);
    socket.send(JSON.stringify({ type: 'demo', demo_token: demoToken }));
    expect(await inbox.next((m) => m.type === 'ready', 'ready')).toMatchObject({ member: false, demo: true });
    socket.send(
      JSON.stringify({
        type: 'bet',
        amount: '5.00',
        auto_cashout: '1.10',
        idempotency_key: `d-${randomUUID()}`,
      }),
    );
    expect(await inbox.next((m) => m.type === 'bet_accepted', 'bet accepted')).toMatchObject({
      bet: { round_id: round.id.toString(), amount: '5.00', auto_cashout: '1.10' },
      balance: '995.00',
    });
    const startedAt = await run(round);
    now = startedAt + 1_600; // the 1.10× tick: the engine pays the auto cash-out
    await engine.step();
    expect(await inbox.next((m) => m.type === 'cashed_out', 'cashed out')).toMatchObject({
      round_id: round.id.toString(),
      multiplier: '1.10',
      payout: '5.50',
    });
    const state = await call(app, {
      method: 'GET',
      url: '/api/crash/state',
      headers: { 'x-demo-token': demoToken },
    });
    expect(state.body.data.my_bet).toMatchObject({ status: 'cashed', payout: '5.50' });
    const balance = await call(app, {
      method: 'POST',
      url: '/api/day7/day7LoginV2',
      payload: { name: 'crash', demo: true, demo_token: demoToken },
    });
    expect(balance.body.data).toMatchObject({ mode: 'demo', balance: '1000.50' });
    // A bad demo token is refused on the socket; other sockets never see this guest's cash-out.
    otherSocket.send(JSON.stringify({ type: 'demo', demo_token: 'B'.repeat(43) }));
    expect(await other.next((m) => m.type === 'error', 'refusal')).toMatchObject({
      code: 'DEMO_SESSION_INVALID',
    });
    expect(other.messages.some((m) => m.type === 'cashed_out')).toBe(false);
    now = startedAt + crashInstant(round.crashHundredths);
    await engine.step();
    socket.close();
    otherSocket.close();
  });

  it("publishes a new chain before its salt, fixes the salt from the first bets' client seeds, and plays with it", async () => {
    // Use up the chain in play once its current round is over, so the engine publishes a new one.
    const last = await nextRound();
    await app.services.db.execute(
      sql`UPDATE crash_chains SET position = length WHERE id = ${last.chainId.toString()}::bigint`,
    );
    for (let i = 0; i < 5 && (await secret()).chainId === last.chainId; i++) {
      now += 300_000;
      await engine.step();
    }
    const first = await secret();
    expect(first).toMatchObject({ position: 1, state: 'betting', crashHundredths: null });
    expect(first.chainId).not.toBe(last.chainId);

    // The commitment is public at once, with no salt yet.
    const published = (await call(app, { method: 'GET', url: '/api/crash/chains?limit=2' })).body.data;
    expect(published.salt_seeds_max).toBe(CRASH_SALT_MAX_SEEDS);
    const chain = published.list[0];
    expect(chain).toMatchObject({
      id: first.chainId.toString(),
      length: 10_000,
      rounds_played: 1,
      salt: null,
      salt_fixed_at: null,
      salt_source: 'bets',
      salt_inputs: [],
    });
    expect(chain.terminating_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(chain.committed_at)).toBe(first.bettingEndsAt - engine.bettingMs);
    expect(JSON.stringify(published)).not.toMatch(/terminal_seed/);
    expect(published.list[1]).toMatchObject({ id: last.chainId.toString(), salt_source: 'bets' });
    expect(published.list[1].salt).toMatch(/^[0-9a-f]{64}$/);
    expect((await call(app, { method: 'GET', url: '/api/crash/state' })).body.data).toMatchObject({
      round_id: first.id.toString(),
      phase: 'betting',
      terminating_hash: chain.terminating_hash,
      public_salt: null,
    });
    // The round hash leads to the published terminating hash in one step.
    expect(sha256Hex(first.roundHash)).toBe(chain.terminating_hash);

    // No bet when betting closes: the round takes bets again, still with no salt and no crash point.
    now = first.bettingEndsAt;
    await engine.step();
    const waiting = await secret();
    expect(waiting).toMatchObject({ id: first.id, state: 'betting', crashHundredths: null });
    expect(waiting.bettingEndsAt).toBe(now + engine.bettingMs);
    const state = (await call(app, { method: 'GET', url: '/api/crash/state' })).body.data;
    expect(state).toMatchObject({ phase: 'betting', public_salt: null, betting_ms_left: engine.bettingMs });

    // Bets bring client seeds: an explicit one, a member's provably-fair client seed, guests' own.
    const alice = await player();
    const bob = await player();
    const bobSeed = (await call(app, { method: 'GET', url: '/api/fairness/seeds', token: bob.token })).body
      .data.client_seed as string;
    const byAlice = await post('/api/crash/bet', alice.token, {
      amount: '1.00',
      client_seed: 'alice: lucky 7',
    });
    expect(byAlice.body.data.bet).toMatchObject({
      round_id: first.id.toString(),
      client_seed: 'alice: lucky 7',
    });
    const byBob = await post('/api/crash/bet', bob.token, { amount: '1.00', auto_cashout: '1.01' });
    expect(byBob.body.data.bet.client_seed).toBe(bobSeed);
    const badSeed = await post('/api/crash/bet', (await player()).token, {
      amount: '1.00',
      client_seed: 'ação',
    });
    expect(badSeed.status).toBe(422);
    // More bets than the ceremony takes: only the first CRASH_SALT_MAX_SEEDS count.
    const guestSeeds: string[] = [];
    for (let i = 0; guestSeeds.length < CRASH_SALT_MAX_SEEDS - 1; i++) {
      const session = await call(app, { method: 'POST', url: '/api/originals/demo/session' });
      const seed = `guest ${i} ${randomUUID().slice(0, 8)}`;
      const bet = await call(app, {
        method: 'POST',
        url: '/api/crash/bet',
        headers: { 'x-demo-token': session.body.data.demo_token as string },
        payload: { amount: '1.00', client_seed: seed },
      });
      expect(bet.status).toBe(200);
      guestSeeds.push(seed);
    }
    const recorded = await rowsOf<{ id: string; client_seed: string }>(
      app.services.db,
      sql`SELECT id::text, client_seed FROM crash_bets WHERE round_id = ${first.id.toString()}::bigint ORDER BY id`,
    );
    expect(recorded).toHaveLength(CRASH_SALT_MAX_SEEDS + 1);
    expect(recorded.map((r) => r.client_seed)).toEqual(['alice: lucky 7', bobSeed, ...guestSeeds]);

    // Betting closes: the salt is the documented combination of the first recorded seeds, in id order.
    now = waiting.bettingEndsAt;
    await engine.step();
    const running = await secret();
    expect(running).toMatchObject({ id: first.id, state: 'running' });
    const used = recorded.slice(0, CRASH_SALT_MAX_SEEDS);
    const expectedSalt = createHash('sha256')
      .update([chain.terminating_hash, ...used.map((r) => r.client_seed)].join(':'))
      .digest('hex');
    const fixed = (await call(app, { method: 'GET', url: '/api/crash/chains?limit=1' })).body.data.list[0];
    expect(fixed).toMatchObject({
      id: chain.id,
      terminating_hash: chain.terminating_hash,
      committed_at: chain.committed_at,
      salt: expectedSalt,
      salt_fixed_at: new Date(now).toISOString(),
      salt_inputs: used.map((r) => ({ bet_id: r.id, client_seed: r.client_seed })),
    });
    expect(Date.parse(fixed.salt_fixed_at)).toBeGreaterThan(Date.parse(fixed.committed_at));
    expect(
      verifyCrashSalt({
        terminatingHash: fixed.terminating_hash,
        clientSeeds: fixed.salt_inputs.map((input: { client_seed: string }) => input.client_seed),
        salt: fixed.salt,
      }),
    ).toBe(true);
    expect(running.crashHundredths).toBe(crashPointHundredths(first.roundHash, expectedSalt));
    expect((await call(app, { method: 'GET', url: '/api/crash/state' })).body.data.public_salt).toBe(
      expectedSalt,
    );
    const late = await post('/api/crash/bet', (await player()).token, { amount: '1.00' });
    expect(late.body.code).toBe('CRASH_BETTING_CLOSED');

    // The round crashes where the salt says; the next round of the chain has its point from the start.
    now = running.startedAt! + crashInstant(running.crashHundredths!);
    await engine.step();
    const history = (await call(app, { method: 'GET', url: '/api/crash/history?limit=1' })).body.data.list[0];
    expect(history).toMatchObject({
      round_id: first.id.toString(),
      chain_position: 1,
      public_salt: expectedSalt,
    });
    expect(history.crash_point).toBe(
      formatHundredths(crashPointHundredths(history.round_hash, expectedSalt)),
    );
    now += engine.crashedPauseMs;
    await engine.step();
    const second = await secret();
    expect(second).toMatchObject({ chainId: first.chainId, position: 2, state: 'betting' });
    expect(second.crashHundredths).toBe(crashPointHundredths(second.roundHash, expectedSalt));
  });

  it('publishes rounds that verify against the chain, and leaves the ledger reconciled', async () => {
    await nextRound();
    const history = await call(app, { method: 'GET', url: '/api/crash/history?limit=10' });
    expect(history.status).toBe(200);
    const list = history.body.data.list as {
      round_hash: string;
      hash_commitment: string;
      terminating_hash: string;
      public_salt: string;
      crash_point: string;
      chain_position: number;
    }[];
    expect(list.length).toBeGreaterThanOrEqual(5);
    const chains = (await call(app, { method: 'GET', url: '/api/crash/chains?limit=50' })).body.data.list as {
      terminating_hash: string;
      salt_inputs: { client_seed: string }[];
    }[];
    for (const row of list) {
      const chain = chains.find((c) => c.terminating_hash === row.terminating_hash)!;
      const verified = verifyCrashRound({
        roundHash: row.round_hash,
        terminatingHash: row.terminating_hash,
        publicSalt: row.public_salt,
        saltSeeds: chain.salt_inputs.map((input) => input.client_seed),
      });
      expect(verified.chain.valid).toBe(true);
      expect(verified.saltVerified).toBe(true);
      expect(verified.chain.roundNumber).toBe(row.chain_position);
      expect(formatHundredths(verified.crashHundredths)).toBe(row.crash_point);
      expect(sha256Hex(row.round_hash)).toBe(row.hash_commitment);
    }
    for (let i = 0; i + 1 < list.length; i++) {
      if (list[i]!.chain_position === list[i + 1]!.chain_position + 1) {
        expect(isNextRoundHash(list[i + 1]!.round_hash, list[i]!.round_hash)).toBe(true);
      }
    }
    const state = await call(app, { method: 'GET', url: '/api/crash/state' });
    expect(state.body.data).toMatchObject({
      phase: 'betting',
      crash_point: null,
      round_hash: null,
      my_bet: null,
    });
    expect(JSON.stringify(state.body)).not.toContain((await secret()).roundHash);

    const report = await reconcile(app.services.db, { siteId });
    expect(report.drift).toEqual([]);
    expect(report.ok).toBe(true);
  });

  // Several server processes share one PostgreSQL (PGlite is one process by construction).
  if (kind !== 'postgres') return;
  it('a second server process follows the leader: relays rounds, takes bets and cash-outs', async () => {
    const admin = new URL((await postgresAdminUrl())!);
    const [row] = await rowsOf<{ name: string }>(app.services.db, sql`SELECT current_database() AS name`);
    admin.pathname = `/${row!.name}`;
    const database = await seededDatabase('postgres');
    const build = () =>
      buildApp({
        config: testConfig(),
        database,
        captchaGenerator: () => ({ text: CAPTCHA_TEXT, svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
      });
    const leaderApp = await build();
    const followerApp = await build();
    try {
      await leaderApp.crash.start({ clock: () => now, autoRun: false, lockUrl: admin.toString() });
      await followerApp.crash.start({ clock: () => now, autoRun: false, lockUrl: admin.toString() });
      expect(leaderApp.crash.leading).toBe(true);
      expect(followerApp.crash.leading).toBe(false);
      await followerApp.listen({ port: 0, host: '127.0.0.1' });
      const port = (followerApp.server.address() as { port: number }).port;
      const { socket, inbox } = await openWithInbox(`ws://127.0.0.1:${port}/ws/crash`);

      const round = await roundCrashingAtLeast(120, leaderApp.crash);
      await inbox.next((m) => m.type === 'state' && m.round_id === round.id.toString(), 'relayed state');
      const p = await player();
      const bet = await call(followerApp, {
        method: 'POST',
        url: '/api/crash/bet',
        token: p.token,
        payload: { amount: '4.00' },
      });
      // The whole body: a refusal shows its code and message.
      expect(bet.body).toMatchObject({ data: { bet: { round_id: round.id.toString(), status: 'placed' } } });

      const startedAt = await run(round, leaderApp.crash);
      await inbox.next((m) => m.type === 'state' && m.phase === 'running', 'relayed running');
      now = startedAt + 2_000;
      await leaderApp.crash.step();
      await inbox.next((m) => m.type === 'tick' && m.round_id === round.id.toString(), 'relayed tick');
      const cashed = await call(followerApp, {
        method: 'POST',
        url: '/api/crash/cashout',
        token: p.token,
        payload: { round_id: round.id.toString() },
      });
      expect(cashed.body.data.bet).toMatchObject({
        status: 'cashed',
        cashout_multiplier: '1.12',
        payout: '4.48',
      });

      now = startedAt + crashInstant(round.crashHundredths);
      await leaderApp.crash.step();
      expect(
        await inbox.next((m) => m.type === 'crashed' && m.round_id === round.id.toString(), 'relayed crash'),
      ).toMatchObject({
        round_id: round.id.toString(),
        crash_point: formatHundredths(round.crashHundredths),
      });
      socket.close();

      // The leader loses its lock connection: it stops moving rounds on and follows instead.
      await app.services.db.execute(
        sql`SELECT pg_terminate_backend(pid) FROM pg_locks
            WHERE locktype = 'advisory' AND objid = 727106
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      const deadline = Date.now() + 10_000;
      while (leaderApp.crash.leading && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(leaderApp.crash.leading).toBe(false);
      const frozen = await secret();
      now += 300_000;
      await leaderApp.crash.step();
      expect(await secret()).toMatchObject({ id: frozen.id, state: frozen.state });
    } finally {
      await followerApp.close();
      await leaderApp.close();
    }
  });

  it('takes the lead once its database accepts connections again, however many tries failed', {
    timeout: 60_000,
  }, async () => {
    // The lock lives in a database of its own here, which the test closes to connections.
    const admin = new URL((await postgresAdminUrl())!);
    const name = `sorte_lock_${randomUUID().slice(0, 8)}`;
    const adminClient = new pg.Client({ connectionString: admin.toString() });
    await adminClient.connect();
    await adminClient.query(`CREATE DATABASE ${name}`);
    const lockUrl = new URL(admin);
    lockUrl.pathname = `/${name}`;
    const holder = new pg.Client({ connectionString: lockUrl.toString() });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [ENGINE_LOCK_KEY]);
    const other = await buildApp({ config: testConfig(), database: await seededDatabase('postgres') });
    try {
      await other.crash.start({ clock: () => now, lockUrl: lockUrl.toString() });
      expect(other.crash.leading).toBe(false);
      // The leader goes away while no new connection is accepted: the next tries to lead fail.
      await adminClient.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await holder.query('SELECT pg_advisory_unlock($1)', [ENGINE_LOCK_KEY]);
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      expect(other.crash.leading).toBe(false);
      await adminClient.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      for (let i = 0; i < 100 && !other.crash.leading; i++)
        await new Promise((resolve) => setTimeout(resolve, 200));
      expect(other.crash.leading).toBe(true);
    } finally {
      await other.close();
      await holder.end();
      await adminClient.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await adminClient.end();
    }
  });
});

type TCrashRound = { id: string; position: number; roundHash: string; hashCommitment: string; crash: number };

/** The client seeds the record tests' chain was salted with. */
const SALT_SEEDS = ['first bettor', 'second: bettor'];

/**
 * The game record with crash bets (issue 4): the member's settled crash bets sit beside the
 * in-house rounds, in one order and one keyset paging, in the totals, with the round's evidence in
 * the details. The crash rows are written as the engine leaves them (a genuine hash chain, used up
 * so no engine plays it) and removed again. This block runs after the engine's tests above: they
 * share this worker's database and expect only the rounds their engine played.
 */
describe.each(kinds)('game record with crash on %s', (kind) => {
  let app: FastifyInstance;
  let siteId: bigint;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    siteId = (await app.services.sites.byCode('sorte'))!.id;
  });
  afterAll(async () => {
    await app.close();
  });

  const player = (fundMinor = 10_000n) => fundedPlayer(app, fundMinor);

  const post = (url: string, token: string, payload: Record<string, unknown>) =>
    call(app, { method: 'POST', url, token, payload });

  /**
   * A used-up chain of three rounds: round 1 still running, rounds 2 and 3 crashed. Round 2
   * crashes at 1.50× or more so a cash-out at 1.49× is a real one.
   */
  async function chainOfThree(): Promise<TCrashRound[]> {
    for (;;) {
      const seed = createTerminalSeed();
      const chain = createHashChain(seed, 3);
      const salt = crashSaltFromSeeds(chain.terminatingHash, SALT_SEEDS);
      if (crashPointHundredths(chain.hashes[1]!, salt) < 150) continue;
      const inputs = JSON.stringify(
        SALT_SEEDS.map((clientSeed, i) => ({ bet_id: `${i + 1}`, client_seed: clientSeed })),
      );
      const [row] = await rowsOf<{ id: string }>(
        app.services.db,
        sql`INSERT INTO crash_chains (terminal_seed, terminating_hash, public_salt, salt_source, salt_inputs,
              salt_fixed_at, length, position)
            VALUES (${seed}, ${chain.terminatingHash}, ${salt}, 'bets', ${inputs}::jsonb, now(), 3, 3)
            RETURNING id::text`,
      );
      const rounds: TCrashRound[] = [];
      for (let position = 1; position <= 3; position++) {
        const roundHash = chain.hashes[position - 1]!;
        const crash = crashPointHundredths(roundHash, salt);
        const crashed = position > 1;
        const [round] = await rowsOf<{ id: string }>(
          app.services.db,
          sql`INSERT INTO crash_rounds (chain_id, position, round_hash, hash_commitment, crash_hundredths, state,
                betting_ends_at, started_at, crashed_at)
              VALUES (${row!.id}::bigint, ${position}, ${roundHash}, ${sha256Hex(roundHash)}, ${crash},
                ${crashed ? 'crashed' : 'running'}, now(), now(), ${crashed ? sql`now()` : sql`NULL`})
              RETURNING id::text`,
        );
        rounds.push({ id: round!.id, position, roundHash, hashCommitment: sha256Hex(roundHash), crash });
      }
      return rounds;
    }
  }

  /** A crash bet as settlement leaves it; returns its record id. */
  async function crashBet(
    round: TCrashRound,
    memberId: bigint,
    bet: { stakeMinor: bigint; status: 'placed' | 'cashed' | 'lost'; cashout?: number; minutesAgo?: number },
  ): Promise<string> {
    const cashout = bet.status === 'cashed' ? (bet.cashout ?? 101) : null;
    const payout = cashout === null ? 0n : (bet.stakeMinor * BigInt(cashout)) / 100n;
    const [row] = await rowsOf<{ id: string }>(
      app.services.db,
      sql`INSERT INTO crash_bets (round_id, site_id, member_id, stake_minor, cashout_hundredths, payout_minor,
            status, idempotency_key, request_hash, created_at, settled_at)
          VALUES (${round.id}::bigint, ${siteId.toString()}::bigint, ${memberId.toString()}::bigint,
            ${bet.stakeMinor.toString()}::bigint, ${cashout}, ${payout.toString()}::bigint, ${bet.status},
            ${randomUUID()}, 'test', now() - make_interval(mins => ${bet.minutesAgo ?? 0}),
            ${bet.status === 'placed' ? sql`NULL` : sql`now()`})
          RETURNING id::text`,
    );
    return (CRASH_RECORD_ID_BASE + BigInt(row!.id)).toString();
  }

  /**
   * Removes this file's crash rows again: the crash engine's own tests share this database and
   * expect only the rounds their engine played.
   */
  async function removeChain(rounds: TCrashRound[]) {
    const ids = sql.join(
      rounds.map((r) => sql`${r.id}::bigint`),
      sql`, `,
    );
    await app.services.db.execute(sql`DELETE FROM crash_bets WHERE round_id IN (${ids})`);
    const [chain] = await rowsOf<{ chain_id: string }>(
      app.services.db,
      sql`DELETE FROM crash_rounds WHERE id IN (${ids}) RETURNING chain_id::text`,
    );
    if (chain)
      await app.services.db.execute(sql`DELETE FROM crash_chains WHERE id = ${chain.chain_id}::bigint`);
  }

  it('puts settled crash bets in the game record beside dice, paged in order, with their evidence', async () => {
    const p = await player(100_000n);
    const other = await player();
    const early = await player();
    const dice: string[] = [];
    for (let i = 0; i < 2; i++) {
      const bet = await post('/api/originals/dice/bet', p.token, {
        amount: '1.00',
        direction: 'under',
        target: 5000,
      });
      expect(bet.status).toBe(200);
      dice.push(bet.body.data.round.id);
    }
    const rounds = await chainOfThree();
    try {
      await checkRecord(p, other, early, dice, rounds);
    } finally {
      await removeChain(rounds);
    }
  });

  async function checkRecord(
    p: { token: string; memberId: bigint },
    other: { token: string; memberId: bigint },
    early: { token: string; memberId: bigint },
    dice: string[],
    rounds: TCrashRound[],
  ) {
    const [running, roundA, roundB] = rounds;
    const cashoutA = '1.49';
    const idA = await crashBet(roundA!, p.memberId, { stakeMinor: 200n, status: 'cashed', cashout: 149 });
    const idOther = await crashBet(roundA!, other.memberId, { stakeMinor: 100n, status: 'lost' });
    const idB = await crashBet(roundB!, p.memberId, { stakeMinor: 300n, status: 'lost' });
    const idC = await crashBet(running!, p.memberId, { stakeMinor: 400n, status: 'placed' });
    // Cashed out in a running round: a result already, but the crash point and hash stay secret.
    const idEarly = await crashBet(running!, early.memberId, { stakeMinor: 100n, status: 'cashed' });
    const earlyDetails = await post('/api/game/record/details', early.token, { id: idEarly });
    expect(earlyDetails.status).toBe(200);
    expect(earlyDetails.body.data.outcome).toMatchObject({
      crash_point: null,
      round_hash: null,
      cashout: '1.01',
    });
    expect(earlyDetails.body.data.fairness.server_seed).toBeNull();
    expect(JSON.stringify(earlyDetails.body)).not.toContain(running!.roundHash);
    expect(JSON.stringify(await post('/api/game/record', early.token, {}))).not.toContain(running!.roundHash);

    // Bet times interleave the two kinds: dice0 < crashA < dice1 < crashB.
    const setTime = (table: 'game_rounds' | 'crash_bets', id: string, minutesAgo: number) =>
      app.services.db.execute(
        table === 'game_rounds'
          ? sql`UPDATE game_rounds SET created_at = now() - make_interval(mins => ${minutesAgo}) WHERE id = ${id}::bigint`
          : sql`UPDATE crash_bets SET created_at = now() - make_interval(mins => ${minutesAgo}) WHERE id = ${id}::bigint`,
      );
    await setTime('game_rounds', dice[0]!, 240);
    await setTime('crash_bets', (BigInt(idA) - CRASH_RECORD_ID_BASE).toString(), 180);
    await setTime('game_rounds', dice[1]!, 120);
    await setTime('crash_bets', (BigInt(idB) - CRASH_RECORD_ID_BASE).toString(), 60);
    const expected = [idB, dice[1], idA, dice[0]];

    const all = await post('/api/game/record', p.token, { period: 'all' });
    expect(all.status).toBe(200);
    const list = all.body.data.list as { id: string; win_loss: string; bet_amount: string }[];
    expect(list.map((r) => r.id)).toEqual(expected);
    expect(list[0]).toMatchObject({
      brand: 'Sorte Originals',
      name: 'Crash',
      game: 'crash',
      bet_amount: '3.00',
      payout: '0.00',
      win_loss: '-3.00',
      multiplier: '0.0000',
      status: 'settled',
    });
    expect(list[2]).toMatchObject({ name: 'Crash', bet_amount: '2.00', multiplier: `${cashoutA}00` });
    expect(list[1]).toMatchObject({ name: 'Dice', game: 'dice' });
    const sum = list.reduce((acc, r) => acc + BigInt(r.win_loss.replace('.', '')), 0n);
    expect(all.body.data.totals).toMatchObject({ count: 4, bet_amount: '7.00' });
    expect(BigInt(all.body.data.totals.win_loss.replace('.', ''))).toBe(sum);
    expect(list.map((r) => r.id)).not.toContain(idC);
    expect(list.map((r) => r.id)).not.toContain(idOther);

    // One row a page, down and back up again: every row once, in order.
    const down: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page = await post('/api/game/record', p.token, {
        period: 'all',
        page_size: 1,
        ...(cursor ? { before_id: cursor } : {}),
      });
      down.push(...page.body.data.list.map((r: { id: string }) => r.id));
      cursor = page.body.data.next_before_id;
      if (!cursor) break;
    }
    expect(down).toEqual(expected);
    const up: string[] = [];
    cursor = expected[3]!;
    for (let i = 0; i < 10; i++) {
      const page = await post('/api/game/record', p.token, { period: 'all', page_size: 1, after_id: cursor });
      up.unshift(...page.body.data.list.map((r: { id: string }) => r.id));
      cursor = page.body.data.prev_after_id;
      if (!cursor) break;
    }
    expect(up).toEqual(expected.slice(0, 3));
    const page2 = await post('/api/game/record', p.token, { page_size: 2, before_id: expected[1] });
    expect(page2.body.data.list.map((r: { id: string }) => r.id)).toEqual(expected.slice(2));
    expect(page2.body.data).toMatchObject({ next_before_id: null, prev_after_id: expected[2] });

    const onlyCrash = await post('/api/game/record', p.token, { game: 'crash' });
    expect(onlyCrash.body.data.list.map((r: { id: string }) => r.id)).toEqual([expected[0], expected[2]]);
    expect(onlyCrash.body.data.totals).toMatchObject({ count: 2, bet_amount: '5.00' });
    const onlyDice = await post('/api/game/record', p.token, { game: 'dice' });
    expect(onlyDice.body.data.list.map((r: { id: string }) => r.id)).toEqual([dice[1], dice[0]]);

    // The other member sees only their own (settled) crash bet.
    const theirs = await post('/api/game/record', other.token, {});
    expect(theirs.body.data.list.map((r: { id: string }) => r.id)).toEqual([idOther]);
    const foreign = await post('/api/game/record/details', other.token, {
      id: idA,
    });
    expect(foreign.status).toBe(404);
    const placed = await post('/api/game/record/details', p.token, { id: idC });
    expect(placed.status).toBe(404);
    expect(JSON.stringify(placed.body)).not.toContain(running!.roundHash);

    const details = await post('/api/game/record/details', p.token, { id: idA });
    expect(details.status).toBe(200);
    const round = details.body.data;
    expect(round).toMatchObject({
      id: idA,
      game: 'crash',
      game_name: 'Crash',
      status: 'settled',
      demo: false,
      stake: '2.00',
      multiplier: `${cashoutA}00`,
      fairness: {
        server_seed: roundA!.roundHash,
        server_seed_hash: roundA!.hashCommitment,
        nonce: roundA!.position,
      },
    });
    expect(round.outcome).toMatchObject({
      result: 'cashed',
      cashout: cashoutA,
      crash_point: formatHundredths(roundA!.crash),
      round_id: roundA!.id.toString(),
      round_hash: roundA!.roundHash,
      hash_commitment: roundA!.hashCommitment,
      chain_position: roundA!.position,
    });
    expect(round.outcome).toMatchObject({ salt_source: 'bets', salt_inputs: SALT_SEEDS });
    const verified = verifyCrashRound({
      roundHash: round.outcome.round_hash,
      terminatingHash: round.outcome.terminating_hash,
      publicSalt: round.outcome.public_salt,
      saltSeeds: round.outcome.salt_inputs,
    });
    expect(verified.chain.valid).toBe(true);
    expect(verified.saltVerified).toBe(true);
    expect(formatHundredths(verified.crashHundredths)).toBe(round.outcome.crash_point);
    expect(round.fairness.client_seed).toBe(round.outcome.public_salt);
    const lost = await post('/api/game/record/details', p.token, { id: idB });
    expect(lost.body.data).toMatchObject({ payout: '0.00', win_loss: '-3.00', multiplier: '0.0000' });
    expect(lost.body.data.outcome).toMatchObject({
      result: 'lost',
      cashout: null,
      crash_point: formatHundredths(roundB!.crash),
      round_hash: roundB!.roundHash,
    });

    // The running round crashes (as the engine ends it): the placed bet is lost and now a result.
    // The shared database is left with no unfinished round, as the crash engine expects.
    await app.services.db.execute(
      sql`UPDATE crash_rounds SET state = 'crashed', crashed_at = now() WHERE id = ${running!.id}::bigint`,
    );
    await app.services.db.execute(
      sql`UPDATE crash_bets SET status = 'lost', settled_at = now()
          WHERE round_id = ${running!.id}::bigint AND status = 'placed'`,
    );
    const later = await post('/api/game/record', p.token, { period: 'all' });
    expect(later.body.data.totals).toMatchObject({ count: 5, bet_amount: '11.00' });
    expect(later.body.data.list.map((r: { id: string }) => r.id)).toContain(idC);
    const lostC = await post('/api/game/record/details', p.token, { id: idC });
    expect(lostC.body.data.outcome).toMatchObject({
      result: 'lost',
      crash_point: formatHundredths(running!.crash),
      round_hash: running!.roundHash,
    });
  }
});
