import { bigint, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of migrations/0004_money_orders.sql (the SQL file is the source of truth for
 * constraints). Only the deposits module writes these tables.
 */

export const paymentChannels = pgTable('payment_channels', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }),
  method: text('method').notNull(),
  methodName: text('method_name').notNull(),
  code: text('code').notNull(),
  name: text('name').notNull(),
  minMinor: bigint('min_minor', { mode: 'bigint' }).notNull(),
  maxMinor: bigint('max_minor', { mode: 'bigint' }).notNull(),
  feeBps: integer('fee_bps').notNull(),
  bonusBps: integer('bonus_bps').notNull(),
  presetsMinor: bigint('presets_minor', { mode: 'bigint' }).array().notNull(),
  expiresSeconds: integer('expires_seconds').notNull(),
  position: integer('position').notNull(),
  status: smallint('status').notNull(),
});
export type TPaymentChannelRow = typeof paymentChannels.$inferSelect;

export type TDepositStatus = 'pending' | 'paid' | 'expired' | 'refunded' | 'failed';

export const depositOrders = pgTable('deposit_orders', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  orderNo: text('order_no').notNull(),
  amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
  bonusMinor: bigint('bonus_minor', { mode: 'bigint' }).notNull().default(0n),
  status: text('status').$type<TDepositStatus>().notNull().default('pending'),
  paymentMethod: text('payment_method').notNull(),
  channel: text('channel').notNull(),
  txid: text('txid').notNull(),
  pixCopyPaste: text('pix_copy_paste').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  endToEndId: text('end_to_end_id'),
  payerCpf: text('payer_cpf'),
  creditTransferId: bigint('credit_transfer_id', { mode: 'bigint' }),
  refundId: text('refund_id'),
  refundStatus: text('refund_status').$type<'requested' | 'returned' | 'failed'>(),
  failReason: text('fail_reason'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TDepositOrderRow = typeof depositOrders.$inferSelect;

/** The money-relevant columns of members (0001 + cpf from 0004); read and set by the money flows. */
export const memberMoneyProfile = pgTable('members', {
  id: bigint('id', { mode: 'bigint' }).primaryKey(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  username: text('username').notNull(),
  realname: text('realname').notNull(),
  qkPwdHash: text('qk_pwd_hash'),
  cpf: text('cpf'),
  status: smallint('status').notNull(),
});

export const pspReconcileRuns = pgTable(
  'psp_reconcile_runs',
  {
    job: text('job').notNull(),
    period: text('period').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    seen: integer('seen').notNull().default(0),
    credited: integer('credited').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.job, t.period] })],
);
