import { randomUUID } from 'node:crypto';
import {
  type BetInput,
  createFloatStream,
  GAME_RULES,
  minesMultiplier,
  payoutMinor,
  placeMines,
  playHilo,
  replayBet,
  sha256Hex,
  verifyRotation,
  verifySeedChain,
} from '@sorte/fairness';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, call, fundedPlayer, type TEnvelope } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { getBalances, getTransferByKey } from '../wallet/balances.ts';
import { createTestSite } from '../wallet/wallet.fixtures.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { toJson } from './originals.games.ts';

const kinds = await databaseKinds();

const minor = (text: string) => BigInt(text.replace('.', ''));

const INSTANT_BETS: Record<string, Record<string, unknown>> = {
  dice: { amount: '1.00', direction: 'under', target: 5000 },
  limbo: { amount: '1.00', target: '2.00' },
  plinko: { amount: '1.00', rows: 12, risk: 'medium' },
  keno: { amount: '1.00', picks: [1, 5, 9, 13, 22] },
  roulette: {
    bets: [
      { type: 'red', amount: '1.00' },
      { type: 'straight', numbers: [17], amount: '0.50' },
    ],
  },
  slot: { amount: '1.00' },
  bingo: { amount: '1.00' },
};

/** The stored params of a round as replayBet's input (roulette stakes back to bigint). */
function betInputOf(game: string, params: Record<string, unknown>): BetInput {
  if (game === 'roulette') {
    const bets = (params.bets as { type: string; numbers: number[]; stakeMinor: string }[]).map((b) => ({
      ...b,
      stakeMinor: BigInt(b.stakeMinor),
    }));
    return { game, bets } as BetInput;
  }
  return { game, ...params } as BetInput;
}

