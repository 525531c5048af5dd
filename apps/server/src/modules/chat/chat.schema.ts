import { bigint, integer, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0032_chat.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const chatMessages = pgTable('chat_messages', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  author: text('author').notNull(),
  text: text('text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  deletedBy: bigint('deleted_by', { mode: 'bigint' }),
});

export const chatMutes = pgTable(
  'chat_mutes',
  {
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    until: timestamp('until', { withTimezone: true }),
    reason: text('reason').notNull().default(''),
    mutedBy: bigint('muted_by', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.memberId] })],
);

export const chatRains = pgTable(
  'chat_rains',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    potMinor: bigint('pot_minor', { mode: 'bigint' }).notNull(),
    shareMinor: bigint('share_minor', { mode: 'bigint' }).notNull(),
    remainderMinor: bigint('remainder_minor', { mode: 'bigint' }).notNull(),
    eligible: integer('eligible').notNull(),
    status: text('status').notNull().default('paying'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [unique('chat_rains_once').on(t.siteId, t.slot)],
);

export const chatRainPayouts = pgTable(
  'chat_rain_payouts',
  {
    rainId: bigint('rain_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    transferId: bigint('transfer_id', { mode: 'bigint' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.rainId, t.memberId] })],
);
