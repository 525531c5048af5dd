import { bigint, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0057_referral_blocks.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const referralBlocks = pgTable(
  'referral_blocks',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    inviterId: bigint('inviter_id', { mode: 'bigint' }).notNull(),
    inviteeId: bigint('invitee_id', { mode: 'bigint' }).notNull(),
    reward: text('reward').notNull(),
    signals: text('signals').array().notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('referral_blocks_once').on(t.siteId, t.reward, t.inviterId, t.inviteeId)],
);
