import {
  formatMinor,
  type TAdminWithdrawalQueueQuery,
  type TAdminWithdrawalReview,
  type TAdminWithdrawalRow,
  type TWithdrawalRisk,
} from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { TOperatorAuth } from '../../core/audit.ts';
import { recordOperatorAction } from '../../core/audit.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { rowsOf } from '../wallet/wallet.repo.ts';
import { pageOf, type TCsvColumn } from './csv.ts';
import { maskCpf, maskPixKey, seesPii } from './pii.ts';

/** A player account younger than this is "new" in the review queue. */
export const NEW_ACCOUNT_DAYS = 7;
/** This many PIX destinations (cards, removed ones included) or more is "many cards". */
export const MANY_CARDS = 3;

const s = (value: bigint) => value.toString();

/**
 * The amount from which a withdrawal of this site needs two operators (withdrawal_settings, the
 * site's own row or the default one; NULL: never).
 */
export async function secondApprovalMinor(executor: Executor, siteId: bigint): Promise<bigint | null> {
  const [row] = await rowsOf<{ minor: string | null }>(
    executor,
    sql`SELECT second_approval_minor::text AS minor FROM withdrawal_settings
        WHERE site_id = ${s(siteId)}::bigint OR site_id IS NULL
        ORDER BY site_id NULLS LAST LIMIT 1`,
  );
  return row?.minor ? BigInt(row.minor) : null;
}

/**
 * Two-person approval of one order (called in the approval's transaction, the order row locked and
 * still pending). Below the site's amount: 'pay'. At or above it: the first operator's approval is
 * recorded ('recorded', the order stays pending); a second, different operator's approval is
 * recorded too and pays ('pay'); the same operator again is refused (APPROVER_MUST_DIFFER).
 */
export async function twoPersonGate(
  tx: Executor,
  operator: TOperatorAuth,
  order: { id: bigint; siteId: bigint; orderNo: string; amountMinor: bigint; memberId: bigint },
  remark: string | undefined,
): Promise<'pay' | 'recorded'> {
  const threshold = await secondApprovalMinor(tx, order.siteId);
  if (threshold === null || order.amountMinor < threshold) return 'pay';
  const approvals = await rowsOf<{ operator_id: string }>(
    tx,
    sql`SELECT operator_id::text FROM withdrawal_approvals WHERE order_id = ${s(order.id)}::bigint`,
  );
  if (approvals.some((approval) => approval.operator_id === s(operator.operatorId))) {
    throw new AppError('APPROVER_MUST_DIFFER');
  }
  await tx.execute(
    sql`INSERT INTO withdrawal_approvals (site_id, order_id, operator_id, remark)
        VALUES (${s(order.siteId)}::bigint, ${s(order.id)}::bigint, ${s(operator.operatorId)}::bigint, ${remark ?? null})`,
  );
  if (approvals.length > 0) return 'pay';
  await recordOperatorAction(
    tx,
    operator,
    'withdrawal.first_approval',
    { memberId: order.memberId, entity: 'withdrawal', entityId: order.orderNo },
    { status: 'pending_review', approvals: 0 },
    { status: 'pending_review', approvals: 1, remark: remark ?? null },
  );
  return 'recorded';
}

