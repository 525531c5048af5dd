import { bigint, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of migrations/0007_providers.sql (the SQL file is the source of truth; its checks
 * and unique keys are what make a transaction id count once).
 */

export const providerSessions = pgTable('provider_sessions', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  aggregator: text('aggregator').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  gameId: bigint('game_id', { mode: 'bigint' }).notNull(),
  currency: text('currency').notNull().default('BRL'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
export type TProviderSessionRow = typeof providerSessions.$inferSelect;

export type TProviderRoundStatus = 'open' | 'settled' | 'rolled_back';

export const providerRounds = pgTable('provider_rounds', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  aggregator: text('aggregator').notNull(),
  roundRef: text('round_ref').notNull(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  gameId: bigint('game_id', { mode: 'bigint' }).notNull(),
  sessionId: bigint('session_id', { mode: 'bigint' }).notNull(),
  stakeMinor: bigint('stake_minor', { mode: 'bigint' }).notNull().default(0n),
  payoutMinor: bigint('payout_minor', { mode: 'bigint' }).notNull().default(0n),
  refundedMinor: bigint('refunded_minor', { mode: 'bigint' }).notNull().default(0n),
  status: text('status').$type<TProviderRoundStatus>().notNull().default('open'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  settledAt: timestamp('settled_at', { withTimezone: true }),
});
export type TProviderRoundRow = typeof providerRounds.$inferSelect;

export type TProviderTransactionKind = 'bet' | 'win' | 'rollback' | 'tombstone';

export const providerTransactions = pgTable('provider_transactions', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  aggregator: text('aggregator').notNull(),
  transactionRef: text('transaction_ref').notNull(),
  kind: text('kind').$type<TProviderTransactionKind>().notNull(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  roundId: bigint('round_id', { mode: 'bigint' }),
  referenceRef: text('reference_ref'),
  amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull().default(0n),
  requestHash: text('request_hash').notNull(),
  transferId: bigint('transfer_id', { mode: 'bigint' }),
  rolledBackBy: bigint('rolled_back_by', { mode: 'bigint' }),
  response: jsonb('response').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TProviderTransactionRow = typeof providerTransactions.$inferSelect;
