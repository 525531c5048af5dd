import { bigint, boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Drizzle view of member_sessions and login_failures (migrations/0001_foundation.sql, 0063) and the refresh tokens (0061). */

export type TSessionEndReason =
  | 'logout'
  | 'force_offline'
  | 'password_changed'
  | 'ended_by_player'
  | 'self_excluded'
  | 'time_limit';

export const memberSessions = pgTable('member_sessions', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  endReason: text('end_reason').$type<TSessionEndReason>(),
  ip: text('ip'),
  userAgent: text('user_agent'),
  passwordVerifiedAt: timestamp('password_verified_at', { withTimezone: true }),
  playUntil: timestamp('play_until', { withTimezone: true }),
  restricted: boolean('restricted').notNull().default(false),
  /** The profile's re-authentication ceiling when the session opened (migration 0063; NULL: none). */
  reauthIdleMinutes: integer('reauth_idle_minutes'),
});
export type TMemberSessionRow = typeof memberSessions.$inferSelect;

export type TLoginFailureScope = 'account' | 'ip' | 'operator' | 'totp' | 'email_code';

export const loginFailures = pgTable('login_failures', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  scope: text('scope').$type<TLoginFailureScope>().notNull(),
  key: text('key').notNull(),
  failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Drizzle view of migrations/0061 ("keep me signed in": refresh token families and their tokens). */
export const memberRefreshFamilies = pgTable('member_refresh_families', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokeReason: text('revoke_reason'),
});

export const memberRefreshTokens = pgTable('member_refresh_tokens', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  familyId: bigint('family_id', { mode: 'bigint' }).notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  sessionId: bigint('session_id', { mode: 'bigint' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  rotatedAt: timestamp('rotated_at', { withTimezone: true }),
});
