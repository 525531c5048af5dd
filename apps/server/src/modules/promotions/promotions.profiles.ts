import type { TCategoryRates, TCategoryWeights, TGameCategory } from '@sorte/contract';
import type { TJurisdiction } from '../sites/sites.schema.ts';

/**
 * The campaigns and VIP ladder of each jurisdiction profile, as data (ADR 012). A site gets its
 * profile's campaigns as rows of `promo_campaigns` the first time they are read; an operator may
 * change a site's rows later (a grant snapshots the rules it was given under, so edits never reach
 * existing grants). Code reads the rules; it never asks which jurisdiction it runs in.
 *
 * Constants from the spec (§5, §6, §9): first deposit of 100 gives 10; invitation gives 100; daily
 * cashback 8 %; recharge rebate 20 % of each single top-up of 100 or more, each counted on its own;
 * gift ratio by VIP tier Bronze 5–10 %, Silver 10–15 %, Gold 15–18 %, Platinum 18–20 %, Diamond 20 %;
 * recharge rewards need at least 5 times the recharge amount in bets. Amounts are centavos (strings
 * in JSON so they stay exact).
 */

export const CAMPAIGN_CODES = [
  'ftd',
  'recharge_gift',
  'invitationactivity',
  'dailywheel',
  'dailyrescue',
  'rechargerebate',
  'lotterywheel',
  'rebates',
] as const;
export type TCampaignCode = (typeof CAMPAIGN_CODES)[number];

/** The calls of spec §7 (`api/<code>/check|claim`). */
export const CLAIM_CALLS = [
  'ftd',
  'dailywheel',
  'invitationactivity',
  'dailyrescue',
  'rechargerebate',
  'lotterywheel',
] as const;
export type TClaimCall = (typeof CLAIM_CALLS)[number];

/** Where the money of a reward comes from, which decides what Brazilian rules allow. */
export type TTrigger =
  | 'first_deposit'
  | 'each_deposit'
  | 'invitee_deposit'
  | 'daily_net_loss'
  | 'deposit_spins'
  | 'daily_turnover';

export interface TWageringRule {
  /** Turnover = multiple × base; base 'deposit' is the recharge amount (spec: 5 × the recharge). */
  multiple: number;
  base: 'deposit' | 'reward';
  /** Largest stake while wagering, centavos (null: none). */
  maxBetMinor: string | null;
  /** Largest amount converted to cash when the wagering is met (null: no cap). */
  maxWinMinor: string | null;
  /** Percent of each stake that counts, by game category (default for the others). */
  weights: TCategoryWeights;
  /** Days the grant stays open before the rest is taken back. */
  expiryDays: number;
  /** The wagering locks the member's cash too (deposit + bonus), as the spec's recharge rule does. */
  locksCash: boolean;
}

export interface TCampaignRules {
  trigger: TTrigger;
  activation: 'MANUAL_CLAIM' | 'AUTOMATIC';
  /** Periods and "yesterday" are days in this time zone. */
  timeZone: string;
  /** Formula inputs (per campaign; see promotions.service.ts). */
  reward: {
    bps?: number;
    fixedMinor?: string;
    minBaseMinor?: string;
    capMinor?: string;
    /** dailyrescue: [minimum loss, bps] from the lowest tier up. */
    tiers?: [string, number][];
    /** lotterywheel: centavos each deposit gives a spin for, spins per day at most, and the prizes. */
    spinPerMinor?: string;
    maxSpinsPerDay?: number;
    prizes?: { amountMinor: string; weight: number; icon: string | null }[];
    /** rebates: basis points of the (cash) turnover per game category. */
    categoryBps?: TCategoryRates;
    /** Days a top-up stays claimable (rechargerebate). */
    claimDays?: number;
  };
  wagering: TWageringRule;
  minVipLevel?: number;
}

export interface TCampaignSeed {
  code: TCampaignCode;
  enabled: boolean;
  /** Message key shown when off (why this jurisdiction does not offer it). */
  offReason: string | null;
  rules: TCampaignRules;
}

/** Slots count in full, live tables a fifth, the sportsbook not at all (market notes §1). */
const SLOTS_FIRST: TCategoryWeights = { default: 100, live_casino: 20, sports: 0 };

