import { formatMinor, parseMinor, type TOriginal } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../../test/databases.ts';
import {
  expectReallyGrouped,
  grantGroupBonus,
  refusalOf,
  SeenCases,
  settledOf,
} from '../../../test/group-cases.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { insertExclusion, upsertLimit } from '../responsible-gaming/rg.repo.ts';
import { getBalances, getSystemBalances } from '../wallet/balances.ts';
import { createFundedTestMember, createTestSite } from '../wallet/wallet.fixtures.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import {
  type BetGroupStats,
  betGroupStats,
  placeInstantBetGrouped,
  startSteppedRoundGrouped,
} from './bet-group.ts';
import { createDemoSession, findDemoPlayer } from './demo.service.ts';
import { ensurePair } from './fairness.service.ts';
import { isStepped, type TBetBodies } from './originals.games.ts';
import { findActivePair, type TPlayer } from './originals.repo.ts';
import { placeInstantBet, startSteppedRound, type TBetResult } from './originals.service.ts';

/**
 * Group commit of whole in-house bets (issue 16, bet-group.ts) against the one-by-one bet: the same
 * random history of dice and limbo bets and Mines and Hi-Lo starts by several players is placed on
 * one site bet by bet with `placeInstantBet` / `startSteppedRound` and on a twin site with
 * `placeInstantBetGrouped` / `startSteppedRoundGrouped` (a group of N against N groups of one), the players concurrently and
 * each player's own bets in order. The twins have the same seed pairs, so every bet must get the
 * same answer (the same refusal, or the same round and balance), and both sites must end in the same
 * state: balances, bonus grants, turnover, VIP totals, rounds, nonces; the grouped site reconciles.
 *
 * The players: three plain members; one with a daily loss limit (and a loosening already due), one
 * with a daily stake limit (and a loosening not yet due); one with an active bonus grant (a max bet,
 * wagering to do); one on a cooling-off pause; one with new terms to accept; one demo session. The
 * history has stakes above the balance and equal to it, replays of a key and other requests under a
 * used key.
 */

const kinds = await databaseKinds();
afterAll(closeTestDatabases);

const ROLES = ['plain', 'plain', 'plain', 'loss', 'stake', 'bonus', 'pause', 'terms', 'demo'] as const;
type Role = (typeof ROLES)[number];

const START_CASH_MINOR: Record<Role, bigint> = {
  plain: 5_000n,
  loss: 5_000n,
  stake: 5_000n,
  bonus: 1_000n,
  pause: 5_000n,
  terms: 5_000n,
  demo: 0n,
};

type Choice =
  | { game: 'dice'; direction: 'under' | 'over'; target: number }
  | { game: 'limbo'; target: string }
  | { game: 'mines'; mines: number }
  | { game: 'hilo' };

/** A stake of its own, the player's whole balance, or just above it (resolved when the bet is placed). */
type Stake = { fixed: bigint } | { relative: 'exact' | 'over' };

type Op = {
  m: number;
  choice: Choice;
  stake: Stake;
  /** null: a new key; else the key of an earlier bet (same: its very request, a replay; else another request). */
  reuse: { pick: number; same: boolean } | null;
};

const memberArb = fc.oneof(
  ...ROLES.map((role, m) => ({
    weight: role === 'plain' ? 4 : role === 'pause' || role === 'terms' ? 1 : 3,
    arbitrary: fc.constant(m),
  })),
);

const choiceArb: fc.Arbitrary<Choice> = fc.oneof(
  fc.record({
    game: fc.constant('dice' as const),
    direction: fc.constantFrom('under' as const, 'over' as const),
    target: fc.constantFrom(5000, 2500, 7500, 9000),
  }),
  fc.record({ game: fc.constant('limbo' as const), target: fc.constantFrom('2.00', '1.50', '10.00') }),
  // A stepped start stays open: a second start of the same game is ROUND_IN_PROGRESS (ADR 009's
  // least stakes: R$ 0,30 with 24 mines, R$ 9,10 for Hi-Lo; a smaller stake is refused).
  fc.record({ game: fc.constant('mines' as const), mines: fc.constantFrom(24, 20) }),
  fc.record({ game: fc.constant('hilo' as const) }),
);

