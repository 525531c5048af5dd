import {
  formatMinor,
  type TAgencyClaimResponse,
  type TAgencyRewardResponse,
  TEAM_LIST_MAX,
  type TInviteRecordResponse,
  type TInviteResponse,
  type TLanguage,
  type TMechanismBetting,
  type TMechanismRecharge,
  type TMechanismSettlement,
  type TRegisterRequest,
  type TTeamResponse,
  translate,
} from '@sorte/contract';
import { eq } from 'drizzle-orm';
import type { TSite } from '../../core/site.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { register, type TAuthDeps, type TClient } from '../auth/auth.service.ts';
import { notify } from '../information/information.service.ts';
import { addDays, dayBounds, localDay } from '../promotions/days.ts';
import { blockedReferrals, isBlocked } from '../referrals/referrals.service.ts';
import { sites } from '../sites/sites.schema.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { AGENCY_DEFAULTS, AGENCY_LIMITS, assertRulesAllowed, type TAgencyRules } from './agency.profiles.ts';
import {
  findActiveSiteIds,
  findActivity,
  findAncestors,
  findCommissions,
  findInviteCode,
  findRules,
  findTeam,
  finishRun,
  insertCommission,
  insertRules,
  insertRun,
  lastSettledPeriod,
  markClaimed,
  replaceRules,
  sumCommissions,
} from './agency.repo.ts';

/**
 * The agency centre (spec §2 /agency-center/*, §7 api/agency/*; ADR 017): every player invites
 * others with their code; commissions on the team's play are settled once per period by a job and
 * claimed into the wallet.
 */

/** The site's commission rules: its row, created from the jurisdiction profile the first time. */
export async function getRules(executor: Executor, site: TSite): Promise<TAgencyRules> {
  let rules = await findRules(executor, site.id);
  if (!rules) {
    await insertRules(executor, site.id, AGENCY_DEFAULTS[site.jurisdiction]);
    rules = (await findRules(executor, site.id))!;
  }
  // Rules an operator edited badly never pay: the jurisdiction's limits are checked at every read.
  assertRulesAllowed(rules, AGENCY_LIMITS[site.jurisdiction]);
  return rules;
}

/** Operator: new rules for the site (checked against the jurisdiction first; settled periods keep theirs). */
export async function setRules(executor: Executor, site: TSite, rules: TAgencyRules): Promise<void> {
  assertRulesAllowed(rules, AGENCY_LIMITS[site.jurisdiction]);
  await replaceRules(executor, site.id, rules);
}

const mask = (name: string) =>
  name.length <= 3 ? `${name[0]}**` : `${name.slice(0, 2)}***${name.slice(-1)}`;

export async function getInvite(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  origin: string,
): Promise<TInviteResponse> {
  const code = await findInviteCode(executor, site.id, memberId);
  if (!code) throw new AppError('UNAUTHENTICATED');
  return { invite_code: code, invite_link: `${origin}/?invite=${encodeURIComponent(code)}` };
}

export async function getTeam(executor: Executor, site: TSite, memberId: bigint, now = new Date()) {
  const rules = await getRules(executor, site);
  const today = dayBounds(localDay(now, rules.timeZone), rules.timeZone);
  const rows = await findTeam(executor, site.id, memberId, rules.maxLevels, today.start);
  const weekAgo = now.getTime() - 7 * 24 * 3600 * 1000;
  const response: TTeamResponse = {
    direct: rows.filter((row) => row.level === 1).length,
    indirect: rows.filter((row) => row.level > 1).length,
    total: rows.length,
    active_today: rows.filter((row) => BigInt(row.bet_since) > 0n).length,
    new_this_week: rows.filter((row) => new Date(row.joined_at).getTime() >= weekAgo).length,
    members: rows.slice(0, TEAM_LIST_MAX).map((row) => ({
      username: mask(row.username),
      level: row.level,
      joined_at: row.joined_at,
      active_today: BigInt(row.bet_since) > 0n,
    })),
    max_levels: rules.maxLevels,
  };
  return response;
}

