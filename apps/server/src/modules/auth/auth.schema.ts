import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Drizzle view of captchas in migrations/0001_foundation.sql. */
export const captchas = pgTable('captchas', {
  id: text('id').primaryKey(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  answerHash: text('answer_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
