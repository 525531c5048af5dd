import {
  bigint,
  boolean,
  date,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/0020_promotions.sql (and altered since).
 * The SQL files are the source of truth for constraints, indexes and triggers.
 */

export const promoCampaigns = pgTable(
  'promo_campaigns',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    code: text('code').notNull(),
    enabled: boolean('enabled').notNull(),
    offReason: text('off_reason'),
    rules: jsonb('rules').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('promo_campaigns_site_id_code_key').on(t.siteId, t.code)],
);

export const promoJobRuns = pgTable(
  'promo_job_runs',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    job: text('job').notNull(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    period: text('period').notNull(),
    status: text('status').notNull().default('running'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(1),
    paidCount: integer('paid_count').notNull().default(0),
    paidMinor: bigint('paid_minor', { mode: 'bigint' }).notNull().default(0n),
  },
  (t) => [unique('promo_job_runs_once').on(t.job, t.siteId, t.period)],
);

export const memberTurnover = pgTable(
  'member_turnover',
  {
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    day: date('day').notNull(),
    category: text('category').notNull(),
    stakeMinor: bigint('stake_minor', { mode: 'bigint' }).notNull().default(0n),
    bonusStakeMinor: bigint('bonus_stake_minor', { mode: 'bigint' }).notNull().default(0n),
    bets: integer('bets').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.day, t.category] })],
);

export const memberVip = pgTable('member_vip', {
  memberId: bigint('member_id', { mode: 'bigint' }).primaryKey(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  totalRechargeMinor: bigint('total_recharge_minor', { mode: 'bigint' }).notNull().default(0n),
  totalBettingMinor: bigint('total_betting_minor', { mode: 'bigint' }).notNull().default(0n),
  slotBettingMinor: bigint('slot_betting_minor', { mode: 'bigint' }).notNull().default(0n),
  liveBettingMinor: bigint('live_betting_minor', { mode: 'bigint' }).notNull().default(0n),
  level: integer('level').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const vipLevelUps = pgTable(
  'vip_level_ups',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
    track: text('track').notNull(),
    level: integer('level').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [unique('vip_level_ups_member_id_track_level_key').on(t.memberId, t.track, t.level)],
);
