import {
  CURRENCY,
  formatMinor,
  HOUSE_PLATFORM,
  ORDER_CENTER_LIST_MAX,
  type TAllBalanceResponse,
  type TOrderCenterAssociationResponse,
  type TOrderCenterDetailsResponse,
  type TOrderCenterFeeResponse,
  type TRecordPeriod,
  type TTransactionRecordResponse,
  type TTransactionRow,
} from '@sorte/contract';
import { periodStart, siteTimeZone } from '../../core/periods.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { type Balances, getBalances } from '../wallet/balances.ts';
import { isWalletError } from '../wallet/wallet.errors.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import {
  findFees,
  findInvitees,
  findOrders,
  findTransferPage,
  sumInvitees,
  sumOrderTotals,
  type TTransferRecordRow,
} from './records.repo.ts';

/**
 * The transaction record, the order center and the per-platform balances. Everything here reads;
 * money only moves through the wallet module.
 */

type TOwner = { site: TSite; memberId: bigint; now?: Date };

const money = (minorText: string | bigint) => formatMinor(BigInt(minorText));
const PLAYABLE = new Set(['cash', 'bonus']);
const MEMBER_ACCOUNTS = new Set(['cash', 'bonus', 'withdrawal_hold']);

/**
 * One transfer as the member sees it. `change` is what it did to the playable balance (cash +
 * bonus): a withdrawal request takes the money at once (cash → hold, negative), a rejection
 * brings it back (positive), the payout only moves held money (zero). The row shows the member
 * account that changed and its balance right after.
 */
export function toTransactionRow(row: TTransferRecordRow): TTransactionRow {
  const amount = BigInt(row.amount_minor);
  const debitPlayable = row.debit_kind !== null && PLAYABLE.has(row.debit_kind);
  const creditPlayable = row.credit_kind !== null && PLAYABLE.has(row.credit_kind);
  const change = (creditPlayable ? amount : 0n) - (debitPlayable ? amount : 0n);
  const side = change < 0n ? 'debit' : change > 0n ? 'credit' : row.credit_kind !== null ? 'credit' : 'debit';
  const account = side === 'debit' ? row.debit_kind : row.credit_kind;
  const balanceAfter = side === 'debit' ? row.debit_balance_after_minor : row.credit_balance_after_minor;
  if (account === null || !MEMBER_ACCOUNTS.has(account) || balanceAfter === null) {
    throw new Error(`transfer ${row.id} has no member account on its ${side} side`);
  }
  return {
    id: Number(row.id),
    created_at: row.created_at,
    kind: row.kind as TTransactionRow['kind'],
    amount: money(amount),
    change: change > 0n ? `+${money(change)}` : money(change),
    direction: change > 0n ? 'in' : change < 0n ? 'out' : 'none',
    account: account as TTransactionRow['account'],
    balance_after: money(balanceAfter),
    reference: row.reference,
  };
}

/** A keyset page of the member's wallet movements (see the contract's ZTransactionRecordRequest). */
export async function listTransactions(
  executor: Executor,
  owner: TOwner,
  input: { period: TRecordPeriod; cursor: string | undefined; page_size: number },
): Promise<TTransactionRecordResponse> {
  const timeZone = siteTimeZone(owner.site);
  const cursor = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await findTransferPage(executor, {
    siteId: owner.site.id,
    memberId: owner.memberId,
    from: periodStart(input.period, owner.now ?? new Date(), timeZone),
    cursor,
    limit: input.page_size,
  });
  const more = rows.length > input.page_size;
  const page = rows.slice(0, input.page_size);
  // A "previous" page is read oldest first from the cursor; show it newest first like the others.
  const goingBack = cursor?.direction === 'prev';
  if (goingBack) page.reverse();
  const newest = page[0];
  const oldest = page[page.length - 1];
  const cursorAt = (row: TTransferRecordRow, direction: 'next' | 'prev') =>
    encodeCursor({ createdAt: row.created_at, id: BigInt(row.id), direction });
  // Older rows exist when this page was cut short going back in time, or when we came forward.
  const hasOlder = goingBack ? cursor !== null : more;
  // Newer rows exist when we paged back from a cursor, or when a forward page was cut short.
  const hasNewer = goingBack ? more : cursor !== null;
  return {
    list: page.map(toTransactionRow),
    next_cursor: oldest && hasOlder ? cursorAt(oldest, 'next') : null,
    prev_cursor: newest && hasNewer ? cursorAt(newest, 'prev') : null,
    period: input.period,
    page_size: input.page_size,
    time_zone: timeZone,
  };
}

