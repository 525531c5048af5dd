import {
  bigint,
  date,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0064_regulator_data.sql.
 * The SQL file is the source of truth for constraints; the module's SQL is in regulator.repo.ts.
 */

export const regulatorProfiles = pgTable('regulator_profiles', {
  jurisdiction: text('jurisdiction').primaryKey(),
  layout: text('layout').notNull(),
  timeZone: text('time_zone').notNull(),
  currency: text('currency').notNull(),
  maxRecordsPerFile: integer('max_records_per_file').notNull(),
  dueHour: smallint('due_hour').notNull(),
  buildAfterMinutes: smallint('build_after_minutes').notNull(),
  catchUpDays: smallint('catch_up_days').notNull(),
  legalBasis: text('legal_basis').notNull(),
});

export const regulatorReports = pgTable(
  'regulator_reports',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    day: date('day').notNull(),
    layout: text('layout').notNull(),
    status: text('status').$type<'building' | 'ready' | 'invalid'>().notNull(),
    problems: text('problems').array().notNull().default([]),
    manifestName: text('manifest_name').notNull(),
    manifest: text('manifest').notNull(),
    manifestSha256: text('manifest_sha256').notNull(),
    betRecords: integer('bet_records').notNull(),
    transactionRecords: integer('transaction_records').notNull(),
    builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('regulator_reports_site_day').on(t.siteId, t.day)],
);

export const regulatorFiles = pgTable(
  'regulator_files',
  {
    reportId: bigint('report_id', { mode: 'bigint' }).notNull(),
    name: text('name').notNull(),
    kind: text('kind').$type<'bets' | 'transactions'>().notNull(),
    sequence: integer('sequence').notNull(),
    records: integer('records').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    content: text('content').notNull(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.name] }), unique().on(t.reportId, t.kind, t.sequence)],
);
