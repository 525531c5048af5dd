import { formatMinor, parseMinor, type TSportsBet } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import {
  createRoleMember,
  expectReallyGrouped,
  GROUP_ROLES,
  groupStartCash,
  memberMoney,
  refusalOf,
  SeenCases,
  settledOf,
} from '../../../test/group-cases.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { getSystemBalances } from '../wallet/balances.ts';
import { createTestSite } from '../wallet/wallet.fixtures.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { placeBetGrouped, sportsBetGroupStats } from './sports.bet-group.ts';
import { formatOdds, parseOdds } from './sports.pricing.ts';
import {
  cancelEvent,
  enterResult,
  insertEvents,
  placeBet,
  type TPlaceBetInput,
  type TSportsSite,
} from './sports.service.ts';

/**
 * Group commit of sportsbook bets (ADR 027, sports.bet-group.ts) against bets placed on their own:
 * the same random history of singles and accumulators is placed on one site one by one (`placeBet`)
 * and on a twin site through the group (`placeBetGrouped`), its players concurrently and each
 * player's own bets in order. The twins have the same matches at the same prices, so every bet must
 * get the same answer (the same refusal, or the same bet and balance), and both sites must end in the
 * same state: bets and legs, balances, bonus grants, turnover, VIP totals, transfers; the grouped
 * site reconciles.
 *
 * The players: three plain members; one with a daily stake limit; one with an active bonus grant
 * (its stakes the cash does not cover take bonus parts in the group; those above the max bet or
 * completing the grant go one by one); one on a cooling-off pause; one with new terms to accept. The history
 * has stakes below the minimum, above the balance and equal to it, past the max payout; odds seen
 * lower or higher than the current ones under each policy; two legs on one match; a suspended
 * market, a match past its kick-off, a live match (its site's in-play delay is 0 here) and a
 * selection no site offers; replays of a key and other bets under a used key. Then results come
 * in on both twins (two matches, a cancellation, the live match, a correction), settled bet by bet
 * on the first and in groups on the other, and the twins must still end alike.
 */

const kinds = await databaseKinds();

const ROLES = GROUP_ROLES;
const startCash = groupStartCash;

const PROBABILITIES = {
  '1x2': { home: 200_000n, draw: 250_000n, away: 550_000n },
  double_chance: { home_draw: 450_000n, home_away: 750_000n, draw_away: 800_000n },
  over_under_2_5: { over: 550_000n, under: 450_000n },
  btts: { yes: 500_000n, no: 500_000n },
};

/** The matches of each twin: open (three), a suspended 1x2, past its kick-off, live. */
const MATCHES = ['open-a', 'open-b', 'open-c', 'suspended', 'kicked-off', 'live'] as const;

/** What a leg may pick: a match, a market and a selection (null: a selection no site offers). */
const PICKS: ({ match: number; type: string; code: string } | null)[] = [
  { match: 0, type: '1x2', code: 'home' },
  { match: 0, type: '1x2', code: 'draw' },
  { match: 1, type: 'btts', code: 'yes' },
  { match: 2, type: '1x2', code: 'home' },
  { match: 2, type: 'over_under_2_5', code: 'over' },
  { match: 3, type: '1x2', code: 'away' },
  { match: 4, type: '1x2', code: 'home' },
  { match: 5, type: '1x2', code: 'draw' },
  null,
];

type Stake = { fixed: bigint } | { relative: 'exact' | 'over' };

type TScore = { home: number; away: number };
const scoreArb: fc.Arbitrary<TScore> = fc.record({ home: fc.nat({ max: 3 }), away: fc.nat({ max: 3 }) });

type Op = {
  m: number;
  picks: number[];
  stake: Stake;
  policy: TPlaceBetInput['accept_odds_changes'];
  /** The odds the player saw against the current ones, in hundredths. */
  seen: -10 | 0 | 10;
  reuse: { pick: number; same: boolean } | null;
};