export async function getOrderCenterDetails(
  executor: Executor,
  owner: TOwner,
  period: TRecordPeriod,
): Promise<TOrderCenterDetailsResponse> {
  const timeZone = siteTimeZone(owner.site);
  const filter = {
    siteId: owner.site.id,
    memberId: owner.memberId,
    from: periodStart(period, owner.now ?? new Date(), timeZone),
  };
  const [orders, totals] = await Promise.all([
    findOrders(executor, { ...filter, limit: ORDER_CENTER_LIST_MAX }),
    sumOrderTotals(executor, filter),
  ]);
  return {
    details: orders.slice(0, ORDER_CENTER_LIST_MAX).map((order) => ({
      type: order.type,
      order_no: order.order_no,
      amount: money(order.amount_minor),
      fee: money(order.fee_minor),
      actual_amount: money(order.actual_minor),
      status: order.status,
      created_at: order.created_at,
    })),
    total_recharge_amount: money(totals.recharge_minor),
    total_withdraw_amount: money(totals.withdraw_minor),
    total_bonus_amount: money(totals.bonus_minor),
    total_fee_amount: money(totals.fee_minor),
    has_more: orders.length > ORDER_CENTER_LIST_MAX,
    period,
    time_zone: timeZone,
  };
}

export async function getOrderCenterFees(
  executor: Executor,
  owner: TOwner,
  period: TRecordPeriod,
): Promise<TOrderCenterFeeResponse> {
  const timeZone = siteTimeZone(owner.site);
  const filter = {
    siteId: owner.site.id,
    memberId: owner.memberId,
    from: periodStart(period, owner.now ?? new Date(), timeZone),
  };
  const [fees, totals] = await Promise.all([
    findFees(executor, { ...filter, limit: ORDER_CENTER_LIST_MAX }),
    sumOrderTotals(executor, filter),
  ]);
  return {
    fee: fees.slice(0, ORDER_CENTER_LIST_MAX).map((fee) => ({
      id: Number(fee.id),
      order_no: fee.order_no,
      withdraw_amount: money(fee.withdraw_minor),
      fee: money(fee.fee_minor),
      created_at: fee.created_at,
    })),
    total_fee_amount: money(totals.fee_minor),
    has_more: fees.length > ORDER_CENTER_LIST_MAX,
    period,
    time_zone: timeZone,
  };
}

/** "maria09" → "ma***09": enough for the inviter to recognise, not enough to log in as. */
export function maskUsername(username: string): string {
  if (username.length <= 4) return `${username.slice(0, 1)}***`;
  return `${username.slice(0, 2)}***${username.slice(-2)}`;
}

export async function getOrderCenterAssociation(
  executor: Executor,
  owner: TOwner,
): Promise<TOrderCenterAssociationResponse> {
  const filter = { siteId: owner.site.id, memberId: owner.memberId };
  const [invitees, sums] = await Promise.all([
    findInvitees(executor, { ...filter, limit: ORDER_CENTER_LIST_MAX }),
    sumInvitees(executor, filter),
  ]);
  return {
    association: invitees.slice(0, ORDER_CENTER_LIST_MAX).map((invitee) => ({
      id: Number(invitee.id),
      name: maskUsername(invitee.username),
      relation: invitee.relation,
      created_at: invitee.created_at,
      total_recharge_amount: money(invitee.recharge_minor),
    })),
    total: Number(sums.total),
    total_recharge_amount: money(sums.recharge_minor),
    has_more: invitees.length > ORDER_CENTER_LIST_MAX,
  };
}

const NO_BALANCES: Balances = {
  cashMinor: 0n,
  bonusMinor: 0n,
  holdMinor: 0n,
  wageringRequiredMinor: 0n,
  totalMinor: 0n,
  withdrawableMinor: 0n,
};

/**
 * Balances per game platform. Every platform plays on the one in-house wallet (third-party games
 * use it through the seamless-wallet protocol), so there is one entry: HOUSE_PLATFORM.
 */
export async function getAllBalances(
  executor: Executor,
  owner: TOwner,
  input: { currency: string | undefined; platType: string | undefined },
): Promise<TAllBalanceResponse> {
  if (input.currency !== undefined && input.currency.trim().toUpperCase() !== CURRENCY) {
    throw new AppError('CURRENCY_UNSUPPORTED');
  }
  const platType = input.platType?.trim().toLowerCase() ?? '';
  if (platType !== '' && platType !== HOUSE_PLATFORM) {
    throw new AppError('VALIDATION_FAILED', {
      messageKey: 'validation.plat_type_unknown',
      fieldErrors: { platType: 'validation.plat_type_unknown' },
    });
  }
  const balances = await getBalances(executor, owner.memberId, { siteId: owner.site.id }).catch((error) => {
    // A member whose wallet was never opened has simply never had money.
    if (isWalletError(error, 'ACCOUNT_NOT_FOUND')) return NO_BALANCES;
    throw error;
  });
  const total = money(balances.totalMinor);
  return {
    currency: CURRENCY,
    list: [
      {
        plat_type: HOUSE_PLATFORM,
        name: owner.site.name,
        money: money(balances.cashMinor),
        fs_money: money(balances.bonusMinor),
        hold_money: money(balances.holdMinor),
        total_money: total,
      },
    ],
    total_money: total,
  };
}
