import { sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of members and profile_pictures in migrations/0001_foundation.sql, with the member columns
 * added since (cpf 0004, account security 0016, responsible gaming 0017, TOTP replay 0059).
 */

export const profilePictures = pgTable('profile_pictures', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  gender: text('gender').$type<'male' | 'female'>().notNull(),
  url: text('url').notNull().unique(),
  position: integer('position').notNull(),
});
export type TProfilePictureRow = typeof profilePictures.$inferSelect;

export const members = pgTable('members', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  username: text('username').notNull(),
  usernameLower: text('username_lower').generatedAlwaysAs(sql`lower(username)`),
  passwordHash: text('password_hash').notNull(),
  qkPwdHash: text('qk_pwd_hash'),
  realname: text('realname').notNull(),
  phone: text('phone').notNull(),
  email: text('email'),
  nickname: text('nickname'),
  gender: smallint('gender').$type<0 | 1 | 2>().notNull().default(0),
  inviteCode: text('invite_code').notNull(),
  topId: bigint('top_id', { mode: 'bigint' }),
  agentId: bigint('agent_id', { mode: 'bigint' }),
  lang: text('lang').notNull(),
  registerIp: text('register_ip'),
  registerArea: text('register_area'),
  status: smallint('status').notNull().default(1),
  isDemo: boolean('is_demo').notNull().default(false),
  level: integer('level').notNull().default(0),
  slotLevel: integer('slot_level').notNull().default(0),
  liveLevel: integer('live_level').notNull().default(0),
  score: integer('score').notNull().default(0),
  isTipsOn: smallint('is_tips_on').notNull().default(1),
  isInOn: smallint('is_in_on').notNull().default(0),
  isTransOn: smallint('is_trans_on').notNull().default(0),
  profilePictureId: bigint('profile_picture_id', { mode: 'bigint' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  cpf: text('cpf'),
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
  totpSecret: text('totp_secret'),
  totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
  birthDate: date('birth_date'),
  realityCheckMinutes: integer('reality_check_minutes'),
  registryCheckedAt: timestamp('registry_checked_at', { withTimezone: true }),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
});
export type TMemberRow = typeof members.$inferSelect;
