import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { isoOf } from '../../db/sql.ts';
import type { TCursor } from './cursor.ts';

/**
 * Read-only SQL of the records and the order center. It reads the ledger (wallet_transfers,
 * wallet_accounts), the money orders (deposit_orders, withdrawal_orders) and members; it never
 * writes any of them. Numbers come back as text so both drivers give exact values.
 */

async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const id = (value: bigint) => sql`${value.toString()}::bigint`;
const since = (column: SQL, from: Date | null) =>
  from === null ? sql`` : sql`AND ${column} >= ${from.toISOString()}::timestamptz`;
/** created_at with PostgreSQL's microseconds, in UTC, as the cursor carries it. */
const isoMicros = (column: SQL) => isoOf(column, 'micros');

export type TTransferRecordRow = {
  id: string;
  kind: string;
  amount_minor: string;
  debit_kind: string | null;
  credit_kind: string | null;
  debit_balance_after_minor: string | null;
  credit_balance_after_minor: string | null;
  reference: string;
  created_at: string;
};

/**
 * One keyset page of the transfers touching the member's accounts on the site, newest first,
 * plus one extra row that tells whether there are more. `debit_kind` / `credit_kind` are the
 * member's account kinds on each side (null: not the member's account).
 */
export async function findTransferPage(
  executor: Executor,
  filter: { siteId: bigint; memberId: bigint; from: Date | null; cursor: TCursor | null; limit: number },
): Promise<TTransferRecordRow[]> {
  const { cursor } = filter;
  const older = cursor === null || cursor.direction === 'next';
  const keyset =
    cursor === null
      ? sql``
      : older
        ? sql`AND (t.created_at, t.id) < (${cursor.createdAt}::timestamptz, ${id(cursor.id)})`
        : sql`AND (t.created_at, t.id) > (${cursor.createdAt}::timestamptz, ${id(cursor.id)})`;
  // Qualified: the outer SELECT has text columns named created_at and id of its own.
  const order = (t: SQL) =>
    older ? sql`${t}.created_at DESC, ${t}.id DESC` : sql`${t}.created_at ASC, ${t}.id ASC`;
  const limit = filter.limit + 1;
  // Driven by the member's account ids (the ledger's (debit|credit)_account_id indexes), never by
  // a scan of the site's transfers: the accounts are the site's, and the ledger's foreign keys keep
  // every transfer on its accounts' site. A transfer between two of the member's accounts (hold,
  // release, bonus conversion) comes from both branches; UNION keeps it once.
  const branch = (side: SQL) =>
    sql`(SELECT t.id, t.kind, t.amount_minor, t.debit_account_id, t.credit_account_id,
                t.debit_balance_after_minor, t.credit_balance_after_minor, t.reference, t.created_at
         FROM wallet_transfers t
         WHERE ${side} IN (SELECT id FROM mine)
           ${since(sql`t.created_at`, filter.from)}
           ${keyset}
         ORDER BY ${order(sql`t`)}
         LIMIT ${limit})`;
  const rows = await rowsOf<TTransferRecordRow>(
    executor,
    sql`WITH mine AS (
          SELECT id, kind FROM wallet_accounts
          WHERE member_id = ${id(filter.memberId)} AND site_id = ${id(filter.siteId)}
        ),
        page AS (${branch(sql`t.debit_account_id`)} UNION ${branch(sql`t.credit_account_id`)})
        SELECT p.id::text AS id, p.kind, p.amount_minor::text AS amount_minor,
               d.kind AS debit_kind, c.kind AS credit_kind,
               p.debit_balance_after_minor::text AS debit_balance_after_minor,
               p.credit_balance_after_minor::text AS credit_balance_after_minor,
               p.reference, ${isoMicros(sql`p.created_at`)} AS created_at
        FROM page p
        LEFT JOIN mine d ON d.id = p.debit_account_id
        LEFT JOIN mine c ON c.id = p.credit_account_id
        ORDER BY ${order(sql`p`)}
        LIMIT ${limit}`,
  );
  return rows;
}

