import { formatMinor, parseMinor, type TCrashBet } from '@sorte/contract';
import { fromHundredths, GAME_RULES, payoutMinor } from '@sorte/fairness';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase } from '../../../test/app.ts';
import { crashClockStart, crashInstant, nextKnownRound } from '../../../test/crash.ts';
import { databaseKinds } from '../../../test/databases.ts';
import {
  createRoleMember,
  expectReallyGrouped,
  GROUP_ROLES,
  GROUP_START_CASH_MINOR,
  grantGroupBonus,
  groupStartCash,
  memberMoney,
  refusalOf,
  SeenCases,
  settledOf,
  type TGroupRole,
} from '../../../test/group-cases.ts';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { ensurePair } from '../originals/fairness.service.ts';
import { findActivePair } from '../originals/originals.repo.ts';
import { getBalances, getSystemBalances } from '../wallet/balances.ts';
import { createFundedTestMember, createTestSite } from '../wallet/wallet.fixtures.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import type { CrashEngine } from './crash.engine.ts';
import { findLatestRoundSecret } from './crash.repo.ts';

/**
 * Group commit of crash bets and of the players' cash-outs (ADR 026, crash.bet-group.ts,
 * crash.settle-group.ts) against the one-by-one ones: the same random history of crash bets and
 * presses of "cash out" over three rounds is placed on one site one by one (`placeBet` and
 * `cashOut` with `oneByOne`) and on a twin site through the groups, its players concurrently and
 * each player's own requests in order. Both sites bet in the same rounds and their players have the same seed pairs, so
 * every bet must get the same answer (the same refusal, or the same bet and balance), and both sites
 * must end in the same state once the rounds are played out (auto cash-outs paid, the rest lost):
 * bets, balances, bonus grants, turnover, VIP totals, transfers; the grouped site reconciles.
 *
 * The players: three plain members; one with a daily stake limit; one with an active bonus grant
 * (its stakes the cash does not cover take bonus parts in the group; those above the max bet or
 * completing the grant go one by one); one on a cooling-off pause; one with new terms to accept. The
 * history has stakes above the balance and equal to it, replays of a key and other requests under a
 * used key, a second bet in a round, and bets made after the round's betting ended. Its presses
 * come while the round runs or after the crash settled it (a press taken in time but written late),
 * taken at any moment of the round up to the crash instant, at it or after it, twice by one player,
 * by players without a bet.
 */

const kinds = await databaseKinds();

const ROLES = GROUP_ROLES;
const START_CASH_MINOR = GROUP_START_CASH_MINOR;
const startCash = groupStartCash;
const ROUNDS = 3;

type Stake = { fixed: bigint } | { relative: 'exact' | 'over' };

type Op = {
  m: number;
  round: number;
  stake: Stake;
  auto: string | null;
  /** null: a new key; else the key of an earlier bet (same: its very request, a replay; else another). */
  reuse: { pick: number; same: boolean } | null;
  /** Made once the round's betting has ended. */
  late: boolean;
};

const opArb: fc.Arbitrary<Op> = fc.record({
  m: fc.nat({ max: ROLES.length - 1 }),
  round: fc.nat({ max: ROUNDS - 1 }),
  stake: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(100n, 200n, 500n, 1_000n, 2_000n).map((fixed) => ({ fixed })) },
    { weight: 2, arbitrary: fc.constant({ relative: 'exact' as const }) },
    { weight: 1, arbitrary: fc.constant({ relative: 'over' as const }) },
  ),
  auto: fc.constantFrom('1.50', '3.00', null),
  reuse: fc.oneof(
    { weight: 5, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.record({ pick: fc.nat(), same: fc.boolean() }) },
  ),
  late: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

/** A press of "cash out" by player `m` in `round`. */
type Press = {
  m: number;
  round: number;
  /** When the server took it: a share of the way to the crash instant (0–999 thousandths), at it, after it. */
  when: number | 'instant' | 'after';
  /** Written once the crash has settled the round (taken in time or not). */
  afterCrash: boolean;
};

const pressArb: fc.Arbitrary<Press> = fc.record({
  m: fc.nat({ max: ROLES.length - 1 }),
  round: fc.nat({ max: ROUNDS - 1 }),
  when: fc.oneof(
    { weight: 6, arbitrary: fc.nat({ max: 999 }) },
    { weight: 1, arbitrary: fc.constantFrom('instant' as const, 'after' as const) },
  ),
  afterCrash: fc.boolean(),
});

