import type { TGameCategory, TGameTag } from '@sorte/contract';
import {
  bigint,
  boolean,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * Drizzle view of migrations/0005_games.sql (the SQL file is the source of truth; checks and
 * partial unique indexes live there).
 */

export const gameProviders = pgTable('game_providers', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  isInhouse: boolean('is_inhouse').notNull().default(false),
  position: integer('position').notNull().default(0),
});
export type TGameProviderRow = typeof gameProviders.$inferSelect;

export const games = pgTable('games', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  providerId: bigint('provider_id', { mode: 'bigint' }).notNull(),
  category: text('category').$type<TGameCategory>().notNull(),
  tags: text('tags').array().$type<TGameTag[]>().notNull(),
  rtpMinBp: integer('rtp_min_bp').notNull(),
  rtpMaxBp: integer('rtp_max_bp').notNull(),
  minBetMinor: bigint('min_bet_minor', { mode: 'bigint' }).notNull(),
  maxBetMinor: bigint('max_bet_minor', { mode: 'bigint' }).notNull(),
  maxWinMinor: bigint('max_win_minor', { mode: 'bigint' }).notNull(),
  thumbnail: text('thumbnail'),
  isInhouse: boolean('is_inhouse').notNull().default(false),
  enabled: boolean('enabled').notNull().default(true),
  position: integer('position').notNull().default(0),
  popularity: integer('popularity').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TGameRow = typeof games.$inferSelect;

export const siteGames = pgTable(
  'site_games',
  {
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    gameId: bigint('game_id', { mode: 'bigint' }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    position: integer('position'),
    /** The site's own category and tags for the game (migration 0039); null: the catalogue's. */
    category: text('category').$type<TGameCategory>(),
    tags: text('tags').array().$type<TGameTag[]>(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.gameId] })],
);

export const memberFavoriteGames = pgTable(
  'member_favorite_games',
  {
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    gameId: bigint('game_id', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.gameId] })],
);

export const memberRecentGames = pgTable(
  'member_recent_games',
  {
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    gameId: bigint('game_id', { mode: 'bigint' }).notNull(),
    playedAt: timestamp('played_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.gameId] })],
);

export const demoSessions = pgTable('demo_sessions', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  balanceMinor: bigint('balance_minor', { mode: 'bigint' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
export type TDemoSessionRow = typeof demoSessions.$inferSelect;

export const fairnessSeedPairs = pgTable('fairness_seed_pairs', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }),
  demoSessionId: bigint('demo_session_id', { mode: 'bigint' }),
  serverSeed: text('server_seed').notNull(),
  serverSeedHash: text('server_seed_hash').notNull(),
  clientSeed: text('client_seed').notNull(),
  nextNonce: bigint('next_nonce', { mode: 'bigint' }).notNull().default(0n),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  revealedAt: timestamp('revealed_at', { withTimezone: true }),
  // Migration 0014: the next pair's server seed, committed in advance (cleared on reveal; the hash stays).
  nextServerSeed: text('next_server_seed'),
  nextServerSeedHash: text('next_server_seed_hash'),
});
export type TSeedPairRow = typeof fairnessSeedPairs.$inferSelect;

export const gameRounds = pgTable('game_rounds', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }),
  demoSessionId: bigint('demo_session_id', { mode: 'bigint' }),
  gameId: bigint('game_id', { mode: 'bigint' }).notNull(),
  gameCode: text('game_code').notNull(),
  status: text('status').$type<'active' | 'settled'>().notNull(),
  idempotencyKey: text('idempotency_key').notNull(),
  requestHash: text('request_hash').notNull(),
  stakeMinor: bigint('stake_minor', { mode: 'bigint' }).notNull(),
  payoutMinor: bigint('payout_minor', { mode: 'bigint' }).notNull().default(0n),
  multiplierNum: numeric('multiplier_num').notNull().default('0'),
  multiplierDen: numeric('multiplier_den').notNull().default('1'),
  multiplier: text('multiplier').notNull().default('0.0000'),
  params: jsonb('params').$type<Record<string, unknown>>().notNull(),
  steps: jsonb('steps').$type<unknown[]>().notNull().default([]),
  outcome: jsonb('outcome').$type<Record<string, unknown>>(),
  seedPairId: bigint('seed_pair_id', { mode: 'bigint' }).notNull(),
  nonce: bigint('nonce', { mode: 'bigint' }).notNull(),
  betTransferId: bigint('bet_transfer_id', { mode: 'bigint' }),
  winTransferId: bigint('win_transfer_id', { mode: 'bigint' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  settledAt: timestamp('settled_at', { withTimezone: true }),
});
export type TGameRoundRow = typeof gameRounds.$inferSelect;
