import { bigint, boolean, integer, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0030_information_centre.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const siteAnnouncements = pgTable(
  'site_announcements',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    code: text('code').notNull(),
    title: jsonb('title').notNull(),
    body: jsonb('body').notNull(),
    position: integer('position').notNull().default(0),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [unique('site_announcements_site_id_code_key').on(t.siteId, t.code)],
);

export const siteCommunity = pgTable('site_community', {
  siteId: bigint('site_id', { mode: 'bigint' }).primaryKey(),
  supportChatUrl: text('support_chat_url'),
  chatEnabled: boolean('chat_enabled').notNull(),
  chatMaxChars: integer('chat_max_chars').notNull(),
  chatRateMessages: integer('chat_rate_messages').notNull(),
  chatRateSeconds: integer('chat_rate_seconds').notNull(),
  chatHistory: integer('chat_history').notNull(),
  rainEnabled: boolean('rain_enabled').notNull(),
  rainOffReason: text('rain_off_reason'),
  rainEveryMinutes: integer('rain_every_minutes').notNull(),
  rainPotMinor: bigint('rain_pot_minor', { mode: 'bigint' }).notNull(),
  rainWindowMinutes: integer('rain_window_minutes').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  rainMinWagerMinor: bigint('rain_min_wager_minor', { mode: 'bigint' }).notNull().default(1000n),
  rainWagerDays: integer('rain_wager_days').notNull().default(7),
});

export const memberNotifications = pgTable(
  'member_notifications',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    kind: text('kind').notNull(),
    params: jsonb('params').notNull().default({}),
    dedupeKey: text('dedupe_key'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('member_notifications_once').on(t.memberId, t.dedupeKey)],
);
