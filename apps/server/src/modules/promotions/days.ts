/**
 * Calendar days in a time zone, for the whole server: "yesterday" of a daily cashback, the period
 * key of a job, the day a stake counts for, an agency commission period, a back-office dashboard
 * day. A day is 'YYYY-MM-DD'; its bounds are local midnights as UTC instants.
 */
import { zonedMidnight, zonedParts } from '../../core/periods.ts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * The last day asked for per time zone and the UTC minute it was asked in: every zone's offset is a
 * whole number of minutes (tzdata, since 1972), so a local day never changes within a UTC minute,
 * and every bet asks for today (formatToParts showed in bench:bets' profile of the server's CPU).
 */
const lastDays = new Map<string, { minute: number; day: string }>();

/** The local calendar day of `instant` in `timeZone`. */
export function localDay(instant: Date, timeZone: string): string {
  const minute = Math.floor(instant.getTime() / 60_000);
  const last = lastDays.get(timeZone);
  if (last?.minute === minute) return last.day;
  const p = zonedParts(instant, timeZone);
  const day = `${pad(p.year!, 4)}-${pad(p.month!)}-${pad(p.day!)}`;
  if (lastDays.size >= 64) lastDays.clear();
  lastDays.set(timeZone, { minute, day });
  return day;
}

/** [start, end) of a local day as UTC instants. */
export function dayBounds(day: string, timeZone: string): { start: Date; end: Date } {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return { start: zonedMidnight(y, m, d, timeZone), end: zonedMidnight(y, m, d + 1, timeZone) };
}

/** The day `offset` days from `day` (negative: earlier). */
export function addDays(day: string, offset: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d + offset));
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

export function isDay(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && addDays(text, 0) === text;
}
