import type { TKycCheck, TRgLimitKind, TRgPeriod } from '@sorte/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { kycMissingExpression } from '../kyc/kyc.repo.ts';
import { pendingTermsQuery } from '../terms/terms.repo.ts';

/** SQL of responsible gaming; every function takes the executor (or transaction) it runs in. */

export type TJurisdictionProfile = {
  requiresCpf: boolean;
  requiresBirthDate: boolean;
  mandatoryLimits: TRgLimitKind[];
  loosenDelayHours: number;
  realityCheckMinutes: number;
  selfExclusionRegistry: boolean;
  registryRecheckDays: number;
  showsRiskMessage: boolean;
};

export async function findJurisdictionProfile(
  executor: Executor,
  site: TSite,
): Promise<TJurisdictionProfile> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT * FROM jurisdiction_profiles WHERE jurisdiction = ${site.jurisdiction}`,
  );
  const row = rows[0];
  if (!row) throw new Error(`no jurisdiction profile for ${site.jurisdiction}`);
  const limits = row.mandatory_limits;
  return {
    requiresCpf: row.requires_cpf === true,
    requiresBirthDate: row.requires_birth_date === true,
    mandatoryLimits: (Array.isArray(limits)
      ? limits
      : String(limits).replace(/[{}]/g, '').split(',').filter(Boolean)) as TRgLimitKind[],
    loosenDelayHours: Number(row.loosen_delay_hours),
    realityCheckMinutes: Number(row.reality_check_minutes),
    selfExclusionRegistry: row.self_exclusion_registry === true,
    registryRecheckDays: Number(row.registry_recheck_days),
    showsRiskMessage: row.shows_risk_message === true,
  };
}

export type TLimitRow = {
  kind: TRgLimitKind;
  period: TRgPeriod;
  value: bigint | null;
  pendingValue: bigint | null;
  pendingRemove: boolean;
  pendingEffectiveAt: Date | null;
  periodStart: Date;
  resetsAt: Date;
  /** Stakes and returns of the current period, when the statement that read the limit summed them. */
  play?: TPlaySums;
};

export type TPlaySums = { stakedMinor: bigint; returnedMinor: bigint };

const applyDueLimits = (memberId: bigint) => sql`
    UPDATE rg_limits SET value = CASE WHEN pending_remove THEN NULL ELSE pending_value END,
      pending_value = NULL, pending_remove = false, pending_effective_at = NULL, updated_at = now()
    WHERE member_id = ${memberId.toString()}::bigint AND pending_effective_at <= now()`;

const kindFilter = (kinds?: readonly TRgLimitKind[]) =>
  kinds ? sql`AND kind = ANY(${`{${kinds.join(',')}}`}::text[])` : sql``;

/** The columns of a limit with its current period's window in the site's time zone. */
const limitColumns = (timeZone: string | SQL) => sql`kind, period, value::text, pending_value::text,
  pending_remove, pending_effective_at,
  (date_trunc(period, now() AT TIME ZONE ${timeZone}) AT TIME ZONE ${timeZone}) AS period_start,
  ((date_trunc(period, now() AT TIME ZONE ${timeZone}) + ('1 ' || period)::interval) AT TIME ZONE ${timeZone}) AS resets_at`;

function toLimitRow(row: Record<string, unknown>): TLimitRow {
  return {
    kind: row.kind as TRgLimitKind,
    period: row.period as TRgPeriod,
    value: row.value === null ? null : BigInt(String(row.value)),
    pendingValue: row.pending_value === null ? null : BigInt(String(row.pending_value)),
    pendingRemove: row.pending_remove === true,
    pendingEffectiveAt: row.pending_effective_at ? new Date(String(row.pending_effective_at)) : null,
    periodStart: new Date(String(row.period_start)),
    resetsAt: new Date(String(row.resets_at)),
    ...(row.staked === undefined
      ? {}
      : { play: { stakedMinor: BigInt(String(row.staked)), returnedMinor: BigInt(String(row.returned)) } }),
  };
}

/**
 * The member's limits of `kinds` (all when absent), after applying pending loosenings whose time
 * has come, with the current period's window in the site's time zone.
 */
export async function findLimits(
  executor: Executor,
  memberId: bigint,
  timeZone: string,
  kinds?: readonly TRgLimitKind[],
): Promise<TLimitRow[]> {
  await executor.execute(applyDueLimits(memberId));
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT ${limitColumns(timeZone)}
        FROM rg_limits WHERE member_id = ${memberId.toString()}::bigint ${kindFilter(kinds)}
          AND (value IS NOT NULL OR pending_value IS NOT NULL)`,
  );
  return rows.map(toLimitRow);
}