export async function getInviteRecord(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  level: 'all' | 'direct' | 'indirect',
): Promise<TInviteRecordResponse> {
  const rules = await getRules(executor, site);
  const rows = await findTeam(executor, site.id, memberId, rules.maxLevels, new Date());
  const sums = await sumCommissions(executor, site.id, memberId);
  const total = (pick: (row: (typeof rows)[number]) => string) =>
    formatMinor(rows.reduce((acc, row) => acc + BigInt(pick(row)), 0n));
  const shown = rows.filter((row) => level === 'all' || (level === 'direct') === (row.level === 1));
  return {
    totals: {
      invitees: rows.length,
      direct_invitees: rows.filter((row) => row.level === 1).length,
      indirect_invitees: rows.filter((row) => row.level > 1).length,
      total_deposit: total((row) => row.total_deposit),
      total_bet: total((row) => row.total_bet),
      direct_reward: formatMinor(sums.directMinor),
      indirect_reward: formatMinor(sums.indirectMinor),
      total_reward: formatMinor(sums.directMinor + sums.indirectMinor),
    },
    data: shown.slice(0, TEAM_LIST_MAX).map((row) => ({
      username: mask(row.username),
      level: row.level,
      joined_at: row.joined_at,
      total_deposit: formatMinor(BigInt(row.total_deposit)),
      total_bet: formatMinor(BigInt(row.total_bet)),
    })),
  };
}

export async function getRewards(
  executor: Executor,
  site: TSite,
  memberId: bigint,
): Promise<TAgencyRewardResponse> {
  const [rows, sums] = await Promise.all([
    findCommissions(executor, site.id, memberId, { limit: 90 }),
    sumCommissions(executor, site.id, memberId),
  ]);
  return {
    unclaimed: formatMinor(sums.unclaimedMinor),
    claimed: formatMinor(sums.claimedMinor),
    data: rows.map((row) => ({
      period: row.period,
      basis: row.basis,
      team_volume: formatMinor(BigInt(row.team_volume_minor)),
      direct: formatMinor(BigInt(row.direct_minor)),
      indirect: formatMinor(BigInt(row.indirect_minor)),
      amount: formatMinor(BigInt(row.amount_minor)),
      status: row.status,
      claimed_at: row.claimed_at,
    })),
  };
}

/**
 * Pays every unclaimed period into the member's cash: one `commission` transfer per (period, member)
 * under the key agency-commission:<site>:<period>:<member>, in the transaction that marks the period
 * claimed, so a double click or a retry pays once.
 */
export async function claimCommissions(db: Db, site: TSite, memberId: bigint): Promise<TAgencyClaimResponse> {
  return db.transaction(async (tx) => {
    const rows = await findCommissions(tx, site.id, memberId, { unclaimedOnly: true, lock: true });
    if (rows.length === 0) throw new AppError('AGENCY_NOTHING_TO_CLAIM');
    let claimed = 0n;
    for (const row of rows) {
      const paid = await transfer(tx, {
        siteId: site.id,
        kind: 'commission',
        from: { system: 'promotions_expense' },
        to: { memberId, account: 'cash' },
        amountMinor: BigInt(row.amount_minor),
        idempotencyKey: `agency-commission:${site.id}:${row.period}:${memberId}`,
        reference: `agency:${row.period}`,
        metadata: { period: row.period, commissionId: row.id },
      });
      await markClaimed(tx, BigInt(row.id), paid.transferId);
      claimed += BigInt(row.amount_minor);
    }
    return { claimed: formatMinor(claimed), periods: rows.length };
  });
}

