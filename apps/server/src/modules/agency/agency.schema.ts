import { bigint, integer, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0031_agency.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const agencyRules = pgTable('agency_rules', {
  siteId: bigint('site_id', { mode: 'bigint' }).primaryKey(),
  rules: jsonb('rules').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const agencySettlementRuns = pgTable(
  'agency_settlement_runs',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    period: text('period').notNull(),
    rules: jsonb('rules').notNull(),
    members: integer('members').notNull(),
    totalMinor: bigint('total_minor', { mode: 'bigint' }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('agency_settlement_runs_once').on(t.siteId, t.period)],
);

export const agencyCommissions = pgTable(
  'agency_commissions',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    runId: bigint('run_id', { mode: 'bigint' }).notNull(),
    period: text('period').notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    basis: text('basis').notNull(),
    teamVolumeMinor: bigint('team_volume_minor', { mode: 'bigint' }).notNull(),
    levels: jsonb('levels').notNull(),
    directMinor: bigint('direct_minor', { mode: 'bigint' }).notNull(),
    indirectMinor: bigint('indirect_minor', { mode: 'bigint' }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    status: text('status').notNull().default('unclaimed'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    transferId: bigint('transfer_id', { mode: 'bigint' }),
  },
  (t) => [unique('agency_commissions_once').on(t.siteId, t.period, t.memberId)],
);