export type TGate = {
  exclusion: TExclusionRow | null;
  termsPending: boolean;
  /** The identity checks the site requires before this action that the member has not passed (null: none). */
  kycMissing: TKycCheck[] | null;
  limits: TLimitRow[];
};

/** What the gate guards: a bet or a deposit (the KYC rule of that action applies). */
export type TGateAction = 'bet' | 'deposit';

/**
 * What a bet or a deposit must pass, as parts of a statement: `ctes` (the due loosenings applied,
 * and the limits as applied: the statement's reads see the rows as they were before its own UPDATE,
 * so the two are merged) and `columns` (the active pause or exclusion, whether a terms version waits
 * for acceptance — terms.service's query —, the identity checks the site's KYC rule for `action`
 * still misses — kyc.repo's expression —, and the limits of `kinds` as `findLimits` answers them).
 * `findGate` runs them alone; a bet's opening statement carries them (one round trip fewer).
 */
export function gateParts(
  memberId: bigint,
  timeZone: string,
  kinds: readonly TRgLimitKind[],
  action: TGateAction,
) {
  const member = sql`${memberId.toString()}::bigint`;
  return {
    ctes: sql`gate_applied AS (${applyDueLimits(memberId)}
          RETURNING kind, period, value, pending_value, pending_remove, pending_effective_at),
        gate_limits AS (
          SELECT l.member_id, l.kind, l.period,
            CASE WHEN a.kind IS NULL THEN l.value ELSE a.value END AS value,
            CASE WHEN a.kind IS NULL THEN l.pending_value ELSE a.pending_value END AS pending_value,
            CASE WHEN a.kind IS NULL THEN l.pending_remove ELSE a.pending_remove END AS pending_remove,
            CASE WHEN a.kind IS NULL THEN l.pending_effective_at ELSE a.pending_effective_at END AS pending_effective_at
          FROM rg_limits l LEFT JOIN gate_applied a ON a.kind = l.kind AND a.period = l.period
          WHERE l.member_id = ${member})`,
    columns: sql`(SELECT to_jsonb(e) FROM (${activeExclusion(memberParam(memberId))}) e) AS gate_exclusion,
          EXISTS (${pendingTermsQuery(memberId)}) AS gate_terms_pending,
          ${kycMissingExpression(member, action)} AS gate_kyc_missing,
          coalesce((SELECT jsonb_agg(to_jsonb(l)) FROM (
            SELECT ${limitColumns(timeZone)} FROM gate_limits
            WHERE member_id = ${member} ${kindFilter(kinds)} AND (value IS NOT NULL OR pending_value IS NOT NULL)) l),
            '[]'::jsonb) AS gate_limits`,
  };
}

/** A `text[]` column as read by either driver (an array, or PostgreSQL's `{a,b}` text), or null. */
function checksOrNull(value: unknown): TKycCheck[] | null {
  if (value === null || value === undefined) return null;
  const list = Array.isArray(value) ? value : String(value).replace(/[{}]/g, '').split(',').filter(Boolean);
  return list.length > 0 ? (list as TKycCheck[]) : null;
}

/** The gate of a row carrying `gateParts(...).columns`. */
export function gateOf(row: Record<string, unknown>): TGate {
  const exclusion = row.gate_exclusion as Record<string, unknown> | null;
  return {
    exclusion: exclusion ? toExclusionRow(exclusion) : null,
    termsPending: row.gate_terms_pending === true,
    kycMissing: checksOrNull(row.gate_kyc_missing),
    limits: (row.gate_limits as Record<string, unknown>[]).map(toLimitRow),
  };
}

