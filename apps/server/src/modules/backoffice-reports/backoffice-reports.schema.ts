import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0038_backoffice_reports.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const memberNotes = pgTable('member_notes', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull(),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
