import {
  bigint,
  boolean,
  customType,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0062_kyc.sql and 0066_kyc_documents.sql.
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const kycRules = pgTable(
  'kyc_rules',
  {
    jurisdiction: text('jurisdiction').notNull(),
    action: text('action').notNull(),
    requiredChecks: text('required_checks').array().notNull(),
    aboveAmountMinor: bigint('above_amount_minor', { mode: 'bigint' }),
    aboveTotalMinor: bigint('above_total_minor', { mode: 'bigint' }),
    legalBasis: text('legal_basis').notNull(),
    legalBasisKey: text('legal_basis_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jurisdiction, t.action] })],
);

export const siteKycThresholds = pgTable('site_kyc_thresholds', {
  siteId: bigint('site_id', { mode: 'bigint' }).primaryKey(),
  aboveAmountMinor: bigint('above_amount_minor', { mode: 'bigint' }),
  aboveTotalMinor: bigint('above_total_minor', { mode: 'bigint' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const memberKyc = pgTable('member_kyc', {
  memberId: bigint('member_id', { mode: 'bigint' }).primaryKey(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  passedChecks: text('passed_checks').array().notNull().default([]),
  pep: boolean('pep').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const kycSessions = pgTable(
  'kyc_sessions',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    provider: text('provider').notNull(),
    providerSessionId: text('provider_session_id').notNull(),
    captureUrl: text('capture_url').notNull(),
    status: text('status').notNull().default('created'),
    reason: text('reason'),
    lastSequence: integer('last_sequence').notNull().default(0),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    reviewRequestedAt: timestamp('review_requested_at', { withTimezone: true }),
    documentsFetchedAt: timestamp('documents_fetched_at', { withTimezone: true }),
    documentsError: text('documents_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('kyc_sessions_provider_provider_session_id_key').on(t.provider, t.providerSessionId)],
);

export const kycChecks = pgTable('kyc_checks', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  checkKind: text('check_kind').notNull(),
  outcome: text('outcome').notNull(),
  reason: text('reason'),
  sessionId: bigint('session_id', { mode: 'bigint' }),
  source: text('source').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const kycWebhookEvents = pgTable(
  'kyc_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/** bytea as a Buffer (node-postgres and PGlite both hand back bytes for it). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const kycDocuments = pgTable(
  'kyc_documents',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: bigint('session_id', { mode: 'bigint' }).notNull(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    kind: text('kind').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    keyId: text('key_id').notNull(),
    iv: bytea('iv').notNull(),
    authTag: bytea('auth_tag').notNull(),
    ciphertext: bytea('ciphertext').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('kyc_documents_session_id_kind_key').on(t.sessionId, t.kind)],
);

export const kycProfileSettings = pgTable('kyc_profile_settings', {
  jurisdiction: text('jurisdiction').primaryKey(),
  documentRetainDays: integer('document_retain_days').notNull(),
  retentionBasis: text('retention_basis').notNull(),
  cpfPrefill: boolean('cpf_prefill').notNull(),
  cpfLookupsPerIpHour: integer('cpf_lookups_per_ip_hour').notNull(),
  cpfLookupsPerCpfHour: integer('cpf_lookups_per_cpf_hour').notNull(),
});

export const kycCpfLookups = pgTable('kyc_cpf_lookups', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  ip: text('ip').notNull(),
  cpfDigest: text('cpf_digest').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
