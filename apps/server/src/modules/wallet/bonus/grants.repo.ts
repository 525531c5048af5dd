import { type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../../db/client.ts';
import { rowsOf } from '../../../db/sql.ts';
import { TRANSFER_COLUMNS } from '../wallet.repo.ts';

/**
 * SQL of `bonus_grants` (ADR 012). Every function takes the executor it runs in and answers raw
 * rows; what a grant's money does is decided in grants.ts, stake.ts and win.ts.
 */

/** A `bonus_grants` row as the database answers it (numbers as text; `toGrant` makes a BonusGrant). */
export type TGrantRaw = {
  id: unknown;
  site_id: unknown;
  member_id: unknown;
  campaign_code: string;
  period_key: string;
  terms: unknown;
  amount_minor: unknown;
  balance_minor: unknown;
  wagering_required_minor: unknown;
  wagering_done_minor: unknown;
  max_bet_minor: unknown;
  locks_cash: boolean;
  status: string;
  expires_at: unknown;
  created_at: unknown;
  closed_at: unknown;
  converted_minor: unknown;
  forfeited_minor: unknown;
};

export const GRANT_COLUMNS = sql`id::text, site_id::text, member_id::text, campaign_code, period_key, terms,
  amount_minor::text, balance_minor::text, wagering_required_minor::text, wagering_done_minor::text,
  max_bet_minor::text, locks_cash, status, expires_at, created_at, closed_at, converted_minor::text,
  forfeited_minor::text`;

const text = (v: bigint) => v.toString();

/** What a new grant's row says; its balance starts at 0 and moves with its bonus_grant transfer. */
export type TGrantInsert = {
  siteId: bigint;
  memberId: bigint;
  campaignCode: string;
  periodKey: string;
  terms: unknown;
  amountMinor: bigint;
  wageringRequiredMinor: bigint;
  maxBetMinor: bigint | null;
  locksCash: boolean;
  expiresAt: Date;
};

/** The new grant, or null when the member has one for this campaign and period already. */
export async function insertGrant(tx: Tx, row: TGrantInsert): Promise<TGrantRaw | null> {
  const inserted = await rowsOf<TGrantRaw>(
    tx,
    sql`INSERT INTO bonus_grants (site_id, member_id, campaign_code, period_key, terms, amount_minor,
          balance_minor, wagering_required_minor, max_bet_minor, locks_cash, expires_at)
        VALUES (${text(row.siteId)}::bigint, ${text(row.memberId)}::bigint, ${row.campaignCode},
          ${row.periodKey}, ${JSON.stringify(row.terms)}::jsonb, ${text(row.amountMinor)}::bigint,
          0, ${text(row.wageringRequiredMinor)}::bigint,
          ${row.maxBetMinor === null ? null : text(row.maxBetMinor)}::bigint, ${row.locksCash},
          ${row.expiresAt.toISOString()}::timestamptz)
        ON CONFLICT ON CONSTRAINT bonus_grants_once DO NOTHING
        RETURNING *`,
  );
  return inserted[0] ?? null;
}

/** The grant of a member for a campaign and period. */
export async function findGrantOfPeriod(
  tx: Tx,
  key: { siteId: bigint; memberId: bigint; campaignCode: string; periodKey: string },
): Promise<TGrantRaw | null> {
  const rows = await rowsOf<TGrantRaw>(
    tx,
    sql`SELECT * FROM bonus_grants WHERE site_id = ${text(key.siteId)}::bigint
          AND member_id = ${text(key.memberId)}::bigint AND campaign_code = ${key.campaignCode}
          AND period_key = ${key.periodKey}`,
  );
  return rows[0] ?? null;
}

/** The member a grant of the site belongs to, read without a lock (to lock the member's accounts first). */
export async function findGrantMember(tx: Tx, siteId: bigint, grantId: bigint): Promise<bigint | null> {
  const rows = await rowsOf<{ member_id: unknown }>(
    tx,
    sql`SELECT member_id FROM bonus_grants WHERE id = ${text(grantId)}::bigint
          AND site_id = ${text(siteId)}::bigint`,
  );
  return rows[0] ? BigInt(String(rows[0].member_id)) : null;
}

export async function lockGrantRow(tx: Tx, grantId: bigint): Promise<TGrantRaw | null> {
  const rows = await rowsOf<TGrantRaw>(
    tx,
    sql`SELECT * FROM bonus_grants WHERE id = ${text(grantId)}::bigint FOR NO KEY UPDATE`,
  );
  return rows[0] ?? null;
}

/** A member's active grants, locked in the order every path takes them (expiry, id). */
export function lockActiveGrantRows(tx: Tx, memberId: bigint): Promise<TGrantRaw[]> {
  return rowsOf<TGrantRaw>(
    tx,
    sql`SELECT * FROM bonus_grants WHERE member_id = ${text(memberId)}::bigint AND status = 'active'
        ORDER BY expires_at, id FOR NO KEY UPDATE`,
  );
}

/** Some grants of a member, whatever their status, locked in expiry, id order. */
export function lockGrantRows(tx: Tx, memberId: bigint, grantIds: readonly string[]): Promise<TGrantRaw[]> {
  return rowsOf<TGrantRaw>(
    tx,
    sql`SELECT * FROM bonus_grants WHERE member_id = ${text(memberId)}::bigint
          AND id IN (${sql.join(
            grantIds.map((id) => sql`${id}::bigint`),
            sql`, `,
          )})
        ORDER BY expires_at, id FOR NO KEY UPDATE`,
  );
}

export type TGrantUpdate = {
  balanceDeltaMinor?: bigint;
  wageringDoneDeltaMinor?: bigint;
  status?: string;
  closeTransferId?: bigint | null;
  convertedMinor?: bigint;
  forfeitedMinor?: bigint;
  grantTransferId?: bigint;
};

/** Moves a grant's counters by deltas (a status other than active closes it now). */
export async function updateGrant(tx: Tx, grantId: bigint, set: TGrantUpdate): Promise<void> {
  const closing = set.status !== undefined && set.status !== 'active';
  await tx.execute(sql`
    UPDATE bonus_grants SET
      balance_minor = balance_minor + ${text(set.balanceDeltaMinor ?? 0n)}::bigint,
      wagering_done_minor = wagering_done_minor + ${text(set.wageringDoneDeltaMinor ?? 0n)}::bigint,
      status = COALESCE(${set.status ?? null}::text, status),
      closed_at = CASE WHEN ${closing} THEN now() ELSE closed_at END,
      close_transfer_id = COALESCE(${set.closeTransferId == null ? null : text(set.closeTransferId)}::bigint, close_transfer_id),
      grant_transfer_id = COALESCE(${set.grantTransferId == null ? null : text(set.grantTransferId)}::bigint, grant_transfer_id),
      converted_minor = converted_minor + ${text(set.convertedMinor ?? 0n)}::bigint,
      forfeited_minor = forfeited_minor + ${text(set.forfeitedMinor ?? 0n)}::bigint
    WHERE id = ${text(grantId)}::bigint`);
}

/** Active grants of a site past their expiry, oldest first. */
export async function findDueGrantIds(
  executor: Executor,
  siteId: bigint,
  now: Date,
  limit: number,
): Promise<bigint[]> {
  const rows = await rowsOf<{ id: unknown }>(
    executor,
    sql`SELECT id FROM bonus_grants WHERE site_id = ${text(siteId)}::bigint AND status = 'active'
          AND expires_at <= ${now.toISOString()}::timestamptz ORDER BY expires_at, id LIMIT ${limit}`,
  );
  return rows.map((r) => BigInt(String(r.id)));
}

/** Turnover still owed on a member's active grants that lock cash. */
export async function sumWageringOwed(executor: Executor, memberId: bigint): Promise<bigint> {
  const rows = await rowsOf<{ owed: unknown }>(
    executor,
    sql`SELECT COALESCE(sum(wagering_required_minor - wagering_done_minor), 0)::text AS owed
        FROM bonus_grants WHERE member_id = ${text(memberId)}::bigint AND status = 'active' AND locks_cash
          AND wagering_done_minor < wagering_required_minor`,
  );
  return BigInt(String(rows[0]?.owed ?? 0));
}

/** A page of a member's grants, newest first, keyset-paged by id. */
export function findGrantPage(
  executor: Executor,
  page: { siteId: bigint; memberId: bigint; status: string | null; beforeId: bigint | null; limit: number },
): Promise<TGrantRaw[]> {
  const beforeId = page.beforeId === null ? null : text(page.beforeId);
  return rowsOf<TGrantRaw>(
    executor,
    sql`SELECT * FROM bonus_grants WHERE site_id = ${text(page.siteId)}::bigint
          AND member_id = ${text(page.memberId)}::bigint
          AND (${page.status}::text IS NULL OR status = ${page.status}::text)
          AND (${beforeId}::bigint IS NULL OR id < ${beforeId}::bigint)
        ORDER BY id DESC LIMIT ${page.limit}`,
  );
}

export type TMoveRow = { what: 'account' | 'system' | 'transfer' | 'grant'; row: Record<string, unknown> };

/**
 * The reads of a stake or a win in ONE statement: locks the member's cash and bonus accounts (id
 * order) and, with `grants`, then their active grants (expiry, id order: the lock order of every
 * path); reads the site's system accounts and the transfers holding `keys`.
 */
export function lockMoveRows(
  tx: Tx,
  siteId: bigint,
  memberId: bigint,
  keys: readonly string[],
  options: { grants: boolean },
): Promise<TMoveRow[]> {
  const site = sql`${text(siteId)}::bigint`;
  const member = sql`${text(memberId)}::bigint`;
  const grants: SQL = options.grants
    ? sql`UNION ALL SELECT 'grant', to_jsonb(grants) FROM (
            SELECT ${GRANT_COLUMNS} FROM bonus_grants WHERE member_id = ${member} AND status = 'active'
            ORDER BY expires_at, id FOR NO KEY UPDATE) grants`
    : sql``;
  return rowsOf<TMoveRow>(
    tx,
    sql`SELECT 'account' AS what, to_jsonb(locked) AS row FROM (
          SELECT id::text, site_id::text, member_id::text, kind, balance_minor::text,
                 wagering_required_minor::text, floor(extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms
          FROM wallet_accounts WHERE site_id = ${site} AND member_id = ${member} AND kind IN ('cash', 'bonus')
          ORDER BY id FOR NO KEY UPDATE) locked
        UNION ALL SELECT 'system', to_jsonb(system) FROM (
          SELECT id::text, site_id::text, NULL::text AS member_id, kind, NULL::text AS balance_minor,
                 NULL::text AS wagering_required_minor, floor(extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms
          FROM wallet_accounts WHERE site_id = ${site} AND member_id IS NULL) system
        UNION ALL SELECT 'transfer', to_jsonb(keyed) FROM (
          SELECT ${TRANSFER_COLUMNS} FROM wallet_transfers
          WHERE site_id = ${site}
            AND idempotency_key = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb)))) keyed
        ${grants}`,
  );
}