/**
 * The play gate of many members in one statement, as columns of a row that has the member's id in
 * `member` and the site's time zone in `timeZone` (SQL expressions): the active pause or exclusion,
 * a pending terms version, the identity checks the site requires before a bet, the stake and loss limits with what was staked and returned in each
 * limit's current period (`gate_limits`, read by `gateOf`), and `gate_due`: whether a pending
 * loosening is due — such a member's gate is read by `findGate`, which applies it first.
 */
export function groupGateColumns(member: SQL, timeZone: SQL) {
  // Scalar subqueries, not EXISTS: the planner would hash an EXISTS over the whole table for the
  // group's rows (it guesses 100 of them), where each row wants one index lookup.
  return sql`(SELECT to_jsonb(e) FROM (${activeExclusion(member)}) e) AS gate_exclusion,
          (SELECT true FROM (${pendingTermsQuery(member)}) t) IS NOT NULL AS gate_terms_pending,
          ${kycMissingExpression(member, 'bet')} AS gate_kyc_missing,
          (SELECT true FROM rg_limits d WHERE d.member_id = ${member} AND d.pending_effective_at <= now() LIMIT 1)
            IS NOT NULL AS gate_due,
          coalesce((SELECT jsonb_agg(to_jsonb(l) || to_jsonb(p)) FROM (
            SELECT ${limitColumns(timeZone)} FROM rg_limits
            WHERE member_id = ${member} ${kindFilter(PLAY_LIMIT_KINDS)}
              AND (value IS NOT NULL OR pending_value IS NOT NULL)) l
            CROSS JOIN LATERAL (${playSums(member, sql`l.period_start`)}) p), '[]'::jsonb) AS gate_limits`;
}

/** The limits a bet is checked against. */
export const PLAY_LIMIT_KINDS = ['stake', 'loss'] as const;

/** What a bet or a deposit must pass (`gateParts`), in ONE statement of its own. */
export async function findGate(
  executor: Executor,
  memberId: bigint,
  timeZone: string,
  kinds: readonly TRgLimitKind[],
  action: TGateAction,
): Promise<TGate> {
  const parts = gateParts(memberId, timeZone, kinds, action);
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`WITH ${parts.ctes} SELECT ${parts.columns}`,
  );
  const row = rows[0];
  if (!row) throw new Error('the gate query answers one row');
  return gateOf(row);
}

export async function upsertLimit(
  executor: Executor,
  limit: {
    siteId: bigint;
    memberId: bigint;
    kind: TRgLimitKind;
    period: TRgPeriod;
    value: bigint | null;
    pendingValue: bigint | null;
    pendingRemove: boolean;
    pendingEffectiveAt: Date | null;
  },
): Promise<void> {
  await executor.execute(sql`
    INSERT INTO rg_limits (member_id, site_id, kind, period, value, pending_value, pending_remove, pending_effective_at)
    VALUES (${limit.memberId.toString()}::bigint, ${limit.siteId.toString()}::bigint, ${limit.kind}, ${limit.period},
            ${limit.value?.toString() ?? null}::bigint, ${limit.pendingValue?.toString() ?? null}::bigint,
            ${limit.pendingRemove}, ${limit.pendingEffectiveAt?.toISOString() ?? null}::timestamptz)
    ON CONFLICT (member_id, kind, period) DO UPDATE SET value = EXCLUDED.value,
      pending_value = EXCLUDED.pending_value, pending_remove = EXCLUDED.pending_remove,
      pending_effective_at = EXCLUDED.pending_effective_at, updated_at = now()`);
}

/** Deposits that count against a deposit limit: paid, and pending ones (they may still be paid). */
export async function sumDeposits(executor: Executor, memberId: bigint, since: Date): Promise<bigint> {
  const rows = await rowsOf<{ total: string }>(
    executor,
    sql`SELECT coalesce(sum(amount_minor), 0)::text AS total FROM deposit_orders
        WHERE member_id = ${memberId.toString()}::bigint AND status IN ('pending', 'paid')
          AND created_at >= ${since.toISOString()}::timestamptz`,
  );
  return BigInt(rows[0]?.total ?? '0');
}