const opArb: fc.Arbitrary<Op> = fc.record({
  m: fc.nat({ max: ROLES.length - 1 }),
  picks: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(0, 2, 3, 4).map((pick) => [pick]) },
    {
      weight: 3,
      arbitrary: fc.uniqueArray(fc.nat({ max: PICKS.length - 1 }), { minLength: 1, maxLength: 3 }),
    },
  ),
  stake: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(100n, 300n, 1_000n, 2_000n).map((fixed) => ({ fixed })) },
    { weight: 1, arbitrary: fc.constantFrom(50n, 1_000_000n).map((fixed) => ({ fixed })) },
    { weight: 2, arbitrary: fc.constant({ relative: 'exact' as const }) },
    { weight: 1, arbitrary: fc.constant({ relative: 'over' as const }) },
  ),
  policy: fc.constantFrom('none', 'higher', 'any'),
  seen: fc.oneof(
    { weight: 6, arbitrary: fc.constant(0 as const) },
    { weight: 1, arbitrary: fc.constantFrom(-10 as const, 10 as const) },
  ),
  reuse: fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.record({ pick: fc.nat(), same: fc.boolean() }) },
  ),
});

const op = (m: number, picks: number[], stake: Stake, extra: Partial<Op> = {}): Op => ({
  m,
  picks,
  stake,
  policy: 'none',
  seen: 0,
  reuse: null,
  ...extra,
});
/** Every case the coverage check asks for, placed before the random histories. */
const EVERY_CASE: Op[] = [
  op(0, [0], { fixed: 100n }),
  op(0, [0], { fixed: 100n }, { reuse: { pick: 0, same: true } }),
  op(0, [2], { fixed: 100n }, { reuse: { pick: 0, same: false } }),
  op(0, [0, 2, 4], { fixed: 200n }),
  op(1, [3], { relative: 'over' }),
  op(1, [3], { relative: 'exact' }),
  op(2, [0, 1], { fixed: 100n }),
  op(2, [5], { fixed: 100n }),
  op(2, [6], { fixed: 100n }),
  op(2, [7], { fixed: 100n }),
  op(2, [8], { fixed: 100n }),
  op(2, [0], { fixed: 50n }),
  op(2, [0, 2, 3], { fixed: 1_000_000n }),
  op(2, [4], { fixed: 100n }, { seen: 10 }),
  op(2, [4], { fixed: 100n }, { seen: -10, policy: 'higher' }),
  op(2, [4], { fixed: 100n }, { seen: 10, policy: 'any' }),
  op(3, [0], { fixed: 2_000n }),
  op(3, [2], { fixed: 2_000n }),
  op(4, [0], { fixed: 2_000n }),
  op(4, [2], { fixed: 500n }),
  op(5, [0], { fixed: 100n }),
  op(6, [0], { fixed: 100n }),
];

/** Whose bet each op is: a reused key is the earlier bet's player's. */
function playersOf(ops: Op[]): number[] {
  const of: number[] = [];
  ops.forEach((o, i) => {
    of.push(o.reuse && i > 0 ? of[o.reuse.pick % i]! : o.m);
  });
  return of;
}

type TSelection = { id: string; odds: string };
type Site = { site: TSportsSite; members: bigint[]; selections: (TSelection | null)[]; events: bigint[] };
type Outcome = PromiseSettledResult<{ bet: TSportsBet; balance: string; replayed: boolean }>;
type Request = { input: TPlaceBetInput; key: string };

function requestOf(ops: Op[], i: number, side: Site, requests: Request[], balanceMinor: bigint): Request {
  const o = ops[i]!;
  if (o.reuse && i > 0) {
    const earlier = requests[o.reuse.pick % i];
    if (!earlier) throw new Error(`op ${i} reuses a request that was not made before it`);
    if (o.reuse.same) return earlier;
    const stake = formatMinor(parseMinor(earlier.input.stake)! + 100n);
    return { ...earlier, input: { ...earlier.input, stake } };
  }
  const stakeMinor =
    'fixed' in o.stake ? o.stake.fixed : o.stake.relative === 'exact' ? balanceMinor : balanceMinor + 100n;
  return {
    key: `sports-group-${i}`,
    input: {
      type: o.picks.length === 1 ? 'single' : 'accumulator',
      legs: o.picks.map((pick) => {
        const selection = side.selections[pick] ?? { id: '999999999', odds: '2.00' };
        return { selection_id: selection.id, odds: formatOdds(parseOdds(selection.odds)! + BigInt(o.seen)) };
      }),
      stake: formatMinor(stakeMinor < 1n ? 1n : stakeMinor),
      accept_odds_changes: o.policy,
    },
  };
}