/** Every case the coverage check asks for, placed before the random histories. */
const op = (m: number, round: number, stake: Stake, extra: Partial<Op> = {}): Op => ({
  m,
  round,
  stake,
  auto: '1.50',
  reuse: null,
  late: false,
  ...extra,
});
const EVERY_CASE: Op[] = [
  op(0, 0, { fixed: 100n }),
  op(0, 0, { fixed: 100n }, { reuse: { pick: 0, same: true } }),
  op(0, 0, { fixed: 100n }, { reuse: { pick: 0, same: false } }),
  op(0, 0, { fixed: 200n }),
  op(1, 0, { relative: 'over' }),
  op(1, 0, { relative: 'exact' }),
  op(2, 0, { fixed: 500n }, { auto: null }),
  op(3, 0, { fixed: 2_000n }),
  op(3, 1, { fixed: 2_000n }),
  op(4, 0, { fixed: 2_000n }),
  op(4, 0, { fixed: 1_500n }),
  op(4, 1, { fixed: 500n }),
  op(5, 0, { fixed: 100n }),
  op(6, 0, { fixed: 100n }),
  op(2, 1, { fixed: 100n }, { late: true }),
  op(0, 2, { fixed: 300n }),
];

const press = (m: number, round: number, when: Press['when'], afterCrash = false): Press => ({
  m,
  round,
  when,
  afterCrash,
});
/** Presses meeting every answer: paid while running and after the crash, refused each way. */
const EVERY_PRESS: Press[] = [
  press(0, 0, 900),
  press(0, 0, 950),
  press(2, 0, 800, true),
  press(3, 0, 'instant'),
  press(1, 0, 'after', true),
  press(5, 0, 500),
  press(4, 0, 600),
  press(4, 1, 600),
  press(0, 2, 0),
];

/** Whose bet each op is: a reused key is the earlier bet's player's. */
function playersOf(ops: Op[]): number[] {
  const of: number[] = [];
  ops.forEach((o, i) => {
    of.push(o.reuse && i > 0 ? of[o.reuse.pick % i]! : o.m);
  });
  return of;
}

type Request = { amount: string; autoCashout: string | undefined; idempotencyKey: string };
type Site = { siteId: bigint; members: bigint[] };
type Outcome = PromiseSettledResult<{ bet: TCrashBet; balance: string; replayed: boolean }>;
type PressOutcome = PromiseSettledResult<{ bet: TCrashBet; balance: string }>;

function requestOf(ops: Op[], i: number, requests: Request[], balanceMinor: bigint): Request {
  const o = ops[i]!;
  if (o.reuse && i > 0) {
    const earlier = requests[o.reuse.pick % i];
    if (!earlier) throw new Error(`op ${i} reuses a request that was not made before it`);
    if (o.reuse.same) return earlier;
    return { ...earlier, amount: formatMinor(parseMinor(earlier.amount)! + 100n) };
  }
  const stakeMinor =
    'fixed' in o.stake ? o.stake.fixed : o.stake.relative === 'exact' ? balanceMinor : balanceMinor + 100n;
  return {
    amount: formatMinor(stakeMinor),
    autoCashout: o.auto ?? undefined,
    idempotencyKey: `crash-group-${i}`,
  };
}

/** An answer without the ids that differ between the two sites. */
function answer(outcome: Outcome | PressOutcome | undefined) {
  if (!outcome) return { missing: true };
  if (outcome.status === 'rejected') return refusalOf(outcome.reason);
  const { bet, balance } = outcome.value;
  const { id: _id, ...rest } = bet;
  return { ...rest, balance, replayed: 'replayed' in outcome.value ? outcome.value.replayed : null };
}

const text = (value: bigint) => value.toString();

async function createSite(db: Db, pauseEndsAt: Date): Promise<Site> {
  const siteId = await createTestSite(db);
  const members: bigint[] = [];
  for (const role of ROLES) members.push(await createMember(db, siteId, role, pauseEndsAt));
  return { siteId, members };
}

async function createMember(db: Db, siteId: bigint, role: TGroupRole, pauseEndsAt: Date): Promise<bigint> {
  const options = { pauseEndsAt, campaign: 'crash-group-test' };
  const memberId = await createRoleMember(db, siteId, role, options);
  await ensurePair(db, { kind: 'member', siteId, memberId });
  return memberId;
}