type TQueueRow = {
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

function risksOf(row: TQueueRow): TWithdrawalRisk[] {
  const risks: TWithdrawalRisk[] = [];
  if (Date.now() - Date.parse(row.member_created_at) < NEW_ACCOUNT_DAYS * 86_400_000)
    risks.push('new_account');
  if (BigInt(row.wagering_minor ?? '0') > 0n) risks.push('bonus_not_wagered');
  if (row.same_cpf > 0) risks.push('same_cpf');
  if (row.cards >= MANY_CARDS) risks.push('many_cards');
  return risks;
}

/** Statuses an approval led to (one operator below the amount leaves no approvals row). */
const APPROVED_STATUSES = new Set(['approved', 'paying', 'paid', 'failed']);

function toRow(row: TQueueRow, threshold: bigint | null): TAdminWithdrawalRow {
  const needed = threshold !== null && BigInt(row.amount_minor) >= threshold ? 2 : 1;
  return {
    order_no: row.order_no,
    member_id: row.member_id,
    username: row.username,
    amount: formatMinor(BigInt(row.amount_minor)),
    fee: formatMinor(BigInt(row.fee_minor)),
    actual: formatMinor(BigInt(row.actual_minor)),
    status: row.status,
    pix_key_type: row.pix_key_type,
    payee_name: row.payee_name,
    created_at: row.created_at,
    reviewed_at: row.reviewed_at,
    remark: row.remark,
    risks: risksOf(row),
    approvals: APPROVED_STATUSES.has(row.status) ? Math.max(row.approvals, needed) : row.approvals,
    approvals_needed: needed,
  };
}

/** CSV columns of the queue export. */
export const WITHDRAWAL_QUEUE_COLUMNS: TCsvColumn<TAdminWithdrawalRow>[] = [
  { header: 'order_no', value: (row) => row.order_no },
  { header: 'username', value: (row) => row.username },
  { header: 'amount', value: (row) => row.amount },
  { header: 'fee', value: (row) => row.fee },
  { header: 'actual', value: (row) => row.actual },
  { header: 'status', value: (row) => row.status },
  { header: 'pix_key_type', value: (row) => row.pix_key_type },
  { header: 'payee_name', value: (row) => row.payee_name },
  { header: 'created_at', value: (row) => row.created_at },
  { header: 'reviewed_at', value: (row) => row.reviewed_at },
  { header: 'risks', value: (row) => row.risks.join(' ') },
  { header: 'approvals', value: (row) => `${row.approvals}/${row.approvals_needed}` },
  { header: 'remark', value: (row) => row.remark },
];

/** The review queue of the operator's site: filters, server paging (oldest pending first). */
export async function withdrawalQueue(
  executor: Executor,
  operator: TOperatorAuth,
  query: TAdminWithdrawalQueueQuery,
) {
  const page = pageOf(query);
  const status = query.status ?? 'pending_review';
  const conditions = [sql`w.site_id = ${s(operator.siteId)}::bigint`, sql`w.status = ${status}`];
  if (query.username) conditions.push(sql`m.username_lower LIKE ${`%${query.username.toLowerCase()}%`}`);
  if (query.order_no) conditions.push(sql`w.order_no = ${query.order_no.toUpperCase()}`);
  // Pending: the oldest waits longest, so it comes first; reviewed lists show the latest first.
  const order = status === 'pending_review' ? sql`w.id ASC` : sql`w.id DESC`;
  const rows = await rowsOf<TQueueRow>(
    executor,
    sql`${QUEUE_SELECT} WHERE ${sql.join(conditions, sql` AND `)} ORDER BY ${order}
        LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  const threshold = await secondApprovalMinor(executor, operator.siteId);
  return {
    page,
    list: rows.map((row) => toRow(row, threshold)),
    total: rows[0]?.total ?? (page.offset > 0 ? await countOf(executor, conditions) : 0),
  };
}

async function countOf(executor: Executor, conditions: ReturnType<typeof sql>[]): Promise<number> {
  const [row] = await rowsOf<{ count: number }>(
    executor,
    sql`SELECT count(*)::int AS count FROM withdrawal_orders w JOIN members m ON m.id = w.member_id
        WHERE ${sql.join(conditions, sql` AND `)}`,
  );
  return row?.count ?? 0;
}

/** One order with the player's history, risk signals and the approvals so far. */
export async function withdrawalReview(
  executor: Executor,
  operator: TOperatorAuth,
  orderNo: string,
): Promise<TAdminWithdrawalReview> {
  const [row] = await rowsOf<TQueueRow & { pix_key: string; payee_cpf: string | null }>(
    executor,
    sql`SELECT q.*, w.pix_key, w.payee_cpf FROM (${QUEUE_SELECT}
          WHERE w.site_id = ${s(operator.siteId)}::bigint AND w.order_no = ${orderNo.toUpperCase()}) q
        JOIN withdrawal_orders w ON w.id = q.id::bigint`,
  );
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  const memberId = row.member_id;
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
  const others = await rowsOf<{ username: string }>(
    executor,
    sql`SELECT o.username FROM members o, members m
        WHERE m.id = ${memberId}::bigint AND o.id <> m.id AND o.cpf IS NOT NULL
          AND o.cpf IN (m.cpf, ${row.payee_cpf}) ORDER BY o.id LIMIT 20`,
  );
  const history = await rowsOf<{
    order_no: string;
    amount_minor: string;
    status: string;
    created_at: string;
  }>(
    executor,
    sql`SELECT order_no, amount_minor::text, status,
               to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
          FROM withdrawal_orders WHERE member_id = ${memberId}::bigint AND order_no <> ${row.order_no}
         ORDER BY id DESC LIMIT 10`,
  );
  const approvals = await rowsOf<{ username: string; remark: string | null; at: string }>(
    executor,
    sql`SELECT o.username, p.remark,
               to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at
          FROM withdrawal_approvals p JOIN operators o ON o.id = p.operator_id
         WHERE p.order_id = ${row.id}::bigint ORDER BY p.id`,
  );
  const threshold = await secondApprovalMinor(executor, operator.siteId);
  const pii = seesPii(operator);
  const cpf = (value: string | null | undefined) => (value ? (pii ? value : maskCpf(value)) : null);
  return {
    order: {
      ...toRow(row, threshold),
      pix_key: pii ? row.pix_key : maskPixKey(row.pix_key_type, row.pix_key),
      payee_cpf: cpf(row.payee_cpf),
    },
    player: {
      id: memberId,
      username: row.username,
      created_at: row.member_created_at,
      cpf: cpf(player?.cpf),
      balance: formatMinor(BigInt(player?.balance ?? '0')),
      wagering_required: formatMinor(BigInt(row.wagering_minor ?? '0')),
      deposits: { count: player?.deposits ?? 0, total: formatMinor(BigInt(player?.deposits_minor ?? '0')) },
      withdrawals_paid: { count: player?.paid ?? 0, total: formatMinor(BigInt(player?.paid_minor ?? '0')) },
      bonuses: { count: player?.bonuses ?? 0, total: formatMinor(BigInt(player?.bonuses_minor ?? '0')) },
      cards: row.cards,
      other_accounts_same_cpf: others.map((other) => other.username),
    },
    history: history.map((item) => ({
      order_no: item.order_no,
      amount: formatMinor(BigInt(item.amount_minor)),
      status: item.status,
      created_at: item.created_at,
    })),
    approvals_log: approvals.map((approval) => ({
      operator: approval.username,
      remark: approval.remark,
      at: approval.at,
    })),
    second_approval_from: threshold === null ? null : formatMinor(threshold),
  };
}
