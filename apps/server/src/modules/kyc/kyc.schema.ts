import { bigint, boolean, integer, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0062_kyc.sql.
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const kycRules = pgTable(
  'kyc_rules',
  {
    jurisdiction: text('jurisdiction').notNull(),
    action: text('action').notNull(),
    requiredChecks: text('required_checks').array().notNull(),
    aboveAmountMinor: bigint('above_amount_minor', { mode: 'bigint' }),
    aboveTotalMinor: bigint('above_total_minor', { mode: 'bigint' }),
    legalBasis: text('legal_basis').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jurisdiction, t.action] })],
);

export const siteKycThresholds = pgTable('site_kyc_thresholds', {
  siteId: bigint('site_id', { mode: 'bigint' }).primaryKey(),
  aboveAmountMinor: bigint('above_amount_minor', { mode: 'bigint' }),
  aboveTotalMinor: bigint('above_total_minor', { mode: 'bigint' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const memberKyc = pgTable('member_kyc', {
  memberId: bigint('member_id', { mode: 'bigint' }).primaryKey(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  passedChecks: text('passed_checks').array().notNull().default([]),
  pep: boolean('pep').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const kycSessions = pgTable(
  'kyc_sessions',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    provider: text('provider').notNull(),
    providerSessionId: text('provider_session_id').notNull(),
    captureUrl: text('capture_url').notNull(),
    status: text('status').notNull().default('created'),
    reason: text('reason'),
    lastSequence: integer('last_sequence').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('kyc_sessions_provider_provider_session_id_key').on(t.provider, t.providerSessionId)],
);

export const kycChecks = pgTable('kyc_checks', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  checkKind: text('check_kind').notNull(),
  outcome: text('outcome').notNull(),
  reason: text('reason'),
  sessionId: bigint('session_id', { mode: 'bigint' }),
  source: text('source').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const kycWebhookEvents = pgTable(
  'kyc_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