function wagering(partial: Partial<TWageringRule>): TWageringRule {
  return {
    multiple: 5,
    base: 'deposit',
    maxBetMinor: '2500',
    maxWinMinor: null,
    weights: SLOTS_FIRST,
    expiryDays: 7,
    locksCash: true,
    ...partial,
  };
}

const PRIZES = [
  { amountMinor: '100', weight: 35, icon: 'coin' },
  { amountMinor: '200', weight: 25, icon: 'coin' },
  { amountMinor: '500', weight: 18, icon: 'coins' },
  { amountMinor: '1000', weight: 10, icon: 'coins' },
  { amountMinor: '2000', weight: 6, icon: 'bag' },
  { amountMinor: '5000', weight: 4, icon: 'bag' },
  { amountMinor: '10000', weight: 1.5, icon: 'chest' },
  { amountMinor: '50000', weight: 0.5, icon: null },
];

/** Every category has a rate (a row on the rebates page), so this map names each one. */
const REBATE_BPS: Record<TGameCategory, number> = {
  slots: 80,
  live_casino: 50,
  sports: 50,
  arcade: 30,
  crash: 30,
  card: 30,
  lottery: 30,
  bingo: 30,
  fish: 30,
  video_game: 30,
};

function profile(timeZone: string, br: boolean): TCampaignSeed[] {
  const deposit = br ? 'promo.off.deposit_tied' : null;
  return [
    {
      code: 'ftd',
      enabled: !br,
      offReason: deposit,
      rules: {
        trigger: 'first_deposit',
        activation: 'MANUAL_CLAIM',
        timeZone,
        reward: { bps: 1000, minBaseMinor: '10000', capMinor: '50000' },
        wagering: wagering({}),
      },
    },
    {
      code: 'recharge_gift',
      enabled: !br,
      offReason: deposit,
      rules: {
        trigger: 'each_deposit',
        activation: 'AUTOMATIC',
        timeZone,
        reward: { capMinor: '200000' },
        wagering: wagering({}),
        minVipLevel: 1,
      },
    },
    {
      code: 'invitationactivity',
      enabled: !br,
      offReason: br ? 'promo.off.before_bet' : null,
      rules: {
        trigger: 'invitee_deposit',
        activation: 'MANUAL_CLAIM',
        timeZone,
        reward: { fixedMinor: '10000', minBaseMinor: '10000' },
        wagering: wagering({ base: 'reward' }),
      },
    },
    {
      code: 'dailywheel',
      enabled: true,
      offReason: null,
      rules: {
        trigger: 'daily_net_loss',
        activation: 'AUTOMATIC',
        timeZone,
        reward: { bps: 800, minBaseMinor: '1250', capMinor: '500000' },
        wagering: wagering({
          multiple: 1,
          base: 'reward',
          maxBetMinor: null,
          expiryDays: 3,
          locksCash: false,
        }),
      },
    },
    {
      code: 'dailyrescue',
      enabled: !br,
      offReason: br ? 'promo.off.loss_recovery' : null,
      rules: {
        trigger: 'daily_net_loss',
        activation: 'MANUAL_CLAIM',
        timeZone,
        reward: {
          tiers: [
            ['10000', 300],
            ['100000', 500],
            ['1000000', 800],
          ],
          capMinor: '200000',
        },
        wagering: wagering({ multiple: 3, base: 'reward', expiryDays: 3, locksCash: false }),
      },
    },
    {
      code: 'rechargerebate',
      enabled: !br,
      offReason: deposit,
      rules: {
        trigger: 'each_deposit',
        activation: 'MANUAL_CLAIM',
        timeZone,
        reward: { bps: 2000, minBaseMinor: '10000', capMinor: '100000', claimDays: 7 },
        wagering: wagering({}),
      },
    },
    {
      code: 'lotterywheel',
      enabled: !br,
      offReason: br ? 'promo.off.prize_draw' : null,
      rules: {
        trigger: 'deposit_spins',
        activation: 'MANUAL_CLAIM',
        timeZone,
        reward: { spinPerMinor: '10000', maxSpinsPerDay: 10, prizes: PRIZES },
        wagering: wagering({ base: 'reward', locksCash: false }),
      },
    },
    {
      code: 'rebates',
      enabled: true,
      offReason: null,
      rules: {
        trigger: 'daily_turnover',
        activation: 'AUTOMATIC',
        timeZone,
        reward: { categoryBps: REBATE_BPS, minBaseMinor: '1' },
        wagering: wagering({
          multiple: 1,
          base: 'reward',
          maxBetMinor: null,
          expiryDays: 7,
          locksCash: false,
        }),
      },
    },
  ];
}

