import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';

/**
 * The SQL of the withdrawal review: the two-person approval's settings and rows, the queue with each
 * order's risk signals, and what the review of one order shows of the player.
 */

const s = (value: bigint) => value.toString();

/** The site's own withdrawal settings row, else the default one. */
export async function findSecondApprovalMinor(executor: Executor, siteId: bigint): Promise<string | null> {
  const [row] = await rowsOf<{ minor: string | null }>(
    executor,
    sql`SELECT second_approval_minor::text AS minor FROM withdrawal_settings
        WHERE site_id = ${s(siteId)}::bigint OR site_id IS NULL
        ORDER BY site_id NULLS LAST LIMIT 1`,
  );
  return row?.minor ?? null;
}

/** The operators who approved the order so far. */
export async function findApprovals(tx: Executor, orderId: bigint): Promise<{ operator_id: string }[]> {
  const approvals = await rowsOf<{ operator_id: string }>(
    tx,
    sql`SELECT operator_id::text FROM withdrawal_approvals WHERE order_id = ${s(orderId)}::bigint`,
  );
  return approvals;
}

export async function insertApproval(
  tx: Executor,
  approval: { siteId: bigint; orderId: bigint; operatorId: bigint; remark: string | null },
): Promise<void> {
  await tx.execute(
    sql`INSERT INTO withdrawal_approvals (site_id, order_id, operator_id, remark)
        VALUES (${s(approval.siteId)}::bigint, ${s(approval.orderId)}::bigint, ${s(approval.operatorId)}::bigint, ${approval.remark})`,
  );
}

export type TQueueRow = {
  id: string;
  order_no: string;
  member_id: string;
  username: string;
  amount_minor: string;
  fee_minor: string;
  actual_minor: string;
  status: string;
  pix_key_type: string;
  payee_name: string;
  created_at: string;
  reviewed_at: string | null;
  remark: string | null;
  member_created_at: string;
  wagering_minor: string | null;
  same_cpf: number;
  cards: number;
  approvals: number;
  total: number;
};

/** Risk signals and approvals of each order, computed in the query (one round trip per page). */
const QUEUE_SELECT = sql`
  SELECT w.id::text, w.order_no, w.member_id::text, m.username, w.amount_minor::text, w.fee_minor::text,
         w.actual_minor::text, w.status, w.pix_key_type, w.payee_name,
         to_char(w.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
         to_char(w.reviewed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS reviewed_at,
         w.remark,
         to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS member_created_at,
         (SELECT a.wagering_required_minor::text FROM wallet_accounts a
           WHERE a.member_id = w.member_id AND a.kind = 'cash') AS wagering_minor,
         (SELECT count(*)::int FROM members o
           WHERE o.id <> m.id AND o.cpf IS NOT NULL
             AND o.cpf IN (m.cpf, w.payee_cpf)) AS same_cpf,
         (SELECT count(*)::int FROM member_bank_cards c WHERE c.member_id = w.member_id) AS cards,
         (SELECT count(*)::int FROM withdrawal_approvals p WHERE p.order_id = w.id) AS approvals,
         count(*) OVER ()::int AS total
    FROM withdrawal_orders w
    JOIN members m ON m.id = w.member_id`;

function queueConditions(siteId: bigint, filter: TQueueFilter): SQL[] {
  const conditions = [sql`w.site_id = ${s(siteId)}::bigint`, sql`w.status = ${filter.status}`];
  if (filter.username) conditions.push(sql`m.username_lower LIKE ${`%${filter.username.toLowerCase()}%`}`);
  if (filter.orderNo) conditions.push(sql`w.order_no = ${filter.orderNo.toUpperCase()}`);
  return conditions;
}

export type TQueueFilter = { status: string; username?: string | undefined; orderNo?: string | undefined };

