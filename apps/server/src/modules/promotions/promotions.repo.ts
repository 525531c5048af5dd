import type { TGameCategory } from '@sorte/contract';
import { eq, type SQL, sql } from 'drizzle-orm';
import { databaseNumber, type Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { sites, type TJurisdiction, type TSiteRow } from '../sites/sites.schema.ts';
import { PROFILES, type TCampaignCode, type TCampaignRules } from './promotions.profiles.ts';

/** SQL of the promotions module (campaigns, turnover, VIP totals, job runs, the reads it needs). */

const big = (v: unknown): bigint => (v === null || v === undefined ? 0n : BigInt(String(v)));
const s = (v: bigint) => v.toString();
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

export interface TCampaignRow {
  code: TCampaignCode;
  enabled: boolean;
  offReason: string | null;
  rules: TCampaignRules;
  position: number;
}

/** The site's campaigns, seeded from its jurisdiction profile on first read (idempotent). */
export async function siteCampaigns(
  executor: Executor,
  site: { id: bigint; jurisdiction: TJurisdiction },
): Promise<TCampaignRow[]> {
  const read = () =>
    rowsOf<{
      code: TCampaignCode;
      enabled: boolean;
      off_reason: string | null;
      rules: unknown;
      position: number;
    }>(
      executor,
      sql`SELECT code, enabled, off_reason, rules, position FROM promo_campaigns
          WHERE site_id = ${s(site.id)}::bigint ORDER BY position, id`,
    );
  let rows = await read();
  const seeds = PROFILES[site.jurisdiction].campaigns;
  if (rows.length < seeds.length) {
    for (const [position, seed] of seeds.entries()) {
      await executor.execute(sql`
        INSERT INTO promo_campaigns (site_id, code, enabled, off_reason, rules, position)
        VALUES (${s(site.id)}::bigint, ${seed.code}, ${seed.enabled}, ${seed.offReason},
                ${JSON.stringify(seed.rules)}::jsonb, ${position})
        ON CONFLICT (site_id, code) DO NOTHING`);
    }
    rows = await read();
  }
  return rows.map((r) => ({
    code: r.code,
    enabled: r.enabled,
    offReason: r.off_reason,
    rules: (typeof r.rules === 'string' ? JSON.parse(r.rules) : r.rules) as TCampaignRules,
    position: r.position,
  }));
}

export interface TDepositRow {
  id: bigint;
  orderNo: string;
  amountMinor: bigint;
  paidAt: Date;
}

/** The member's paid deposits, oldest first (optionally those paid in [since, until)). */
export async function paidDeposits(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  range: { since?: Date; until?: Date; limit?: number } = {},
): Promise<TDepositRow[]> {
  const rows = await rowsOf<{ id: unknown; order_no: string; amount_minor: unknown; paid_at: unknown }>(
    executor,
    sql`SELECT id, order_no, amount_minor, paid_at FROM deposit_orders
        WHERE site_id = ${s(siteId)}::bigint AND member_id = ${s(memberId)}::bigint AND status = 'paid'
          AND (${range.since?.toISOString() ?? null}::timestamptz IS NULL OR paid_at >= ${range.since?.toISOString() ?? null}::timestamptz)
          AND (${range.until?.toISOString() ?? null}::timestamptz IS NULL OR paid_at < ${range.until?.toISOString() ?? null}::timestamptz)
        ORDER BY paid_at, id LIMIT ${range.limit ?? 500}`,
  );
  return rows.map((r) => ({
    id: big(r.id),
    orderNo: r.order_no,
    amountMinor: big(r.amount_minor),
    paidAt: date(r.paid_at),
  }));
}

/**
 * Net loss (stakes − wins − refunds) of each member of a site in [start, end), from the ledger;
 * only members who lost. With `memberId`, that member only.
 */
export async function netLosses(
  executor: Executor,
  siteId: bigint,
  start: Date,
  end: Date,
  memberId: bigint | null = null,
): Promise<{ memberId: bigint; lossMinor: bigint }[]> {
  const rows = await rowsOf<{ member_id: unknown; net: unknown }>(
    executor,
    sql`SELECT a.member_id, sum(CASE WHEN t.kind IN ('bet', 'win_reversal') THEN t.amount_minor ELSE -t.amount_minor END)::text AS net
        FROM wallet_transfers t
        JOIN wallet_accounts a
          ON a.id = CASE WHEN t.kind IN ('bet', 'win_reversal') THEN t.debit_account_id ELSE t.credit_account_id END
        WHERE t.site_id = ${s(siteId)}::bigint AND t.kind IN ('bet', 'win', 'refund', 'win_reversal')
          AND a.member_id IS NOT NULL AND a.kind IN ('cash', 'bonus')
          AND (${memberId === null ? null : s(memberId)}::bigint IS NULL OR a.member_id = ${memberId === null ? null : s(memberId)}::bigint)
          AND t.created_at >= ${start.toISOString()}::timestamptz AND t.created_at < ${end.toISOString()}::timestamptz
        GROUP BY a.member_id
        HAVING sum(CASE WHEN t.kind IN ('bet', 'win_reversal') THEN t.amount_minor ELSE -t.amount_minor END) > 0
        ORDER BY a.member_id`,
  );
  return rows.map((r) => ({ memberId: big(r.member_id), lossMinor: big(r.net) }));
}

export interface TInviteeRow {
  id: bigint;
  username: string;
  createdAt: Date;
  depositedMinor: bigint;
}

/** Members the caller invited directly (registered with their code), with their paid deposits. */
export async function invitees(
  executor: Executor,
  siteId: bigint,
  inviterId: bigint,
): Promise<TInviteeRow[]> {
  const rows = await rowsOf<{ id: unknown; username: string; created_at: unknown; deposited: unknown }>(
    executor,
    sql`SELECT m.id, m.username, m.created_at,
               COALESCE((SELECT sum(d.amount_minor) FROM deposit_orders d
                         WHERE d.member_id = m.id AND d.status = 'paid'), 0)::text AS deposited
        FROM members m
        WHERE m.site_id = ${s(siteId)}::bigint AND m.agent_id = ${s(inviterId)}::bigint
        ORDER BY m.id DESC LIMIT 200`,
  );
  return rows.map((r) => ({
    id: big(r.id),
    username: r.username,
    createdAt: date(r.created_at),
    depositedMinor: big(r.deposited),
  }));
}

/** Adds a stake to the member's turnover of the day and category (one row per member-day-category). */
/** A bet's stake counted in the member's turnover of the day and category (rebates): one upsert. */
export type TTurnoverAdd = { day: string; category: TGameCategory; stakeMinor: bigint; bonusMinor: bigint };

function turnoverUpsert(siteId: bigint, memberId: bigint, input: TTurnoverAdd) {
  return sql`
    INSERT INTO member_turnover (site_id, member_id, day, category, stake_minor, bonus_stake_minor, bets)
    VALUES (${s(siteId)}::bigint, ${s(memberId)}::bigint, ${input.day}::date, ${input.category},
            ${s(input.stakeMinor)}::bigint, ${s(input.bonusMinor)}::bigint, 1)
    ${TURNOVER_ADDS}`;
}

/** A turnover row's insert adds to the day's row of the member and category. */
const TURNOVER_ADDS = sql`ON CONFLICT (member_id, day, category) DO UPDATE SET
      stake_minor = member_turnover.stake_minor + EXCLUDED.stake_minor,
      bonus_stake_minor = member_turnover.bonus_stake_minor + EXCLUDED.bonus_stake_minor,
      bets = member_turnover.bets + 1`;

/** A member_vip insert adds to the member's totals, and answers them (`vipRowOf`). */
const VIP_ADDS = sql`ON CONFLICT (member_id) DO UPDATE SET
      total_recharge_minor = member_vip.total_recharge_minor + EXCLUDED.total_recharge_minor,
      total_betting_minor = member_vip.total_betting_minor + EXCLUDED.total_betting_minor,
      slot_betting_minor = member_vip.slot_betting_minor + EXCLUDED.slot_betting_minor,
      live_betting_minor = member_vip.live_betting_minor + EXCLUDED.live_betting_minor,
      updated_at = now()
    RETURNING member_id, total_recharge_minor AS r, total_betting_minor AS b, slot_betting_minor AS sl,
      live_betting_minor AS li, level`;

export interface TTurnoverRow {
  memberId: bigint;
  day: string;
  category: TGameCategory;
  stakeMinor: bigint;
  bonusStakeMinor: bigint;
  bets: number;
}

export async function turnoverOf(
  executor: Executor,
  input: { siteId: bigint; memberId?: bigint; fromDay: string; toDay: string },
): Promise<TTurnoverRow[]> {
  const rows = await rowsOf<{
    member_id: unknown;
    day: unknown;
    category: TGameCategory;
    stake_minor: unknown;
    bonus_stake_minor: unknown;
    bets: number;
  }>(
    executor,
    sql`SELECT member_id, to_char(day, 'YYYY-MM-DD') AS day, category, stake_minor, bonus_stake_minor, bets
        FROM member_turnover
        WHERE site_id = ${s(input.siteId)}::bigint
          AND (${input.memberId === undefined ? null : s(input.memberId)}::bigint IS NULL
               OR member_id = ${input.memberId === undefined ? null : s(input.memberId)}::bigint)
          AND day >= ${input.fromDay}::date AND day <= ${input.toDay}::date
        ORDER BY member_id, day, category`,
  );
  return rows.map((r) => ({
    memberId: big(r.member_id),
    day: String(r.day),
    category: r.category,
    stakeMinor: big(r.stake_minor),
    bonusStakeMinor: big(r.bonus_stake_minor),
    bets: Number(r.bets),
  }));
}

export interface TVipRow {
  totalRechargeMinor: bigint;
  totalBettingMinor: bigint;
  slotBettingMinor: bigint;
  liveBettingMinor: bigint;
  level: number;
}

/**
 * Adds to the member's lifetime totals and returns them (the row is created on first use); with
 * `turnover`, a bet's stake is added to its day's turnover in the same statement.
 */
export async function addVipTotals(
  executor: Executor,
  input: {
    siteId: bigint;
    memberId: bigint;
    rechargeMinor: bigint;
    bettingMinor: bigint;
    slotMinor: bigint;
    liveMinor: bigint;
    /** A bet's turnover, counted by the same statement (one round trip fewer per bet). */
    turnover?: TTurnoverAdd;
  },
): Promise<TVipRow> {
  const turnover = input.turnover
    ? sql`WITH turnover AS (${turnoverUpsert(input.siteId, input.memberId, input.turnover)}) `
    : sql``;
  const rows = await rowsOf<{ r: unknown; b: unknown; sl: unknown; li: unknown; level: number }>(
    executor,
    sql`${turnover}INSERT INTO member_vip (member_id, site_id, total_recharge_minor, total_betting_minor,
                                slot_betting_minor, live_betting_minor)
        VALUES (${s(input.memberId)}::bigint, ${s(input.siteId)}::bigint, ${s(input.rechargeMinor)}::bigint,
                ${s(input.bettingMinor)}::bigint, ${s(input.slotMinor)}::bigint, ${s(input.liveMinor)}::bigint)
        ${VIP_ADDS}`,
  );
  return vipRowOf(rows[0]!);
}

/** One member's stake counted by a group of bets (at most one per member per group). */
export type TGroupStakeCount = {
  siteId: bigint;
  memberId: bigint;
  bettingMinor: bigint;
  slotMinor: bigint;
  liveMinor: bigint;
  turnover: TTurnoverAdd;
};

/**
 * The counters of many bets as CTEs of one statement (what `addVipTotals` with a turnover does for
 * one bet): `group_turnover` adds each bet to its member's turnover of the day, `group_vip` to the
 * member's VIP totals and answers the totals after it (`vipRowOf` reads a row of it).
 */
export function groupStakeCounts(counts: readonly TGroupStakeCount[]) {
  const rows = counts.map((c) => ({
    site_id: s(c.siteId),
    member_id: s(c.memberId),
    betting: s(c.bettingMinor),
    slot: s(c.slotMinor),
    live: s(c.liveMinor),
    day: c.turnover.day,
    category: c.turnover.category,
    stake: s(c.turnover.stakeMinor),
    bonus: s(c.turnover.bonusMinor),
  }));
  return sql`group_counts AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS c(site_id bigint,
            member_id bigint, betting bigint, slot bigint, live bigint, day date, category text,
            stake bigint, bonus bigint)),
        group_turnover AS (
          INSERT INTO member_turnover (site_id, member_id, day, category, stake_minor, bonus_stake_minor, bets)
          SELECT site_id, member_id, day, category, stake, bonus, 1 FROM group_counts
          ${TURNOVER_ADDS}),
        group_vip AS (
          INSERT INTO member_vip (member_id, site_id, total_recharge_minor, total_betting_minor,
                                  slot_betting_minor, live_betting_minor)
          SELECT member_id, site_id, 0, betting, slot, live FROM group_counts
          ${VIP_ADDS})`;
}

/**
 * A group read's column of each bettor's VIP totals (`member_vip` joined as `v`; all null without a
 * row, which `vipRowOf` reads as zero): the group decides the levels its stakes cross from them.
 */
export const GROUP_VIP_TOTALS = sql`jsonb_build_object('r', v.total_recharge_minor::text,
  'b', v.total_betting_minor::text, 'sl', v.slot_betting_minor::text, 'li', v.live_betting_minor::text,
  'level', v.level)`;

/**
 * The checks of a group's VIP counters: `vip_checked` asserts that the totals `group_vip` answers are
 * those `expected` (no other write moved them meanwhile), and `rows` reports a failed check.
 */
export function groupVipChecks(
  counts: readonly TGroupStakeCount[],
  expected: readonly { member_id: string; r: string; b: string; sl: string; li: string; level: number }[],
): { ctes: SQL; rows: SQL } {
  return {
    ctes: sql`${groupStakeCounts(counts)},
        vip_expected AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(expected)}::jsonb)
            AS e(member_id bigint, r bigint, b bigint, sl bigint, li bigint, level int)),
        vip_checked AS (
          SELECT sorte_assert(NOT EXISTS (
            SELECT 1 FROM vip_expected e LEFT JOIN group_vip g ON g.member_id = e.member_id
            WHERE (g.r, g.b, g.sl, g.li, g.level) IS DISTINCT FROM (e.r, e.b, e.sl, e.li, e.level)),
            'VIP totals changed while the group was written') AS ok)`,
    rows: sql`UNION ALL SELECT 'checked', '{}'::jsonb FROM vip_checked WHERE NOT ok`,
  };
}

/** A member_vip row answered as `r, b, sl, li, level` (addVipTotals, group_vip). */
export function vipRowOf(r: { r: unknown; b: unknown; sl: unknown; li: unknown; level: unknown }): TVipRow {
  return {
    totalRechargeMinor: big(r.r),
    totalBettingMinor: big(r.b),
    slotBettingMinor: big(r.sl),
    liveBettingMinor: big(r.li),
    level: Number(r.level),
  };
}

export async function findVip(executor: Executor, memberId: bigint): Promise<TVipRow> {
  const rows = await rowsOf<{ r: unknown; b: unknown; sl: unknown; li: unknown; level: number }>(
    executor,
    sql`SELECT total_recharge_minor AS r, total_betting_minor AS b, slot_betting_minor AS sl,
               live_betting_minor AS li, level FROM member_vip WHERE member_id = ${s(memberId)}::bigint`,
  );
  // No row yet: all totals zero (`big` reads a missing value as 0).
  return vipRowOf(rows[0] ?? { r: 0, b: 0, sl: 0, li: 0, level: 0 });
}

/** Raises the stored levels (never lowers them) and records each level crossed, to be pushed. */
export async function raiseLevels(
  executor: Executor,
  input: {
    siteId: bigint;
    memberId: bigint;
    vip: number;
    slot: number;
    live: number;
    crossed: { track: string; level: number }[];
  },
): Promise<void> {
  await executor.execute(sql`
    UPDATE member_vip SET level = GREATEST(level, ${input.vip}) WHERE member_id = ${s(input.memberId)}::bigint`);
  await executor.execute(sql`
    UPDATE members SET level = GREATEST(level, ${input.vip}), slot_level = GREATEST(slot_level, ${input.slot}),
                       live_level = GREATEST(live_level, ${input.live})
    WHERE id = ${s(input.memberId)}::bigint`);
  for (const up of input.crossed) {
    await executor.execute(sql`
      INSERT INTO vip_level_ups (site_id, member_id, track, level)
      VALUES (${s(input.siteId)}::bigint, ${s(input.memberId)}::bigint, ${up.track}, ${up.level})
      ON CONFLICT (member_id, track, level) DO NOTHING`);
  }
}

export async function memberLevels(
  executor: Executor,
  memberId: bigint,
): Promise<{ level: number; slot: number; live: number }> {
  const rows = await rowsOf<{ level: number; slot_level: number; live_level: number }>(
    executor,
    sql`SELECT level, slot_level, live_level FROM members WHERE id = ${s(memberId)}::bigint`,
  );
  const r = rows[0];
  return { level: Number(r?.level ?? 0), slot: Number(r?.slot_level ?? 0), live: Number(r?.live_level ?? 0) };
}

/** Level-ups not yet pushed, marked as pushed by this call (each is pushed once). */
export async function takeLevelUps(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
): Promise<{ track: string; level: number }[]> {
  return rowsOf<{ track: string; level: number }>(
    executor,
    sql`UPDATE vip_level_ups SET notified_at = now()
        WHERE member_id = ${s(memberId)}::bigint AND site_id = ${s(siteId)}::bigint AND notified_at IS NULL
        RETURNING track, level`,
  );
}

/**
 * The category a site gives a game: the back office's override for that site (site_games,
 * migration 0039), else the catalogue's. Wagering weights, rebates and slot/live levels all read
 * it, so a game an operator moved to live casino on their site counts as live casino there.
 * Cached per database, site and game until the site changes (`forgetSiteCategories`, on every
 * process through the site-change channel).
 */
const categories = new Map<string, TGameCategory>();
const CATEGORY_CACHE_MAX_ENTRIES = 10_000;
export async function gameCategory(executor: Executor, siteId: bigint, code: string): Promise<TGameCategory> {
  const key = `${databaseNumber(executor)}:${siteId}:${code}`;
  const cached = categories.get(key);
  if (cached) return cached;
  const rows = await rowsOf<{ category: TGameCategory }>(
    executor,
    sql`SELECT coalesce(sg.category, g.category) AS category FROM games g
        LEFT JOIN site_games sg ON sg.game_id = g.id AND sg.site_id = ${s(siteId)}::bigint
        WHERE g.code = ${code}`,
  );
  // A code outside the catalogue (a provider's new game not imported yet) counts as a slot.
  const category = rows[0]?.category ?? 'slots';
  if (categories.size >= CATEGORY_CACHE_MAX_ENTRIES) categories.clear();
  categories.set(key, category);
  return category;
}

/** Forgets the cached game categories of a site (an operator changed its catalogue). */
export function forgetSiteCategories(siteId: bigint): void {
  for (const key of categories.keys()) if (key.split(':')[1] === String(siteId)) categories.delete(key);
}

/** Sites' jurisdictions, by database and site id. */
const jurisdictions = new Map<string, TJurisdiction>();
export async function siteJurisdiction(executor: Executor, siteId: bigint): Promise<TJurisdiction> {
  const key = `${databaseNumber(executor)}:${siteId}`;
  const cached = jurisdictions.get(key);
  if (cached) return cached;
  const rows = await rowsOf<{ jurisdiction: TJurisdiction }>(
    executor,
    sql`SELECT jurisdiction FROM sites WHERE id = ${s(siteId)}::bigint`,
  );
  const value = rows[0]?.jurisdiction ?? 'intl';
  jurisdictions.set(key, value);
  return value;
}

/** Forgets the cached jurisdiction of a site (an operator changed it in the back office). */
export function forgetSiteJurisdiction(siteId: bigint): void {
  for (const key of jurisdictions.keys()) if (key.endsWith(`:${siteId}`)) jurisdictions.delete(key);
  forgetSiteCategories(siteId);
}

// Job runs -----------------------------------------------------------------------------------

/** Starts (job, site, period): 'started' for the one caller that may run it, else why not. */
export async function startJobRun(
  executor: Executor,
  input: { job: string; siteId: bigint; period: string; staleAfterMs: number },
): Promise<'started' | 'resumed' | 'done' | 'running'> {
  const inserted = await rowsOf<{ id: unknown }>(
    executor,
    sql`INSERT INTO promo_job_runs (job, site_id, period) VALUES (${input.job}, ${s(input.siteId)}::bigint, ${input.period})
        ON CONFLICT ON CONSTRAINT promo_job_runs_once DO NOTHING RETURNING id`,
  );
  if (inserted[0]) return 'started';
  // A run that stopped mid-way (its process died) is taken over by exactly one later attempt.
  const taken = await rowsOf<{ id: unknown }>(
    executor,
    sql`UPDATE promo_job_runs SET started_at = now(), attempts = attempts + 1
        WHERE job = ${input.job} AND site_id = ${s(input.siteId)}::bigint AND period = ${input.period}
          AND status = 'running' AND started_at <= now() - make_interval(secs => ${input.staleAfterMs / 1000})
        RETURNING id`,
  );
  if (taken[0]) return 'resumed';
  const current = await rowsOf<{ status: string }>(
    executor,
    sql`SELECT status FROM promo_job_runs WHERE job = ${input.job} AND site_id = ${s(input.siteId)}::bigint
          AND period = ${input.period}`,
  );
  return current[0]?.status === 'done' ? 'done' : 'running';
}

export async function finishJobRun(
  executor: Executor,
  input: { job: string; siteId: bigint; period: string; paidCount: number; paidMinor: bigint },
): Promise<void> {
  await executor.execute(sql`
    UPDATE promo_job_runs SET status = 'done', finished_at = now(),
      paid_count = paid_count + ${input.paidCount}, paid_minor = paid_minor + ${s(input.paidMinor)}::bigint
    WHERE job = ${input.job} AND site_id = ${s(input.siteId)}::bigint AND period = ${input.period}`);
}

export async function activeSites(executor: Executor): Promise<TSiteRow[]> {
  return executor.select().from(sites).where(eq(sites.status, 1)).orderBy(sites.id);
}
