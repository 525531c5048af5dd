import { randomInt } from 'node:crypto';
import {
  formatMinor,
  isGameCategory,
  type TGameCategory,
  type TGrant,
  type TLanguage,
  translate,
} from '@sorte/contract';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { blockedReferrals, isBlocked } from '../referrals/referrals.service.ts';
import { openMemberAccounts } from '../wallet/accounts.ts';
import type { BonusGrant } from '../wallet/bonus/grant-model.ts';
import { grantBonus, listGrants } from '../wallet/bonus/grants.ts';
import type { TJson } from '../wallet/wallet.schema.ts';
import { addDays, dayBounds, localDay } from './days.ts';
import { PROFILES, type TCampaignCode, type TCampaignRules, type TClaimCall } from './promotions.profiles.ts';
import {
  findVip,
  invitees,
  netLosses,
  paidDeposits,
  siteCampaigns,
  siteJurisdiction,
  type TCampaignRow,
  turnoverOf,
} from './promotions.repo.ts';
import { basisTotal, giftBps, levelFor, recordVipEvent } from './vip.ts';

/**
 * The campaigns of a site (rules from promo_campaigns, seeded per jurisdiction profile) and what a
 * member can claim: every claim computes its amount from the rules, then gives ONE grant per
 * (member, campaign, period) through the wallet (grantBonus); a repeat or a concurrent copy finds
 * the grant already given and is refused with 'Not eligible to receive'.
 */

export type TCtx = { db: Executor; site: TSite; memberId: bigint; lang: TLanguage; now?: Date };

const DAY_MS = 86_400_000;
const big = (text: string | undefined, fallback = 0n) =>
  text && /^\d+$/.test(text) ? BigInt(text) : fallback;
const cap = (amount: bigint, rules: TCampaignRules) => {
  const max = big(rules.reward.capMinor, 0n);
  return max > 0n && amount > max ? max : amount;
};
const pct = (bps: number) => formatMinor(BigInt(bps));

export type TGrantView = TGrant;

export function grantView(grant: BonusGrant): TGrantView {
  const left = grant.wageringRequiredMinor - grant.wageringDoneMinor;
  return {
    id: Number(grant.id),
    campaign: grant.campaignCode,
    period: grant.periodKey,
    amount: formatMinor(grant.amountMinor),
    balance: formatMinor(grant.balanceMinor),
    wagering_required: formatMinor(grant.wageringRequiredMinor),
    wagering_done: formatMinor(
      grant.wageringDoneMinor > grant.wageringRequiredMinor
        ? grant.wageringRequiredMinor
        : grant.wageringDoneMinor,
    ),
    wagering_left: formatMinor(grant.status === 'active' && left > 0n ? left : 0n),
    max_bet: grant.maxBetMinor === null ? null : formatMinor(grant.maxBetMinor),
    status: grant.status,
    expires_at: grant.expiresAt.toISOString(),
    created_at: grant.createdAt.toISOString(),
    closed_at: grant.closedAt?.toISOString() ?? null,
    converted: formatMinor(grant.convertedMinor),
    forfeited: formatMinor(grant.forfeitedMinor),
  };
}

function rulesView(rules: TCampaignRules) {
  return {
    activation: rules.activation,
    time_zone: rules.timeZone,
    ratio: rules.reward.bps === undefined ? null : pct(rules.reward.bps),
    fixed_reward: rules.reward.fixedMinor ? formatMinor(big(rules.reward.fixedMinor)) : null,
    min_amount: rules.reward.minBaseMinor ? formatMinor(big(rules.reward.minBaseMinor)) : null,
    cap: rules.reward.capMinor ? formatMinor(big(rules.reward.capMinor)) : null,
    wagering_multiple: rules.wagering.multiple,
    wagering_base: rules.wagering.base,
    max_bet: rules.wagering.maxBetMinor ? formatMinor(big(rules.wagering.maxBetMinor)) : null,
    expiry_days: rules.wagering.expiryDays,
    locks_cash: rules.wagering.locksCash,
    tiers: (rules.reward.tiers ?? []).map(([min, bps]) => ({
      min_loss: formatMinor(big(min)),
      ratio: pct(bps),
    })),
  };
}

export async function campaignOf(db: Executor, site: TSite, code: TCampaignCode): Promise<TCampaignRow> {
  const campaign = (await siteCampaigns(db, site)).find((c) => c.code === code);
  if (!campaign) throw new AppError('NOT_FOUND');
  return campaign;
}