describe.each(kinds)('originals on %s', (kind) => {
  let app: FastifyInstance;
  let siteId: bigint;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    const site = await app.services.sites.byCode('sorte');
    siteId = site!.id;
  });
  afterAll(async () => {
    await app.close();
  });

  const player = (fundMinor = 0n) => fundedPlayer(app, fundMinor);

  const cash = async (memberId: bigint) => (await getBalances(app.services.db, memberId)).cashMinor;

  async function post(url: string, token: string | undefined, payload: unknown, headers = {}) {
    return call(app, { method: 'POST', url, token, payload: payload as Record<string, unknown>, headers });
  }

  async function activeServerSeed(memberId: bigint): Promise<string> {
    const [row] = await rowsOf<{ server_seed: string }>(
      app.services.db,
      sql`SELECT server_seed FROM fairness_seed_pairs WHERE member_id = ${memberId.toString()}::bigint
          AND revealed_at IS NULL`,
    );
    return row!.server_seed;
  }

  it('settles one bet of every instant game through the wallet, and replayBet reproduces each', async () => {
    const p = await player(100_000n);
    const rounds: TEnvelope['data'][] = [];
    for (const [game, body] of Object.entries(INSTANT_BETS)) {
      const before = await cash(p.memberId);
      const { status, body: res } = await post(`/api/originals/${game}/bet`, p.token, body);
      expect(status, `${game}: ${JSON.stringify(res)}`).toBe(200);
      const round = res.data.round;
      expect(round).toMatchObject({ game, status: 'settled', demo: false });
      const stake = minor(round.stake);
      const payout = minor(round.payout);
      expect(stake).toBe(game === 'roulette' ? 150n : 100n);
      expect(await cash(p.memberId)).toBe(before - stake + payout);
      expect(minor(res.data.balance)).toBe(before - stake + payout);
      expect(minor(round.win_loss)).toBe(payout - stake);
      const bet = await getTransferByKey(app.services.db, {
        siteId,
        idempotencyKey: `round:${round.id}:bet`,
      });
      expect(bet).toMatchObject({ kind: 'bet', amountMinor: stake });
      const win = await getTransferByKey(app.services.db, {
        siteId,
        idempotencyKey: `round:${round.id}:win`,
      });
      if (payout > 0n) expect(win).toMatchObject({ kind: 'win', amountMinor: payout });
      else expect(win).toBeNull();
      expect(round.fairness.server_seed).toBeNull();
      rounds.push(round);
    }
    expect(rounds.map((r) => r.fairness.nonce)).toEqual([0, 1, 2, 3, 4, 5, 6]);

    const rotated = await post('/api/fairness/rotate', p.token, {});
    expect(rotated.status).toBe(200);
    const revealed = rotated.body.data.revealed;
    expect(revealed.bets).toBe(7);
    expect(rotated.body.data.current).toMatchObject({ nonce: 0, client_seed: revealed.client_seed });
    expect(rotated.body.data.current.server_seed_hash).not.toBe(revealed.server_seed_hash);

    for (const stored of rounds) {
      const details = await post('/api/game/record/details', p.token, { id: stored.id });
      const round = details.body.data;
      expect(round.fairness.server_seed).toBe(revealed.server_seed);
      const seeds = {
        serverSeed: round.fairness.server_seed,
        clientSeed: round.fairness.client_seed,
        nonce: round.fairness.nonce,
      };
      const replayed = replayBet(seeds, betInputOf(round.game, round.params));
      expect(toJson(replayed.result), round.game).toEqual(round.outcome);
      if (round.game !== 'roulette' && 'multiplier' in replayed.result) {
        const expected = payoutMinor(
          minor(round.stake),
          replayed.result.multiplier,
          GAME_RULES[round.game as 'dice'].limits.maxWinMinor,
        );
        expect(minor(round.payout), round.game).toBe(expected);
      }
    }
  });

  it('places a retried bet once (body or header key) and refuses the key for another bet', async () => {
    const p = await player(10_000n);
    const key = `k-${randomUUID()}`;
    const first = await post('/api/originals/dice/bet', p.token, {
      ...INSTANT_BETS.dice,
      idempotency_key: key,
    });
    const balanceAfterFirst = await cash(p.memberId);
    const retry = await post('/api/originals/dice/bet', p.token, {
      ...INSTANT_BETS.dice,
      idempotency_key: key,
    });
    expect(retry.status).toBe(200);
    expect(retry.body.data.round).toEqual(first.body.data.round);
    expect(await cash(p.memberId)).toBe(balanceAfterFirst);

    const headerKey = `h-${randomUUID()}`;
    const concurrent = await Promise.all(
      [1, 2, 3].map(() =>
        post('/api/originals/limbo/bet', p.token, INSTANT_BETS.limbo, { 'idempotency-key': headerKey }),
      ),
    );
    expect(new Set(concurrent.map((r) => r.body.data.round.id)).size).toBe(1);
    const [{ n }] = (await rowsOf<{ n: string }>(
      app.services.db,
      sql`SELECT count(*) AS n FROM game_rounds WHERE member_id = ${p.memberId.toString()}::bigint`,
    )) as [{ n: string }];
    expect(Number(n)).toBe(2);

    const conflict = await post('/api/originals/dice/bet', p.token, {
      ...INSTANT_BETS.dice,
      target: 4950,
      idempotency_key: key,
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');
    const badKey = await post('/api/originals/dice/bet', p.token, INSTANT_BETS.dice, {
      'idempotency-key': 'x',
    });
    expect(badKey.status).toBe(422);
  });

  it('answers a retry with its round even once the balance is spent, and a retried Mines start with the open round', async () => {
    const p = await player(100n);
    const key = `k-${randomUUID()}`;
    const bet = { ...INSTANT_BETS.dice, amount: '1.00', target: 100, idempotency_key: key };
    const first = await post('/api/originals/dice/bet', p.token, bet);
    expect(first.status).toBe(200);
    expect(minor(first.body.data.balance)).toBe(await cash(p.memberId));
    const retry = await post('/api/originals/dice/bet', p.token, bet);
    expect(retry.status).toBe(200);
    expect(retry.body.data.round).toEqual(first.body.data.round);
    expect(retry.body.data.balance).toBe(first.body.data.balance);

    const q = await player(10_000n);
    const startKey = `m-${randomUUID()}`;
    const start = { amount: '10.00', mines: 3, idempotency_key: startKey };
    const started = await post('/api/originals/mines/start', q.token, start);
    expect(started.status).toBe(200);
    expect(minor(started.body.data.balance)).toBe(await cash(q.memberId));
    const again = await post('/api/originals/mines/start', q.token, start);
    expect(again.status).toBe(200);
    expect(again.body.data.round.id).toBe(started.body.data.round.id);
    const other = await post('/api/originals/mines/start', q.token, { amount: '10.00', mines: 3 });
    expect(other.body.code).toBe('ROUND_IN_PROGRESS');
    const seeds = (await call(app, { method: 'GET', url: '/api/fairness/seeds', token: q.token })).body.data;
    expect(seeds.nonce).toBe(1);

    const r = await player(10_000n);
    const racing = await Promise.all(
      [1, 2, 3].map(() => post('/api/originals/hilo/start', r.token, { amount: '10.00' })),
    );
    // One start wins; the others meet its open round (a unique index), never a 500.
    expect(racing.map((x) => x.status).sort()).toEqual([200, 409, 409]);
    expect(racing.filter((x) => x.status === 409).map((x) => x.body.code)).toEqual([
      'ROUND_IN_PROGRESS',
      'ROUND_IN_PROGRESS',
    ]);
    expect(await cash(r.memberId)).toBe(10_000n - 1_000n);
  });

  it('serialises concurrent bets of one player: each takes its own nonce and the balance adds up', async () => {
    const p = await player(10_000n);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => post('/api/originals/dice/bet', p.token, INSTANT_BETS.dice)),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const nonces = results.map((r) => r.body.data.round.fairness.nonce).sort((a: number, b: number) => a - b);
    expect(nonces).toEqual([0, 1, 2, 3, 4, 5]);
    const net = results.reduce(
      (sum, r) => sum + minor(r.body.data.round.payout) - minor(r.body.data.round.stake),
      0n,
    );
    expect(await cash(p.memberId)).toBe(10_000n + net);
  });

  it("pushes a member's new balance to their screens after a bet, never a guest's", async () => {
    const p = await player(10_000n);
    const pushes = vi.spyOn(app.realtime, 'publishBalance');
    try {
      expect((await post('/api/originals/dice/bet', p.token, INSTANT_BETS.dice)).status).toBe(200);
      expect(pushes).toHaveBeenCalledWith(siteId, p.memberId, 'game_round');
      pushes.mockClear();
      const session = await post('/api/originals/demo/session', undefined, {});
      const headers = { 'x-demo-token': session.body.data.demo_token };
      expect((await post('/api/originals/dice/bet', undefined, INSTANT_BETS.dice, headers)).status).toBe(200);
      const refused = await post('/api/originals/dice/bet', p.token, {
        ...INSTANT_BETS.dice,
        amount: '5000.00',
      });
      expect(refused.status).toBe(409);
      expect(pushes).not.toHaveBeenCalled();
    } finally {
      pushes.mockRestore();
    }
  });

  it('refuses a bet above the balance and changes nothing', async () => {
    const p = await player(50n);
    const seeds = (await call(app, { method: 'GET', url: '/api/fairness/seeds', token: p.token })).body.data;
    const refused = await post('/api/originals/dice/bet?lang=pt', p.token, INSTANT_BETS.dice);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_FUNDS', message: 'Saldo insuficiente' });
    expect(await cash(p.memberId)).toBe(50n);
    const after = (await call(app, { method: 'GET', url: '/api/fairness/seeds', token: p.token })).body.data;
    expect(after.nonce).toBe(seeds.nonce);
    const record = await post('/api/game/record', p.token, { period: 'all' });
    expect(record.body.data.list).toEqual([]);
    const mines = await post('/api/originals/mines/start', p.token, { amount: '10.00', mines: 3 });
    expect(mines.body.code).toBe('INSUFFICIENT_FUNDS');
    expect(
      (await call(app, { method: 'GET', url: '/api/originals/mines/active', token: p.token })).body.data
        .round,
    ).toBeNull();
  });

  it('refuses bad stakes and bad game parameters without changing anything', async () => {
    const p = await player(10_000_000n);
    const cases: [string, Record<string, unknown>, string][] = [
      ['dice', { ...INSTANT_BETS.dice, amount: '-1.00' }, 'VALIDATION_FAILED'],
      ['dice', { ...INSTANT_BETS.dice, amount: '0' }, 'VALIDATION_FAILED'],
      ['dice', { ...INSTANT_BETS.dice, amount: '0.00' }, 'VALIDATION_FAILED'],
      ['dice', { ...INSTANT_BETS.dice, amount: '1.001' }, 'VALIDATION_FAILED'],
      ['dice', { ...INSTANT_BETS.dice, amount: '1e3' }, 'VALIDATION_FAILED'],
      ['dice', { ...INSTANT_BETS.dice, amount: 1 }, 'VALIDATION_FAILED'],
      ['dice', { ...INSTANT_BETS.dice, amount: '999999999999999' }, 'VALIDATION_FAILED'],
      ['dice', { ...INSTANT_BETS.dice, amount: '0.09' }, 'BET_OUT_OF_RANGE'],
      ['dice', { ...INSTANT_BETS.dice, amount: '5000.01' }, 'BET_OUT_OF_RANGE'],
      ['dice', { ...INSTANT_BETS.dice, target: 0 }, 'VALIDATION_FAILED'],
      ['dice', { ...INSTANT_BETS.dice, target: 50 }, 'INVALID_BET'],
      ['dice', { ...INSTANT_BETS.dice, direction: 'sideways' }, 'VALIDATION_FAILED'],
      ['limbo', { ...INSTANT_BETS.limbo, target: '1.00' }, 'INVALID_BET'],
      ['plinko', { ...INSTANT_BETS.plinko, rows: 7 }, 'VALIDATION_FAILED'],
      ['plinko', { ...INSTANT_BETS.plinko, risk: 'extreme' }, 'VALIDATION_FAILED'],
      ['keno', { amount: '1.00', picks: [1, 1] }, 'INVALID_BET'],
      ['keno', { amount: '1.00', picks: [41] }, 'VALIDATION_FAILED'],
      ['keno', { amount: '1.00', picks: [] }, 'VALIDATION_FAILED'],
      ['roulette', { bets: [{ type: 'split', numbers: [1, 5], amount: '1.00' }] }, 'INVALID_BET'],
      ['roulette', { bets: [] }, 'VALIDATION_FAILED'],
      ['slot', { amount: '0.10' }, 'BET_OUT_OF_RANGE'],
    ];
    for (const [game, body, code] of cases) {
      const { status, body: res } = await post(`/api/originals/${game}/bet`, p.token, body);
      expect(res.code, `${game} ${JSON.stringify(body)}`).toBe(code);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
    const range = await post('/api/originals/dice/bet?lang=en', p.token, {
      ...INSTANT_BETS.dice,
      amount: '0.09',
    });
    expect(range.body.message).toBe('The bet must be between R$0.10 and R$5,000.00');
    expect(await cash(p.memberId)).toBe(10_000_000n);
    const seeds = (await call(app, { method: 'GET', url: '/api/fairness/seeds', token: p.token })).body.data;
    expect(seeds.nonce).toBe(0);
    const guest = await post('/api/originals/dice/bet', undefined, INSTANT_BETS.dice);
    expect(guest.status).toBe(401);
  });

  it('plays Mines step by step and settles exactly once', async () => {
    const p = await player(100_000n);
    const start = await post('/api/originals/mines/start', p.token, { amount: '10.00', mines: 1 });
    expect(start.status).toBe(200);
    const round = start.body.data.round;
    expect(round).toMatchObject({ status: 'active', stake: '10.00', payout: '0.00' });
    expect(round.outcome).not.toHaveProperty('mines');
    expect(await cash(p.memberId)).toBe(99_000n);

    const second = await post('/api/originals/mines/start', p.token, { amount: '10.00', mines: 1 });
    expect(second.body.code).toBe('ROUND_IN_PROGRESS');
    const rotate = await post('/api/fairness/rotate', p.token, {});
    expect(rotate.body.code).toBe('ROUND_IN_PROGRESS');
    const early = await post('/api/originals/mines/cashout', p.token, { round_id: round.id });
    expect(early.body.code).toBe('INVALID_BET');

    // The test knows the seeds, so it can open a safe tile on purpose.
    const seeds = {
      serverSeed: await activeServerSeed(p.memberId),
      clientSeed: round.fairness.client_seed,
      nonce: round.fairness.nonce,
    };
    const [mine] = placeMines(1, createFloatStream(seeds));
    const safe = mine === 0 ? 1 : 0;
    const pick = await post('/api/originals/mines/pick', p.token, { round_id: round.id, tile: safe });
    expect(pick.body.data.round).toMatchObject({ status: 'active', multiplier: '1.0312' });
    const again = await post('/api/originals/mines/pick', p.token, { round_id: round.id, tile: safe });
    expect(again.body.code).toBe('INVALID_BET');

    const cashouts = await Promise.all([
      post('/api/originals/mines/cashout', p.token, { round_id: round.id }),
      post('/api/originals/mines/cashout', p.token, { round_id: round.id }),
    ]);
    const statuses = cashouts.map((c) => c.status).sort();
    expect(statuses).toEqual([200, 409]);
    expect(cashouts.find((c) => c.status === 409)!.body.code).toBe('ROUND_NOT_ACTIVE');
    const paid = payoutMinor(1_000n, minesMultiplier(1, 1), GAME_RULES.mines.limits.maxWinMinor);
    expect(paid).toBe(1_031n);
    expect(await cash(p.memberId)).toBe(99_000n + paid);
    const late = await post('/api/originals/mines/cashout', p.token, { round_id: round.id });
    expect(late.body.code).toBe('ROUND_NOT_ACTIVE');
    expect(await cash(p.memberId)).toBe(99_000n + paid);

    const settled = (await post('/api/game/record/details', p.token, { id: round.id })).body.data;
    expect(settled.outcome).toMatchObject({ mines: [mine], picks: [safe], hitMine: false });

    // Hitting the mine ends the next round with nothing paid.
    const next = (await post('/api/originals/mines/start', p.token, { amount: '10.00', mines: 1 })).body.data
      .round;
    const [nextMine] = placeMines(1, createFloatStream({ ...seeds, nonce: next.fairness.nonce }));
    const boom = await post('/api/originals/mines/pick', p.token, { round_id: next.id, tile: nextMine });
    expect(boom.body.data.round).toMatchObject({ status: 'settled', payout: '0.00' });
    expect(await cash(p.memberId)).toBe(98_000n + paid);

    const other = await player(1_000n);
    const foreign = await post('/api/originals/mines/cashout', other.token, { round_id: next.id });
    expect(foreign.status).toBe(404);
  });

  it('plays Hi-Lo with calls and a single cash-out', async () => {
    const p = await player(10_000n);
    const start = await post('/api/originals/hilo/start', p.token, { amount: '10.00' });
    const round = start.body.data.round;
    expect(round.outcome.start).toBeDefined();
    expect(round.outcome.steps).toEqual([]);
    const seeds = {
      serverSeed: await activeServerSeed(p.memberId),
      clientSeed: round.fairness.client_seed,
      nonce: round.fairness.nonce,
    };
    const skip = await post('/api/originals/hilo/call', p.token, { round_id: round.id, call: 'skip' });
    expect(skip.body.data.round.status).toBe('active');
    const noCallYet = await post('/api/originals/hilo/cashout', p.token, { round_id: round.id });
    expect(noCallYet.body.code).toBe('INVALID_BET');
    // "Higher or same" and "lower or same" cannot both lose: pick the call that wins.
    const higher = playHilo(['skip', 'higher'], createFloatStream(seeds));
    const call = higher.lost ? 'lower' : 'higher';
    const made = await post('/api/originals/hilo/call', p.token, { round_id: round.id, call });
    expect(made.body.data.round.status).toBe('active');
    const expected = playHilo(['skip', call], createFloatStream(seeds));
    const out = await post('/api/originals/hilo/cashout', p.token, { round_id: round.id });
    expect(out.status).toBe(200);
    const paid = payoutMinor(1_000n, expected.multiplier, GAME_RULES.hilo.limits.maxWinMinor);
    expect(out.body.data.round).toMatchObject({ status: 'settled', payout: (Number(paid) / 100).toFixed(2) });
    expect(await cash(p.memberId)).toBe(9_000n + paid);
    const twice = await post('/api/originals/hilo/cashout', p.token, { round_id: round.id });
    expect(twice.body.code).toBe('ROUND_NOT_ACTIVE');
    expect(await cash(p.memberId)).toBe(9_000n + paid);
  });

  it('lists the game record with period filters and keyset paging', async () => {
    const p = await player(100_000n);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post('/api/originals/dice/bet', p.token, INSTANT_BETS.dice);
      ids.push(res.body.data.round.id);
    }
    await post('/api/originals/slot/bet', p.token, INSTANT_BETS.slot);
    // One old round, moved back in time, is outside "today" and "7days".
    await app.services.db.execute(
      sql`UPDATE game_rounds SET created_at = now() - interval '10 days' WHERE id = ${ids[0]}::bigint`,
    );

    const page1 = await post('/api/game/record', p.token, { period: 'all', page_size: 4 });
    expect(page1.status).toBe(200);
    expect(page1.body.data.list).toHaveLength(4);
    expect(page1.body.data.list[0]).toMatchObject({
      brand: 'Sorte Originals',
      name: 'Fortuna',
      game: 'slot',
    });
    expect(page1.body.data.list[1]).toMatchObject({ name: 'Dice', bet_amount: '1.00', status: 'settled' });
    expect(page1.body.data.prev_after_id).toBeNull();
    expect(page1.body.data.totals.count).toBe(6);
    const page2 = await post('/api/game/record', p.token, {
      period: 'all',
      page_size: 4,
      before_id: page1.body.data.next_before_id,
    });
    expect(page2.body.data.list.map((r: { id: string }) => r.id)).toEqual([ids[1], ids[0]]);
    expect(page2.body.data.next_before_id).toBeNull();
    const back = await post('/api/game/record', p.token, {
      period: 'all',
      page_size: 4,
      after_id: page2.body.data.prev_after_id,
    });
    expect(back.body.data.list).toEqual(page1.body.data.list);

    for (const period of ['today', 'last_3_days', 'last_7_days']) {
      const res = await post('/api/game/record', p.token, { period });
      expect(res.body.data.totals.count, period).toBe(5);
      expect(res.body.data.list.map((r: { id: string }) => r.id)).not.toContain(ids[0]);
    }
    const dice = await post('/api/game/record', p.token, { game: 'dice' });
    expect(dice.body.data.list.every((r: { game: string }) => r.game === 'dice')).toBe(true);
    const totals = page1.body.data.totals;
    const sum = [...page1.body.data.list, ...page2.body.data.list].reduce(
      (acc: bigint, r: { win_loss: string }) => acc + BigInt(r.win_loss.replace('.', '')),
      0n,
    );
    expect(BigInt(totals.win_loss.replace('.', ''))).toBe(sum);

    const bad = await post('/api/game/record', p.token, { period: 'yesterday' });
    expect(bad.status).toBe(422);
    const other = await player();
    const foreign = await post('/api/game/record/details', other.token, { id: ids[1] });
    expect(foreign.status).toBe(404);
    expect((await post('/api/game/record', other.token, {})).body.data.list).toEqual([]);
  });

  it('sets the client seed by rotating, and keeps the revealed history', async () => {
    const p = await player(1_000n);
    const first = (await call(app, { method: 'GET', url: '/api/fairness/seeds', token: p.token })).body.data;
    await post('/api/originals/dice/bet', p.token, INSTANT_BETS.dice);
    const set = await post('/api/fairness/client-seed', p.token, { client_seed: 'my lucky seed' });
    expect(set.status).toBe(200);
    expect(set.body.data.revealed).toMatchObject({ server_seed_hash: first.server_seed_hash, bets: 1 });
    expect(set.body.data.current).toMatchObject({ client_seed: 'my lucky seed', nonce: 0 });
    const history = await call(app, { method: 'GET', url: '/api/fairness/history', token: p.token });
    expect(history.body.data.total).toBe(1);
    expect(history.body.data.list[0].server_seed).toBe(set.body.data.revealed.server_seed);
    for (const client_seed of ['', 'x'.repeat(65), 'ação']) {
      const bad = await post('/api/fairness/client-seed', p.token, { client_seed });
      expect(bad.status, client_seed).toBe(422);
    }
  });

  it('commits the next server seed before the client seed is chosen, and activates exactly it', async () => {
    const p = await player(1_000n);
    const seeds = async () =>
      (await call(app, { method: 'GET', url: '/api/fairness/seeds', token: p.token })).body.data;
    const shown = await seeds();
    expect(shown.next_server_seed_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(shown.next_server_seed_hash).not.toBe(shown.server_seed_hash);
    // Showing the seeds again commits nothing new: the next seed was drawn once, in advance.
    expect(await seeds()).toEqual(shown);
    await post('/api/originals/dice/bet', p.token, INSTANT_BETS.dice);

    const set = await post('/api/fairness/client-seed', p.token, { client_seed: 'chosen after seeing it' });
    expect(set.status).toBe(200);
    const { revealed, current } = set.body.data;
    expect(current.server_seed_hash).toBe(shown.next_server_seed_hash);
    expect(current.client_seed).toBe('chosen after seeing it');
    expect(current.next_server_seed_hash).not.toBe(shown.next_server_seed_hash);
    expect(revealed.next_server_seed_hash).toBe(shown.next_server_seed_hash);
    expect(
      verifyRotation(
        { serverSeedHash: shown.server_seed_hash, nextServerSeedHash: shown.next_server_seed_hash },
        {
          revealed: { serverSeed: revealed.server_seed },
          current: { serverSeedHash: current.server_seed_hash },
        },
      ),
    ).toEqual({ revealedMatches: true, activatedAsCommitted: true });
    expect(await seeds()).toMatchObject({ server_seed_hash: shown.next_server_seed_hash, nonce: 0 });

    // The seed the bet after the change uses is the committed one: revealed at the next rotation,
    // it hashes to the hash shown as "next" before the client seed was chosen.
    const bet = await post('/api/originals/dice/bet', p.token, INSTANT_BETS.dice);
    expect(bet.body.data.round.fairness.server_seed_hash).toBe(shown.next_server_seed_hash);
    const rotated = await post('/api/fairness/rotate', p.token, {});
    expect(rotated.body.data.revealed.server_seed_hash).toBe(shown.next_server_seed_hash);
    expect(sha256Hex(rotated.body.data.revealed.server_seed)).toBe(shown.next_server_seed_hash);
    expect(rotated.body.data.current.server_seed_hash).toBe(current.next_server_seed_hash);

    // The history links each revealed pair to the next-seed hash its predecessor showed.
    const history = (await call(app, { method: 'GET', url: '/api/fairness/history', token: p.token })).body
      .data;
    const oldestFirst = [...history.list].reverse().map((pair: Record<string, string>) => ({
      serverSeed: pair.server_seed!,
      serverSeedHash: pair.server_seed_hash!,
      nextServerSeedHash: pair.next_server_seed_hash!,
    }));
    expect(verifySeedChain(oldestFirst)).toEqual([
      { seedMatches: true, linked: null },
      { seedMatches: true, linked: true },
    ]);
    // The secret next seed never stays on a revealed pair.
    const [leftovers] = await rowsOf<{ n: number }>(
      app.services.db,
      sql`SELECT count(*)::int AS n FROM fairness_seed_pairs
          WHERE member_id = ${p.memberId.toString()}::bigint AND revealed_at IS NOT NULL
            AND next_server_seed IS NOT NULL`,
    );
    expect(leftovers!.n).toBe(0);
  });

  it('gives a pair from before the next-seed commitment one when it is first shown', async () => {
    const p = await player();
    await call(app, { method: 'GET', url: '/api/fairness/seeds', token: p.token });
    await app.services.db.execute(
      sql`UPDATE fairness_seed_pairs SET next_server_seed = NULL, next_server_seed_hash = NULL
          WHERE member_id = ${p.memberId.toString()}::bigint`,
    );
    const [a, b] = await Promise.all(
      [1, 2].map(() => call(app, { method: 'GET', url: '/api/fairness/seeds', token: p.token })),
    );
    expect(a!.body.data.next_server_seed_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(b!.body.data.next_server_seed_hash).toBe(a!.body.data.next_server_seed_hash);
    const rotated = await post('/api/fairness/rotate', p.token, {});
    expect(rotated.body.data.current.server_seed_hash).toBe(a!.body.data.next_server_seed_hash);
  });

  it('lets guests play with fun money on a demo session, never the wallet', async () => {
    const session = await post('/api/originals/demo/session', undefined, {});
    expect(session.body.data.balance).toBe('1000.00');
    const token = session.body.data.demo_token;
    const headers = { 'x-demo-token': token };
    const bet = await post(
      '/api/originals/dice/bet',
      undefined,
      { ...INSTANT_BETS.dice, amount: '10.00' },
      headers,
    );
    expect(bet.status).toBe(200);
    const round = bet.body.data.round;
    expect(round.demo).toBe(true);
    expect(minor(bet.body.data.balance)).toBe(100_000n - 1_000n + minor(round.payout));
    const bigBet = await post(
      '/api/originals/dice/bet',
      undefined,
      { ...INSTANT_BETS.dice, amount: '5000.00' },
      headers,
    );
    expect(bigBet.body.code).toBe('INSUFFICIENT_FUNDS');
    const transfers = await rowsOf<{ n: string }>(
      app.services.db,
      sql`SELECT count(*) AS n FROM wallet_transfers WHERE reference = ${`round:${round.id}`}`,
    );
    expect(Number(transfers[0]!.n)).toBe(0);
    const stepped = await post('/api/originals/hilo/start', undefined, { amount: '10.00' }, headers);
    expect(stepped.body.data.round).toMatchObject({ status: 'active', demo: true });
    const unknown = await post('/api/originals/dice/bet', undefined, INSTANT_BETS.dice, {
      'x-demo-token': 'A'.repeat(43),
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('DEMO_SESSION_INVALID');
  });

  it('clears demo sessions that expired over a day ago when new ones start', async () => {
    const old = (await post('/api/originals/demo/session', undefined, {})).body.data.demo_token;
    await post('/api/originals/slot/bet', undefined, INSTANT_BETS.slot, { 'x-demo-token': old });
    await app.services.db.execute(
      sql`UPDATE demo_sessions SET expires_at = now() - interval '2 days'
          WHERE token_hash = encode(sha256(convert_to(${old}, 'UTF8')), 'hex')`,
    );
    const expired = await post('/api/originals/slot/bet', undefined, INSTANT_BETS.slot, {
      'x-demo-token': old,
    });
    expect(expired.body.code).toBe('DEMO_SESSION_INVALID');
    await post('/api/originals/demo/session', undefined, {});
    const left = await rowsOf<{ n: string }>(
      app.services.db,
      sql`SELECT count(*) AS n FROM demo_sessions WHERE expires_at < now() - interval '1 day'`,
    );
    expect(Number(left[0]!.n)).toBe(0);
  });

  it("keeps every round on its owner's site: the database refuses a round of another site", async () => {
    const { token, memberId } = await player(10_000n);
    const own = await post('/api/originals/dice/bet', token, INSTANT_BETS.dice);
    const demoToken = (await post('/api/originals/demo/session', undefined, {})).body.data.demo_token;
    const demo = await post('/api/originals/dice/bet', undefined, INSTANT_BETS.dice, {
      'x-demo-token': demoToken,
    });
    expect([own.status, demo.status]).toEqual([200, 200]);
    const otherSite = await createTestSite(app.services.db);
    const foreignKeyViolation = (error: { code?: string; cause?: { code?: string } }) =>
      (error.code ?? error.cause?.code) === '23503';
    // A copy of each stored round under a new key and nonce, on the site given.
    const copy = (roundId: string, site: SQL) =>
      app.services.db.execute(sql`INSERT INTO game_rounds (site_id, member_id, demo_session_id, game_id,
          game_code, status, idempotency_key, request_hash, stake_minor, params, seed_pair_id, nonce)
        SELECT ${site}, member_id, demo_session_id, game_id, game_code, 'active', ${`copy-${randomUUID()}`},
          request_hash, stake_minor, params, seed_pair_id, nonce + 1000
        FROM game_rounds WHERE id = ${roundId}::bigint`);
    for (const round of [own.body.data.round, demo.body.data.round]) {
      // Another site, and a site that does not exist: the owner's key holds the round's site.
      await expect(copy(round.id, sql`${otherSite.toString()}::bigint`)).rejects.toSatisfy(
        foreignKeyViolation,
      );
      await expect(copy(round.id, sql`(SELECT max(id) + 1000 FROM sites)`)).rejects.toSatisfy(
        foreignKeyViolation,
      );
    }
    // The same copy on the owner's own site is a valid row (the refusals above are the site's).
    await copy(own.body.data.round.id, sql`${siteId.toString()}::bigint`);
    const rounds = await rowsOf<{ n: string }>(
      app.services.db,
      sql`SELECT count(*) AS n FROM game_rounds WHERE member_id = ${memberId.toString()}::bigint`,
    );
    expect(Number(rounds[0]!.n)).toBe(2);
    await app.services.db.execute(sql`DELETE FROM game_rounds WHERE idempotency_key LIKE 'copy-%'`);
  });

  it('answers malformed requests with a translated 4xx, never a 500', async () => {
    const p = await player(1_000n);
    const cases: [string, unknown][] = [
      ['/api/originals/mines/pick', { round_id: 'abc', tile: 1 }],
      ['/api/originals/mines/pick', { round_id: '1', tile: 25 }],
      ['/api/originals/mines/pick', {}],
      ['/api/originals/hilo/call', { round_id: '1', call: 'up' }],
      ['/api/originals/hilo/cashout', { round_id: '99999999999999999999' }],
      ['/api/originals/mines/start', { amount: '1.00', mines: 25 }],
      ['/api/originals/mines/start', { amount: '1.00', mines: 0 }],
      ['/api/originals/roulette/bet', { bets: [{ type: 'straight', numbers: [37], amount: '1.00' }] }],
      [
        '/api/originals/roulette/bet',
        { bets: Array.from({ length: 51 }, () => ({ type: 'red', amount: '1.00' })) },
      ],
      ['/api/originals/keno/bet', { amount: '1.00', picks: Array.from({ length: 11 }, (_, i) => i + 1) }],
      ['/api/game/record/details', { id: '123456789' }],
      ['/api/game/record', { page_size: 51 }],
      ['/api/game/record', { before_id: '5', after_id: '9' }],
      ['/api/fairness/client-seed', {}],
      ['/api/originals/dice/bet', 'not json'],
    ];
    for (const [url, payload] of cases) {
      const res = await call(app, {
        method: 'POST',
        url: `${url}?lang=vi`,
        token: p.token,
        payload: payload as Record<string, unknown>,
      });
      expect(res.status, `${url} ${JSON.stringify(payload)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${url} ${JSON.stringify(payload)}`).toBeLessThan(500);
      expect(res.body.status).toBe('fail');
      expect(res.body.message.length).toBeGreaterThan(0);
    }
    const history = await call(app, { method: 'GET', url: '/api/fairness/history?page=0', token: p.token });
    expect(history.status).toBe(422);
    expect(await cash(p.memberId)).toBe(1_000n);
  });

  it('publishes the rules, limits and paytables of every in-house game', async () => {
    const { body } = await call(app, { method: 'GET', url: '/api/originals/rules' });
    const games = body.data.list.map((g: { game: string }) => g.game);
    expect(games.sort()).toEqual([
      'bingo',
      'dice',
      'hilo',
      'keno',
      'limbo',
      'mines',
      'plinko',
      'roulette',
      'slot',
    ]);
    const dice = body.data.list.find((g: { game: string }) => g.game === 'dice');
    expect(dice).toMatchObject({ rtp: '99.00', min_bet: '0.10', max_bet: '5000.00' });
    const plinko = body.data.list.find((g: { game: string }) => g.game === 'plinko');
    expect(plinko.paytable.high['16'].slots).toHaveLength(17);
  });

  it('leaves the ledger reconciled after all these bets', async () => {
    const report = await reconcile(app.services.db, { siteId });
    expect(report.drift).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