const stakeArb: fc.Arbitrary<Stake> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(100n, 200n, 500n, 1_000n, 2_000n).map((fixed) => ({ fixed })) },
  { weight: 2, arbitrary: fc.bigInt({ min: 1n, max: 3_000n }).map((fixed) => ({ fixed })) },
  { weight: 2, arbitrary: fc.constant({ relative: 'exact' as const }) },
  { weight: 1, arbitrary: fc.constant({ relative: 'over' as const }) },
);

const opArb: fc.Arbitrary<Op> = fc.record({
  m: memberArb,
  choice: choiceArb,
  stake: stakeArb,
  reuse: fc.oneof(
    { weight: 5, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.record({ pick: fc.nat(), same: fc.boolean() }) },
  ),
});

/**
 * A history that meets every case the coverage check below asks for, run before the random ones
 * (a random history may miss one, e.g. a loss limit that needs R$ 25,00 lost first).
 */
const dice = { game: 'dice' as const, direction: 'under' as const, target: 5000 };
const EVERY_CASE: Op[] = [
  { m: 0, choice: dice, stake: { fixed: 100n }, reuse: null },
  { m: 0, choice: dice, stake: { fixed: 100n }, reuse: { pick: 0, same: true } },
  { m: 0, choice: dice, stake: { fixed: 200n }, reuse: { pick: 0, same: false } },
  { m: 1, choice: dice, stake: { relative: 'over' }, reuse: null },
  { m: 1, choice: dice, stake: { relative: 'exact' }, reuse: null },
  { m: 3, choice: dice, stake: { fixed: 3_000n }, reuse: null },
  { m: 4, choice: dice, stake: { fixed: 4_500n }, reuse: null },
  { m: 5, choice: dice, stake: { fixed: 2_000n }, reuse: null },
  { m: 6, choice: dice, stake: { fixed: 100n }, reuse: null },
  { m: 7, choice: dice, stake: { fixed: 100n }, reuse: null },
  { m: 8, choice: dice, stake: { fixed: 100n }, reuse: null },
  { m: 2, choice: { game: 'mines', mines: 24 }, stake: { fixed: 100n }, reuse: null },
  { m: 2, choice: { game: 'mines', mines: 24 }, stake: { fixed: 200n }, reuse: null },
  { m: 2, choice: { game: 'hilo' }, stake: { fixed: 1_000n }, reuse: null },
];

/** Whose bet each op is: a reused key is the earlier bet's player's. */
function playersOf(ops: Op[]): number[] {
  const of: number[] = [];
  ops.forEach((op, i) => {
    of.push(op.reuse && i > 0 ? of[op.reuse.pick % i]! : op.m);
  });
  return of;
}

type TBody = TBetBodies['dice' | 'limbo' | 'mines' | 'hilo'];
type Request = { game: TOriginal; body: TBody; key: string };

type Site = { siteId: bigint; players: TPlayer[] };

type Place = (
  db: Db,
  player: TPlayer,
  game: TOriginal,
  body: Request['body'],
  key: string,
) => Promise<TBetResult>;

/** A bet one by one: an instant bet, or a stepped round's start. */
const placeOne: Place = (db, player, game, body, key) =>
  isStepped(game)
    ? startSteppedRound(db, player, game, body as TBetBodies['mines'], key)
    : placeInstantBet(db, player, game, body as TBetBodies['dice'], key);

/** The same bet through the group. */
const placeGroupedBet: Place = (db, player, game, body, key) =>
  isStepped(game)
    ? startSteppedRoundGrouped(db, player, game, body as TBetBodies['mines'], key)
    : placeInstantBetGrouped(db, player, game, body as TBetBodies['dice'], key);

function bodyOf(choice: Choice, stakeMinor: bigint): Request['body'] {
  const amount = formatMinor(stakeMinor);
  switch (choice.game) {
    case 'dice':
      return { amount, direction: choice.direction, target: choice.target };
    case 'limbo':
      return { amount, target: choice.target };
    case 'mines':
      return { amount, mines: choice.mines };
    case 'hilo':
      return { amount };
  }
}

