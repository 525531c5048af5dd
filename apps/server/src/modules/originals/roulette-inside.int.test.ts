import { randomUUID } from 'node:crypto';
import { coveredNumbers, type RouletteBetType } from '@sorte/fairness';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, fundedPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { getBalances } from '../wallet/balances.ts';

const kinds = await databaseKinds();

const minor = (text: string) => BigInt(text.replace('.', ''));

/** The inside bets the roulette board offers between the numbers, as its chips send them. */
const INSIDE = [
  { type: 'split', numbers: [0, 2], amount: '0.50' },
  { type: 'split', numbers: [17, 20], amount: '1.00' },
  { type: 'split', numbers: [25, 26], amount: '0.30' },
  { type: 'street', numbers: [13], amount: '1.00' },
  { type: 'corner', numbers: [29], amount: '0.40' },
  { type: 'line', numbers: [1], amount: '2.00' },
  { type: 'trio', numbers: [2], amount: '0.60' },
  { type: 'first_four', numbers: [], amount: '0.40' },
] as const;

describe.each(kinds)('roulette inside bets on %s', (kind) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  const player = (amountMinor: bigint) => fundedPlayer(app, amountMinor);

  const cash = async (memberId: bigint) => (await getBalances(app.services.db, memberId)).cashMinor;

  it('settles split, street, corner, line, trio and first-four chips each at 36 / numbers covered', async () => {
    const p = await player(100_000n);
    // Several spins, so that over them some inside chips win and others lose.
    for (let spin = 0; spin < 6; spin++) {
      const before = await cash(p.memberId);
      const { status, body } = await call(app, {
        method: 'POST',
        url: '/api/originals/roulette/bet',
        token: p.token,
        payload: { bets: INSIDE.map((bet) => ({ ...bet, numbers: [...bet.numbers] })) },
        headers: { 'Idempotency-Key': randomUUID() },
      });
      expect(status, JSON.stringify(body)).toBe(200);
      const round = body.data.round;
      const pocket = Number(round.outcome.pocket);
      expect(minor(round.stake)).toBe(620n);
      let expected = 0n;
      for (const bet of INSIDE) {
        const cover = coveredNumbers({
          type: bet.type as RouletteBetType,
          numbers: bet.numbers,
          stakeMinor: 1n,
        });
        if (cover.includes(pocket)) expected += (minor(bet.amount) * 36n) / BigInt(cover.length);
      }
      expect(minor(round.payout)).toBe(expected);
      expect(await cash(p.memberId)).toBe(before - 620n + expected);
      const results = round.outcome.results as { bet: { type: string }; win: boolean }[];
      expect(results.map((result) => result.bet.type)).toEqual(INSIDE.map((bet) => bet.type));
    }
  });

  it('refuses an inside bet that is not on the layout and takes nothing', async () => {
    const p = await player(10_000n);
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'split', numbers: [3, 4], amount: '1.00' }, 'INVALID_BET'],
      [{ type: 'split', numbers: [0, 4], amount: '1.00' }, 'INVALID_BET'],
      [{ type: 'street', numbers: [2], amount: '1.00' }, 'INVALID_BET'],
      [{ type: 'corner', numbers: [3], amount: '1.00' }, 'INVALID_BET'],
      [{ type: 'corner', numbers: [34], amount: '1.00' }, 'INVALID_BET'],
      [{ type: 'line', numbers: [34], amount: '1.00' }, 'INVALID_BET'],
      [{ type: 'trio', numbers: [3], amount: '1.00' }, 'INVALID_BET'],
      [{ type: 'first_four', numbers: [0], amount: '1.00' }, 'INVALID_BET'],
      [{ type: 'corner', numbers: [0, 1, 2], amount: '1.00' }, 'VALIDATION_FAILED'],
      [{ type: 'basket', numbers: [0], amount: '1.00' }, 'VALIDATION_FAILED'],
    ];
    for (const [bet, code] of cases) {
      const { status, body } = await call(app, {
        method: 'POST',
        url: '/api/originals/roulette/bet',
        token: p.token,
        payload: { bets: [bet] },
      });
      expect(body.code, JSON.stringify(bet)).toBe(code);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
    expect(await cash(p.memberId)).toBe(10_000n);
  });
});