/** Twin sites whose players have the same client seeds (a bet carries its player's). */
async function twinSites(db: Db): Promise<{ one: Site; grouped: Site }> {
  const pauseEndsAt = new Date(Date.now() + 3 * 86_400_000);
  const one = await createSite(db, pauseEndsAt);
  const grouped = await createSite(db, pauseEndsAt);
  for (const [m, memberId] of one.members.entries()) {
    const from = await findActivePair(db, { kind: 'member', siteId: one.siteId, memberId }, { lock: false });
    const to = await findActivePair(
      db,
      { kind: 'member', siteId: grouped.siteId, memberId: grouped.members[m]! },
      { lock: false },
    );
    await db.execute(sql`UPDATE fairness_seed_pairs SET client_seed = ${from!.clientSeed}
        WHERE id = ${text(to!.id)}::bigint`);
  }
  return { one, grouped };
}

/** What a member's bets left behind, without the ids that differ between the sites. */
async function memberState(db: Db, siteId: bigint, memberId: bigint) {
  const member = text(memberId);
  return {
    bets: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT round_id::text, stake_minor::text, auto_cashout_hundredths, cashout_hundredths,
            payout_minor::text, status, idempotency_key, request_hash, client_seed,
            (extract(epoch FROM settled_at) * 1000)::bigint::text AS settled_ms,
            bet_transfer_id IS NOT NULL AS staked, win_transfer_id IS NOT NULL AS paid
          FROM crash_bets WHERE member_id = ${member}::bigint ORDER BY round_id, idempotency_key`,
    ),
    ...(await memberMoney(db, siteId, memberId)),
    transfers: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT t.kind, t.amount_minor::text, d.kind AS debit, c.kind AS credit, t.metadata - ARRAY['betId', 'stakeKey', 'fedGrantId', 'bonusParts', 'grantId'] AS metadata,
            t.metadata ? 'fedGrantId' AS feeds_grant, t.metadata ? 'bonusParts' AS bonus_parts
          FROM wallet_transfers t
          JOIN wallet_accounts d ON d.id = t.debit_account_id
          JOIN wallet_accounts c ON c.id = t.credit_account_id
          WHERE (d.member_id = ${member}::bigint OR c.member_id = ${member}::bigint) AND t.kind IN ('bet', 'win')
          ORDER BY t.kind, t.amount_minor, t.metadata->>'roundId',
            (t.metadata - ARRAY['betId', 'stakeKey', 'fedGrantId', 'bonusParts', 'grantId'])::text, feeds_grant, bonus_parts`,
    ),
  };
}

async function siteState(db: Db, site: Site) {
  const members = [];
  for (const memberId of site.members) members.push(await memberState(db, site.siteId, memberId));
  return { members, system: await getSystemBalances(db, site.siteId) };
}

/**
 * Independent of both paths: each bet of the site's cash-only members settled as its round's crash
 * point says — cashed at its auto target when the crash point reached it, or cashed by a press below
 * the crash point (and not past its target), with the game's payout; else lost — and each such
 * member's cash is what its stakes and wins leave.
 */
