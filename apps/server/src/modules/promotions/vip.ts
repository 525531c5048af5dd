import type { TGameCategory } from '@sorte/contract';
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';
import { PROFILES, type TVipLevel, type TVipProfile } from './promotions.profiles.ts';
import {
  addVipTotals,
  GROUP_VIP_TOTALS,
  groupVipChecks,
  raiseLevels,
  type TTurnoverAdd,
  type TVipRow,
  vipRowOf,
} from './promotions.repo.ts';

/** The group paths read this column with the rest of the VIP parts (promotions.repo.ts). */
export { GROUP_VIP_TOTALS };

/**
 * VIP levels (spec §6): Bronze 1,000–5,000 … Diamond 60,001–100,000 of the profile's basis (total
 * reload on intl, total wagered on br); slot and live levels count the bets on those categories.
 * A level never goes down. Recomputed on every qualifying event (a paid deposit, a stake) in that
 * event's transaction; each level crossed is recorded and pushed over the live socket.
 */

/** The highest level whose threshold the total reached (0 below Bronze). */
export function levelFor(profile: TVipProfile, totalMinor: bigint): number {
  let level = 0;
  for (const step of profile.levels) if (totalMinor >= step.minMinor) level = step.level;
  return level;
}

export function basisTotal(profile: TVipProfile, vip: TVipRow): bigint {
  return profile.basis === 'recharge' ? vip.totalRechargeMinor : vip.totalBettingMinor;
}

/**
 * Tiered recharge gift ratio of a level, in basis points: it grows from the tier's low to its high
 * ratio as the member's total moves through the tier (Bronze 5–10 %, …, Diamond 20 %).
 */
export function giftBps(step: TVipLevel | undefined, totalMinor: bigint): number {
  if (!step || step.giftMinBps === null || step.giftMaxBps === null) return 0;
  const span = step.maxMinor - step.minMinor;
  if (span <= 0n || step.giftMaxBps === step.giftMinBps) return step.giftMinBps;
  const into =
    totalMinor < step.minMinor ? 0n : totalMinor > step.maxMinor ? span : totalMinor - step.minMinor;
  return step.giftMinBps + Number((BigInt(step.giftMaxBps - step.giftMinBps) * into) / span);
}

const SLOT_CATEGORIES: ReadonlySet<TGameCategory> = new Set(['slots']);
const LIVE_CATEGORIES: ReadonlySet<TGameCategory> = new Set(['live_casino']);

/** Adds a qualifying event to the member's totals and raises their levels. */
export async function recordVipEvent(
  executor: Executor,
  input: {
    siteId: bigint;
    memberId: bigint;
    jurisdiction: TJurisdiction;
    rechargeMinor?: bigint;
    stakeMinor?: bigint;
    category?: TGameCategory;
    /** A bet's turnover of the day (rebates), written with the totals. */
    turnover?: TTurnoverAdd;
  },
): Promise<void> {
  const adds = stakeAdds(input.stakeMinor ?? 0n, input.category);
  const after = await addVipTotals(executor, {
    siteId: input.siteId,
    memberId: input.memberId,
    rechargeMinor: input.rechargeMinor ?? 0n,
    bettingMinor: adds.bettingMinor,
    slotMinor: adds.slotMinor,
    liveMinor: adds.liveMinor,
    turnover: input.turnover,
  });
  await raiseCrossedLevels(executor, input, adds, after);
}

/** What a stake adds to the VIP totals: all of it to betting, to slot or live by its category. */
export function stakeAdds(stakeMinor: bigint, category: TGameCategory | undefined) {
  return {
    bettingMinor: stakeMinor,
    slotMinor: category && SLOT_CATEGORIES.has(category) ? stakeMinor : 0n,
    liveMinor: category && LIVE_CATEGORIES.has(category) ? stakeMinor : 0n,
  };
}

/**
 * The levels the totals `after` (with `adds` just counted) crossed on the member's site, or null
 * when none (the stored level is already at least the VIP level and neither track moved up).
 */
