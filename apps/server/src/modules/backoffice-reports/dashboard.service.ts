import {
  DASHBOARD_MAX_DAYS,
  type TDashboardFigures,
  type TDashboardPreset,
  type TDashboardQuery,
  type TDashboardResponse,
} from '@sorte/contract';
import { sql } from 'drizzle-orm';
import { siteTimeZone } from '../../core/periods.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { fieldError } from '../../errors.ts';
import { addDays, localDay } from '../promotions/days.ts';
import { intOf, moneyText, queryRows } from './reports.sql.ts';

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

type TFigureRow = {
  day: string | null;
  deposits: unknown;
  deposits_count: unknown;
  withdrawals: unknown;
  withdrawals_count: unknown;
  bets: unknown;
  bets_bonus: unknown;
  bets_count: unknown;
  wins: unknown;
  refunds: unknown;
  bonus_cost: unknown;
  corrections: unknown;
  active_players: unknown;
  depositors: unknown;
};

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
  // Local midnight of the first day and of the day after the last, as instants.
  const lo = sql`((${from}::date)::timestamp AT TIME ZONE ${timeZone})`;
  const hi = sql`(((${to}::date) + 1)::timestamp AT TIME ZONE ${timeZone})`;

  // One scan of the period's transfers; GROUPING SETS gives each day and the whole period (distinct
  // player counts of the period are not the sum of the days').
  const figures = await queryRows<TFigureRow>(
    executor,
    sql`WITH moves AS (
          SELECT t.kind, t.amount_minor AS amount,
                 da.kind AS debit_kind, da.member_id AS debit_member,
                 ca.kind AS credit_kind, ca.member_id AS credit_member,
                 to_char((t.created_at AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS day
          FROM wallet_transfers t
          JOIN wallet_accounts da ON da.id = t.debit_account_id
          JOIN wallet_accounts ca ON ca.id = t.credit_account_id
          WHERE t.site_id = ${siteId}::bigint AND t.created_at >= ${lo} AND t.created_at < ${hi})
        SELECT day,
          COALESCE(sum(amount) FILTER (WHERE kind = 'deposit' AND credit_member IS NOT NULL), 0)::text AS deposits,
          count(*) FILTER (WHERE kind = 'deposit' AND credit_member IS NOT NULL)::text AS deposits_count,
          COALESCE(sum(amount) FILTER (WHERE kind = 'withdrawal_payout'), 0)::text AS withdrawals,
          count(*) FILTER (WHERE kind = 'withdrawal_payout')::text AS withdrawals_count,
          COALESCE(sum(amount) FILTER (WHERE kind = 'bet' AND debit_member IS NOT NULL), 0)::text AS bets,
          COALESCE(sum(amount) FILTER (WHERE kind = 'bet' AND debit_kind = 'bonus'), 0)::text AS bets_bonus,
          count(*) FILTER (WHERE kind = 'bet' AND debit_member IS NOT NULL)::text AS bets_count,
          (COALESCE(sum(amount) FILTER (WHERE kind = 'win' AND credit_member IS NOT NULL), 0)
           - COALESCE(sum(amount) FILTER (WHERE kind = 'win_reversal' AND debit_member IS NOT NULL), 0))::text AS wins,
          COALESCE(sum(amount) FILTER (WHERE kind = 'refund' AND credit_member IS NOT NULL), 0)::text AS refunds,
          COALESCE(sum(CASE WHEN debit_kind = 'promotions_expense' THEN amount
                            WHEN credit_kind = 'promotions_expense' THEN -amount ELSE 0 END), 0)::text AS bonus_cost,
          COALESCE(sum(CASE WHEN kind <> 'correction' THEN 0
                            WHEN credit_member IS NOT NULL THEN amount
                            WHEN debit_member IS NOT NULL THEN -amount ELSE 0 END), 0)::text AS corrections,
          count(DISTINCT debit_member) FILTER (WHERE kind = 'bet')::text AS active_players,
          count(DISTINCT credit_member) FILTER (WHERE kind = 'deposit')::text AS depositors
        FROM moves
        GROUP BY GROUPING SETS ((day), ())`,
  );
  const signups = await queryRows<{ day: string | null; n: unknown }>(
    executor,
    sql`SELECT day, count(*)::text AS n FROM (
          SELECT to_char((created_at AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS day
          FROM members
          WHERE site_id = ${siteId}::bigint AND created_at >= ${lo} AND created_at < ${hi}) joined
        GROUP BY GROUPING SETS ((day), ())`,
  );

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