export type TOrderRow = {
  type: 'recharge' | 'withdraw';
  order_no: string;
  amount_minor: string;
  fee_minor: string;
  actual_minor: string;
  status: string;
  created_at: string;
};

/** The member's recharge and withdrawal orders created in the period, newest first (limit + 1). */
export async function findOrders(
  executor: Executor,
  filter: { siteId: bigint; memberId: bigint; from: Date | null; limit: number },
): Promise<TOrderRow[]> {
  const owner = sql`site_id = ${id(filter.siteId)} AND member_id = ${id(filter.memberId)}`;
  return rowsOf<TOrderRow>(
    executor,
    sql`SELECT type, order_no, amount_minor::text AS amount_minor, fee_minor::text AS fee_minor,
               actual_minor::text AS actual_minor, status, ${isoMicros(sql`created_at`)} AS created_at
        FROM (
          SELECT 'recharge' AS type, id, order_no, amount_minor, 0::bigint AS fee_minor,
                 amount_minor AS actual_minor, status, created_at
          FROM deposit_orders WHERE ${owner} ${since(sql`created_at`, filter.from)}
          UNION ALL
          SELECT 'withdraw' AS type, id, order_no, amount_minor, fee_minor, actual_minor, status, created_at
          FROM withdrawal_orders WHERE ${owner} ${since(sql`created_at`, filter.from)}
        ) orders
        ORDER BY orders.created_at DESC, orders.type, orders.id DESC
        LIMIT ${filter.limit + 1}`,
  );
}

export type TOrderTotals = {
  recharge_minor: string;
  withdraw_minor: string;
  bonus_minor: string;
  fee_minor: string;
};

/**
 * Order-center totals of the period: paid recharges and paid-out withdrawals (by the time they
 * were paid), bonuses/rebates/commissions credited to the member, and the withdrawal fees kept
 * (the wallet records each payout's fee in its metadata as `feeMinor`).
 */
export async function sumOrderTotals(
  executor: Executor,
  filter: { siteId: bigint; memberId: bigint; from: Date | null },
): Promise<TOrderTotals> {
  const owner = sql`site_id = ${id(filter.siteId)} AND member_id = ${id(filter.memberId)}`;
  const rows = await rowsOf<TOrderTotals>(
    executor,
    sql`WITH mine AS (
          SELECT id, kind FROM wallet_accounts
          WHERE member_id = ${id(filter.memberId)} AND site_id = ${id(filter.siteId)}
        )
        SELECT
          (SELECT COALESCE(SUM(amount_minor), 0) FROM deposit_orders
            WHERE ${owner} AND status = 'paid' ${since(sql`paid_at`, filter.from)})::text AS recharge_minor,
          (SELECT COALESCE(SUM(amount_minor), 0) FROM withdrawal_orders
            WHERE ${owner} AND status = 'paid' ${since(sql`paid_at`, filter.from)})::text AS withdraw_minor,
          (SELECT COALESCE(SUM(t.amount_minor), 0) FROM wallet_transfers t
            JOIN mine c ON c.id = t.credit_account_id AND c.kind IN ('cash', 'bonus')
            WHERE t.site_id = ${id(filter.siteId)} AND t.kind IN ('bonus_grant', 'rebate', 'commission')
              ${since(sql`t.created_at`, filter.from)})::text AS bonus_minor,
          (SELECT COALESCE(SUM(${feeOf(sql`t`)}), 0) FROM wallet_transfers t
            JOIN mine d ON d.id = t.debit_account_id AND d.kind = 'withdrawal_hold'
            WHERE t.site_id = ${id(filter.siteId)} AND t.kind = 'withdrawal_payout'
              ${since(sql`t.created_at`, filter.from)})::text AS fee_minor`,
  );
  return rows[0]!;
}

/** The fee a payout transfer kept, from its metadata (0 when absent or malformed). */
function feeOf(transfer: SQL): SQL {
  return sql`CASE WHEN ${transfer}.metadata->>'feeMinor' ~ '^[0-9]{1,15}$'
                  THEN (${transfer}.metadata->>'feeMinor')::bigint ELSE 0 END`;
}