/** Refuses a campaign that is off on this site, with its reason in the player's language. */
function assertOn(campaign: TCampaignRow): void {
  if (!campaign.enabled) {
    throw new AppError('PROMO_UNAVAILABLE', { messageKey: campaign.offReason ?? 'errors.PROMO_UNAVAILABLE' });
  }
}

/**
 * Gives a campaign's grant with its terms snapshot: wagering = multiple × (the deposit, for a
 * recharge reward; else the reward), the rule's max bet, max win, category weights and expiry.
 */
export async function giveGrant(
  db: Executor,
  input: {
    site: Pick<TSite, 'id' | 'jurisdiction'>;
    memberId: bigint;
    campaign: TCampaignRow;
    periodKey: string;
    amountMinor: bigint;
    depositMinor?: bigint;
    now: Date;
    reference?: string;
    extra?: { [key: string]: TJson };
  },
): Promise<{ grant: BonusGrant; created: boolean }> {
  const { rules } = input.campaign;
  const base =
    rules.wagering.base === 'deposit' && input.depositMinor ? input.depositMinor : input.amountMinor;
  await openMemberAccounts(db, { siteId: input.site.id, memberId: input.memberId });
  return grantBonus(db, {
    siteId: input.site.id,
    memberId: input.memberId,
    campaignCode: input.campaign.code,
    periodKey: input.periodKey,
    amountMinor: input.amountMinor,
    wageringRequiredMinor: base * BigInt(rules.wagering.multiple),
    maxBetMinor: rules.wagering.maxBetMinor ? big(rules.wagering.maxBetMinor) : null,
    locksCash: rules.wagering.locksCash,
    expiresAt: new Date(input.now.getTime() + rules.wagering.expiryDays * DAY_MS),
    terms: {
      campaign: input.campaign.code,
      trigger: rules.trigger,
      reward: rules.reward as never,
      wageringMultiple: rules.wagering.multiple,
      wageringBase: rules.wagering.base,
      baseMinor: base.toString(),
      weights: rules.wagering.weights,
      maxWinMinor: rules.wagering.maxWinMinor,
      ...input.extra,
    },
    reference: input.reference,
  });
}

// ---------------------------------------------------------------------------------------------
// What each campaign would give now

type TState = {
  eligible: boolean;
  claimed: boolean;
  amountMinor: bigint;
  /** Why not, as a refusal (thrown by claim, shown by check). */
  refusal: AppError | null;
  periodKey: string | null;
  depositMinor?: bigint;
  nextAt: Date | null;
  list: Record<string, unknown>[];
  extra: Record<string, unknown>;
};

async function grantedKeys(ctx: TCtx, code: string): Promise<Map<string, BonusGrant>> {
  const grants = await listGrants(ctx.db, { siteId: ctx.site.id, memberId: ctx.memberId, limit: 200 });
  return new Map(grants.filter((g) => g.campaignCode === code).map((g) => [g.periodKey, g]));
}

function days(ctx: TCtx, rules: TCampaignRules) {
  const now = ctx.now ?? new Date();
  const today = localDay(now, rules.timeZone);
  const yesterday = addDays(today, -1);
  return { now, today, yesterday, tomorrowStart: dayBounds(today, rules.timeZone).end };
}

function state(partial: Partial<TState>): TState {
  return {
    eligible: false,
    claimed: false,
    amountMinor: 0n,
    refusal: null,
    periodKey: null,
    nextAt: null,
    list: [],
    extra: {},
    ...partial,
  };
}

async function ftdState(ctx: TCtx, campaign: TCampaignRow): Promise<TState> {
  const { rules } = campaign;
  const first = (await paidDeposits(ctx.db, ctx.site.id, ctx.memberId, { limit: 1 }))[0];
  const claimed = (await grantedKeys(ctx, campaign.code)).has('once');
  const min = big(rules.reward.minBaseMinor);
  const vip = await vipLadder(ctx);
  const list = vip.levels.map((l) => ({
    level: l.level,
    name: l.name,
    min: formatMinor(l.minMinor),
    max: formatMinor(l.maxMinor),
    gift_min: l.giftMinBps === null ? null : pct(l.giftMinBps),
    gift_max: l.giftMaxBps === null ? null : pct(l.giftMaxBps),
    current: l.level === vip.level,
  }));
  const extra = {
    first_deposit: first ? formatMinor(first.amountMinor) : null,
    gift_ratio: pct(vip.giftBps),
    vip_level: vip.level,
  };
  if (claimed) return state({ claimed: true, refusal: new AppError('PROMO_NOTHING_TO_CLAIM'), list, extra });
  if (!first || first.amountMinor < min) {
    return state({ refusal: new AppError('PROMO_NOT_ELIGIBLE'), list, extra });
  }
  const amount = cap((first.amountMinor * BigInt(rules.reward.bps ?? 0)) / 10_000n, rules);
  return state({
    eligible: amount > 0n,
    amountMinor: amount,
    periodKey: 'once',
    depositMinor: first.amountMinor,
    list,
    extra,
  });
}