/** Stakes and what came back (wins, refunds) on the member's accounts since `since`, from the ledger. */
export async function sumPlay(executor: Executor, memberId: bigint, since: Date): Promise<TPlaySums> {
  const rows = await rowsOf<{ staked: string; returned: string }>(
    executor,
    playSums(memberParam(memberId), sql`${since.toISOString()}::timestamptz`),
  );
  return { stakedMinor: BigInt(rows[0]?.staked ?? '0'), returnedMinor: BigInt(rows[0]?.returned ?? '0') };
}

const memberParam = (memberId: bigint) => sql`${memberId.toString()}::bigint`;

/**
 * The query of `sumPlay` (one row: staked, returned) for a member and a start given as SQL: the
 * member's play hours (`member_play_hours`, kept by the ledger's own trigger, migration 0051) from
 * the first whole UTC hour at or after `since`, and the member's transfers of the part of an hour
 * before it (none when `since` is on the hour, as a period's start is in a time zone a whole number
 * of hours from UTC). Linear in the hours played, not in the bets: a monthly limit read every
 * transfer of the member's month on every bet. Each side of the ledger is read through its
 * (account, created_at) index (written as one scan with `debit IN mine OR credit IN mine`, the
 * planner read the whole site's transfers of the period).
 */
function playSums(member: SQL, since: SQL) {
  const hour = sql`(date_trunc('hour', ${since}, 'UTC')
          + CASE WHEN date_trunc('hour', ${since}, 'UTC') = ${since} THEN interval '0' ELSE interval '1 hour' END)`;
  return sql`WITH mine AS (SELECT array_agg(id) AS ids FROM wallet_accounts WHERE member_id = ${member})
        SELECT (coalesce(h.staked, 0) + coalesce(d.staked, 0))::text AS staked,
          -- A payout taken back by a corrected sports result returned nothing after all.
          (coalesce(h.returned, 0) + coalesce(c.returned, 0) - coalesce(h.reversed, 0) - coalesce(d.reversed, 0))::text
            AS returned
        FROM (SELECT sum(staked_minor) AS staked, sum(returned_minor) AS returned, sum(reversed_minor) AS reversed
              FROM member_play_hours WHERE member_id = ${member} AND hour >= ${hour}) h,
             (SELECT sum(t.amount_minor) FILTER (WHERE t.kind = 'bet') AS staked,
                sum(t.amount_minor) FILTER (WHERE t.kind = 'win_reversal') AS reversed
              FROM mine, wallet_transfers t
              -- since < hour: a one-time filter, no index read at all for a start on the hour.
              WHERE ${since} < ${hour} AND t.debit_account_id = ANY(mine.ids)
                AND t.created_at >= ${since} AND t.created_at < ${hour} AND t.kind IN ('bet', 'win_reversal')) d,
             (SELECT sum(t.amount_minor) AS returned
              FROM mine, wallet_transfers t
              WHERE ${since} < ${hour} AND t.credit_account_id = ANY(mine.ids)
                AND t.created_at >= ${since} AND t.created_at < ${hour} AND t.kind IN ('win', 'refund')) c`;
}

/** Minutes the member's sessions have been open since `since` (an ended or idle one up to its end). */
export async function sumSessionMinutes(executor: Executor, memberId: bigint, since: Date): Promise<number> {
  const rows = await rowsOf<{ seconds: string }>(
    executor,
    sql`SELECT coalesce(sum(greatest(0, extract(epoch FROM (
              CASE WHEN ended_at IS NOT NULL THEN ended_at WHEN expires_at <= now() THEN last_seen_at ELSE now() END
              - greatest(created_at, ${since.toISOString()}::timestamptz))))), 0)::text AS seconds
        FROM member_sessions WHERE member_id = ${memberId.toString()}::bigint AND NOT restricted
          AND coalesce(ended_at, now()) > ${since.toISOString()}::timestamptz`,
  );
  return Math.floor(Number(rows[0]?.seconds ?? '0') / 60);
}

export type TExclusionRow = {
  kind: 'cooling_off' | 'self_exclusion' | 'registry';
  startsAt: Date;
  endsAt: Date | null;
};

