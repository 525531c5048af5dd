import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0065_aml.sql (ADR 040).
 * The SQL file is the source of truth for constraints; the module's SQL is in aml.repo.ts.
 */

export const amlRules = pgTable(
  'aml_rules',
  {
    jurisdiction: text('jurisdiction').notNull(),
    rule: text('rule').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    legalBasis: text('legal_basis').notNull(),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.jurisdiction, t.rule] })],
);

export const amlOutbox = pgTable('aml_outbox', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  kind: text('kind').notNull(),
  amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull().default(0n),
  reference: text('reference').notNull(),
  identifiers: jsonb('identifiers').$type<Record<string, string>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  screenedAt: timestamp('screened_at', { withTimezone: true }),
});

export const amlIdentifiers = pgTable(
  'aml_identifiers',
  {
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    kind: text('kind').notNull(),
    value: text('value').notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.kind, t.value, t.memberId] })],
);

export const amlCursors = pgTable('aml_cursors', {
  source: text('source').primaryKey(),
  lastId: bigint('last_id', { mode: 'bigint' }).notNull().default(0n),
});

export const amlCases = pgTable('aml_cases', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  status: text('status').notNull().default('open'),
  assignedTo: bigint('assigned_to', { mode: 'bigint' }),
  decisionReason: text('decision_reason'),
  decidedBy: bigint('decided_by', { mode: 'bigint' }),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const amlAlerts = pgTable('aml_alerts', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  caseId: bigint('case_id', { mode: 'bigint' }).notNull(),
  rule: text('rule').notNull(),
  dedupeKey: text('dedupe_key').notNull(),
  amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull().default(0n),
  evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull().default({}),
  legalBasis: text('legal_basis').notNull(),
  eventAt: timestamp('event_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const amlCaseNotes = pgTable('aml_case_notes', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  caseId: bigint('case_id', { mode: 'bigint' }).notNull(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull(),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const amlHolds = pgTable('aml_holds', {
  memberId: bigint('member_id', { mode: 'bigint' }).primaryKey(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  caseId: bigint('case_id', { mode: 'bigint' }).notNull(),
  heldBy: bigint('held_by', { mode: 'bigint' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const amlReports = pgTable('aml_reports', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  kind: text('kind').notNull(),
  year: integer('year').notNull(),
  caseId: bigint('case_id', { mode: 'bigint' }),
  fileName: text('file_name').notNull(),
  content: text('content').notNull(),
  sha256: text('sha256').notNull(),
  createdBy: bigint('created_by', { mode: 'bigint' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