/** An invitee who shares identity signals with the inviter earns no reward (ADR 030). */
const sharedIdentity = () =>
  new AppError('PROMO_NOT_ELIGIBLE', { messageKey: 'promo.invite.shared_identity' });

async function invitationState(ctx: TCtx, campaign: TCampaignRow, name?: string): Promise<TState> {
  const { rules } = campaign;
  const people = await invitees(ctx.db, ctx.site.id, ctx.memberId);
  const given = await grantedKeys(ctx, campaign.code);
  const min = big(rules.reward.minBaseMinor);
  const reward = big(rules.reward.fixedMinor);
  const due = people.filter((p) => p.depositedMinor >= min && !given.has(`invitee:${p.id}`));
  const pairOf = (p: { id: bigint }) => ({ inviterId: ctx.memberId, inviteeId: p.id });
  const blocked = await blockedReferrals(ctx.db, ctx.site, 'invitation', due.map(pairOf));
  const barred = (p: { id: bigint }) => isBlocked(blocked, pairOf(p));
  const list = people.map((p) => ({
    name: p.username,
    registered_at: p.createdAt.toISOString(),
    deposited: formatMinor(p.depositedMinor),
    required_amount: formatMinor(min),
    qualified: p.depositedMinor >= min && !barred(p),
    shared_identity: barred(p),
    is_claimed: given.has(`invitee:${p.id}`),
    reward_amount: formatMinor(reward),
  }));
  const open = due.filter((p) => !barred(p));
  if (name !== undefined) {
    const person = people.find((p) => p.username.toLowerCase() === name.toLowerCase());
    if (!person) return state({ refusal: new AppError('USER_DOES_NOT_EXIST'), list });
    if (given.has(`invitee:${person.id}`)) {
      return state({ claimed: true, refusal: new AppError('PROMO_NOTHING_TO_CLAIM'), list });
    }
    if (person.depositedMinor < min) return state({ refusal: new AppError('PROMO_NOT_ELIGIBLE'), list });
    if (barred(person)) return state({ refusal: sharedIdentity(), list });
    return state({ eligible: true, amountMinor: reward, periodKey: `invitee:${person.id}`, list });
  }
  const first = open[0];
  if (!first) {
    const claimed = people.length > 0 && people.every((p) => given.has(`invitee:${p.id}`));
    const why = claimed ? new AppError('PROMO_NOTHING_TO_CLAIM') : due.length > 0 ? sharedIdentity() : null;
    return state({ claimed, refusal: why ?? new AppError('PROMO_NOT_ELIGIBLE'), list });
  }
  return state({
    eligible: true,
    amountMinor: reward * BigInt(open.length),
    periodKey: `invitee:${first.id}`,
    list,
    extra: { open: open.length },
  });
}

/** Yesterday's net loss and what a percentage of it (cashback / relief tiers) gives. */
async function lossState(ctx: TCtx, campaign: TCampaignRow): Promise<TState> {
  const { rules } = campaign;
  const { yesterday, today, tomorrowStart, now } = days(ctx, rules);
  const bounds = dayBounds(yesterday, rules.timeZone);
  const loss =
    (await netLosses(ctx.db, ctx.site.id, bounds.start, bounds.end, ctx.memberId))[0]?.lossMinor ?? 0n;
  const todayBounds = dayBounds(today, rules.timeZone);
  const todayLoss =
    (await netLosses(ctx.db, ctx.site.id, todayBounds.start, now, ctx.memberId))[0]?.lossMinor ?? 0n;
  const claimed = (await grantedKeys(ctx, campaign.code)).get(yesterday);
  const bps = lossBps(rules, loss);
  const amount = cap((loss * BigInt(bps)) / 10_000n, rules);
  const extra = {
    day: yesterday,
    net_loss: formatMinor(loss),
    ratio: pct(bps),
    today_net_loss: formatMinor(todayLoss),
    today_estimate: formatMinor(cap((todayLoss * BigInt(lossBps(rules, todayLoss))) / 10_000n, rules)),
  };
  if (claimed) {
    return state({
      claimed: true,
      amountMinor: claimed.amountMinor,
      refusal: new AppError('PROMO_NOTHING_TO_CLAIM'),
      nextAt: tomorrowStart,
      extra,
    });
  }
  if (bps === 0 || amount <= 0n) {
    return state({ refusal: new AppError('PROMO_NOT_ELIGIBLE'), nextAt: tomorrowStart, extra });
  }
  return state({ eligible: true, amountMinor: amount, periodKey: yesterday, nextAt: tomorrowStart, extra });
}

