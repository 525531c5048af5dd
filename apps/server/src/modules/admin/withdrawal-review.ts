import {
  formatMinor,
  type TAdminWithdrawalQueueQuery,
  type TAdminWithdrawalReview,
  type TAdminWithdrawalRow,
  type TWithdrawalRisk,
} from '@sorte/contract';
import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import { maskCpf, maskPixKey } from '../../core/pii-masks.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { pageOf, type TCsvColumn } from './csv.ts';
import { seesPii } from './pii.ts';
import {
  countQueue,
  findApprovals,
  findApprovalsLog,
  findOtherWithdrawals,
  findQueueRows,
  findReviewOrder,
  findReviewPlayer,
  findSameCpfAccounts,
  findSecondApprovalMinor,
  insertApproval,
  type TQueueRow,
} from './withdrawal-review.repo.ts';

/** A player account younger than this is "new" in the review queue. */
export const NEW_ACCOUNT_DAYS = 7;
/** This many PIX destinations (cards, removed ones included) or more is "many cards". */
export const MANY_CARDS = 3;

/**
 * The amount from which a withdrawal of this site needs two operators (withdrawal_settings, the
 * site's own row or the default one; NULL: never).
 */
export async function secondApprovalMinor(executor: Executor, siteId: bigint): Promise<bigint | null> {
  const minor = await findSecondApprovalMinor(executor, siteId);
  return minor ? BigInt(minor) : null;
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
  const approvals = await findApprovals(tx, order.id);
  if (approvals.some((approval) => approval.operator_id === operator.operatorId.toString())) {
    throw new AppError('APPROVER_MUST_DIFFER');
  }
  await insertApproval(tx, {
    siteId: order.siteId,
    orderId: order.id,
    operatorId: operator.operatorId,
    remark: remark ?? null,
  });
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
  const filter = {
    status,
    username: query.username,
    orderNo: query.order_no,
  };
  const rows = await findQueueRows(executor, operator.siteId, filter, page);
  const threshold = await secondApprovalMinor(executor, operator.siteId);
  return {
    page,
    list: rows.map((row) => toRow(row, threshold)),
    total: rows[0]?.total ?? (page.offset > 0 ? await countQueue(executor, operator.siteId, filter) : 0),
  };
}

/** One order with the player's history, risk signals and the approvals so far. */
export async function withdrawalReview(
  executor: Executor,
  operator: TOperatorAuth,
  orderNo: string,
): Promise<TAdminWithdrawalReview> {
  const row = await findReviewOrder(executor, operator.siteId, orderNo);
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  const memberId = row.member_id;
  const player = await findReviewPlayer(executor, memberId);
  const others = await findSameCpfAccounts(executor, memberId, row.payee_cpf);
  const history = await findOtherWithdrawals(executor, memberId, row.order_no);
  const approvals = await findApprovalsLog(executor, row.id);
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
