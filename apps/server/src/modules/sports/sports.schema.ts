import { bigint, integer, numeric, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0040_sports.sql, migrations/0043_sports_in_play.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const sportsSettings = pgTable('sports_settings', {
  siteId: bigint('site_id', { mode: 'bigint' }).primaryKey(),
  inPlayDelayMs: integer('in_play_delay_ms').notNull(),
  scoreSuspensionSeconds: integer('score_suspension_seconds').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const sportsCompetitions = pgTable(
  'sports_competitions',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    code: text('code').notNull(),
    sport: text('sport').notNull().default('football'),
    country: text('country').notNull(),
    name: text('name').notNull(),
    season: text('season').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('sports_competitions_id_site_id_key').on(t.id, t.siteId),
    unique('sports_competitions_site_id_code_key').on(t.siteId, t.code),
  ],
);

export const sportsEvents = pgTable(
  'sports_events',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    competitionId: bigint('competition_id', { mode: 'bigint' }).notNull(),
    externalRef: text('external_ref').notNull(),
    round: integer('round'),
    homeTeam: text('home_team').notNull(),
    awayTeam: text('away_team').notNull(),
    kickoffAt: timestamp('kickoff_at', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('scheduled'),
    homeGoals: integer('home_goals'),
    awayGoals: integer('away_goals'),
    resultVersion: integer('result_version').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('sports_events_competition_id_external_ref_key').on(t.competitionId, t.externalRef),
    unique('sports_events_id_site_id_key').on(t.id, t.siteId),
  ],
);

export const sportsMarkets = pgTable(
  'sports_markets',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    eventId: bigint('event_id', { mode: 'bigint' }).notNull(),
    type: text('type').notNull(),
    status: text('status').notNull().default('open'),
    margin: numeric('margin', { precision: 6, scale: 4 }).notNull(),
    oddsSource: text('odds_source').notNull().default('model'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
  },
  (t) => [unique('sports_markets_event_id_type_key').on(t.eventId, t.type)],
);

export const sportsSelections = pgTable(
  'sports_selections',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    marketId: bigint('market_id', { mode: 'bigint' }).notNull(),
    code: text('code').notNull(),
    position: integer('position').notNull(),
    probability: numeric('probability', { precision: 7, scale: 6 }).notNull(),
    odds: numeric('odds', { precision: 8, scale: 2 }).notNull(),
    result: text('result'),
  },
  (t) => [unique('sports_selections_market_id_code_key').on(t.marketId, t.code)],
);

export const sportsBets = pgTable(
  'sports_bets',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    type: text('type').notNull(),
    status: text('status').notNull().default('open'),
    stakeMinor: bigint('stake_minor', { mode: 'bigint' }).notNull(),
    potentialReturnMinor: bigint('potential_return_minor', { mode: 'bigint' }).notNull(),
    payoutMinor: bigint('payout_minor', { mode: 'bigint' }).notNull().default(0n),
    unrecoveredMinor: bigint('unrecovered_minor', { mode: 'bigint' }).notNull().default(0n),
    settleSeq: integer('settle_seq').notNull().default(0),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [unique('sports_bets_member_id_idempotency_key_key').on(t.memberId, t.idempotencyKey)],
);

export const sportsBetLegs = pgTable(
  'sports_bet_legs',
  {
    betId: bigint('bet_id', { mode: 'bigint' }).notNull(),
    position: integer('position').notNull(),
    selectionId: bigint('selection_id', { mode: 'bigint' }).notNull(),
    marketId: bigint('market_id', { mode: 'bigint' }).notNull(),
    eventId: bigint('event_id', { mode: 'bigint' }).notNull(),
    odds: numeric('odds', { precision: 8, scale: 2 }).notNull(),
    status: text('status').notNull().default('open'),
  },
  (t) => [
    primaryKey({ columns: [t.betId, t.position] }),
    unique('sports_bet_legs_bet_id_event_id_key').on(t.betId, t.eventId),
  ],
);