/** The percentage (bps) a day's loss earns: one rate above a minimum, or the highest tier reached. */
export function lossBps(rules: TCampaignRules, lossMinor: bigint): number {
  if (rules.reward.tiers) {
    let bps = 0;
    for (const [min, rate] of rules.reward.tiers) if (lossMinor >= big(min)) bps = rate;
    return bps;
  }
  return lossMinor >= big(rules.reward.minBaseMinor, 1n) ? (rules.reward.bps ?? 0) : 0;
}

async function rechargeRebateState(ctx: TCtx, campaign: TCampaignRow, id?: number): Promise<TState> {
  const { rules } = campaign;
  const now = ctx.now ?? new Date();
  const claimMs = (rules.reward.claimDays ?? 7) * DAY_MS;
  const min = big(rules.reward.minBaseMinor);
  const deposits = await paidDeposits(ctx.db, ctx.site.id, ctx.memberId, {
    since: new Date(now.getTime() - 30 * DAY_MS),
  });
  const given = await grantedKeys(ctx, campaign.code);
  const list = deposits
    .filter((d) => d.amountMinor >= min)
    .map((d) => {
      const grant = given.get(`deposit:${d.orderNo}`);
      return {
        id: Number(d.id),
        order_no: d.orderNo,
        recharge_amount: formatMinor(d.amountMinor),
        required_amount: formatMinor(min),
        reward_amount: formatMinor(cap((d.amountMinor * BigInt(rules.reward.bps ?? 0)) / 10_000n, rules)),
        is_claimed: grant !== undefined,
        claimed_at: grant ? grant.createdAt.toISOString() : null,
        event_ended_at: new Date(d.paidAt.getTime() + claimMs).toISOString(),
        _deposit: d,
      };
    })
    .reverse();
  const open = list.filter(
    (r) => !r.is_claimed && new Date(r.event_ended_at) > now && (id === undefined || r.id === id),
  );
  const shown = list.map(({ _deposit, ...rest }) => rest);
  const target = open[0];
  if (!target) return state({ refusal: new AppError('PROMO_NO_ELIGIBLE_TOPUPS'), list: shown });
  return state({
    eligible: true,
    amountMinor: cap((target._deposit.amountMinor * BigInt(rules.reward.bps ?? 0)) / 10_000n, rules),
    periodKey: `deposit:${target._deposit.orderNo}`,
    depositMinor: target._deposit.amountMinor,
    list: shown,
    extra: { open: open.length },
  });
}

async function lotteryState(ctx: TCtx, campaign: TCampaignRow): Promise<TState> {
  const { rules } = campaign;
  const { today, tomorrowStart } = days(ctx, rules);
  const bounds = dayBounds(today, rules.timeZone);
  const deposits = await paidDeposits(ctx.db, ctx.site.id, ctx.memberId, {
    since: bounds.start,
    until: bounds.end,
  });
  const deposited = deposits.reduce((sum, d) => sum + d.amountMinor, 0n);
  const per = big(rules.reward.spinPerMinor, 10_000n);
  const earned = Math.min(Number(deposited / per), rules.reward.maxSpinsPerDay ?? 10);
  const used = [...(await grantedKeys(ctx, campaign.code)).keys()].filter((k) =>
    k.startsWith(`${today}:`),
  ).length;
  const remaining = Math.max(earned - used, 0);
  const prizes = (rules.reward.prizes ?? []).map((p, index) => ({
    index,
    reward: formatMinor(big(p.amountMinor)),
    icon: p.icon ?? 'default',
  }));
  const extra = {
    quantity: earned,
    remainingspins: remaining,
    deposited_today: formatMinor(deposited),
    spin_per: formatMinor(per),
  };
  if (remaining <= 0)
    return state({ refusal: new AppError('PROMO_NO_SPINS'), list: prizes, extra, nextAt: tomorrowStart });
  return state({
    eligible: true,
    periodKey: `${today}:${used + 1}`,
    list: prizes,
    extra,
    nextAt: tomorrowStart,
  });
}

