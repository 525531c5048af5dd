import {
  DASHBOARD_MAX_DAYS,
  type TDashboardFigures,
  type TDashboardPreset,
  type TDashboardQuery,
  type TDashboardResponse,
} from '@sorte/contract';
import { siteTimeZone } from '../../core/periods.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { fieldError } from '../../errors.ts';
import { addDays, localDay } from '../promotions/days.ts';
import { intOf, moneyText } from './reports.format.ts';
import { findDashboardFigures, type TFigureRow } from './reports.repo.ts';

/**
 * The dashboard: a site's money and players over a period of days, from the ledger itself
 * (wallet_transfers, architecture.md §3) and the members table. Days are calendar days of the
 * site's time zone. Definitions (the same for totals and the daily series):
 * - deposits: `deposit` transfers (a paid order credited to the player);
 * - withdrawals: `withdrawal_payout` transfers (held money paid out to the PSP, fee included);
 * - bets: `bet` transfers out of a player's cash or bonus (bets_bonus: out of the bonus);
 * - wins / refunds: `win` / `refund` transfers into a player's account (wins less the
 *   `win_reversal` transfers that took a corrected payout back);
 * - GGR = bets − wins − refunds; bonus cost = what left the promotions expense account minus what
 *   came back to it (grants, rebates, commissions, rain less forfeited bonus); NGR = GGR − bonus cost;
 * - corrections: manual `correction` transfers, credits to players minus debits from them;
 * - active players: distinct players with a bet; depositors: distinct players with a deposit;
 *   new players: sign-ups.
 */

const DAY_MS = 86_400_000;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

const PRESET_DAYS: Record<TDashboardPreset, number> = { today: 1, '7d': 7, '30d': 30 };

/** The period asked for: a preset, explicit days, or the last 7 days; validated. */
export function resolvePeriod(
  query: Pick<TDashboardQuery, 'preset' | 'from' | 'to'>,
  now: Date,
  timeZone: string,
): { from: string; to: string } {
  const today = localDay(now, timeZone);
  if (query.from || query.to) {
    const from = query.from ?? query.to!;
    const to = query.to ?? today;
    if (daysBetween(from, to) < 0) throw fieldError('to', 'validation.invalid');
    if (daysBetween(from, to) >= DASHBOARD_MAX_DAYS) throw fieldError('from', 'validation.invalid');
    return { from, to };
  }
  const days = PRESET_DAYS[query.preset ?? '7d'];
  return { from: addDays(today, 1 - days), to: today };
}

function figuresOf(row: TFigureRow | undefined, newPlayers: number): TDashboardFigures {
  const big = (value: unknown) => BigInt(value === null || value === undefined ? 0 : String(value));
  const bets = big(row?.bets);
  const wins = big(row?.wins);
  const refunds = big(row?.refunds);
  const bonusCost = big(row?.bonus_cost);
  const ggr = bets - wins - refunds;
  return {
    deposits: moneyText(row?.deposits),
    deposits_count: intOf(row?.deposits_count),
    withdrawals: moneyText(row?.withdrawals),
    withdrawals_count: intOf(row?.withdrawals_count),
    bets: moneyText(bets),
    bets_bonus: moneyText(row?.bets_bonus),
    bets_count: intOf(row?.bets_count),
    wins: moneyText(wins),
    refunds: moneyText(refunds),
    ggr: moneyText(ggr),
    bonus_cost: moneyText(bonusCost),
    ngr: moneyText(ggr - bonusCost),
    corrections: moneyText(row?.corrections),
    active_players: intOf(row?.active_players),
    new_players: newPlayers,
    depositors: intOf(row?.depositors),
  };
}

export async function dashboard(
  executor: Executor,
  site: TSite,
  query: Pick<TDashboardQuery, 'preset' | 'from' | 'to'>,
  now: Date = new Date(),
): Promise<TDashboardResponse> {
  const timeZone = siteTimeZone(site);
  const { from, to } = resolvePeriod(query, now, timeZone);
  const siteId = site.id.toString();
  const { figures, signups } = await findDashboardFigures(executor, siteId, { from, to, timeZone });
  const byDay = new Map(figures.filter((r) => r.day !== null).map((r) => [r.day!, r]));
  const signupsByDay = new Map(signups.filter((r) => r.day !== null).map((r) => [r.day!, intOf(r.n)]));
  const daily: TDashboardResponse['daily'] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    daily.push({ date: day, ...figuresOf(byDay.get(day), signupsByDay.get(day) ?? 0) });
  }
  return {
    site: site.code,
    time_zone: timeZone,
    from,
    to,
    totals: figuresOf(
      figures.find((r) => r.day === null),
      intOf(signups.find((r) => r.day === null)?.n),
    ),
    daily,
  };
}
