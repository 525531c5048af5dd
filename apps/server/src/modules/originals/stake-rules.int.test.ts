import { createFloatStream, placeMines, playHilo } from '@sorte/fairness';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, fundedPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { getBalances } from '../wallet/balances.ts';

/**
 * Issue 10 item 7 on the server: a bet whose whole-centavo payouts would return less than the RTP
 * shown, or a target whose win would pass the max-win cap, is refused before any money moves, with
 * the minimum (or the highest target) in the player's language; at the minimum, it pays correctly.
 */

const kinds = await databaseKinds();

/** Intl writes "R$ 8,92" with a no-break space; compare with a plain one. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe.each(kinds)('stake rules on %s', (kind) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  const cash = async (memberId: bigint) => (await getBalances(app.services.db, memberId)).cashMinor;
  const post = (url: string, token: string, payload: Record<string, unknown>) =>
    call(app, { method: 'POST', url, token, payload });

  /** What a refusal must leave untouched: the balance, the seed pair's nonce and the game record. */
  async function snapshot(p: { token: string; memberId: bigint }) {
    const seeds = (await call(app, { method: 'GET', url: '/api/fairness/seeds', token: p.token })).body.data;
    const record = (await post('/api/game/record', p.token, { period: 'all' })).body.data.list;
    return { cash: await cash(p.memberId), nonce: seeds.nonce, rounds: record.length };
  }

  async function serverSeedOf(memberId: bigint): Promise<string> {
    const [row] = await rowsOf<{ server_seed: string }>(
      app.services.db,
      sql`SELECT server_seed FROM fairness_seed_pairs WHERE member_id = ${memberId.toString()}::bigint
          AND revealed_at IS NULL`,
    );
    return row!.server_seed;
  }

  it('refuses dice R$ 0,10 under 90.01 (it would win R$ 0,10, RTP 90.01 %) with the minimum, in Portuguese, and changes nothing', async () => {
    const p = await fundedPlayer(app, 10_000n);
    const before = await snapshot(p);
    const bet = { amount: '0.10', direction: 'under', target: 9001 };
    const refused = await post('/api/originals/dice/bet?lang=pt', p.token, bet);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      status: 'fail',
      code: 'STAKE_TOO_SMALL_FOR_TARGET',
      data: { min_stake: '8.92', stake_step: null },
    });
    expect(plain(refused.body.message)).toBe(
      'A aposta mínima para esta escolha é R$ 8,92: uma aposta menor receberia menos que o RTP informado',
    );
    expect(await snapshot(p)).toEqual(before);

    const atMinimum = await post('/api/originals/dice/bet', p.token, { ...bet, amount: '8.92' });
    expect(atMinimum.status).toBe(200);
    // A win pays floor(892 × 9900 / 9001) = 981 centavos: 90.01 % × 9.81 / 8.92 = 98.99 %.
    expect(['0.00', '9.81']).toContain(atMinimum.body.data.round.payout);
  });

  it('refuses limbo R$ 0,10 at 1.09× (it would win R$ 0,10) and names the minimum and the step', async () => {
    const p = await fundedPlayer(app, 10_000n);
    const before = await snapshot(p);
    const refused = await post('/api/originals/limbo/bet', p.token, { amount: '0.10', target: '1.09' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'STAKE_TOO_SMALL_FOR_TARGET',
      message:
        'For this choice, bet R$8.56 or more, or a multiple of R$1.00: other amounts would be paid less than the RTP shown',
      data: { min_stake: '8.56', stake_step: '1.00' },
    });
    expect(await snapshot(p)).toEqual(before);
    const whole = await post('/api/originals/limbo/bet', p.token, { amount: '1.00', target: '1.09' });
    expect(whole.status).toBe(200);
    expect(['0.00', '1.09']).toContain(whole.body.data.round.payout);
  });

  it('refuses limbo R$ 500,00 at 1,000,000× (the cap pays at most 1,000×) with the highest target for that stake', async () => {
    const p = await fundedPlayer(app, 100_000n);
    const before = await snapshot(p);
    const refused = await post('/api/originals/limbo/bet?lang=pt', p.token, {
      amount: '500.00',
      target: '1000000.00',
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'TARGET_ABOVE_CAP',
      data: { max_target: '1000.00', max_win: '500000.00' },
    });
    expect(plain(refused.body.message)).toBe(
      'O ganho máximo é R$ 500.000,00: com este valor de aposta, o alvo mais alto é ×1000.00',
    );
    expect(await snapshot(p)).toEqual(before);
    // R$ 0,50 at the top target wins exactly the cap, so it is taken.
    const fits = await post('/api/originals/limbo/bet', p.token, { amount: '0.50', target: '1000000.00' });
    expect(fits.status).toBe(200);
  });

  it('refuses Hi-Lo at R$ 0,10 (a call that cannot lose, then cash-out, would pay R$ 0,09); at the minimum that cash-out pays correctly', async () => {
    const p = await fundedPlayer(app, 10_000n);
    const before = await snapshot(p);
    const refused = await call(app, {
      method: 'POST',
      url: '/api/originals/hilo/start?lang=pt',
      token: p.token,
      payload: { amount: '0.10' },
    });
    // No stake below R$ 9,10 pays every Hi-Lo cash-out fairly, so it is the game's minimum bet.
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('BET_OUT_OF_RANGE');
    expect(plain(refused.body.message)).toBe('A aposta deve estar entre R$ 9,10 e R$ 5.000,00');
    expect(await snapshot(p)).toEqual(before);
    const active = await call(app, { method: 'GET', url: '/api/originals/hilo/active', token: p.token });
    expect(active.body.data.round).toBeNull();

    const start = await post('/api/originals/hilo/start', p.token, { amount: '9.10' });
    expect(start.status).toBe(200);
    const round = start.body.data.round;
    const seeds = {
      serverSeed: await serverSeedOf(p.memberId),
      clientSeed: round.fairness.client_seed,
      nonce: round.fairness.nonce,
    };
    // Skip to an ace or a king (the test knows the seeds), then make the call that cannot lose.
    let skips = 0;
    for (;;) {
      const now = playHilo(Array(skips).fill('skip'), createFloatStream(seeds));
      const rank = (now.steps.at(-1)?.card ?? now.start).rank;
      if (rank === 1 || rank === 13) break;
      skips += 1;
    }
    for (let i = 0; i < skips; i++) {
      expect(
        (await post('/api/originals/hilo/call', p.token, { round_id: round.id, call: 'skip' })).status,
      ).toBe(200);
    }
    const current = playHilo(Array(skips).fill('skip'), createFloatStream(seeds));
    const sure = (current.steps.at(-1)?.card ?? current.start).rank === 1 ? 'higher' : 'lower';
    const called = await post('/api/originals/hilo/call', p.token, { round_id: round.id, call: sure });
    expect(called.body.data.round).toMatchObject({ status: 'active', multiplier: '0.9900' });
    const out = await post('/api/originals/hilo/cashout', p.token, { round_id: round.id });
    // 0.99 × 9.10 = 9.009 → R$ 9,00: 98.90 % of the stake, within 0.1 pp of the 99 % shown.
    expect(out.body.data.round).toMatchObject({ status: 'settled', payout: '9.00' });
    expect(await cash(p.memberId)).toBe(10_000n - 910n + 900n);
  });

  it('refuses a Mines pick whose win would pass the max win, changes nothing, and pays the cash-out in full', async () => {
    const p = await fundedPlayer(app, 500_000n);
    const start = await post('/api/originals/mines/start', p.token, { amount: '5000.00', mines: 20 });
    expect(start.status).toBe(200);
    const round = start.body.data.round;
    const seeds = {
      serverSeed: await serverSeedOf(p.memberId),
      clientSeed: round.fairness.client_seed,
      nonce: round.fairness.nonce,
    };
    const mines = new Set(placeMines(20, createFloatStream(seeds)));
    const safe = Array.from({ length: 25 }, (_, tile) => tile).filter((tile) => !mines.has(tile));
    for (const tile of safe.slice(0, 2)) {
      expect((await post('/api/originals/mines/pick', p.token, { round_id: round.id, tile })).status).toBe(
        200,
      );
    }
    const after = await cash(p.memberId);
    // A third safe tile would pay 0.99 × C(25,3)/C(5,3) = 227.7× of R$ 5.000, past the R$ 500.000 cap.
    for (const tile of [safe[2]!, [...mines][0]!]) {
      const refused = await post('/api/originals/mines/pick', p.token, { round_id: round.id, tile });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 'MAX_WIN_REACHED',
        message: 'This would win more than the maximum win of R$500,000.00. Please cash out',
      });
    }
    expect(await cash(p.memberId)).toBe(after);
    const open = await call(app, { method: 'GET', url: '/api/originals/mines/active', token: p.token });
    expect(open.body.data.round).toMatchObject({ status: 'active', multiplier: '29.7000' });
    const out = await post('/api/originals/mines/cashout', p.token, { round_id: round.id });
    expect(out.body.data.round).toMatchObject({ status: 'settled', payout: '148500.00' });
  });
});