/** A page of the site's orders of one status: the oldest first when pending, else the latest. */
export async function findQueueRows(
  executor: Executor,
  siteId: bigint,
  filter: TQueueFilter,
  page: { limit: number; offset: number },
): Promise<TQueueRow[]> {
  const conditions = queueConditions(siteId, filter);
  // Pending: the oldest waits longest, so it comes first; reviewed lists show the latest first.
  const order = filter.status === 'pending_review' ? sql`w.id ASC` : sql`w.id DESC`;
  return rowsOf<TQueueRow>(
    executor,
    sql`${QUEUE_SELECT} WHERE ${sql.join(conditions, sql` AND `)} ORDER BY ${order}
        LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
}

export async function countQueue(executor: Executor, siteId: bigint, filter: TQueueFilter): Promise<number> {
  const conditions = queueConditions(siteId, filter);
  const [row] = await rowsOf<{ count: number }>(
    executor,
    sql`SELECT count(*)::int AS count FROM withdrawal_orders w JOIN members m ON m.id = w.member_id
        WHERE ${sql.join(conditions, sql` AND `)}`,
  );
  return row?.count ?? 0;
}

export async function findReviewOrder(executor: Executor, siteId: bigint, orderNo: string) {
  const [row] = await rowsOf<TQueueRow & { pix_key: string; payee_cpf: string | null }>(
    executor,
    sql`SELECT q.*, w.pix_key, w.payee_cpf FROM (${QUEUE_SELECT}
          WHERE w.site_id = ${s(siteId)}::bigint AND w.order_no = ${orderNo.toUpperCase()}) q
        JOIN withdrawal_orders w ON w.id = q.id::bigint`,
  );
  return row;
}

/** The player's CPF, cash balance and paid deposits, withdrawals and bonuses. */
export async function findReviewPlayer(executor: Executor, memberId: string) {
  const [player] = await rowsOf<{
    cpf: string | null;
    balance: string | null;
    deposits: number;
    deposits_minor: string;
    paid: number;
    paid_minor: string;
    bonuses: number;
    bonuses_minor: string;
  }>(
    executor,
    sql`SELECT m.cpf,
               (SELECT balance_minor::text FROM wallet_accounts WHERE member_id = m.id AND kind = 'cash') AS balance,
               (SELECT count(*)::int FROM deposit_orders WHERE member_id = m.id AND status = 'paid') AS deposits,
               (SELECT COALESCE(sum(amount_minor), 0)::text FROM deposit_orders
                 WHERE member_id = m.id AND status = 'paid') AS deposits_minor,
               (SELECT count(*)::int FROM withdrawal_orders WHERE member_id = m.id AND status = 'paid') AS paid,
               (SELECT COALESCE(sum(amount_minor), 0)::text FROM withdrawal_orders
                 WHERE member_id = m.id AND status = 'paid') AS paid_minor,
               (SELECT count(*)::int FROM wallet_transfers t JOIN wallet_accounts a ON a.id = t.credit_account_id
                 WHERE a.member_id = m.id AND a.kind = 'bonus') AS bonuses,
               (SELECT COALESCE(sum(t.amount_minor), 0)::text FROM wallet_transfers t
                  JOIN wallet_accounts a ON a.id = t.credit_account_id
                 WHERE a.member_id = m.id AND a.kind = 'bonus') AS bonuses_minor
          FROM members m WHERE m.id = ${memberId}::bigint`,
  );
  return player;
}

/** Other accounts with the player's CPF or the payee's. */
export async function findSameCpfAccounts(executor: Executor, memberId: string, payeeCpf: string | null) {
  const others = await rowsOf<{ username: string }>(
    executor,
    sql`SELECT o.username FROM members o, members m
        WHERE m.id = ${memberId}::bigint AND o.id <> m.id AND o.cpf IS NOT NULL
          AND o.cpf IN (m.cpf, ${payeeCpf}) ORDER BY o.id LIMIT 20`,
  );
  return others;
}

/** The player's ten latest other withdrawals. */
export async function findOtherWithdrawals(executor: Executor, memberId: string, orderNo: string) {
  const history = await rowsOf<{
    order_no: string;
    amount_minor: string;
    status: string;
    created_at: string;
  }>(
    executor,
    sql`SELECT order_no, amount_minor::text, status,
               to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
          FROM withdrawal_orders WHERE member_id = ${memberId}::bigint AND order_no <> ${orderNo}
         ORDER BY id DESC LIMIT 10`,
  );
  return history;
}

export async function findApprovalsLog(executor: Executor, orderId: string) {
  const approvals = await rowsOf<{ username: string; remark: string | null; at: string }>(
    executor,
    sql`SELECT o.username, p.remark,
               to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at
          FROM withdrawal_approvals p JOIN operators o ON o.id = p.operator_id
         WHERE p.order_id = ${orderId}::bigint ORDER BY p.id`,
  );
  return approvals;
}