export async function getMechanismRecharge(
  executor: Executor,
  site: TSite,
  lang: TLanguage,
): Promise<TMechanismRecharge> {
  const rules = await getRules(executor, site);
  const reason = AGENCY_LIMITS[site.jurisdiction].depositOffReason;
  return {
    enabled: rules.rechargeRatesBps !== null,
    off_reason: rules.rechargeRatesBps === null && reason ? translate(lang, reason) : null,
    levels: (rules.rechargeRatesBps ?? []).map((rate, index) => ({ level: index + 1, rate_bps: rate })),
  };
}

export async function getMechanismBetting(executor: Executor, site: TSite): Promise<TMechanismBetting> {
  const rules = await getRules(executor, site);
  return {
    basis: rules.basis,
    max_levels: rules.maxLevels,
    tiers: rules.tiers.map((tier) => ({
      min_team_volume: formatMinor(BigInt(tier.minTeamVolumeMinor)),
      rates_bps: tier.ratesBps,
    })),
  };
}

export async function getMechanismSettlement(
  executor: Executor,
  site: TSite,
  now = new Date(),
): Promise<TMechanismSettlement> {
  const rules = await getRules(executor, site);
  const tomorrow = addDays(localDay(now, rules.timeZone), 1);
  return {
    period: 'day',
    time_zone: rules.timeZone,
    claim: 'manual',
    last_period: await lastSettledPeriod(executor, site.id),
    next_settlement_at: dayBounds(tomorrow, rules.timeZone).start.toISOString(),
    min_claim: '0.01',
  };
}

/** The caller registers a player whose introducer is the caller; the new player is not logged in here. */
export async function registerSubordinate(
  deps: TAuthDeps,
  site: TSite,
  memberId: bigint,
  input: TRegisterRequest,
  client: TClient,
) {
  const code = await findInviteCode(deps.executor, site.id, memberId);
  if (!code) throw new AppError('UNAUTHENTICATED');
  const created = await register(deps, site, { ...input, invite_code: code }, client);
  return { username: created.user.name ?? input.username, level: 1 as const };
}

// ---------------------------------------------------------------------------------------------
// Settlement

export interface TSettlementResult {
  period: string;
  settled: boolean;
  members: number;
  totalMinor: bigint;
}

interface TLevelShare {
  level: number;
  members: number;
  volume_minor: string;
  deposit_minor: string;
  rate_bps: number;
  recharge_rate_bps: number;
  amount_minor: string;
}

/**
 * Settles one period of one site, exactly once: the run row, every commission and its notification
 * are written in ONE transaction. A second run (or a concurrent one, which waits on the run row's
 * unique key) finds the row and writes nothing; a run killed half way leaves nothing behind, so the
 * next attempt settles the period whole. Money moves only when a member claims.
 */