async function expectSettledByCrashPoints(db: Db, site: Site): Promise<void> {
  for (const [m, memberId] of site.members.entries()) {
    if (ROLES[m] === 'bonus') continue;
    const bets = await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT c.stake_minor::text AS stake, c.auto_cashout_hundredths AS auto, c.status,
            c.cashout_hundredths AS cashout, c.payout_minor::text AS payout, r.crash_hundredths AS crash
          FROM crash_bets c JOIN crash_rounds r ON r.id = c.round_id WHERE c.member_id = ${text(memberId)}::bigint`,
    );
    let cash = START_CASH_MINOR;
    for (const bet of bets) {
      const stake = BigInt(String(bet.stake));
      const auto = bet.auto === null ? null : Number(bet.auto);
      const crash = Number(bet.crash);
      const autoWins = auto !== null && auto <= crash;
      const pressed = bet.status === 'cashed' && bet.cashout !== auto;
      const at = autoWins && !pressed ? auto : pressed ? Number(bet.cashout) : null;
      if (pressed) {
        expect(at).toBeLessThan(crash);
        if (auto !== null) expect(at).toBeLessThanOrEqual(auto);
      }
      const payout =
        at === null ? 0n : payoutMinor(stake, fromHundredths(at), GAME_RULES.crash.limits.maxWinMinor);
      expect(bet).toMatchObject({
        status: at === null ? 'lost' : 'cashed',
        cashout: at,
        payout: payout.toString(),
      });
      cash += payout - stake;
    }
    expect((await getBalances(db, memberId, { siteId: site.siteId })).cashMinor).toBe(cash);
  }
}

/** Five members of a new site with R$ 50,00 and a seed pair each. */
async function fiveMembers(db: Db): Promise<{ siteId: bigint; members: bigint[] }> {
  const siteId = await createTestSite(db);
  const members: bigint[] = [];
  for (let i = 0; i < 5; i++) {
    const memberId = await createFundedTestMember(db, siteId, START_CASH_MINOR);
    await ensurePair(db, { kind: 'member', siteId, memberId });
    members.push(memberId);
  }
  return { siteId, members };
}

/**
 * Runs `work` while a statement that writes (`event`) several rows of crash_bets matching `rows`
 * fails: it stands in for what fails a group's write in service (a member's request placed one by
 * one meanwhile, VIP totals moved).
 */
async function whileRefused(
  db: Db,
  name: string,
  event: 'INSERT' | 'UPDATE',
  rows: string,
  work: () => Promise<void>,
): Promise<void> {
  await db.execute(
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (SELECT count(*) FROM written WHERE ${rows}) > 1 THEN
          RAISE EXCEPTION 'several rows in one statement';
        END IF;
        RETURN NULL;
      END $$`),
  );
  await db.execute(
    sql.raw(`CREATE TRIGGER ${name} AFTER ${event} ON crash_bets REFERENCING NEW TABLE AS written
      FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`),
  );
  try {
    await work();
  } finally {
    await db.execute(sql.raw(`DROP TRIGGER ${name} ON crash_bets`));
    await db.execute(sql.raw(`DROP FUNCTION ${name}()`));
  }
}