/** The request of op `i`, built when it is placed (from the player's balance as its last answer told). */
function requestOf(ops: Op[], i: number, requests: Request[], balanceMinor: bigint): Request {
  const op = ops[i]!;
  if (op.reuse && i > 0) {
    const earlier = requests[op.reuse.pick % i];
    if (!earlier) throw new Error(`op ${i} reuses a request that was not placed before it`);
    if (op.reuse.same) return earlier;
    const stake = parseMinor(earlier.body.amount)!;
    return { ...earlier, body: { ...earlier.body, amount: formatMinor(stake + 100n) } };
  }
  const stakeMinor =
    'fixed' in op.stake ? op.stake.fixed : op.stake.relative === 'exact' ? balanceMinor : balanceMinor + 100n;
  return { game: op.choice.game, body: bodyOf(op.choice, stakeMinor), key: `bet-group-${i}` };
}

type Outcome = PromiseSettledResult<TBetResult>;

/** The outcome of a bet, with its handler attached at once (a refusal is not an unhandled rejection). */
/** An answer without the ids and times that differ between the two sites. */
function answer(outcome: Outcome | undefined) {
  if (!outcome) return { missing: true };
  if (outcome.status === 'rejected') return refusalOf(outcome.reason);
  const { round, balance, replayed } = outcome.value;
  return {
    game: round.game,
    status: round.status,
    demo: round.demo,
    stake: round.stake,
    payout: round.payout,
    win_loss: round.win_loss,
    multiplier: round.multiplier,
    params: round.params,
    outcome: round.outcome,
    fairness: round.fairness,
    balance,
    replayed,
  };
}

/**
 * Places the history: one bet after another, or each player's bets in order with the players
 * concurrent (so several players' bets are pending together and can be grouped).
 */
async function placeHistory(
  db: Db,
  site: Site,
  ops: Op[],
  place: Place,
  mode: 'one-by-one' | 'players-concurrent',
): Promise<Outcome[]> {
  const owner = playersOf(ops);
  const requests: Request[] = [];
  const outcomes: Outcome[] = [];
  const balances = await Promise.all(site.players.map((player) => playable(db, player)));
  const placeOp = async (i: number) => {
    const m = owner[i]!;
    const request = requestOf(ops, i, requests, balances[m]!);
    requests[i] = request;
    const outcome = await settledOf(place(db, site.players[m]!, request.game, request.body, request.key));
    if (outcome.status === 'fulfilled') balances[m] = parseMinor(outcome.value.balance)!;
    outcomes[i] = outcome;
  };
  if (mode === 'one-by-one') {
    for (let i = 0; i < ops.length; i++) await placeOp(i);
  } else {
    await Promise.all(
      site.players.map(async (_, m) => {
        for (let i = 0; i < ops.length; i++) if (owner[i] === m) await placeOp(i);
      }),
    );
  }
  return outcomes;
}

const text = (value: bigint) => value.toString();

async function playable(db: Db, player: TPlayer): Promise<bigint> {
  if (player.kind === 'demo') {
    const [row] = await rowsOf<{ balance_minor: string }>(
      db,
      sql`SELECT balance_minor::text FROM demo_sessions WHERE id = ${text(player.demoSessionId)}::bigint`,
    );
    return BigInt(row!.balance_minor);
  }
  return (await getBalances(db, player.memberId, { siteId: player.siteId })).totalMinor;
}

/** A player of `role` on the site, with the money, limits, grant, pause or pending terms of the role. */
async function createPlayer(db: Db, siteId: bigint, role: Role, pauseEndsAt: Date): Promise<TPlayer> {
  if (role === 'demo') {
    const { demo_token } = await createDemoSession(db, siteId);
    const demo = await findDemoPlayer(db, siteId, demo_token);
    if (!demo) throw new Error('the demo session just created is not found');
    return demo;
  }
  const memberId = await createFundedTestMember(db, siteId, START_CASH_MINOR[role]);
  const limit = { siteId, memberId, period: 'day' as const, pendingRemove: false };
  switch (role) {
    case 'loss':
      // R$ 10,00 a day, loosened to R$ 25,00 by a change already due (the first bet's gate applies it).
      await upsertLimit(db, {
        ...limit,
        kind: 'loss',
        value: 1_000n,
        pendingValue: 2_500n,
        pendingEffectiveAt: new Date(Date.now() - 60_000),
      });
      break;
    case 'stake':
      // R$ 40,00 a day; a loosening waits until tomorrow.
      await upsertLimit(db, {
        ...limit,
        kind: 'stake',
        value: 4_000n,
        pendingValue: 100_000n,
        pendingEffectiveAt: new Date(Date.now() + 86_400_000),
      });
      break;
    case 'bonus':
      await grantGroupBonus(db, siteId, memberId, 'bet-group-test');
      break;
    case 'pause':
      await insertExclusion(db, { siteId, memberId, kind: 'cooling_off', endsAt: pauseEndsAt });
      break;
    case 'terms':
      // Joined yesterday; a version of the terms took effect an hour ago (the site's other members
      // joined after it, so only this one must accept it).
      await db.execute(
        sql`UPDATE members SET created_at = now() - interval '1 day' WHERE id = ${text(memberId)}::bigint`,
      );
      await db.execute(sql`INSERT INTO terms_versions (site_id, version, effective_at)
          VALUES (${text(siteId)}::bigint, 2, now() - interval '1 hour')`);
      break;
    case 'plain':
      break;
  }
  return { kind: 'member', siteId, memberId };
}