const activeExclusion = (member: SQL) => sql`SELECT kind, starts_at, ends_at FROM rg_exclusions
        WHERE member_id = ${member} AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now())
        ORDER BY ends_at DESC NULLS FIRST LIMIT 1`;

function toExclusionRow(row: Record<string, unknown>): TExclusionRow {
  return {
    kind: row.kind as TExclusionRow['kind'],
    startsAt: new Date(String(row.starts_at)),
    endsAt: row.ends_at ? new Date(String(row.ends_at)) : null,
  };
}

export async function findActiveExclusion(
  executor: Executor,
  memberId: bigint,
): Promise<TExclusionRow | null> {
  const rows = await rowsOf<Record<string, unknown>>(executor, activeExclusion(memberParam(memberId)));
  return rows[0] ? toExclusionRow(rows[0]) : null;
}

export async function insertExclusion(
  executor: Executor,
  exclusion: { siteId: bigint; memberId: bigint; kind: TExclusionRow['kind']; endsAt: Date | null },
): Promise<void> {
  await executor.execute(sql`
    INSERT INTO rg_exclusions (site_id, member_id, kind, ends_at)
    VALUES (${exclusion.siteId.toString()}::bigint, ${exclusion.memberId.toString()}::bigint, ${exclusion.kind},
            ${exclusion.endsAt?.toISOString() ?? null}::timestamptz)`);
}

/** Serialises a member's responsible-gaming changes (limits, registry answers) on the member row. */
export async function lockMemberRow(tx: Executor, memberId: bigint): Promise<void> {
  await tx.execute(sql`SELECT id FROM members WHERE id = ${memberId.toString()}::bigint FOR NO KEY UPDATE`);
}

/** When the member's open sessions must stop playing (null: no session-time limit bites). */
export async function setSessionsPlayUntil(
  executor: Executor,
  memberId: bigint,
  until: Date | null,
): Promise<void> {
  await executor.execute(sql`UPDATE member_sessions SET play_until = ${until?.toISOString() ?? null}::timestamptz
                             WHERE member_id = ${memberId.toString()}::bigint AND ended_at IS NULL`);
}

export async function updateRealityCheckMinutes(
  executor: Executor,
  memberId: bigint,
  minutes: number,
): Promise<void> {
  await executor.execute(
    sql`UPDATE members SET reality_check_minutes = ${minutes} WHERE id = ${memberId.toString()}::bigint`,
  );
}

/** The member's own reality-check interval (null: the site profile's default). */
export async function findRealityCheckMinutes(executor: Executor, memberId: bigint): Promise<number | null> {
  const rows = await rowsOf<{ minutes: number | null }>(
    executor,
    sql`SELECT reality_check_minutes AS minutes FROM members WHERE id = ${memberId.toString()}::bigint`,
  );
  const own = rows[0]?.minutes;
  return own === null || own === undefined ? null : Number(own);
}

/** When the member's session opened, and whether it is still open. */
export async function findSessionOpened(
  executor: Executor,
  memberId: bigint,
  sessionId: bigint,
): Promise<{ created_at: unknown; open: boolean } | undefined> {
  const sessions = await rowsOf<{ created_at: unknown; open: boolean }>(
    executor,
    sql`SELECT created_at, (ended_at IS NULL AND expires_at > now()) AS open FROM member_sessions
        WHERE id = ${sessionId.toString()}::bigint AND member_id = ${memberId.toString()}::bigint`,
  );
  return sessions[0];
}

/** The sign-up's CPF and date of birth, and whether the registry was asked about the CPF. */
export async function updateRegistrationColumns(
  tx: Executor,
  memberId: bigint,
  extras: { cpf: string | null; birthDate: string | null },
  registryChecked: boolean,
): Promise<void> {
  await tx.execute(sql`UPDATE members SET cpf = ${extras.cpf}, birth_date = ${extras.birthDate}::date,
                           registry_checked_at = ${registryChecked ? sql`now()` : sql`NULL`}
                         WHERE id = ${memberId.toString()}::bigint`);
}