export interface TVipLevel {
  level: number;
  name: string;
  /** Qualifying total from (inclusive), centavos; the next level starts above `maxMinor`. */
  minMinor: bigint;
  maxMinor: bigint;
  /** Tiered recharge gift ratio range, basis points (null where deposit rewards are off). */
  giftMinBps: number | null;
  giftMaxBps: number | null;
  /** Extra on rebates for this level, basis points of the rebate (10000 = ×2). */
  rebateBoostBps: number;
}

export interface TVipProfile {
  /** What the levels count: total reload (deposits) or total wagered. */
  basis: 'recharge' | 'wagering';
  levels: TVipLevel[];
}

const LADDER: [string, bigint, bigint, number, number, number][] = [
  ['Bronze', 100_000n, 500_000n, 500, 1000, 0],
  ['Silver', 500_100n, 1_500_000n, 1000, 1500, 1000],
  ['Gold', 1_500_100n, 3_000_000n, 1500, 1800, 2000],
  ['Platinum', 3_000_100n, 6_000_000n, 1800, 2000, 3500],
  ['Diamond', 6_000_100n, 10_000_000n, 2000, 2000, 5000],
];

function vip(basis: TVipProfile['basis'], gifts: boolean): TVipProfile {
  return {
    basis,
    levels: LADDER.map(([name, minMinor, maxMinor, giftMin, giftMax, boost], index) => ({
      level: index + 1,
      name,
      minMinor,
      maxMinor,
      giftMinBps: gifts ? giftMin : null,
      giftMaxBps: gifts ? giftMax : null,
      rebateBoostBps: boost,
    })),
  };
}

export const PROFILES: Record<
  TJurisdiction,
  {
    campaigns: TCampaignSeed[];
    vip: TVipProfile;
    timeZone: string;
    /** Whether a reward may be triggered by a deposit (false on br: Portaria SPA/MF 1.231/2024 art. 42). */
    allowsDepositTied: boolean;
  }
> = {
  intl: {
    campaigns: profile('UTC', false),
    vip: vip('recharge', true),
    timeZone: 'UTC',
    allowsDepositTied: true,
  },
  br: {
    campaigns: profile('America/Sao_Paulo', true),
    vip: vip('wagering', false),
    timeZone: 'America/Sao_Paulo',
    allowsDepositTied: false,
  },
};

/**
 * The config lint of the market notes: on a profile whose rules forbid deposit-tied rewards, a
 * campaign triggered by a deposit must be off. Run by the tests and when an operator edits a rule.
 */
export function depositTiedEnabled(campaigns: { code: string; enabled: boolean; rules: TCampaignRules }[]) {
  return campaigns.filter((c) => c.enabled && isDepositTied(c.rules.trigger)).map((c) => c.code);
}

const DEPOSIT_TRIGGERS: readonly TTrigger[] = [
  'first_deposit',
  'each_deposit',
  'invitee_deposit',
  'deposit_spins',
];

export function isDepositTied(trigger: TTrigger): boolean {
  return DEPOSIT_TRIGGERS.includes(trigger);
}

/**
 * Why a jurisdiction profile does not allow this campaign to be on (a message key), or null: the
 * profile seeds it off with a reason (a prize draw, a loss-recovery offer, a reward before any bet,
 * a deposit-tied reward on br), or its trigger is a deposit where deposit-tied rewards are forbidden.
 */
export function campaignForbiddenReason(
  jurisdiction: TJurisdiction,
  campaign: { code: string; rules: TCampaignRules },
): string | null {
  const profile = PROFILES[jurisdiction];
  const seed = profile.campaigns.find((c) => c.code === campaign.code);
  if (seed && !seed.enabled && seed.offReason) return seed.offReason;
  if (!profile.allowsDepositTied && isDepositTied(campaign.rules.trigger)) return 'promo.off.deposit_tied';
  return null;
}
