import { bigint, integer, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0035_terms_versions.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const termsVersions = pgTable(
  'terms_versions',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    version: integer('version').notNull(),
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
    summary: text('summary').notNull().default(''),
    announcedBy: bigint('announced_by', { mode: 'bigint' }),
    announcedAt: timestamp('announced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('terms_versions_site_id_version_key').on(t.siteId, t.version)],
);

export const termsAcceptances = pgTable(
  'terms_acceptances',
  {
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    termsVersionId: bigint('terms_version_id', { mode: 'bigint' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.termsVersionId] })],
);
