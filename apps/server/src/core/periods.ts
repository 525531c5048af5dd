import type { TRecordPeriod } from '@sorte/contract';
import type { TSite } from './site.ts';

/**
 * Date filters count calendar days where the player lives: America/Sao_Paulo on `br` sites, UTC
 * elsewhere (sites have no time-zone setting yet; intl players are spread over many zones, and UTC
 * is at least the same for all of them).
 */
export function siteTimeZone(site: Pick<TSite, 'jurisdiction'>): string {
  return site.jurisdiction === 'br' ? 'America/Sao_Paulo' : 'UTC';
}

/** Days before today the period reaches back to (today counts as one day). */
const DAYS_BACK: Record<Exclude<TRecordPeriod, 'all'>, number> = {
  today: 0,
  last_3_days: 2,
  last_7_days: 6,
};

/** First instant of the period (local midnight `DAYS_BACK` days ago), or null for `all`. */
export function periodStart(period: TRecordPeriod, now: Date, timeZone: string): Date | null {
  if (period === 'all') return null;
  const { year, month, day } = localDate(now, timeZone);
  return zonedMidnight(year, month, day - DAYS_BACK[period], timeZone);
}

/**
 * One formatter per time zone, built once: building an Intl.DateTimeFormat costs far more than
 * formatting with it, and every bet asks for the day its stake counts for (bench/bets profile).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // Zones come from site and campaign rows: a handful in practice, bounded anyway.
    if (formatters.size >= 64) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's wall-clock fields (year, month, day, hour, minute, second) at `instant`. */
export function zonedParts(instant: Date, timeZone: string): Record<string, number> {
  const list = formatterOf(timeZone).formatToParts(instant);
  return Object.fromEntries(list.filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
}

function localDate(instant: Date, timeZone: string) {
  const parts = zonedParts(instant, timeZone);
  return { year: parts.year!, month: parts.month!, day: parts.day! };
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in ms (negative west of Greenwich). */
function offsetMs(instant: Date, timeZone: string): number {
  const p = zonedParts(instant, timeZone);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The UTC instant of local midnight on year-month-day (day may be out of range: Date.UTC rolls it
 * over). Two passes settle the offset even when midnight is near a daylight-saving change.
 */
export function zonedMidnight(year: number, month: number, day: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day);
  let instant = wall - offsetMs(new Date(wall), timeZone);
  instant = wall - offsetMs(new Date(instant), timeZone);
  return new Date(instant);
}