export async function settlePeriod(
  db: Db,
  site: TSite,
  period: string,
  hooks: { afterCommission?: (count: number) => void } = {},
): Promise<TSettlementResult> {
  const rules = await getRules(db, site);
  const { start, end } = dayBounds(period, rules.timeZone);
  return db.transaction(async (tx) => {
    const runId = await insertRun(tx, site.id, period, rules);
    if (runId === null) return { period, settled: false, members: 0, totalMinor: 0n };
    const activity = await findActivity(tx, site.id, start, end);
    const basisOf = new Map<string, { volume: bigint; deposits: bigint }>();
    for (const row of activity) {
      const turnover = BigInt(row.stake) - BigInt(row.refunds);
      const ngr = turnover - BigInt(row.wins) - BigInt(row.rewards);
      const volume = rules.basis === 'turnover' ? turnover : ngr;
      basisOf.set(row.member_id, { volume: volume > 0n ? volume : 0n, deposits: BigInt(row.deposits) });
    }
    const links = await rewardableLinks(
      tx,
      site,
      await findAncestors(
        tx,
        [...basisOf.keys()].map((id) => BigInt(id)),
        rules.maxLevels,
      ),
    );
    // ancestor → level → { volume, deposits, members }
    const teams = new Map<string, Map<number, { volume: bigint; deposits: bigint; members: number }>>();
    for (const link of links) {
      const own = basisOf.get(link.descendant);
      if (!own) continue;
      const byLevel = teams.get(link.ancestor) ?? new Map();
      const at = byLevel.get(link.level) ?? { volume: 0n, deposits: 0n, members: 0 };
      at.volume += own.volume;
      at.deposits += own.deposits;
      at.members += 1;
      byLevel.set(link.level, at);
      teams.set(link.ancestor, byLevel);
    }
    let count = 0;
    let total = 0n;
    for (const [ancestor, byLevel] of [...teams].sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1))) {
      const teamVolume = [...byLevel.values()].reduce((acc, at) => acc + at.volume, 0n);
      const tier = [...rules.tiers].reverse().find((t) => teamVolume >= BigInt(t.minTeamVolumeMinor))!;
      const levels: TLevelShare[] = [];
      let direct = 0n;
      let indirect = 0n;
      for (const [level, at] of [...byLevel].sort(([a], [b]) => a - b)) {
        const rate = tier.ratesBps[level - 1] ?? 0;
        const rechargeRate = rules.rechargeRatesBps?.[level - 1] ?? 0;
        const amount = (at.volume * BigInt(rate)) / 10_000n + (at.deposits * BigInt(rechargeRate)) / 10_000n;
        levels.push({
          level,
          members: at.members,
          volume_minor: String(at.volume),
          deposit_minor: String(at.deposits),
          rate_bps: rate,
          recharge_rate_bps: rechargeRate,
          amount_minor: String(amount),
        });
        if (level === 1) direct += amount;
        else indirect += amount;
      }
      if (direct + indirect === 0n) continue;
      await insertCommission(tx, {
        siteId: site.id,
        runId,
        period,
        memberId: BigInt(ancestor),
        basis: rules.basis,
        teamVolumeMinor: teamVolume,
        levels,
        directMinor: direct,
        indirectMinor: indirect,
      });
      await notify(tx, {
        siteId: site.id,
        memberId: BigInt(ancestor),
        kind: 'commission_settled',
        params: { amount: formatMinor(direct + indirect), period },
        dedupeKey: `commission:${period}`,
      });
      count += 1;
      total += direct + indirect;
      hooks.afterCommission?.(count);
    }
    await finishRun(tx, runId, count, total);
    return { period, settled: true, members: count, totalMinor: total };
  });
}

/**
 * The team links whose play may earn the ancestor a commission: not those where the ancestor and
 * the team member share identity signals (the same person playing through a second account, ADR
 * 030). Each link left out is kept, with why, for the operators.
 */
async function rewardableLinks<L extends { ancestor: string; descendant: string }>(
  tx: Executor,
  site: TSite,
  links: L[],
): Promise<L[]> {
  const pairOf = (link: L) => ({ inviterId: BigInt(link.ancestor), inviteeId: BigInt(link.descendant) });
  const blocked = await blockedReferrals(tx, site, 'commission', links.map(pairOf));
  return links.filter((link) => !isBlocked(blocked, pairOf(link)));
}

/** Settles the site's previous period (yesterday in its time zone) unless it already was. */
export async function settlePreviousPeriod(
  db: Db,
  site: TSite,
  now = new Date(),
): Promise<TSettlementResult> {
  const rules = await getRules(db, site);
  return settlePeriod(db, site, addDays(localDay(now, rules.timeZone), -1));
}

/** The job's tick: settles yesterday (in each site's time zone) on every active site that has not been. */
export async function settleDuePeriods(db: Db, now = new Date()): Promise<TSettlementResult[]> {
  const results: TSettlementResult[] = [];
  for (const siteId of await findActiveSiteIds(db)) {
    const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
    if (!site) continue;
    results.push(await settlePreviousPeriod(db, site, now));
  }
  return results;
}