/**
 * The turnover multiple the site's recharge rewards carry (its campaigns on whose wagering counts
 * the recharge amount), for the withdrawal rules to state; null when the site gives none (`br`
 * offers no deposit-tied reward), so no rule speaks of them there.
 */
export async function rechargeRewardWagering(db: Executor, site: TSite): Promise<number | null> {
  const multiples = (await siteCampaigns(db, site))
    .filter((campaign) => campaign.enabled && campaign.rules.wagering.base === 'deposit')
    .map((campaign) => campaign.rules.wagering.multiple);
  return multiples.length > 0 ? Math.max(...multiples) : null;
}

/** The member's VIP level: the one reached, or the one their totals already reach. */
async function memberVipLevel(db: Executor, site: TSite, memberId: bigint): Promise<number> {
  const profile = PROFILES[site.jurisdiction].vip;
  const vip = await findVip(db, memberId);
  return Math.max(vip.level, levelFor(profile, basisTotal(profile, vip)));
}

async function stateOf(
  ctx: TCtx,
  campaign: TCampaignRow,
  body: { name?: string; id?: number },
): Promise<TState> {
  // A reward the campaign's rules keep for a VIP level (`minVipLevel`): below it the member is told
  // to level up ('Upgrade required'), whatever the campaign.
  const minLevel = campaign.rules.minVipLevel;
  if (minLevel !== undefined && (await memberVipLevel(ctx.db, ctx.site, ctx.memberId)) < minLevel) {
    return state({ refusal: new AppError('PROMO_UPGRADE_REQUIRED') });
  }
  switch (campaign.code) {
    case 'ftd':
      return ftdState(ctx, campaign);
    case 'invitationactivity':
      return invitationState(ctx, campaign, body.name);
    case 'dailywheel':
    case 'dailyrescue':
      return lossState(ctx, campaign);
    case 'rechargerebate':
      return rechargeRebateState(ctx, campaign, body.id);
    case 'lotterywheel':
      return lotteryState(ctx, campaign);
    default:
      throw new AppError('NOT_FOUND');
  }
}

export interface TCheckView {
  code: string;
  enabled: boolean;
  off_reason: string | null;
  eligible: boolean;
  claimed: boolean;
  amount: string;
  reason: string | null;
  next_at: string | null;
  rules: ReturnType<typeof rulesView>;
  list: Record<string, unknown>[];
  extra: Record<string, unknown>;
}

function offView(ctx: { lang: TLanguage }, campaign: TCampaignRow): TCheckView {
  return {
    code: campaign.code,
    enabled: false,
    off_reason: translate(ctx.lang, campaign.offReason ?? 'errors.PROMO_UNAVAILABLE'),
    eligible: false,
    claimed: false,
    amount: '0.00',
    reason: translate(ctx.lang, campaign.offReason ?? 'errors.PROMO_UNAVAILABLE'),
    next_at: null,
    rules: rulesView(campaign.rules),
    list: [],
    extra: {},
  };
}

/** `api/<call>/check`: the campaign's rules, whether the caller can claim now, and why not. */
export async function checkCampaign(ctx: TCtx, call: TClaimCall, body: { name?: string; id?: number } = {}) {
  const campaign = await campaignOf(ctx.db, ctx.site, call);
  if (!campaign.enabled) return offView(ctx, campaign);
  const st = await stateOf(ctx, campaign, body);
  return {
    code: campaign.code,
    enabled: true,
    off_reason: null,
    eligible: st.eligible,
    claimed: st.claimed,
    amount: formatMinor(st.amountMinor),
    reason: st.refusal ? translate(ctx.lang, st.refusal.messageKey, st.refusal.params) : null,
    next_at: st.nextAt?.toISOString() ?? null,
    rules: rulesView(campaign.rules),
    list: st.list,
    extra: st.extra,
  } satisfies TCheckView;
}

function pickPrize(rules: TCampaignRules): { index: number; amountMinor: bigint } {
  const prizes = rules.reward.prizes ?? [];
  const units = prizes.map((p) => Math.round(p.weight * 100));
  const total = units.reduce((a, b) => a + b, 0);
  let roll = randomInt(total);
  for (const [index, weight] of units.entries()) {
    if (roll < weight) return { index, amountMinor: big(prizes[index]!.amountMinor) };
    roll -= weight;
  }
  return { index: 0, amountMinor: big(prizes[0]!.amountMinor) };
}