describe.each(kinds)('group commit of crash bets and cash-outs on %s', (kind) => {
  let app: FastifyInstance;
  let engine: CrashEngine;
  let db: Db;
  let now = Date.now();
  let salt: { siteId: bigint; memberId: bigint };

  beforeAll(async () => {
    const database = await seededDatabase(kind);
    db = database.db;
    app = await buildApp({ config: testConfig(), database });
    await app.ready();
    engine = app.crash;
    now = await crashClockStart(database.db);
    await engine.start({ clock: () => now, autoRun: false });
    const siteId = (await app.services.sites.byCode('sorte'))!.id;
    salt = { siteId, memberId: await createFundedTestMember(db, siteId, 10_000_000n) };
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  /** Plays the current round out and opens the next (past a new chain's salt ceremony). */
  const nextRound = () => nextKnownRound(db, engine, { now: () => now, advance: (ms) => (now += ms) }, salt);

  /**
   * The history round by round, both sites in the same round: the one-by-one site request after
   * request, then the grouped site with its players concurrent (each player's own in order). Bets
   * made late follow once betting ended; then the round runs, takes the presses made while it
   * runs, crashes, and takes the presses made after the crash.
   */
  async function placeHistory(ops: Op[], presses: Press[], one: Site, grouped: Site) {
    const owner = playersOf(ops);
    const sites = [
      {
        site: one,
        oneByOne: true,
        requests: [] as Request[],
        outcomes: [] as Outcome[],
        pressed: [] as PressOutcome[],
      },
      {
        site: grouped,
        oneByOne: false,
        requests: [] as Request[],
        outcomes: [] as Outcome[],
        pressed: [] as PressOutcome[],
      },
    ];
    const balances = sites.map(() => ROLES.map(startCash));
    /** Runs `run(i)` for each index: one by one on the first site, players concurrent on the grouped one. */
    const inTurn = async (
      oneByOne: boolean,
      these: number[],
      of: (i: number) => number,
      run: (i: number) => Promise<void>,
    ) => {
      if (oneByOne) {
        for (const i of these) await run(i);
        return;
      }
      await Promise.all(
        ROLES.map(async (_, m) => {
          for (const i of these) if (of(i) === m) await run(i);
        }),
      );
    };
    for (let round = 0; round < ROUNDS; round++) {
      // A round that reaches 1.20 ×: a press late in it pays (below 1.01 × none can).
      let opened = await nextRound();
      while (opened.crashHundredths! < 120) opened = await nextRound();
      for (const late of [false, true]) {
        if (late) now = opened.bettingEndsAt;
        const these = ops.flatMap((o, i) => (o.round === round && o.late === late ? [i] : []));
        for (const [s, side] of sites.entries()) {
          const placeOp = async (i: number) => {
            const m = owner[i]!;
            const request = requestOf(ops, i, side.requests, balances[s]![m]!);
            side.requests[i] = request;
            const member = {
              kind: 'member' as const,
              siteId: side.site.siteId,
              memberId: side.site.members[m]!,
            };
            side.outcomes[i] = await settledOf(engine.placeBet(member, request, { oneByOne: side.oneByOne }));
            const placed = side.outcomes[i]!;
            if (placed.status === 'fulfilled') balances[s]![m] = parseMinor(placed.value.balance)!;
          };
          await inTurn(side.oneByOne, these, (i) => owner[i]!, placeOp);
        }
      }
      // The round runs; presses while it runs, then the crash, then presses written after it.
      now = opened.bettingEndsAt;
      await engine.step();
      const running = (await findLatestRoundSecret(db))!;
      expect(running).toMatchObject({ id: opened.id, state: 'running' });
      const instant = crashInstant(running.crashHundredths!);
      const takenAt = (p: Press) =>
        running.startedAt! +
        (p.when === 'instant'
          ? instant
          : p.when === 'after'
            ? instant + 1_000
            : Math.min(instant - 1, Math.floor((p.when * instant) / 1_000)));
      for (const afterCrash of [false, true]) {
        if (afterCrash) {
          now = running.startedAt! + instant;
          await engine.step();
          expect((await findLatestRoundSecret(db))!.state).toBe('crashed');
        }
        const these = presses.flatMap((p, i) =>
          p.round === round && p.afterCrash === afterCrash ? [i] : [],
        );
        for (const side of sites) {
          await inTurn(
            side.oneByOne,
            these,
            (i) => presses[i]!.m,
            async (i) => {
              const p = presses[i]!;
              const member = {
                kind: 'member' as const,
                siteId: side.site.siteId,
                memberId: side.site.members[p.m]!,
              };
              side.pressed[i] = await settledOf(
                engine.cashOut(member, running.id, takenAt(p), { oneByOne: side.oneByOne }),
              );
            },
          );
        }
      }
    }
    // The last round played out: every bet cashed out or lost.
    await nextRound();
    return {
      sequential: sites[0]!.outcomes,
      concurrent: sites[1]!.outcomes,
      pressedOne: sites[0]!.pressed,
      pressedGrouped: sites[1]!.pressed,
    };
  }

  it('players betting concurrently through the group get exactly the answers and state of one-by-one bets', async () => {
    const before = { ...engine.betGroupStats };
    const pressesBefore = { ...engine.cashOutGroupStats };
    const seen = new SeenCases();
    const seenPresses = new SeenCases();
    let paidAfterCrash = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 30, size: 'max' }),
        fc.array(pressArb, { maxLength: 20, size: 'max' }),
        async (drawn, presses) => {
          // In the order they are made (a reused key is an earlier bet's).
          const ops = [...drawn].sort((a, b) => a.round - b.round || Number(a.late) - Number(b.late));
          const { one, grouped } = await twinSites(db);
          const { sequential, concurrent, pressedOne, pressedGrouped } = await placeHistory(
            ops,
            presses,
            one,
            grouped,
          );

          expect(concurrent.map(answer)).toEqual(sequential.map(answer));
          expect(pressedGrouped.map(answer)).toEqual(pressedOne.map(answer));
          expect(await siteState(db, grouped)).toEqual(await siteState(db, one));
          await expectSettledByCrashPoints(db, grouped);
          const report = await reconcile(db, { siteId: grouped.siteId });
          expect(report.drift).toEqual([]);
          expect(report.ok).toBe(true);

          seen.count(sequential);
          paidAfterCrash += presses.filter(
            (p, i) => p.afterCrash && pressedOne[i]?.status === 'fulfilled',
          ).length;
          seenPresses.count(
            pressedOne.map(
              (p) => p && (p.status === 'fulfilled' ? { ...p, value: { ...p.value, replayed: false } } : p),
            ),
          );
        },
      ),
      { numRuns: 4, examples: [[EVERY_CASE, EVERY_PRESS]] },
    );

    seen.expectMet([
      'placed',
      'emptied',
      'replayed',
      'INSUFFICIENT_FUNDS',
      'IDEMPOTENCY_CONFLICT',
      'CRASH_ALREADY_BET',
      'CRASH_BETTING_CLOSED',
      'RG_STAKE_LIMIT',
      'BONUS_MAX_BET',
      'COOLING_OFF',
      'TERMS_NOT_ACCEPTED',
    ]);
    seenPresses.expectMet(['placed', 'NOT_FOUND', 'ROUND_NOT_ACTIVE', 'CRASH_CASHOUT_CLOSED']);
    // Presses taken in time but written after the crash had marked their bets lost.
    expect(paidAfterCrash).toBeGreaterThan(0);
    // The bonus player's stakes above the max bet or completing the grant, and the presses of bets
    // that took a bonus part, went one by one.
    expectReallyGrouped(before, engine.betGroupStats);
    expectReallyGrouped(pressesBefore, engine.cashOutGroupStats);
  }, 300_000);

  it('groups stakes the cash does not cover, their bonus parts leaving the grant, as one by one', async () => {
    // Twin sites of three members with R$ 5,00 of cash and the group bonus (R$ 30,00, max bet
    // R$ 15,00): a bet of R$ 8,00 takes R$ 5,00 of cash and R$ 3,00 of bonus.
    const sites: { siteId: bigint; members: bigint[] }[] = [];
    for (const _ of [0, 1]) {
      const siteId = await createTestSite(db);
      const members: bigint[] = [];
      for (let m = 0; m < 3; m++) {
        const memberId = await createFundedTestMember(db, siteId, 500n);
        await grantGroupBonus(db, siteId, memberId, `crash-bonus-part-${m}`);
        await ensurePair(db, { kind: 'member', siteId, memberId });
        members.push(memberId);
      }
      sites.push({ siteId, members });
    }
    const [one, grouped] = sites as [(typeof sites)[0], (typeof sites)[0]];
    await nextRound();
    const bet = (siteId: bigint, memberId: bigint, oneByOne: boolean) =>
      engine.placeBet(
        { kind: 'member', siteId, memberId },
        { amount: '8.00', autoCashout: '1.50', idempotencyKey: 'crash-bonus-part' },
        { oneByOne },
      );
    const byOne = [];
    for (const memberId of one.members) byOne.push(await bet(one.siteId, memberId, true));
    const before = { ...engine.betGroupStats };
    const together = await Promise.all(
      grouped.members.map((memberId) => bet(grouped.siteId, memberId, false)),
    );
    const after = engine.betGroupStats;
    expect(after.items - before.items).toBe(3);
    expect(after.deferred - before.deferred).toBe(0);
    expect(after.rolledBack - before.rolledBack).toBe(0);
    expect(after.groups - before.groups).toBeLessThan(3);
    const answer = (placed: { balance: string; bet: { amount: string; status: string } }) => ({
      balance: placed.balance,
      amount: placed.bet.amount,
      status: placed.bet.status,
    });
    expect(together.map(answer)).toEqual(byOne.map(answer));
    expect(together[0]!.balance).toBe('27.00');
    // The round played out: the bets cashed out at 1,50× or lost alike, the win split back as staked.
    await nextRound();
    const settledMoney = async (siteId: bigint, memberId: bigint) => ({
      ...(await memberMoney(db, siteId, memberId)),
      bets: await rowsOf(
        db,
        sql`SELECT status, payout_minor::text, bet_transfer_id IS NOT NULL AS staked
            FROM crash_bets WHERE member_id = ${text(memberId)}::bigint`,
      ),
    });
    for (const [m, memberId] of grouped.members.entries()) {
      expect(await settledMoney(grouped.siteId, memberId)).toEqual(
        await settledMoney(one.siteId, one.members[m]!),
      );
    }
    const parts = await rowsOf<{ part: string; amount: string }>(
      db,
      sql`SELECT t.metadata->>'part' AS part, t.amount_minor::text AS amount FROM wallet_transfers t
          JOIN wallet_accounts d ON d.id = t.debit_account_id
          WHERE d.member_id = ${text(grouped.members[0]!)}::bigint AND t.kind = 'bet' ORDER BY part`,
    );
    expect(parts).toEqual([
      { part: 'bonus', amount: '300' },
      { part: 'cash', amount: '500' },
    ]);
    for (const { siteId } of sites) {
      const report = await reconcile(db, { siteId });
      expect(report.drift).toEqual([]);
      expect(report.ok).toBe(true);
    }
  });

  it('places every bet of a group whose write failed one by one, each exactly once', async () => {
    const { siteId, members } = await fiveMembers(db);
    await nextRound();
    // A statement inserting several bets of the site fails.
    const before = { ...engine.betGroupStats };
    await whileRefused(db, `crash_group_refused_${kind}`, 'INSERT', `site_id = ${siteId}`, async () => {
      const answers = await Promise.all(
        members.map((memberId, i) =>
          engine.placeBet(
            { kind: 'member', siteId, memberId },
            { amount: '1.00', autoCashout: '2.00', idempotencyKey: `fallback-${i}` },
          ),
        ),
      );
      for (const placed of answers) {
        expect(placed).toMatchObject({
          balance: '49.00',
          replayed: false,
          bet: { amount: '1.00', status: 'placed' },
        });
      }
    });
    expect(engine.betGroupStats.rolledBack - before.rolledBack).toBeGreaterThan(0);
    for (const memberId of members) {
      const rows = await rowsOf<{ bets: unknown; staked: unknown; stakes: unknown }>(
        db,
        sql`SELECT (SELECT count(*) FROM crash_bets WHERE member_id = ${text(memberId)}::bigint) AS bets,
              (SELECT count(*) FROM crash_bets WHERE member_id = ${text(memberId)}::bigint
                AND bet_transfer_id IS NOT NULL) AS staked,
              (SELECT count(*) FROM wallet_transfers t JOIN wallet_accounts a ON a.id = t.debit_account_id
                WHERE a.member_id = ${text(memberId)}::bigint AND t.kind = 'bet') AS stakes`,
      );
      expect(rows[0]).toMatchObject({ bets: expect.anything() });
      expect(Number(rows[0]!.bets)).toBe(1);
      expect(Number(rows[0]!.staked)).toBe(1);
      expect(Number(rows[0]!.stakes)).toBe(1);
    }
    expect((await reconcile(db, { siteId })).ok).toBe(true);
  });

  it('cashes out every press of a group whose write failed one by one, each exactly once', async () => {
    const { siteId, members } = await fiveMembers(db);
    let round = await nextRound();
    while (round.crashHundredths! < 120) round = await nextRound();
    for (const [i, memberId] of members.entries()) {
      await engine.placeBet(
        { kind: 'member', siteId, memberId },
        { amount: '10.00', idempotencyKey: `press-fallback-${i}` },
      );
    }
    now = round.bettingEndsAt;
    await engine.step();
    const startedAt = (await findLatestRoundSecret(db))!.startedAt!;
    const before = { ...engine.cashOutGroupStats };
    // A statement cashing out several bets of the site fails.
    const takenAt = startedAt + 2_000; // 1.12 ×, below the crash point
    const cashed = `site_id = ${siteId} AND status = 'cashed'`;
    await whileRefused(db, `crash_press_refused_${kind}`, 'UPDATE', cashed, async () => {
      const answers = await Promise.all(
        members.map((memberId) => engine.cashOut({ kind: 'member', siteId, memberId }, round.id, takenAt)),
      );
      for (const answer of answers) {
        expect(answer).toMatchObject({
          balance: '51.20',
          bet: { amount: '10.00', status: 'cashed', cashout_multiplier: '1.12', payout: '11.20' },
        });
      }
    });
    expect(engine.cashOutGroupStats.rolledBack - before.rolledBack).toBeGreaterThan(0);
    for (const memberId of members) {
      const [row] = await rowsOf<{ wins: unknown }>(
        db,
        sql`SELECT count(*) AS wins FROM wallet_transfers t JOIN wallet_accounts a ON a.id = t.credit_account_id
            WHERE a.member_id = ${text(memberId)}::bigint AND t.kind = 'win'`,
      );
      expect(Number(row!.wins)).toBe(1);
      expect((await getBalances(db, memberId, { siteId })).cashMinor).toBe(
        START_CASH_MINOR - 1_000n + 1_120n,
      );
    }
    expect((await reconcile(db, { siteId })).ok).toBe(true);
  });
});
