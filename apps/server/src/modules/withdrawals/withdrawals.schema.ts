import type { TWithdrawalStatus } from '@sorte/contract';
import { bigint, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of migrations/0004_money_orders.sql (+ 0013: idempotency key, cancellation; 0025: fees per channel); only
 * the withdrawals module writes these.
 */

export const withdrawalSettings = pgTable('withdrawal_settings', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }),
  minMinor: bigint('min_minor', { mode: 'bigint' }).notNull(),
  maxMinor: bigint('max_minor', { mode: 'bigint' }).notNull(),
  dailyCountMax: integer('daily_count_max').notNull(),
  /** Withdrawals from this amount need a second operator's approval (migration 0037). */
  secondApprovalMinor: bigint('second_approval_minor', { mode: 'bigint' }).default(500000n),
});
export type TWithdrawalSettingsRow = typeof withdrawalSettings.$inferSelect;

/** migrations/0025: the fee of each payout channel, per site (site_id NULL: the default). */
export const withdrawalChannelFees = pgTable('withdrawal_channel_fees', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }),
  channel: text('channel').notNull(),
  feeBps: integer('fee_bps').notNull(),
  feeMinMinor: bigint('fee_min_minor', { mode: 'bigint' }).notNull(),
});
export type TWithdrawalChannelFeeRow = typeof withdrawalChannelFees.$inferSelect;

export const withdrawalOrders = pgTable('withdrawal_orders', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  orderNo: text('order_no').notNull(),
  amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
  feeMinor: bigint('fee_minor', { mode: 'bigint' }).notNull(),
  actualMinor: bigint('actual_minor', { mode: 'bigint' }).notNull(),
  status: text('status').$type<TWithdrawalStatus>().notNull().default('pending_review'),
  reviewStatus: text('review_status').$type<'not_reviewed' | 'reviewed'>().notNull().default('not_reviewed'),
  bankCardId: bigint('bank_card_id', { mode: 'bigint' }).notNull(),
  paymentType: text('payment_type').notNull(),
  pixKey: text('pix_key').notNull(),
  pixKeyType: text('pix_key_type').$type<'CPF' | 'CNPJ' | 'EVP' | 'PHONE' | 'EMAIL'>().notNull(),
  payeeName: text('payee_name').notNull(),
  payeeCpf: text('payee_cpf'),
  memberRemark: text('member_remark'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  reviewedBy: bigint('reviewed_by', { mode: 'bigint' }),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  remark: text('remark'),
  holdTransferId: bigint('hold_transfer_id', { mode: 'bigint' }).notNull(),
  payoutId: text('payout_id'),
  resolveTransferId: bigint('resolve_transfer_id', { mode: 'bigint' }),
  failReason: text('fail_reason'),
  idempotencyKey: text('idempotency_key'),
  requestHash: text('request_hash'),
  cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TWithdrawalOrderRow = typeof withdrawalOrders.$inferSelect;

export const withdrawPasswordFailures = pgTable('withdraw_password_failures', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