export function crossedLevels(
  jurisdiction: TJurisdiction,
  adds: { slotMinor: bigint; liveMinor: bigint },
  after: TVipRow,
): { vip: number; slot: number; live: number; crossed: { track: string; level: number }[] } | null {
  const profile = PROFILES[jurisdiction].vip;
  const vip = levelFor(profile, basisTotal(profile, after));
  const slot = levelFor(profile, after.slotBettingMinor);
  const live = levelFor(profile, after.liveBettingMinor);
  const slotBefore = levelFor(profile, after.slotBettingMinor - adds.slotMinor);
  const liveBefore = levelFor(profile, after.liveBettingMinor - adds.liveMinor);
  if (vip <= after.level && slot === slotBefore && live === liveBefore) return null;
  const crossed: { track: string; level: number }[] = [];
  for (let level = after.level + 1; level <= vip; level += 1) crossed.push({ track: 'vip', level });
  for (let level = slotBefore + 1; level <= slot; level += 1) crossed.push({ track: 'slot', level });
  for (let level = liveBefore + 1; level <= live; level += 1) crossed.push({ track: 'live', level });
  return { vip, slot, live, crossed };
}

/**
 * Raises the member's levels that the totals `after` (with `adds` just counted) crossed, records
 * and pushes each; nothing when none was crossed (no statement).
 */
export async function raiseCrossedLevels(
  executor: Executor,
  member: { siteId: bigint; memberId: bigint; jurisdiction: TJurisdiction },
  adds: { slotMinor: bigint; liveMinor: bigint },
  after: TVipRow,
): Promise<void> {
  const levels = crossedLevels(member.jurisdiction, adds, after);
  if (!levels) return;
  await raiseLevels(executor, { siteId: member.siteId, memberId: member.memberId, ...levels });
}

/**
 * A cash stake of a group (one per member): its turnover of the day (`betTurnover`) and the VIP
 * totals its read saw (`GROUP_VIP_TOTALS`).
 */
export type TGroupStake = {
  siteId: bigint;
  memberId: bigint;
  jurisdiction: TJurisdiction;
  category: TGameCategory;
  stakeMinor: bigint;
  turnover: TTurnoverAdd;
  vipBefore: { r: unknown; b: unknown; sl: unknown; li: unknown; level: unknown };
};

type TLevels = NonNullable<ReturnType<typeof crossedLevels>>;

/**
 * The counters of a group's stakes for its write statement (ADR 023, 025): `ctes` count each stake
 * in its member's turnover of the day and VIP totals and check that the totals they leave are the
 * read's plus the stake (another transaction may have counted a stake of the member meanwhile:
 * `sorte_assert` fails the statement, and the group goes one by one); `rows` is the statement's
 * last UNION ALL part. The levels each stake crosses are decided here, from those totals, so that
 * nothing need follow the write when none is (its COMMIT rides with it); `raiseGroupLevels`
 * raises them after it.
 */
export function groupStakeParts(stakes: readonly TGroupStake[]): {
  ctes: SQL;
  rows: SQL;
  crossed: (TLevels | null)[];
} {
  const counts = stakes.map((stake) => ({
    siteId: stake.siteId,
    memberId: stake.memberId,
    ...stakeAdds(stake.stakeMinor, stake.category),
    turnover: stake.turnover,
  }));
  const after = stakes.map((stake, i) => {
    const before = vipRowOf(stake.vipBefore);
    const adds = counts[i]!;
    return {
      ...before,
      totalBettingMinor: before.totalBettingMinor + adds.bettingMinor,
      slotBettingMinor: before.slotBettingMinor + adds.slotMinor,
      liveBettingMinor: before.liveBettingMinor + adds.liveMinor,
    };
  });
  const expected = after.map((totals, i) => ({
    member_id: stakes[i]!.memberId.toString(),
    r: totals.totalRechargeMinor.toString(),
    b: totals.totalBettingMinor.toString(),
    sl: totals.slotBettingMinor.toString(),
    li: totals.liveBettingMinor.toString(),
    level: totals.level,
  }));
  return {
    ...groupVipChecks(counts, expected),
    crossed: stakes.map((stake, i) => crossedLevels(stake.jurisdiction, counts[i]!, after[i]!)),
  };
}

/** Raises the levels `groupStakeParts` decided the group's stakes cross (after its write). */
export async function raiseGroupLevels(
  executor: Executor,
  stakes: readonly TGroupStake[],
  crossed: readonly (TLevels | null)[],
): Promise<void> {
  for (const [i, levels] of crossed.entries()) {
    if (levels)
      await raiseLevels(executor, { siteId: stakes[i]!.siteId, memberId: stakes[i]!.memberId, ...levels });
  }
}
