import { bigint, boolean, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0020_promotions.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const bonusGrants = pgTable(
  'bonus_grants',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    campaignCode: text('campaign_code').notNull(),
    periodKey: text('period_key').notNull(),
    terms: jsonb('terms').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    balanceMinor: bigint('balance_minor', { mode: 'bigint' }).notNull(),
    wageringRequiredMinor: bigint('wagering_required_minor', { mode: 'bigint' }).notNull(),
    wageringDoneMinor: bigint('wagering_done_minor', { mode: 'bigint' }).notNull().default(0n),
    maxBetMinor: bigint('max_bet_minor', { mode: 'bigint' }),
    locksCash: boolean('locks_cash').notNull().default(true),
    status: text('status').notNull().default('active'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    grantTransferId: bigint('grant_transfer_id', { mode: 'bigint' }),
    closeTransferId: bigint('close_transfer_id', { mode: 'bigint' }),
    convertedMinor: bigint('converted_minor', { mode: 'bigint' }).notNull().default(0n),
    forfeitedMinor: bigint('forfeited_minor', { mode: 'bigint' }).notNull().default(0n),
  },
  (t) => [unique('bonus_grants_once').on(t.siteId, t.memberId, t.campaignCode, t.periodKey)],
);
