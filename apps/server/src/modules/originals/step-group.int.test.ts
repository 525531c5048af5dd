import type { TRound, TSteppedOriginal } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../../test/databases.ts';
import { createRoleMember, memberMoney, refusalOf, settledOf } from '../../../test/group-cases.ts';
import type { Db } from '../../db/client.ts';
import { createTestSite } from '../wallet/wallet.fixtures.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { startSteppedRoundGrouped } from './bet-group.ts';
import { ensurePair } from './fairness.service.ts';
import { findActivePair, type TPlayer } from './originals.repo.ts';
import { startSteppedRound, stepRound, type TBetResult } from './originals.service.ts';
import { stepGrouped, stepGroupStats } from './step-group.ts';
import type { TStepAction } from './stepped.decide.ts';

/**
 * The steps of Mines and Hi-Lo rounds with group commit (step-group.ts) against the one-by-one step:
 * twin sites whose players have the same seed pairs play the same script, one site with
 * `stepRound`, the other with `stepGrouped`, the players concurrently so that their steps meet in
 * groups. Every answer must be the same (the round as the step left it and the balance, or the same
 * refusal), and so must every player's money afterwards; the grouped site reconciles. The script
 * has picks that hit a mine, cash-outs that pay, wrong Hi-Lo calls, a second cash-out
 * (ROUND_NOT_ACTIVE), a step on another player's round (NOT_FOUND), a tile picked twice and a
 * cash-out before any pick (INVALID_BET), and a player whose stakes take a bonus part (their paying
 * cash-outs go one by one: the group defers them).
 */

const kinds = await databaseKinds();
afterAll(closeTestDatabases);

const ROLES = ['plain', 'plain', 'plain', 'plain', 'bonus'] as const;
const ROUNDS = 3;

type TMember = Extract<TPlayer, { kind: 'member' }>;
type Side = { siteId: bigint; players: TMember[] };
type Starter = typeof startSteppedRound;
type Stepper = typeof stepRound;

/** An answer as compared across the twins: the round without its ids and times, and the balance. */
function answerOf(result: PromiseSettledResult<TBetResult>) {
  if (result.status === 'rejected') return refusalOf(result.reason);
  const { round, balance } = result.value;
  const { id: _id, created_at: _created, settled_at: settledAt, fairness, ...rest } = round;
  return { ...rest, settled: settledAt !== null, nonce: fairness?.nonce ?? null, balance };
}

async function createSide(db: Db, campaign: string): Promise<Side> {
  const siteId = await createTestSite(db);
  const pauseEndsAt = new Date(Date.now() + 86_400_000);
  const players: TMember[] = [];
  for (const role of ROLES) {
    const memberId = await createRoleMember(db, siteId, role, { pauseEndsAt, campaign });
    const player = { kind: 'member' as const, siteId, memberId };
    await ensurePair(db, player);
    players.push(player);
  }
  return { siteId, players };
}

async function copySeedPairs(db: Db, from: Side, to: Side): Promise<void> {
  for (const [m, player] of from.players.entries()) {
    const source = await findActivePair(db, player, { lock: false });
    const target = await findActivePair(db, to.players[m]!, { lock: false });
    if (!source || !target) throw new Error('a player has no seed pair after ensurePair');
    await db.execute(sql`UPDATE fairness_seed_pairs t SET server_seed = f.server_seed,
        server_seed_hash = f.server_seed_hash, client_seed = f.client_seed, next_nonce = f.next_nonce,
        next_server_seed = f.next_server_seed, next_server_seed_hash = f.next_server_seed_hash
      FROM fairness_seed_pairs f WHERE f.id = ${source.id.toString()}::bigint AND t.id = ${target.id.toString()}::bigint`);
  }
}

/**
 * Player `m`'s script on one side: ROUNDS rounds (even players Mines with three mines, picking up
 * to three tiles then cashing out; odd players Hi-Lo, skip then higher, lower, then cashing out; the
 * bonus player Mines with one mine, stakes of R$ 12,00 over its R$ 10,00 cash, one pick then
 * cash-out), with the refusals above mixed in. Answers in order.
 */
