import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Drizzle view of migrations/0060_job_claims.sql (the SQL file is the source of truth). */
export const jobClaims = pgTable(
  'job_claims',
  {
    job: text('job').notNull(),
    period: timestamp('period', { withTimezone: true }).notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.job, table.period] })],
);