async function createSite(db: Db, pauseEndsAt: Date): Promise<Site> {
  const siteId = await createTestSite(db);
  const players: TPlayer[] = [];
  for (const role of ROLES) {
    const player = await createPlayer(db, siteId, role, pauseEndsAt);
    await ensurePair(db, player);
    players.push(player);
  }
  return { siteId, players };
}

/** Gives each player of `twin` the active seed pair (seeds, next seed, nonce) of its player on `site`. */
async function copySeedPairs(db: Db, site: Site, twin: Site): Promise<void> {
  for (const [m, player] of site.players.entries()) {
    const from = await findActivePair(db, player, { lock: false });
    const to = await findActivePair(db, twin.players[m]!, { lock: false });
    if (!from || !to) throw new Error('a player has no seed pair after ensurePair');
    await db.execute(sql`UPDATE fairness_seed_pairs t SET server_seed = f.server_seed,
        server_seed_hash = f.server_seed_hash, client_seed = f.client_seed, next_nonce = f.next_nonce,
        next_server_seed = f.next_server_seed, next_server_seed_hash = f.next_server_seed_hash
      FROM fairness_seed_pairs f WHERE f.id = ${text(from.id)}::bigint AND t.id = ${text(to.id)}::bigint`);
  }
}

async function twinSites(db: Db): Promise<{ one: Site; grouped: Site }> {
  // The same end of the pause on both sites: the COOLING_OFF refusal names it.
  const pauseEndsAt = new Date(Date.now() + 3 * 86_400_000);
  const one = await createSite(db, pauseEndsAt);
  const grouped = await createSite(db, pauseEndsAt);
  await copySeedPairs(db, one, grouped);
  return { one, grouped };
}

/** What a player's bets left behind: rounds, seed pair, money, grants, turnover and VIP totals. */
async function playerState(db: Db, player: TPlayer) {
  const owner =
    player.kind === 'member'
      ? sql`member_id = ${text(player.memberId)}::bigint`
      : sql`demo_session_id = ${text(player.demoSessionId)}::bigint`;
  const rounds = await rowsOf<Record<string, unknown>>(
    db,
    sql`SELECT game_code, status, idempotency_key, request_hash, stake_minor::text, payout_minor::text,
          multiplier, multiplier_num::text, multiplier_den::text, params, outcome, nonce::text,
          bet_transfer_id IS NOT NULL AS staked, win_transfer_id IS NOT NULL AS paid,
          settled_at IS NOT NULL AS settled
        FROM game_rounds WHERE ${owner} ORDER BY nonce`,
  );
  const pairs = await rowsOf<Record<string, unknown>>(
    db,
    sql`SELECT server_seed_hash, client_seed, next_nonce::text, revealed_at IS NULL AS active
        FROM fairness_seed_pairs WHERE ${owner} ORDER BY id`,
  );
  if (player.kind === 'demo') return { rounds, pairs, demoBalanceMinor: await playable(db, player) };
  const member = text(player.memberId);
  return {
    rounds,
    pairs,
    balances: await getBalances(db, player.memberId, { siteId: player.siteId }),
    grants: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT status, balance_minor::text, wagering_done_minor::text, converted_minor::text,
            forfeited_minor::text FROM bonus_grants WHERE member_id = ${member}::bigint ORDER BY id`,
    ),
    turnover: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, category, stake_minor::text, bonus_stake_minor::text, bets
          FROM member_turnover WHERE member_id = ${member}::bigint ORDER BY day, category`,
    ),
    vip: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT total_recharge_minor::text, total_betting_minor::text, slot_betting_minor::text,
            live_betting_minor::text, level FROM member_vip WHERE member_id = ${member}::bigint`,
    ),
    // The member's transfers as a multiset (their ids and keys name rounds, which differ per site).
    transfers: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT t.kind, t.amount_minor::text, d.kind AS debit, c.kind AS credit,
            t.metadata->>'part' AS part, t.metadata->>'category' AS category,
            t.metadata ? 'fedGrantId' AS feeds_grant, t.metadata ? 'bonusParts' AS bonus_parts
          FROM wallet_transfers t
          JOIN wallet_accounts d ON d.id = t.debit_account_id
          JOIN wallet_accounts c ON c.id = t.credit_account_id
          WHERE d.member_id = ${member}::bigint OR c.member_id = ${member}::bigint
          ORDER BY t.kind, t.amount_minor, d.kind, c.kind, part, category, feeds_grant, bonus_parts`,
    ),
  };
}

