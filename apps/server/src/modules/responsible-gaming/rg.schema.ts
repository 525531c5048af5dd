import { bigint, boolean, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0017_responsible_gaming.sql, migrations/0051_member_play_hours.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const jurisdictionProfiles = pgTable('jurisdiction_profiles', {
  jurisdiction: text('jurisdiction').primaryKey(),
  requiresCpf: boolean('requires_cpf').notNull(),
  requiresBirthDate: boolean('requires_birth_date').notNull(),
  mandatoryLimits: text('mandatory_limits').array().notNull().default([]),
  loosenDelayHours: integer('loosen_delay_hours').notNull(),
  realityCheckMinutes: integer('reality_check_minutes').notNull(),
  selfExclusionRegistry: boolean('self_exclusion_registry').notNull(),
  registryRecheckDays: integer('registry_recheck_days').notNull(),
  showsRiskMessage: boolean('shows_risk_message').notNull(),
  depositPayerCheck: text('deposit_payer_check').notNull().default('none'),
  /** Migration 0063: idle minutes before the member authenticates again (NULL: the site's own expiry). */
  reauthIdleMinutes: integer('reauth_idle_minutes'),
  sessionRulesLegalBasis: text('session_rules_legal_basis').notNull(),
});

export const rgLimits = pgTable(
  'rg_limits',
  {
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    kind: text('kind').notNull(),
    period: text('period').notNull(),
    value: bigint('value', { mode: 'bigint' }),
    pendingValue: bigint('pending_value', { mode: 'bigint' }),
    pendingRemove: boolean('pending_remove').notNull().default(false),
    pendingEffectiveAt: timestamp('pending_effective_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.kind, t.period] })],
);

export const rgExclusions = pgTable('rg_exclusions', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  kind: text('kind').notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
  endsAt: timestamp('ends_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const registryChecks = pgTable('registry_checks', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }),
  cpf: text('cpf').notNull(),
  reason: text('reason').notNull(),
  impeded: boolean('impeded').notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
});

export const memberPlayHours = pgTable(
  'member_play_hours',
  {
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    stakedMinor: bigint('staked_minor', { mode: 'bigint' }).notNull().default(0n),
    returnedMinor: bigint('returned_minor', { mode: 'bigint' }).notNull().default(0n),
    reversedMinor: bigint('reversed_minor', { mode: 'bigint' }).notNull().default(0n),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.hour] })],
);