/**
 * `api/<call>/claim`: gives the grant (once per period) or refuses with the campaign's message.
 * The lottery wheel answers the prize details (status, code, remainingspins, reward, quantity,
 * message, index of the prize for the wheel).
 */
export async function claimCampaign(ctx: TCtx, call: TClaimCall, body: { name?: string; id?: number } = {}) {
  const campaign = await campaignOf(ctx.db, ctx.site, call);
  assertOn(campaign);
  const now = ctx.now ?? new Date();
  const st = await stateOf(ctx, campaign, body);
  if (!st.eligible || st.periodKey === null) throw st.refusal ?? new AppError('PROMO_NOT_ELIGIBLE');
  let amount = st.amountMinor;
  let prize: { index: number; amountMinor: bigint } | null = null;
  if (campaign.code === 'lotterywheel') {
    prize = pickPrize(campaign.rules);
    amount = prize.amountMinor;
  }
  const { grant, created } = await giveGrant(ctx.db, {
    site: ctx.site,
    memberId: ctx.memberId,
    campaign,
    periodKey: st.periodKey,
    amountMinor: campaign.code === 'invitationactivity' ? big(campaign.rules.reward.fixedMinor) : amount,
    depositMinor: st.depositMinor,
    now,
  });
  if (!created) {
    throw new AppError(campaign.code === 'lotterywheel' ? 'PROMO_NO_SPINS' : 'PROMO_NOTHING_TO_CLAIM');
  }
  if (prize) {
    const quantity = Number(st.extra.quantity ?? 0);
    const remaining = Math.max(Number(st.extra.remainingspins ?? 1) - 1, 0);
    return {
      grant: grantView(grant),
      prize: {
        status: 'success',
        code: 200,
        remainingspins: remaining,
        reward: formatMinor(grant.amountMinor),
        quantity,
        message: translate(ctx.lang, 'messages.reward_claimed'),
        index: prize.index,
        icon: campaign.rules.reward.prizes?.[prize.index]?.icon ?? 'default',
      },
    };
  }
  return { grant: grantView(grant), prize: null };
}

// ---------------------------------------------------------------------------------------------
// Deposits: the tiered recharge gift and VIP on reload

/**
 * The gift rate a payment channel really gives on this site, in basis points: its own rate while the
 * site's recharge gift campaign is on, else 0 (the catalogue shows it, so no channel promises a gift
 * the site's rules forbid).
 */
export async function channelGiftBps(db: Executor, site: TSite, channelBps: number): Promise<number> {
  const campaign = (await siteCampaigns(db, site)).find((c) => c.code === 'recharge_gift');
  return campaign?.enabled ? channelBps : 0;
}

/**
 * The recharge gift a deposit of `amountMinor` on `channelBps` earns the member now: 0 where the
 * site's recharge_gift campaign is off (Brazil), else the larger of the channel's rate and the
 * member's VIP gift ratio (members below the campaign's minimum level get the channel's rate only).
 */
export async function rechargeGiftMinor(
  db: Executor,
  site: TSite,
  memberId: bigint,
  amountMinor: bigint,
  channelBps: number,
): Promise<bigint> {
  const campaign = (await siteCampaigns(db, site)).find((c) => c.code === 'recharge_gift');
  if (!campaign?.enabled) return 0n;
  const profile = PROFILES[site.jurisdiction].vip;
  const vip = await findVip(db, memberId);
  const total = basisTotal(profile, vip);
  const level = Math.max(vip.level, levelFor(profile, total));
  const tierBps = level >= (campaign.rules.minVipLevel ?? 1) ? giftBps(profile.levels[level - 1], total) : 0;
  const bps = Math.max(channelBps, tierBps);
  return cap((amountMinor * BigInt(bps)) / 10_000n, campaign.rules);
}

/**
 * A paid deposit, in its crediting transaction: the recharge gift promised on the order becomes a
 * grant (wagering 5 × the recharge), and the reload counts towards VIP.
 */