/** An answer without what differs between the twins (ids, the moment it was placed). */
function answer(outcome: Outcome | undefined) {
  if (!outcome) return { missing: true };
  if (outcome.status === 'rejected') return refusalOf(outcome.reason);
  const { bet, balance, replayed } = outcome.value;
  const { id: _id, placed_at: _at, legs, ...rest } = bet;
  const shown = legs.map(({ selection_id: _s, market_id: _m, event_id: _e, ...leg }) => leg);
  return { ...rest, legs: shown, balance, replayed };
}

const text = (value: bigint) => value.toString();

async function createSite(db: Db, kickoff: { ahead: Date; past: Date }, pauseEndsAt: Date): Promise<Site> {
  const siteId = await createTestSite(db);
  const site: TSportsSite = { id: siteId, jurisdiction: 'intl' };
  const members: bigint[] = [];
  for (const role of ROLES) {
    const options = { pauseEndsAt, campaign: 'sports-group-test' };
    members.push(await createRoleMember(db, siteId, role, options));
  }
  await db.execute(sql`INSERT INTO sports_settings (site_id, in_play_delay_ms, score_suspension_seconds)
      VALUES (${text(siteId)}::bigint, 0, 60)`);
  const [competition] = await rowsOf<{ id: string }>(
    db,
    sql`INSERT INTO sports_competitions (site_id, code, country, name, season, position)
        VALUES (${text(siteId)}::bigint, 'twin-league', 'BR', 'Twin League', '2026', 1) RETURNING id::text AS id`,
  );
  const ids = await insertEvents(
    db,
    site,
    BigInt(competition!.id),
    MATCHES.map((ref, i) => ({
      externalRef: ref,
      round: 1,
      home: `Home ${i}`,
      away: `Away ${i}`,
      kickoffAt: ref === 'kicked-off' || ref === 'live' ? kickoff.past : kickoff.ahead,
      probabilities: PROBABILITIES,
    })),
  );
  const live = text(ids.get('live')!);
  await db.execute(sql`UPDATE sports_events SET status = 'live' WHERE id = ${live}::bigint`);
  const suspended = text(ids.get('suspended')!);
  await db.execute(sql`UPDATE sports_markets SET status = 'suspended'
      WHERE event_id = ${suspended}::bigint AND type = '1x2'`);
  const rows = await rowsOf<{ ref: string; type: string; code: string; id: string; odds: string }>(
    db,
    sql`SELECT e.external_ref AS ref, m.type, s.code, s.id::text AS id, s.odds::text AS odds
        FROM sports_selections s JOIN sports_markets m ON m.id = s.market_id
        JOIN sports_events e ON e.id = m.event_id WHERE e.site_id = ${text(siteId)}::bigint`,
  );
  const selections = PICKS.map((pick) => {
    if (!pick) return null;
    const row = rows.find(
      (r) => r.ref === MATCHES[pick.match] && r.type === pick.type && r.code === pick.code,
    );
    return { id: row!.id, odds: row!.odds };
  });
  return { site, members, selections, events: MATCHES.map((ref) => ids.get(ref)!) };
}

/** What a member's bets left behind, without the ids that differ between the twins. */
async function memberState(db: Db, siteId: bigint, memberId: bigint) {
  const member = text(memberId);
  return {
    bets: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT b.type, b.status, b.stake_minor::text, b.potential_return_minor::text, b.payout_minor::text,
            b.unrecovered_minor::text, b.idempotency_key, b.settle_seq, b.settled_at IS NOT NULL AS settled,
            (SELECT jsonb_agg(jsonb_build_array(l.position, l.odds::text, l.status, s.code, m.type, e.external_ref)
               ORDER BY l.position)
             FROM sports_bet_legs l JOIN sports_selections s ON s.id = l.selection_id
             JOIN sports_markets m ON m.id = l.market_id JOIN sports_events e ON e.id = l.event_id
             WHERE l.bet_id = b.id) AS legs
          FROM sports_bets b WHERE b.member_id = ${member}::bigint ORDER BY b.idempotency_key`,
    ),
    ...(await memberMoney(db, siteId, memberId)),
    transfers: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT t.kind, t.amount_minor::text, d.kind AS debit, c.kind AS credit,
            t.metadata - ARRAY['betId', 'fedGrantId', 'bonusParts', 'grantId', 'stakeKey'] AS metadata,
            t.metadata ? 'fedGrantId' AS feeds_grant, t.metadata ? 'bonusParts' AS bonus_parts,
            (SELECT b.idempotency_key FROM sports_bets b WHERE t.reference = 'sports-bet:' || b.id) AS bet_key,
            CASE WHEN t.idempotency_key LIKE 'sports-bet:%'
              THEN regexp_replace(t.idempotency_key, '^sports-bet:[0-9]+|:b[0-9]+$', '', 'g') END AS key,
            t.debit_balance_after_minor::text AS debit_after, t.credit_balance_after_minor::text AS credit_after
          FROM wallet_transfers t
          JOIN wallet_accounts d ON d.id = t.debit_account_id
          JOIN wallet_accounts c ON c.id = t.credit_account_id
          WHERE (d.member_id = ${member}::bigint OR c.member_id = ${member}::bigint) AND t.kind <> 'deposit'
          ORDER BY bet_key, t.id`,
    ),
  };
}

