/**
 * A parser for openfootball's Football.TXT match schedules (https://github.com/openfootball), the
 * format of `data/brasileirao-serie-a-2025.txt`:
 *
 *   = Brasileiro Série A 2025            title (the season is its last year-like word)
 *   # Teams 20                           comment
 *   » Matchday 1                         a round ("Matchday 1" without » in older files)
 *     Sat Mar/29 2025                    a day (the year carries over to the next day lines)
 *       18.30  São Paulo FC v SC Recife   0-0
 *              Cruzeiro EC v Mirassol FC  2-1 (2-1)   same kick-off time as the line above
 *              Fluminense FC v Ceará SC   [postponed]
 *
 * Times are local to the competition (`utcOffsetMinutes`, −180 for Brasília). A match without a time
 * on its day gets `defaultTime`. A match marked [postponed] (or [cancelled], [abandoned]) is left out.
 * A score is the full-time result; the half-time score in brackets is ignored.
 */

export interface TParsedMatch {
  round: number | null;
  home: string;
  away: string;
  kickoffAt: Date;
  /** Full-time score, or null when not played yet. */
  score: { home: number; away: number } | null;
}

export interface TParsedSchedule {
  title: string;
  season: string;
  matches: TParsedMatch[];
}

export interface TParseOptions {
  utcOffsetMinutes: number;
  /** "HH.MM" used when a day's match has no time. */
  defaultTime?: string;
}

const MONTHS: Record<string, number> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
};

const ROUND = /^\s*(?:»\s*)?(?:Matchday|Round|Rodada)\s+(\d+)\s*$/i;
const DAY = /^\s*\[?(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+([A-Za-z]{3})\/(\d{1,2})(?:\s+(\d{4}))?\]?\s*$/;
const MATCH =
  /^\s*(?:(\d{1,2})[.:](\d{2})\s+)?(\S.*?)\s+(?:v|vs\.?|-)\s+(\S.*?)(?:\s+(\d{1,2})-(\d{1,2})(?:\s*\(\d{1,2}-\d{1,2}\))?)?(?:\s+\[([a-z ]+)\])?\s*$/i;
/** The older layout puts the score between the teams: "Home  2-1 (0-0)  Away". */
const MATCH_SCORE_BETWEEN =
  /^\s*(?:(\d{1,2})[.:](\d{2})\s+)?(\S.*?)\s+(\d{1,2})-(\d{1,2})(?:\s*\(\d{1,2}-\d{1,2}\))?\s+(\S.*?)\s*$/;

export class FixtureParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export function parseFootballTxt(text: string, options: TParseOptions): TParsedSchedule {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let title = '';
  let season = '';
  let round: number | null = null;
  let year: number | null = null;
  let day: { month: number; date: number } | null = null;
  let time: { hours: number; minutes: number } | null = null;
  let lastMonth = -1;
  const [defaultHours, defaultMinutes] = (options.defaultTime ?? '16.00').split('.').map(Number) as [
    number,
    number,
  ];
  const matches: TParsedMatch[] = [];

  lines.forEach((raw, index) => {
    const line = raw.replace(/\s+$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    if (line.startsWith('=')) {
      title = line.replace(/^=+\s*/, '').trim();
      const years = title.match(/\d{4}(?:[/-]\d{2,4})?/g);
      season = years?.at(-1) ?? '';
      const first = season.match(/^\d{4}/);
      if (first) year = Number(first[0]);
      return;
    }
    const roundMatch = ROUND.exec(line);
    if (roundMatch) {
      round = Number(roundMatch[1]);
      return;
    }
    const dayMatch = DAY.exec(line);
    if (dayMatch) {
      const month = MONTHS[dayMatch[1]!.toLowerCase()];
      if (month === undefined) throw new FixtureParseError(index + 1, `unknown month ${dayMatch[1]}`);
      if (dayMatch[3]) year = Number(dayMatch[3]);
      else if (year !== null && lastMonth > month && lastMonth - month > 6) year += 1;
      if (year === null) throw new FixtureParseError(index + 1, 'a day before any year');
      lastMonth = month;
      day = { month, date: Number(dayMatch[2]) };
      time = null;
      return;
    }
    const match = MATCH.exec(line);
    const between = match ? null : MATCH_SCORE_BETWEEN.exec(line);
    if (!match && !between) throw new FixtureParseError(index + 1, `not a match line: ${line.trim()}`);
    if (!day || year === null) throw new FixtureParseError(index + 1, 'a match before its day');
    let hours: string | undefined;
    let minutes: string | undefined;
    let home: string;
    let away: string;
    let score: { home: number; away: number } | null = null;
    if (between) {
      [, hours, minutes] = between;
      home = between[3]!;
      away = between[6]!;
      score = { home: Number(between[4]), away: Number(between[5]) };
    } else {
      const m = match!;
      [, hours, minutes] = m;
      home = m[3]!;
      away = m[4]!;
      if (m[5] !== undefined) score = { home: Number(m[5]), away: Number(m[6]) };
      if (m[7] !== undefined) {
        if (hours !== undefined) time = { hours: Number(hours), minutes: Number(minutes) };
        return;
      }
    }
    if (hours !== undefined) time = { hours: Number(hours), minutes: Number(minutes) };
    const at = time ?? { hours: defaultHours, minutes: defaultMinutes };
    const kickoffAt = new Date(
      Date.UTC(year, day.month, day.date, at.hours, at.minutes) - options.utcOffsetMinutes * 60_000,
    );
    matches.push({ round, home: home.trim(), away: away.trim(), kickoffAt, score });
  });
  if (!title) throw new FixtureParseError(1, 'no title line');
  return { title, season, matches };
}