export async function onDepositCredited(
  tx: Executor,
  input: {
    siteId: bigint;
    memberId: bigint;
    orderNo: string;
    amountMinor: bigint;
    giftMinor: bigint;
    now?: Date;
  },
): Promise<void> {
  const site = { id: input.siteId, jurisdiction: await siteJurisdiction(tx, input.siteId) };
  const campaign = (await siteCampaigns(tx, site)).find((c) => c.code === 'recharge_gift');
  if (campaign?.enabled && input.giftMinor > 0n) {
    await giveGrant(tx, {
      site,
      memberId: input.memberId,
      campaign,
      periodKey: `deposit:${input.orderNo}`,
      amountMinor: input.giftMinor,
      depositMinor: input.amountMinor,
      now: input.now ?? new Date(),
      reference: `deposit:${input.orderNo}`,
    });
  }
  await recordVipEvent(tx, {
    siteId: site.id,
    memberId: input.memberId,
    jurisdiction: site.jurisdiction,
    rechargeMinor: input.amountMinor,
  });
}

// ---------------------------------------------------------------------------------------------
// VIP, history, rebates, activity list

async function vipLadder(ctx: TCtx) {
  const profile = PROFILES[ctx.site.jurisdiction].vip;
  const vip = await findVip(ctx.db, ctx.memberId);
  const total = basisTotal(profile, vip);
  const level = Math.max(vip.level, levelFor(profile, total));
  return {
    profile,
    vip,
    total,
    level,
    levels: profile.levels,
    giftBps: giftBps(profile.levels[level - 1], total),
  };
}

/** `api/member/vip/info`: uservip (userviplvl, totalrecharge, totalbetting, progress) and the level list. */
export async function vipInfo(ctx: TCtx) {
  const ladder = await vipLadder(ctx);
  const next = ladder.levels.find((l) => l.level === ladder.level + 1) ?? null;
  const current = ladder.levels.find((l) => l.level === ladder.level) ?? null;
  const from = current?.minMinor ?? 0n;
  const progress =
    next === null
      ? 100
      : Number(((ladder.total - from < 0n ? 0n : ladder.total - from) * 10_000n) / (next.minMinor - from)) /
        100;
  return {
    uservip: {
      userviplvl: ladder.level,
      level_name: current?.name ?? 'Member',
      basis: ladder.profile.basis,
      totalrecharge: formatMinor(ladder.vip.totalRechargeMinor),
      totalbetting: formatMinor(ladder.vip.totalBettingMinor),
      slot_betting: formatMinor(ladder.vip.slotBettingMinor),
      live_betting: formatMinor(ladder.vip.liveBettingMinor),
      next_level: next?.level ?? null,
      next_level_name: next?.name ?? null,
      next_level_at: next ? formatMinor(next.minMinor) : null,
      needed: next ? formatMinor(next.minMinor > ladder.total ? next.minMinor - ladder.total : 0n) : '0.00',
      progress: Math.min(Math.max(progress, 0), 100),
      gift_ratio: pct(ladder.giftBps),
    },
    data: ladder.levels.map((l) => ({
      level: l.level,
      name: l.name,
      min: formatMinor(l.minMinor),
      max: formatMinor(l.maxMinor),
      gift_min: l.giftMinBps === null ? null : pct(l.giftMinBps),
      gift_max: l.giftMaxBps === null ? null : pct(l.giftMaxBps),
      rebate_boost: pct(l.rebateBoostBps),
      reached: l.level <= ladder.level,
    })),
  };
}

/** `api/cover/history`: every reward the caller received, newest first, with its wagering. */
export async function coverHistory(ctx: TCtx, body: { status?: string; before_id?: number; limit?: number }) {
  const status = ['active', 'completed', 'expired', 'forfeited'].includes(body.status ?? '')
    ? (body.status as BonusGrant['status'])
    : undefined;
  const grants = await listGrants(ctx.db, {
    siteId: ctx.site.id,
    memberId: ctx.memberId,
    status,
    beforeId: body.before_id === undefined ? undefined : BigInt(body.before_id),
    limit: body.limit ?? 50,
  });
  const active = await listGrants(ctx.db, {
    siteId: ctx.site.id,
    memberId: ctx.memberId,
    status: 'active',
    limit: 200,
  });
  const list = grants.filter((g) => g.campaignCode !== 'legacy' || g.amountMinor > 0n).map(grantView);
  const sum = (f: (g: BonusGrant) => bigint) => formatMinor(active.reduce((t, g) => t + f(g), 0n));
  return {
    list,
    active: {
      count: active.length,
      balance: sum((g) => g.balanceMinor),
      wagering_left: sum((g) =>
        g.wageringRequiredMinor > g.wageringDoneMinor ? g.wageringRequiredMinor - g.wageringDoneMinor : 0n,
      ),
      wagering_required: sum((g) => g.wageringRequiredMinor),
      wagering_done: sum((g) =>
        g.wageringDoneMinor > g.wageringRequiredMinor ? g.wageringRequiredMinor : g.wageringDoneMinor,
      ),
    },
    next_before_id:
      grants.length > 0 && grants.length >= (body.limit ?? 50) ? Number(grants.at(-1)!.id) : null,
  };
}