async function siteState(db: Db, site: Site) {
  const players = [];
  for (const player of site.players) players.push(await playerState(db, player));
  return { players, system: await getSystemBalances(db, site.siteId) };
}

describe.each(kinds)('group commit of in-house bets on %s', (kind) => {
  it('players betting and starting Mines and Hi-Lo rounds concurrently through the group get exactly the answers and state of one-by-one bets', async () => {
    const { db } = await testDatabase(kind);
    const before = betGroupStats(db);
    const seen = new SeenCases();
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 40, size: 'max' }), async (ops) => {
        const { one, grouped } = await twinSites(db);
        const sequential = await placeHistory(db, one, ops, placeOne, 'one-by-one');
        const concurrent = await placeHistory(db, grouped, ops, placeGroupedBet, 'players-concurrent');

        expect(concurrent.map(answer)).toEqual(sequential.map(answer));
        expect(await siteState(db, grouped)).toEqual(await siteState(db, one));
        const report = await reconcile(db, { siteId: grouped.siteId });
        expect(report.drift).toEqual([]);
        expect(report.ok).toBe(true);

        seen.count(sequential);
      }),
      { numRuns: 12, examples: [[EVERY_CASE]] },
    );

    seen.expectMet([
      'placed',
      'emptied',
      'replayed',
      'INSUFFICIENT_FUNDS',
      'IDEMPOTENCY_CONFLICT',
      'RG_LOSS_LIMIT',
      'RG_STAKE_LIMIT',
      'BONUS_MAX_BET',
      'COOLING_OFF',
      'TERMS_NOT_ACCEPTED',
      'ROUND_IN_PROGRESS',
    ]);
    // The demo player's bets, replays and the bonus player's stakes above the max bet went one by one.
    const stats = (s: BetGroupStats) => ({ ...s, items: s.bets, rolledBack: s.fallbacks });
    expectReallyGrouped(stats(before), stats(betGroupStats(db)));
  });
});