async function siteState(db: Db, site: Site) {
  const members = [];
  for (const memberId of site.members) members.push(await memberState(db, site.site.id, memberId));
  return { members, system: await getSystemBalances(db, site.site.id) };
}

describe.each(kinds)('group commit of sportsbook bets on %s', (kind) => {
  let db: Db;

  beforeAll(async () => {
    db = (await seededDatabase(kind)).db;
  }, 60_000);
  afterAll(async () => {
    // The database is the process's shared one.
  });

  /** The history on both twins: one by one on the first, players concurrent on the grouped one. */
  async function placeHistory(ops: Op[], one: Site, grouped: Site) {
    const owner = playersOf(ops);
    const results: Outcome[][] = [];
    for (const [s, side] of [one, grouped].entries()) {
      const requests: Request[] = [];
      const outcomes: Outcome[] = [];
      const balances = ROLES.map(startCash);
      const run = async (i: number) => {
        const m = owner[i]!;
        const request = requestOf(ops, i, side, requests, balances[m]!);
        requests[i] = request;
        const place = s === 0 ? placeBet : placeBetGrouped;
        outcomes[i] = await settledOf(place({ db }, side.site, side.members[m]!, request.input, request.key));
        const placed = outcomes[i]!;
        if (placed.status === 'fulfilled') balances[m] = parseMinor(placed.value.balance)!;
      };
      if (s === 0) {
        for (let i = 0; i < ops.length; i++) await run(i);
      } else {
        await Promise.all(
          ROLES.map(async (_, m) => {
            for (let i = 0; i < ops.length; i++) if (owner[i] === m) await run(i);
          }),
        );
      }
      results.push(outcomes);
    }
    return { sequential: results[0]!, concurrent: results[1]! };
  }

  it('players betting concurrently through the group get exactly the answers and state of bets placed on their own; their results settle in groups as bet by bet', async () => {
    const before = { ...sportsBetGroupStats(db) };
    const seen = new SeenCases();
    const kinds = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 30, size: 'max' }),
        fc.array(scoreArb, { minLength: 3, maxLength: 3 }),
        async (ops, scores) => {
          const kickoff = { ahead: new Date(Date.now() + 86_400_000), past: new Date(Date.now() - 600_000) };
          const pauseEndsAt = new Date(Date.now() + 3 * 86_400_000);
          const one = await createSite(db, kickoff, pauseEndsAt);
          const grouped = await createSite(db, kickoff, pauseEndsAt);
          const { sequential, concurrent } = await placeHistory(ops, one, grouped);

          expect(concurrent.map(answer)).toEqual(sequential.map(answer));
          expect(await siteState(db, grouped)).toEqual(await siteState(db, one));
          const report = await reconcile(db, { siteId: grouped.site.id });
          expect(report.drift).toEqual([]);
          expect(report.ok).toBe(true);
          seen.count(sequential);

          // The results come in: bet by bet on the first twin, in groups on the other.
          const [first, second, correction] = scores as [TScore, TScore, TScore];
          const results: [number, TScore | 'cancel'][] = [
            [0, first],
            [1, second],
            [2, 'cancel'],
            [5, second],
            [0, correction],
          ];
          for (const [match, score] of results) {
            const settled = [];
            for (const [s, twin] of [one, grouped].entries()) {
              const options = { oneByOne: s === 0 };
              const deps = { db };
              const eventId = twin.events[match]!;
              settled.push(
                score === 'cancel'
                  ? await cancelEvent(deps, twin.site, eventId, undefined, options)
                  : await enterResult(deps, twin.site, eventId, score, undefined, options),
              );
            }
            expect(settled[1]!.bets_settled).toBe(settled[0]!.bets_settled);
          }
          const after = await siteState(db, grouped);
          expect(after).toEqual(await siteState(db, one));
          for (const twin of [one, grouped])
            expect((await reconcile(db, { siteId: twin.site.id })).ok).toBe(true);
          for (const member of after.members) for (const t of member.transfers) kinds.add(String(t.kind));
        },
      ),
      {
        numRuns: 4,
        examples: [
          [
            EVERY_CASE,
            [
              { home: 1, away: 0 },
              { home: 1, away: 1 },
              { home: 0, away: 2 },
            ],
          ],
        ],
      },
    );
    // Settlements paid, refunded and taken back.
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['bet', 'refund', 'win', 'win_reversal']));

    seen.expectMet([
      'placed',
      'emptied',
      'replayed',
      'INSUFFICIENT_FUNDS',
      'IDEMPOTENCY_CONFLICT',
      'BET_OUT_OF_RANGE',
      'SPORTS_MAX_PAYOUT',
      'SPORTS_SAME_EVENT',
      'MARKET_SUSPENDED',
      'MARKET_CLOSED',
      'ODDS_CHANGED',
      'RG_STAKE_LIMIT',
      'BONUS_MAX_BET',
      'COOLING_OFF',
      'TERMS_NOT_ACCEPTED',
    ]);
    // The bonus player's stakes above the max bet or completing the grant, the replays and live legs
    // went one by one.
    expectReallyGrouped(before, sportsBetGroupStats(db));
  }, 300_000);
  it('places every bet of a group whose write failed one by one, each exactly once', async () => {
    const kickoff = { ahead: new Date(Date.now() + 86_400_000), past: new Date(Date.now() - 600_000) };
    const twin = await createSite(db, kickoff, new Date(Date.now() + 86_400_000));
    const plain = twin.members.slice(0, 3);
    const home = twin.selections[0]!;
    const before = { ...sportsBetGroupStats(db) };
    // A statement inserting several bets of the site fails: it stands in for what fails a group's
    // write in service (a deadlock with an operator's change, a key taken by another process).
    const name = `sports_group_refused_${kind}`;
    await db.execute(
      sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF (SELECT count(*) FROM written WHERE site_id = ${twin.site.id}) > 1 THEN
            RAISE EXCEPTION 'several rows in one statement';
          END IF;
          RETURN NULL;
        END $$`),
    );
    await db.execute(
      sql.raw(`CREATE TRIGGER ${name} AFTER INSERT ON sports_bets REFERENCING NEW TABLE AS written
        FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`),
    );
    try {
      const answers = await Promise.all(
        plain.map((memberId, i) =>
          placeBetGrouped(
            { db },
            twin.site,
            memberId,
            {
              type: 'single',
              legs: [{ selection_id: home.id, odds: home.odds }],
              stake: '1.00',
              accept_odds_changes: 'none',
            },
            `fallback-${i}`,
          ),
        ),
      );
      for (const placed of answers) {
        expect(placed).toMatchObject({
          balance: '49.00',
          replayed: false,
          bet: { stake: '1.00', status: 'open' },
        });
      }
    } finally {
      await db.execute(sql.raw(`DROP TRIGGER ${name} ON sports_bets`));
      await db.execute(sql.raw(`DROP FUNCTION ${name}()`));
    }
    expect(sportsBetGroupStats(db).rolledBack - before.rolledBack).toBeGreaterThan(0);
    for (const memberId of plain) {
      const [row] = await rowsOf<{ bets: unknown; legs: unknown; stakes: unknown }>(
        db,
        sql`SELECT (SELECT count(*) FROM sports_bets WHERE member_id = ${text(memberId)}::bigint) AS bets,
              (SELECT count(*) FROM sports_bet_legs l JOIN sports_bets b ON b.id = l.bet_id
                WHERE b.member_id = ${text(memberId)}::bigint) AS legs,
              (SELECT count(*) FROM wallet_transfers t JOIN wallet_accounts a ON a.id = t.debit_account_id
                WHERE a.member_id = ${text(memberId)}::bigint AND t.kind = 'bet') AS stakes`,
      );
      expect([Number(row!.bets), Number(row!.legs), Number(row!.stakes)]).toEqual([1, 1, 1]);
    }
    expect((await reconcile(db, { siteId: twin.site.id })).ok).toBe(true);
  });
});
