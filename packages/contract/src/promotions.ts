import { z } from 'zod';
import { ZMemberIdEcho } from './deposits.ts';
import { M } from './validation.ts';

/**
 * Promotions, VIP and rebates (spec §7): `api/<call>/check|claim` for each claimable campaign,
 * `api/activitydetails/get`, `api/cover/history`, `api/member/vip/info`,
 * `/api/games/rebates/list|details`. Money is a decimal string ("10.00").
 */

export const PROMOTION_CALLS = [
  'ftd',
  'dailywheel',
  'invitationactivity',
  'dailyrescue',
  'rechargerebate',
  'lotterywheel',
] as const;
export type TPromotionCall = (typeof PROMOTION_CALLS)[number];

/** Body of check / claim: `name` (the invitee, for an invitation claim), `id` (a top-up), site or member_id echo. */
export const ZPromotionRequest = z
  .object({
    name: z.string().trim().min(1, { error: 'validation.invalid' }).max(40, { error: M.tooLong }).optional(),
    id: z.coerce.number({ error: M.wrongType }).int().positive().safe().optional(),
    site: z.string().max(60, { error: M.tooLong }).optional(),
    member_id: ZMemberIdEcho,
  })
  .default({});
export type TPromotionRequest = z.input<typeof ZPromotionRequest>;

const ZRow = z.record(z.string(), z.unknown());

export const ZCampaignRules = z.object({
  activation: z.enum(['MANUAL_CLAIM', 'AUTOMATIC']),
  time_zone: z.string(),
  ratio: z.string().nullable(),
  fixed_reward: z.string().nullable(),
  min_amount: z.string().nullable(),
  cap: z.string().nullable(),
  wagering_multiple: z.number(),
  wagering_base: z.enum(['deposit', 'reward']),
  max_bet: z.string().nullable(),
  expiry_days: z.number(),
  locks_cash: z.boolean(),
  tiers: z.array(z.object({ min_loss: z.string(), ratio: z.string() })),
});

export const ZPromotionCheck = z.object({
  code: z.string(),
  enabled: z.boolean(),
  /** Why the campaign is off on this site, in the player's language (null when on). */
  off_reason: z.string().nullable(),
  eligible: z.boolean(),
  claimed: z.boolean(),
  amount: z.string(),
  /** Why the caller cannot claim now (the claim's refusal message), or null. */
  reason: z.string().nullable(),
  /** When the next period opens (countdowns). */
  next_at: z.string().nullable(),
  rules: ZCampaignRules,
  list: z.array(ZRow),
  extra: ZRow,
});
export type TPromotionCheck = z.infer<typeof ZPromotionCheck>;

export const ZGrant = z.object({
  id: z.number(),
  campaign: z.string(),
  period: z.string(),
  amount: z.string(),
  balance: z.string(),
  wagering_required: z.string(),
  wagering_done: z.string(),
  wagering_left: z.string(),
  max_bet: z.string().nullable(),
  status: z.enum(['active', 'completed', 'expired', 'forfeited']),
  expires_at: z.string(),
  created_at: z.string(),
  closed_at: z.string().nullable(),
  converted: z.string(),
  forfeited: z.string(),
});
export type TGrant = z.infer<typeof ZGrant>;

/** Prize details of a lottery-wheel spin (spec §3). */
export const ZPrize = z.object({
  status: z.string(),
  code: z.number(),
  remainingspins: z.number(),
  reward: z.string(),
  quantity: z.number(),
  message: z.string(),
  index: z.number(),
  icon: z.string(),
});

export const ZPromotionClaim = z.object({ grant: ZGrant, prize: ZPrize.nullable() });
export type TPromotionClaim = z.infer<typeof ZPromotionClaim>;

export const ZActivityDetails = z.object({
  jurisdiction: z.string(),
  vip_basis: z.enum(['recharge', 'wagering']),
  list: z.array(
    z.object({
      code: z.string(),
      enabled: z.boolean(),
      off_reason: z.string().nullable(),
      trigger: z.string(),
      rules: ZCampaignRules,
    }),
  ),
});
export type TActivityDetails = z.infer<typeof ZActivityDetails>;

export const ZCoverHistoryRequest = z
  .object({
    status: z.enum(['active', 'completed', 'expired', 'forfeited']).optional(),
    before_id: z.coerce.number({ error: M.wrongType }).int().positive().safe().optional(),
    limit: z.coerce.number({ error: M.wrongType }).int().min(1).max(200).optional(),
    member_id: ZMemberIdEcho,
  })
  .default({});

export const ZCoverHistory = z.object({
  list: z.array(ZGrant),
  active: z.object({
    count: z.number(),
    balance: z.string(),
    wagering_left: z.string(),
    wagering_required: z.string(),
    wagering_done: z.string(),
  }),
  next_before_id: z.number().nullable(),
});
export type TCoverHistory = z.infer<typeof ZCoverHistory>;

export const ZVipInfo = z.object({
  uservip: z.object({
    userviplvl: z.number(),
    level_name: z.string(),
    basis: z.enum(['recharge', 'wagering']),
    totalrecharge: z.string(),
    totalbetting: z.string(),
    slot_betting: z.string(),
    live_betting: z.string(),
    next_level: z.number().nullable(),
    next_level_name: z.string().nullable(),
    next_level_at: z.string().nullable(),
    needed: z.string(),
    progress: z.number(),
    gift_ratio: z.string(),
  }),
  data: z.array(
    z.object({
      level: z.number(),
      name: z.string(),
      min: z.string(),
      max: z.string(),
      gift_min: z.string().nullable(),
      gift_max: z.string().nullable(),
      rebate_boost: z.string(),
      reached: z.boolean(),
    }),
  ),
});
export type TVipInfo = z.infer<typeof ZVipInfo>;

export const ZRebatesRequest = z
  .object({
    category: z.string().max(40, { error: M.tooLong }).optional(),
    member_id: ZMemberIdEcho,
  })
  .default({});

export const ZRebatesList = z.object({
  enabled: z.boolean(),
  off_reason: z.string().nullable(),
  basis: z.string().optional(),
  next_payout_at: z.string().optional(),
  list: z.array(
    z.object({
      category: z.string(),
      rate: z.string(),
      today_bet: z.string(),
      today_rebate: z.string(),
      yesterday_bet: z.string(),
      yesterday_rebate: z.string(),
      total_rebate: z.string(),
    }),
  ),
  total: z.string(),
});
export type TRebatesList = z.infer<typeof ZRebatesList>;

export const ZRebatesDetails = z.object({
  list: z.array(
    z.object({
      id: z.number(),
      day: z.string(),
      amount: z.string(),
      status: z.string(),
      wagering_left: z.string(),
      created_at: z.string(),
      categories: z.array(z.object({ category: z.string(), bet: z.string(), rebate: z.string() })),
    }),
  ),
});
export type TRebatesDetails = z.infer<typeof ZRebatesDetails>;

/** `{ type: 'vip_level_up', track, level, level_name }`: pushed on the member's live socket. */
export interface TVipLevelUpMessage {
  type: 'vip_level_up';
  track: 'vip' | 'slot' | 'live';
  level: number;
  level_name: string;
}