async function play(
  side: Side,
  m: number,
  start: Starter,
  step: Stepper,
  db: Db,
): Promise<ReturnType<typeof answerOf>[]> {
  const player = side.players[m]!;
  const other = side.players[(m + 1) % side.players.length]!;
  const bonus = ROLES[m] === 'bonus';
  const game: TSteppedOriginal = bonus || m % 2 === 0 ? 'mines' : 'hilo';
  const answers: ReturnType<typeof answerOf>[] = [];
  const act = async (roundId: bigint, action: TStepAction, by: TMember = player) => {
    const result = await settledOf(step(db, by, game, roundId, action));
    answers.push(answerOf(result));
    return result.status === 'fulfilled' ? result.value.round : null;
  };
  for (let r = 0; r < ROUNDS; r += 1) {
    const body =
      game === 'mines' ? { amount: bonus ? '12.00' : '10.00', mines: bonus ? 1 : 3 } : { amount: '10.00' };
    const started = await settledOf(start(db, player, game, body as never, `script:${m}:${r}`));
    answers.push(answerOf(started));
    if (started.status !== 'fulfilled') continue;
    const roundId = BigInt(started.value.round.id);
    if (r === 0) await act(roundId, { kind: 'pick', tile: 0 }, other);
    const actions: TStepAction[] =
      game === 'hilo'
        ? [
            { kind: 'call', call: 'skip' },
            { kind: 'call', call: 'higher' },
            { kind: 'call', call: 'lower' },
          ]
        : bonus
          ? [{ kind: 'pick', tile: r }]
          : [
              ...(r === 1 ? [{ kind: 'cashout' } as const] : []),
              { kind: 'pick', tile: r },
              ...(r === 2 ? [{ kind: 'pick', tile: r } as const] : []),
              { kind: 'pick', tile: r + 7 },
              { kind: 'pick', tile: r + 14 },
            ];
    let round: TRound | null = started.value.round;
    for (const action of actions) {
      if (round?.status !== 'active') break;
      round = (await act(roundId, action)) ?? round;
    }
    await act(roundId, { kind: 'cashout' });
    await act(roundId, { kind: 'cashout' });
  }
  return answers;
}

describe.each(kinds)('steps of Mines and Hi-Lo, grouped against one by one, on %s', (kind) => {
  it('answer every pick, call and cash-out as one by one does, and leave the same money', async () => {
    const { db } = await testDatabase(kind);
    const campaign = `steps-${Date.now()}`;
    const one = await createSide(db, campaign);
    const grouped = await createSide(db, campaign);
    await copySeedPairs(db, one, grouped);

    const expected = await Promise.all(ROLES.map((_, m) => play(one, m, startSteppedRound, stepRound, db)));
    const before = stepGroupStats(db);
    const answered = await Promise.all(
      ROLES.map((_, m) => play(grouped, m, startSteppedRoundGrouped, stepGrouped, db)),
    );
    const after = stepGroupStats(db);

    for (const [m, answers] of answered.entries()) expect(answers).toEqual(expected[m]);
    for (const [m, player] of one.players.entries()) {
      const twin = grouped.players[m]!;
      expect(await memberMoney(db, grouped.siteId, twin.memberId)).toEqual(
        await memberMoney(db, one.siteId, player.memberId),
      );
    }
    expect((await reconcile(db, { siteId: grouped.siteId })).ok).toBe(true);

    // Really grouped: several players' steps in one transaction, none redone one by one.
    expect(after.largestGroup).toBeGreaterThan(1);
    expect(after.groups - before.groups).toBeLessThan(after.bets - before.bets);
    expect(after.fallbacks - before.fallbacks).toBe(0);
    // The bonus player's paying cash-outs (their stakes took a bonus part) are the ones deferred.
    const bonusPaid = expected[ROLES.indexOf('bonus')]!.filter(
      (a) => 'status' in a && a.status === 'settled' && a.payout !== '0.00' && a.game === 'mines',
    ).length;
    expect(bonusPaid).toBeGreaterThan(0);
    expect(after.deferred - before.deferred).toBe(bonusPaid);
    // The refusals the script asks for were met.
    const refusals = expected.flat().flatMap((a) => ('refused' in a ? [a.refused] : []));
    expect(new Set(refusals)).toEqual(new Set(['NOT_FOUND', 'ROUND_NOT_ACTIVE', 'INVALID_BET']));
  }, 120_000);
});
