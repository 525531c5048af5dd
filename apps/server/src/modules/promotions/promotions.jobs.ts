import type { TSite } from '../../core/site.ts';
import type { Db } from '../../db/client.ts';
import type { TJob } from '../../jobs/runner.ts';
import { closeGrant, dueGrantIds } from '../wallet/bonus/grants.ts';
import { addDays, dayBounds, localDay } from './days.ts';
import { PROFILES } from './promotions.profiles.ts';
import {
  activeSites,
  findVip,
  finishJobRun,
  netLosses,
  siteCampaigns,
  startJobRun,
  turnoverOf,
} from './promotions.repo.ts';
import { giveGrant, lossBps, rebateBps } from './promotions.service.ts';
import { levelFor } from './vip.ts';

/**
 * Scheduled jobs (ADR 013): daily cashback (dailywheel, 8 % of yesterday's net loss), daily rebates
 * (per category of yesterday's cash turnover) and grant expiry.
 *
 * Exactly once per period per site: a run starts by inserting (job, site, period) into
 * promo_job_runs; only the process whose insert succeeds runs it, the others skip. A run whose
 * process died stays 'running'; after `staleAfterMs` exactly one later attempt takes it over
 * (a conditional UPDATE) and runs it again from the start. That is safe because every payment is a
 * grant unique per (member, campaign, period): the members paid before the crash are found paid and
 * skipped, so each is paid once however often the period is re-run.
 */

export type TJobName = 'cashback' | 'rebates' | 'expiry';

export interface TJobOptions {
  now?: Date;
  /** How long a 'running' run may go unfinished before another attempt takes it over. */
  staleAfterMs?: number;
  /** Test hook: called after each member is paid (a throw here simulates a crash mid-way). */
  afterEach?: (memberId: bigint) => void;
}

export interface TJobOutcome {
  job: TJobName;
  siteId: bigint;
  period: string;
  outcome: 'started' | 'resumed' | 'done' | 'running';
  paidCount: number;
  paidMinor: bigint;
}

const STALE_MS = 10 * 60_000;

/** The period a job settles now: yesterday (site time zone) for daily jobs, the hour for expiry. */
export function periodOf(job: TJobName, site: Pick<TSite, 'jurisdiction'>, now: Date): string {
  const zone = PROFILES[site.jurisdiction].timeZone;
  if (job === 'expiry') return now.toISOString().slice(0, 13);
  return addDays(localDay(now, zone), -1);
}

export async function runJob(
  db: Db,
  job: TJobName,
  site: TSite,
  options: TJobOptions = {},
): Promise<TJobOutcome> {
  const now = options.now ?? new Date();
  const period = periodOf(job, site, now);
  const outcome = await startJobRun(db, {
    job,
    siteId: site.id,
    period,
    staleAfterMs: options.staleAfterMs ?? STALE_MS,
  });
  const result: TJobOutcome = { job, siteId: site.id, period, outcome, paidCount: 0, paidMinor: 0n };
  if (outcome !== 'started' && outcome !== 'resumed') return result;
  const paid = (amount: bigint, memberId: bigint) => {
    result.paidCount += 1;
    result.paidMinor += amount;
    options.afterEach?.(memberId);
  };
  if (job === 'cashback') await payCashback(db, site, period, now, paid);
  if (job === 'rebates') await payRebates(db, site, period, now, paid);
  if (job === 'expiry') {
    for (const grantId of await dueGrantIds(db, site.id, now, 5000)) {
      const closed = await closeGrant(db, { siteId: site.id, grantId, reason: 'expired', now });
      if (closed?.status === 'expired') paid(closed.forfeitedMinor, closed.memberId);
    }
  }
  await finishJobRun(db, {
    job,
    siteId: site.id,
    period,
    paidCount: result.paidCount,
    paidMinor: result.paidMinor,
  });
  return result;
}

type TPaid = (amountMinor: bigint, memberId: bigint) => void;

