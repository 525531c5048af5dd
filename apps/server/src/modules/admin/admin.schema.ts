import type { TOperatorRole } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import { bigint, jsonb, pgTable, smallint, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of operators, operator_sessions and operator_actions (migrations/0001_foundation.sql,
 * 0036_operator_roles_audit.sql).
 */

export type { TOperatorRole };

export const operators = pgTable('operators', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  username: text('username').notNull(),
  usernameLower: text('username_lower').generatedAlwaysAs(sql`lower(username)`),
  passwordHash: text('password_hash').notNull(),
  role: text('role').$type<TOperatorRole>().notNull(),
  status: smallint('status').notNull(),
  totpSecret: text('totp_secret'),
  /** The last time step whose authenticator code was accepted (a code is good once). */
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  createdBy: bigint('created_by', { mode: 'bigint' }),
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
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  ip: text('ip'),
});

export const operatorActions = pgTable('operator_actions', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull(),
  action: text('action').notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }),
  details: jsonb('details').$type<Record<string, unknown>>().notNull(),
  entity: text('entity'),
  entityId: text('entity_id'),
  before: jsonb('before'),
  after: jsonb('after'),
  ip: text('ip'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  // The chain trigger of migration 0044 writes these three: an insert sends DEFAULT for them.
  chainSeq: bigint('chain_seq', { mode: 'bigint' })
    .notNull()
    .$defaultFn(() => sql`DEFAULT`),
  prevHash: text('prev_hash')
    .notNull()
    .$defaultFn(() => sql`DEFAULT`),
  hash: text('hash')
    .notNull()
    .$defaultFn(() => sql`DEFAULT`),
});

export const operatorSetupTokens = pgTable('operator_setup_tokens', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  totpSecret: text('totp_secret').notNull(),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const operatorActionChainHeads = pgTable('operator_action_chain_heads', {
  siteId: bigint('site_id', { mode: 'bigint' }).primaryKey(),
  lastSeq: bigint('last_seq', { mode: 'bigint' }).notNull().default(0n),
  lastHash: text('last_hash').notNull().default(sql`repeat('0'::text, 64)`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const operatorRecoveryCodes = pgTable('operator_recovery_codes', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull(),
  codeHash: text('code_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const withdrawalApprovals = pgTable(
  'withdrawal_approvals',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    orderId: bigint('order_id', { mode: 'bigint' }).notNull(),
    operatorId: bigint('operator_id', { mode: 'bigint' }).notNull(),
    remark: text('remark'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('withdrawal_approvals_order_id_operator_id_key').on(t.orderId, t.operatorId)],
);