describe.each(kinds)('group commit of bets of members holding a bonus on %s', (kind) => {
  it('groups stakes cash covers, feeding the grant, and leaves the stake that completes it to the one-by-one path', async () => {
    const { db } = await testDatabase(kind);
    const siteId = await createTestSite(db);
    const players: Extract<TPlayer, { kind: 'member' }>[] = [];
    for (let i = 0; i < 4; i++) {
      const memberId = await createFundedTestMember(db, siteId, 50_000n);
      await grantGroupBonus(db, siteId, memberId, 'group-feed');
      const player = { kind: 'member' as const, siteId, memberId };
      await ensurePair(db, player);
      players.push(player);
    }
    const before = betGroupStats(db);
    // Seven bets of R$ 10,00 each, the players concurrent: five feed the grant (R$ 50,00 of the
    // R$ 60,00 to wager), the sixth completes it, the seventh is a player's without a grant.
    const answers = await Promise.all(
      players.map(async (player, m) => {
        const mine: TBetResult[] = [];
        for (let i = 0; i < 7; i++) {
          mine.push(
            await placeInstantBetGrouped(
              db,
              player,
              'dice',
              { amount: '10.00', direction: 'under', target: 5000 },
              `feed-${m}-${i}`,
            ),
          );
        }
        return mine;
      }),
    );
    const after = betGroupStats(db);
    expect(after.bets - before.bets).toBe(28);
    // Only the completing stakes (one a player) went one by one; no group rolled back.
    expect(after.deferred - before.deferred).toBe(4);
    expect(after.fallbacks - before.fallbacks).toBe(0);
    expect(after.groups - before.groups).toBeLessThan(28);

    for (const [m, player] of players.entries()) {
      const member = text(player.memberId);
      const [grant] = await rowsOf<Record<string, string>>(
        db,
        sql`SELECT id::text, status, wagering_done_minor::text, converted_minor::text
            FROM bonus_grants WHERE member_id = ${member}::bigint`,
      );
      expect(grant).toMatchObject({
        status: 'completed',
        wagering_done_minor: '6000',
        converted_minor: '3000',
      });
      // The stakes name the grant they fed (the first six), all from cash, as stakeWithBonus posts them.
      const stakes = await rowsOf<{ fed: string | null; part: string; amount: string }>(
        db,
        sql`SELECT t.metadata->>'fedGrantId' AS fed, t.metadata->>'part' AS part, t.amount_minor::text AS amount
            FROM wallet_transfers t JOIN wallet_accounts d ON d.id = t.debit_account_id
            WHERE d.member_id = ${member}::bigint AND t.kind = 'bet' ORDER BY t.id`,
      );
      expect(stakes).toEqual([
        ...Array.from({ length: 6 }, () => ({ fed: grant!.id, part: 'cash', amount: '1000' })),
        { fed: null, part: 'cash', amount: '1000' },
      ]);
      // The last answer's balance is the member's money now: cash plus the converted bonus.
      const balances = await getBalances(db, player.memberId, { siteId });
      expect(balances.bonusMinor).toBe(0n);
      expect(answers[m]!.at(-1)!.balance).toBe(formatMinor(balances.totalMinor));
    }
    const report = await reconcile(db, { siteId });
    expect(report.drift).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe.each(kinds)('group commit of bets that take a bonus part on %s', (kind) => {
  it('groups stakes cash does not cover, their bonus parts leaving the grant and their wins split back into it, as one by one', async () => {
    const { db } = await testDatabase(kind);
    const { one, grouped } = await twinBonusSites(db);
    const before = betGroupStats(db);
    // R$ 5,00 of cash and R$ 30,00 of bonus each; four bets of R$ 8,00 at about 2× (R$ 32,00, all
    // covered, R$ 60,00 to wager): the first takes R$ 5,00 of cash and R$ 3,00 of bonus, the rest
    // bonus and the cash a win brought back.
    const bets = (i: number) => ({ amount: '8.00', direction: 'under' as const, target: 4950 + i });
    const byOne: TBetResult[][] = [];
    for (const player of one) {
      const mine: TBetResult[] = [];
      for (let i = 0; i < 4; i++)
        mine.push(await placeInstantBet(db, player, 'dice', bets(i), `bonus-part-${i}`));
      byOne.push(mine);
    }
    const together = await Promise.all(
      grouped.map(async (player) => {
        const mine: TBetResult[] = [];
        for (let i = 0; i < 4; i++) {
          mine.push(await placeInstantBetGrouped(db, player, 'dice', bets(i), `bonus-part-${i}`));
        }
        return mine;
      }),
    );
    const after = betGroupStats(db);
    expect(after.bets - before.bets).toBe(12);
    expect(after.deferred - before.deferred).toBe(0);
    expect(after.fallbacks - before.fallbacks).toBe(0);
    expect(after.groups - before.groups).toBeLessThan(12);
    const answers = (all: TBetResult[][]) =>
      all.map((mine) => mine.map((r) => ({ balance: r.balance, payout: r.round.payout })));
    expect(answers(together)).toEqual(answers(byOne));
    for (const [i, player] of grouped.entries()) {
      expect(await memberMoney(db, player.memberId)).toEqual(await memberMoney(db, one[i]!.memberId));
    }
    const parts = await memberMoney(db, grouped[0]!.memberId);
    expect(parts.transfers.some((t) => t.kind === 'bet' && t.part === 'bonus')).toBe(true);
    for (const site of [one[0]!.siteId, grouped[0]!.siteId]) {
      const report = await reconcile(db, { siteId: site });
      expect(report.drift).toEqual([]);
      expect(report.ok).toBe(true);
    }
  });
});

/** Two sites of three members each with R$ 5,00 of cash and the group bonus, seed pairs alike. */
async function twinBonusSites(db: Db) {
  const players = [] as Extract<TPlayer, { kind: 'member' }>[][];
  for (const _ of [0, 1]) {
    const siteId = await createTestSite(db);
    const site: Extract<TPlayer, { kind: 'member' }>[] = [];
    for (let m = 0; m < 3; m++) {
      const memberId = await createFundedTestMember(db, siteId, 500n);
      await grantGroupBonus(db, siteId, memberId, `bonus-part-${m}`);
      const player = { kind: 'member' as const, siteId, memberId };
      await ensurePair(db, player);
      site.push(player);
    }
    players.push(site);
  }
  const [one, grouped] = players as [(typeof players)[0], (typeof players)[0]];
  await copySeedPairs(db, { players: one } as Site, { players: grouped } as Site);
  return { one, grouped };
}

/** A member's balances, grants and transfers as amounts and parts (ids and times left out). */
async function memberMoney(db: Db, memberId: bigint) {
  const member = text(memberId);
  return {
    accounts: await rowsOf<Record<string, string>>(
      db,
      sql`SELECT kind, balance_minor::text FROM wallet_accounts WHERE member_id = ${member}::bigint ORDER BY kind`,
    ),
    grants: await rowsOf<Record<string, string>>(
      db,
      sql`SELECT status, balance_minor::text, wagering_done_minor::text, converted_minor::text
          FROM bonus_grants WHERE member_id = ${member}::bigint ORDER BY id`,
    ),
    transfers: await rowsOf<{ kind: string; part: string; amount: string; key: string }>(
      db,
      sql`SELECT t.kind, t.metadata->>'part' AS part, t.amount_minor::text AS amount,
            regexp_replace(t.idempotency_key, '[0-9]+', 'N', 'g') AS key
          FROM wallet_transfers t
          JOIN wallet_accounts d ON d.id = t.debit_account_id JOIN wallet_accounts c ON c.id = t.credit_account_id
          WHERE d.member_id = ${member}::bigint OR c.member_id = ${member}::bigint ORDER BY t.id`,
    ),
  };
}

describe.each(kinds)('group commit of Mines and Hi-Lo starts on %s', (kind) => {
  it('starts the rounds of players pressing at once in groups, a second start of an open game refused', async () => {
    const { db } = await testDatabase(kind);
    const siteId = await createTestSite(db);
    const players: Extract<TPlayer, { kind: 'member' }>[] = [];
    for (let i = 0; i < 6; i++) {
      const memberId = await createFundedTestMember(db, siteId, 10_000n);
      const player = { kind: 'member' as const, siteId, memberId };
      await ensurePair(db, player);
      players.push(player);
    }
    const before = betGroupStats(db);
    const started = await Promise.all(
      players.map((player, m) =>
        m % 2 === 0
          ? startSteppedRoundGrouped(db, player, 'mines', { amount: '1.00', mines: 24 }, `stepped-start-${m}`)
          : startSteppedRoundGrouped(db, player, 'hilo', { amount: '10.00' }, `stepped-start-${m}`),
      ),
    );
    const after = betGroupStats(db);
    expect(after.bets - before.bets).toBe(6);
    expect(after.deferred - before.deferred).toBe(0);
    expect(after.fallbacks - before.fallbacks).toBe(0);
    expect(after.groups - before.groups).toBeLessThan(6);
    for (const [m, answer] of started.entries()) {
      expect(answer.round.status).toBe('active');
      expect(answer.round.game).toBe(m % 2 === 0 ? 'mines' : 'hilo');
      expect(answer.balance).toBe(m % 2 === 0 ? '99.00' : '90.00');
      const balances = await getBalances(db, players[m]!.memberId, { siteId });
      expect(formatMinor(balances.totalMinor)).toBe(answer.balance);
    }
    // The open round is the one the group stored: a second start is refused and takes nothing.
    const again = await settledOf(
      startSteppedRoundGrouped(
        db,
        players[0]!,
        'mines',
        { amount: '1.00', mines: 24 },
        'stepped-start-again',
      ),
    );
    expect(again.status === 'rejected' && refusalOf(again.reason)).toMatchObject({
      refused: 'ROUND_IN_PROGRESS',
    });
    expect((await getBalances(db, players[0]!.memberId, { siteId })).totalMinor).toBe(9_900n);
    const report = await reconcile(db, { siteId });
    expect(report.drift).toEqual([]);
  });
});
