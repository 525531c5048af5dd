import { sql } from 'drizzle-orm';
import { bigint, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/** Drizzle view of operators, operator_sessions and operator_actions in migrations/0001_foundation.sql. */

export type TOperatorRole = 'admin' | 'support';

export const operators = pgTable('operators', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  username: text('username').notNull(),
  usernameLower: text('username_lower').generatedAlwaysAs(sql`lower(username)`),
  passwordHash: text('password_hash').notNull(),
  role: text('role').$type<TOperatorRole>().notNull(),
  status: smallint('status').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TOperatorRow = typeof operators.$inferSelect;

export const operatorSessions = pgTable('operator_sessions', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  endedAt: timestamp('ended_at', { withTimezone: true }),
});

export const operatorActions = pgTable('operator_actions', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull(),
  action: text('action').notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }),
  details: jsonb('details').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
