import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The ledger of applied migrations, created by migrate.ts itself before the first migration runs. */

export const schemaMigrations = pgTable('schema_migrations', {
  name: text('name').primaryKey(),
  checksum: text('checksum').notNull(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});