/** Rebate rate of a category for a member's level (the level's boost on top of the base rate). */
function rebateBps(rules: TCampaignRules, category: TGameCategory, boostBps: number): number {
  const base = rules.reward.categoryBps?.[category] ?? 0;
  return Math.floor((base * (10_000 + boostBps)) / 10_000);
}

/** `/api/games/rebates/list`: per game category, today's and yesterday's turnover, rate, rebate. */
export async function rebatesList(ctx: TCtx) {
  const campaign = await campaignOf(ctx.db, ctx.site, 'rebates');
  if (!campaign.enabled)
    return {
      enabled: false,
      off_reason: translate(ctx.lang, campaign.offReason ?? ''),
      list: [],
      total: '0.00',
    };
  const { rules } = campaign;
  const { today, yesterday, tomorrowStart } = days(ctx, rules);
  const ladder = await vipLadder(ctx);
  const boost = ladder.levels.find((l) => l.level === ladder.level)?.rebateBoostBps ?? 0;
  const rows = await turnoverOf(ctx.db, {
    siteId: ctx.site.id,
    memberId: ctx.memberId,
    fromDay: addDays(today, -30),
    toDay: today,
  });
  const grants = [...(await grantedKeys(ctx, 'rebates')).values()];
  const categories = Object.keys(rules.reward.categoryBps ?? {}).filter(isGameCategory);
  const list = categories.map((category) => {
    const of = (day: string) =>
      rows
        .filter((r) => r.day === day && r.category === category)
        .reduce((t, r) => t + r.stakeMinor - r.bonusStakeMinor, 0n);
    const bps = rebateBps(rules, category, boost);
    const earned = grants.reduce(
      (t, g) =>
        t + big(String((g.terms.byCategory as Record<string, string> | undefined)?.[category] ?? '0')),
      0n,
    );
    return {
      category,
      rate: pct(bps),
      today_bet: formatMinor(of(today)),
      today_rebate: formatMinor((of(today) * BigInt(bps)) / 10_000n),
      yesterday_bet: formatMinor(of(yesterday)),
      yesterday_rebate: formatMinor((of(yesterday) * BigInt(bps)) / 10_000n),
      total_rebate: formatMinor(earned),
    };
  });
  return {
    enabled: true,
    off_reason: null,
    basis: 'wagering',
    next_payout_at: tomorrowStart.toISOString(),
    list,
    total: formatMinor(grants.reduce((t, g) => t + g.amountMinor, 0n)),
  };
}

/** `/api/games/rebates/details`: the rebates paid, day by day, with their per-category parts. */
export async function rebatesDetails(ctx: TCtx, body: { category?: string }) {
  const grants = [...(await grantedKeys(ctx, 'rebates')).values()].sort((a, b) => (a.id > b.id ? -1 : 1));
  return {
    list: grants
      .map((g) => {
        const parts = (g.terms.byCategory ?? {}) as Record<string, string>;
        const turnover = (g.terms.turnoverByCategory ?? {}) as Record<string, string>;
        return {
          id: Number(g.id),
          day: g.periodKey,
          amount: formatMinor(g.amountMinor),
          status: g.status,
          wagering_left: grantView(g).wagering_left,
          created_at: g.createdAt.toISOString(),
          categories: Object.keys(parts)
            .filter((c) => body.category === undefined || c === body.category)
            .map((c) => ({
              category: c,
              bet: formatMinor(big(turnover[c])),
              rebate: formatMinor(big(parts[c])),
            })),
        };
      })
      .filter((row) => body.category === undefined || row.categories.length > 0),
  };
}

/** `api/activitydetails/get`: every campaign of the site, on or off (with why), and its rules. */
export async function activityDetails(db: Executor, site: TSite, lang: TLanguage) {
  const campaigns = await siteCampaigns(db, site);
  return {
    jurisdiction: site.jurisdiction,
    vip_basis: PROFILES[site.jurisdiction].vip.basis,
    list: campaigns.map((c) => ({
      code: c.code,
      enabled: c.enabled,
      off_reason: c.enabled ? null : translate(lang, c.offReason ?? 'errors.PROMO_UNAVAILABLE'),
      trigger: c.rules.trigger,
      rules: rulesView(c.rules),
    })),
  };
}

export { rebateBps };
