import { bigint, integer, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0006_crash.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const crashChains = pgTable(
  'crash_chains',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    terminalSeed: text('terminal_seed').notNull(),
    terminatingHash: text('terminating_hash').notNull(),
    publicSalt: text('public_salt'),
    length: integer('length').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    saltSource: text('salt_source').notNull().default('bets'),
    saltInputs: jsonb('salt_inputs'),
    saltFixedAt: timestamp('salt_fixed_at', { withTimezone: true }),
  },
  (t) => [unique('crash_chains_terminating_hash_key').on(t.terminatingHash)],
);

export const crashRounds = pgTable(
  'crash_rounds',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    chainId: bigint('chain_id', { mode: 'bigint' }).notNull(),
    position: integer('position').notNull(),
    roundHash: text('round_hash').notNull(),
    hashCommitment: text('hash_commitment').notNull(),
    crashHundredths: integer('crash_hundredths'),
    state: text('state').notNull().default('betting'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    bettingEndsAt: timestamp('betting_ends_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    crashedAt: timestamp('crashed_at', { withTimezone: true }),
  },
  (t) => [unique('crash_rounds_chain_id_position_key').on(t.chainId, t.position)],
);

export const crashBets = pgTable(
  'crash_bets',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    roundId: bigint('round_id', { mode: 'bigint' }).notNull(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }),
    stakeMinor: bigint('stake_minor', { mode: 'bigint' }).notNull(),
    autoCashoutHundredths: integer('auto_cashout_hundredths'),
    cashoutHundredths: integer('cashout_hundredths'),
    payoutMinor: bigint('payout_minor', { mode: 'bigint' }).notNull().default(0n),
    status: text('status').notNull().default('placed'),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    betTransferId: bigint('bet_transfer_id', { mode: 'bigint' }),
    winTransferId: bigint('win_transfer_id', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    demoSessionId: bigint('demo_session_id', { mode: 'bigint' }),
    clientSeed: text('client_seed'),
  },
  (t) => [
    unique('crash_bets_member_id_idempotency_key_key').on(t.memberId, t.idempotencyKey),
    unique('crash_bets_round_id_member_id_key').on(t.roundId, t.memberId),
  ],
);