async function payCashback(db: Db, site: TSite, day: string, now: Date, paid: TPaid) {
  const campaign = (await siteCampaigns(db, site)).find((c) => c.code === 'dailywheel');
  if (!campaign?.enabled) return;
  const { start, end } = dayBounds(day, campaign.rules.timeZone);
  for (const loss of await netLosses(db, site.id, start, end)) {
    const bps = lossBps(campaign.rules, loss.lossMinor);
    let amount = (loss.lossMinor * BigInt(bps)) / 10_000n;
    const capMinor = BigInt(campaign.rules.reward.capMinor ?? '0');
    if (capMinor > 0n && amount > capMinor) amount = capMinor;
    if (amount <= 0n) continue;
    const { created } = await giveGrant(db, {
      site,
      memberId: loss.memberId,
      campaign,
      periodKey: day,
      amountMinor: amount,
      now,
    });
    if (created) paid(amount, loss.memberId);
  }
}

async function payRebates(db: Db, site: TSite, day: string, now: Date, paid: TPaid) {
  const campaign = (await siteCampaigns(db, site)).find((c) => c.code === 'rebates');
  if (!campaign?.enabled) return;
  const profile = PROFILES[site.jurisdiction].vip;
  const rows = await turnoverOf(db, { siteId: site.id, fromDay: day, toDay: day });
  const byMember = new Map<bigint, typeof rows>();
  for (const row of rows) byMember.set(row.memberId, [...(byMember.get(row.memberId) ?? []), row]);
  for (const [memberId, list] of byMember) {
    const vip = await findVip(db, memberId);
    const level = Math.max(
      vip.level,
      levelFor(profile, profile.basis === 'recharge' ? vip.totalRechargeMinor : vip.totalBettingMinor),
    );
    const boost = profile.levels.find((l) => l.level === level)?.rebateBoostBps ?? 0;
    const byCategory: Record<string, string> = {};
    const turnoverByCategory: Record<string, string> = {};
    let total = 0n;
    for (const row of list) {
      const cash = row.stakeMinor - row.bonusStakeMinor;
      const part = (cash * BigInt(rebateBps(campaign.rules, row.category, boost))) / 10_000n;
      turnoverByCategory[row.category] = cash.toString();
      if (part <= 0n) continue;
      byCategory[row.category] = part.toString();
      total += part;
    }
    if (total <= 0n) continue;
    const { created } = await giveGrant(db, {
      site,
      memberId,
      campaign,
      periodKey: day,
      amountMinor: total,
      now,
      // The per-category parts stay on the grant's terms for the details page.
      extra: { byCategory, turnoverByCategory },
    });
    if (created) paid(total, memberId);
  }
}

/** Runs every job for every site once (the scheduler's tick); errors are reported, not thrown. */
export async function runAllJobs(
  db: Db,
  sites: TSite[],
  onError: (error: unknown, job: TJobName, site: TSite) => void,
  options: TJobOptions = {},
): Promise<TJobOutcome[]> {
  const outcomes: TJobOutcome[] = [];
  for (const site of sites) {
    for (const job of ['expiry', 'cashback', 'rebates'] as const) {
      try {
        outcomes.push(await runJob(db, job, site, options));
      } catch (error) {
        onError(error, job, site);
      }
    }
  }
  return outcomes;
}

/** The promotion jobs on the runner: every minute each job of each active site is due or skipped. */
export const promotionJobs: TJob[] = [
  {
    name: 'promotions',
    does: 'runs grant expiry, daily cashback and daily rebates of each active site',
    everyMs: 60_000,
    claim: {
      keyed: 'each (job, site, period) is claimed in promo_job_runs and each grant is unique (ADR 013)',
    },
    runAtStart: true,
    enabled: (config) => config.PROMO_JOBS,
    run: async (app, now) => {
      const sites = await activeSites(app.services.db);
      await runAllJobs(
        app.services.db,
        sites,
        (error, job, site) =>
          app.log.error({ err: error, job, siteId: String(site.id) }, 'promotion job failed'),
        { now },
      );
    },
  },
];