export type TFeeRow = {
  id: string;
  order_no: string;
  withdraw_minor: string;
  fee_minor: string;
  created_at: string;
};

/** The member's paid-out withdrawals that kept a fee, newest first (limit + 1). */
export async function findFees(
  executor: Executor,
  filter: { siteId: bigint; memberId: bigint; from: Date | null; limit: number },
): Promise<TFeeRow[]> {
  return rowsOf<TFeeRow>(
    executor,
    sql`SELECT t.id::text AS id, COALESCE(w.order_no, t.reference) AS order_no,
               t.amount_minor::text AS withdraw_minor, ${feeOf(sql`t`)}::text AS fee_minor,
               ${isoMicros(sql`t.created_at`)} AS created_at
        FROM wallet_transfers t
        JOIN wallet_accounts a ON a.id = t.debit_account_id AND a.kind = 'withdrawal_hold'
          AND a.member_id = ${id(filter.memberId)} AND a.site_id = ${id(filter.siteId)}
        LEFT JOIN withdrawal_orders w ON w.hold_transfer_id = t.hold_transfer_id
        WHERE t.site_id = ${id(filter.siteId)} AND t.kind = 'withdrawal_payout' AND ${feeOf(sql`t`)} > 0
          ${since(sql`t.created_at`, filter.from)}
        ORDER BY t.created_at DESC, t.id DESC
        LIMIT ${filter.limit + 1}`,
  );
}

export type TInviteeRow = {
  id: string;
  username: string;
  relation: 'direct' | 'indirect';
  created_at: string;
  recharge_minor: string;
};

/**
 * The member's invitees on the site: direct (agent_id = member: the member's invite code) and
 * indirect (top_id = member: further down the tree the member started), newest first (limit + 1),
 * each with the sum of their paid recharges.
 */
export async function findInvitees(
  executor: Executor,
  filter: { siteId: bigint; memberId: bigint; limit: number },
): Promise<TInviteeRow[]> {
  return rowsOf<TInviteeRow>(
    executor,
    sql`SELECT m.id::text AS id, m.username,
               CASE WHEN m.agent_id = ${id(filter.memberId)} THEN 'direct' ELSE 'indirect' END AS relation,
               ${isoMicros(sql`m.created_at`)} AS created_at,
               (SELECT COALESCE(SUM(d.amount_minor), 0) FROM deposit_orders d
                 WHERE d.member_id = m.id AND d.site_id = m.site_id AND d.status = 'paid')::text AS recharge_minor
        FROM members m
        WHERE m.site_id = ${id(filter.siteId)} AND m.id <> ${id(filter.memberId)}
          AND (m.agent_id = ${id(filter.memberId)} OR m.top_id = ${id(filter.memberId)})
          AND m.deleted_at IS NULL
        ORDER BY m.created_at DESC, m.id DESC
        LIMIT ${filter.limit + 1}`,
  );
}

/** How many invitees the member has and the sum of all their paid recharges. */
export async function sumInvitees(
  executor: Executor,
  filter: { siteId: bigint; memberId: bigint },
): Promise<{ total: string; recharge_minor: string }> {
  const rows = await rowsOf<{ total: string; recharge_minor: string }>(
    executor,
    sql`WITH invitees AS (
          SELECT id, site_id FROM members
          WHERE site_id = ${id(filter.siteId)} AND id <> ${id(filter.memberId)}
            AND (agent_id = ${id(filter.memberId)} OR top_id = ${id(filter.memberId)})
            AND deleted_at IS NULL
        )
        SELECT (SELECT count(*) FROM invitees)::text AS total,
               (SELECT COALESCE(SUM(d.amount_minor), 0) FROM deposit_orders d
                 JOIN invitees i ON i.id = d.member_id AND i.site_id = d.site_id
                 WHERE d.status = 'paid')::text AS recharge_minor`,
  );
  return rows[0]!;
}
