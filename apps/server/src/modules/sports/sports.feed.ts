import { readFile } from 'node:fs/promises';
import type { TSportsMarketType } from '@sorte/contract';
import type { Executor } from '../../db/client.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';
import {
  findAllSites,
  findCompetitionId,
  findCompetitionPrices,
  findCompetitionSchedule,
  lockCompetition,
  shiftScheduledKickoffs,
  upsertCompetition,
} from './sports.feed.repo.ts';
import { parseFootballTxt } from './sports.fixtures.ts';
import { formatOdds, matchProbabilities, parseOdds, teamRatings } from './sports.pricing.ts';
import { sportsProfile } from './sports.profiles.ts';
import {
  enterResult,
  insertEvents,
  recordPastResults,
  setOdds,
  type TNewEvent,
  type TSportsDeps,
} from './sports.service.ts';

/**
 * Where fixtures, results and (optionally) prices come from. The file feed reads openfootball's
 * Football.TXT shipped in data/; a real odds provider implements the same interface (its `odds`
 * replace the house model's prices; markets it prices are marked 'feed'). Importing is idempotent:
 * an event is identified by (competition, external ref).
 */
export interface TFeedEvent {
  /** Stable id of the match at the source. */
  ref: string;
  round: number | null;
  home: string;
  away: string;
  kickoffAt: Date;
  /** Final score when played. */
  score: { home: number; away: number } | null;
  /** Decimal odds in hundredths per market type and selection code, when the source prices the match. */
  odds?: Partial<Record<TSportsMarketType, Record<string, bigint>>>;
}

export interface TFeedCompetition {
  code: string;
  name: string;
  country: string;
  season: string;
  events: TFeedEvent[];
}

export interface SportsFeed {
  readonly name: string;
  /** The competitions this feed knows, with their events (fixtures and results so far). */
  competitions(): Promise<TFeedCompetition[]>;
}

export const BRASILEIRAO_FILE = new URL('./data/brasileirao-serie-a-2025.txt', import.meta.url);
export const SERIE_B_FILE = new URL('./data/brasileirao-serie-b-2025.txt', import.meta.url);

/**
 * openfootball's file as a feed. `alignTo`: shift every date by whole days so the first match
 * without a result kicks off just after this moment (the demo always has upcoming rounds; played
 * rounds stay in the past with their real results; teams and pairings unchanged).
 */
export class FootballTxtFeed implements SportsFeed {
  readonly name = 'openfootball';

  constructor(
    private readonly source: {
      file: URL;
      code: string;
      name: string;
      country: string;
      utcOffsetMinutes: number;
    },
    private readonly alignTo: Date | null = null,
  ) {}

  async competitions(): Promise<TFeedCompetition[]> {
    const text = await readFile(this.source.file, 'utf8');
    const schedule = parseFootballTxt(text, {
      utcOffsetMinutes: this.source.utcOffsetMinutes,
      defaultTime: '16.00',
    });
    let shiftMs = 0;
    if (this.alignTo) {
      const firstOpen = schedule.matches
        .filter((match) => match.score === null)
        .reduce<Date | null>(
          (min, match) => (min === null || match.kickoffAt < min ? match.kickoffAt : min),
          null,
        );
      if (firstOpen) {
        const DAY = 86_400_000;
        // At least two hours ahead, so the first round is bettable when the demo starts.
        const target = this.alignTo.getTime() + 2 * 3_600_000;
        shiftMs = Math.max(0, Math.ceil((target - firstOpen.getTime()) / DAY)) * DAY;
      }
    }
    return [
      {
        code: this.source.code,
        name: this.source.name,
        country: this.source.country,
        season: schedule.season,
        events: schedule.matches.map((match) => ({
          ref: `${match.round ?? 0}:${match.home}:${match.away}`,
          round: match.round,
          home: match.home,
          away: match.away,
          kickoffAt: new Date(match.kickoffAt.getTime() + shiftMs),
          score: match.score,
        })),
      },
    ];
  }
}

/** The file feeds the demo knows, by competition code. */
export function demoFeeds(alignTo: Date): Record<string, SportsFeed> {
  const brazil = (file: URL, code: string, name: string) =>
    new FootballTxtFeed({ file, code, name, country: 'BR', utcOffsetMinutes: -180 }, alignTo);
  return {
    'brasileirao-serie-a': brazil(BRASILEIRAO_FILE, 'brasileirao-serie-a', 'Brasileirão Série A'),
    'brasileirao-serie-b': brazil(SERIE_B_FILE, 'brasileirao-serie-b', 'Brasileirão Série B'),
  };
}

/**
 * Imports a feed's competitions into a site: creates what is missing (competition at `position`,
 * events with their four markets priced by the house model from the season's results so far, or by
 * the feed's odds), and records the results of played matches nobody bet on (markets settled, no
 * money moves). Returns the number of events created.
 */
export async function importFeed(
  executor: Executor,
  site: { id: bigint; jurisdiction: TJurisdiction },
  feed: SportsFeed,
  position: number,
): Promise<number> {
  let created = 0;
  for (const competition of await feed.competitions()) {
    const competitionId = await upsertCompetition(executor, site.id, competition, position);
    const played = competition.events.flatMap((event) =>
      event.score ? [{ home: event.home, away: event.away, score: event.score }] : [],
    );
    const expectations = teamRatings(played);
    const events: TNewEvent[] = competition.events.map((event) => {
      const { lambdaHome, lambdaAway } = expectations(event.home, event.away);
      return {
        externalRef: event.ref,
        round: event.round,
        home: event.home,
        away: event.away,
        kickoffAt: event.kickoffAt,
        probabilities: matchProbabilities(lambdaHome, lambdaAway),
        ...(event.odds ? { odds: event.odds } : {}),
      };
    });
    const ids = await insertEvents(executor, site, competitionId, events);
    created += ids.size;
    await recordPastResults(
      executor,
      competition.events.flatMap((event) => {
        const id = ids.get(event.ref);
        return id !== undefined && event.score ? [{ eventId: id, score: event.score }] : [];
      }),
    );
  }
  return created;
}

/**
 * The demo's sportsbook: each site gets its profile's competitions (Brasileirão Série A first),
 * imported once (a site that already has the competition is left alone), dates aligned to now.
 */
export async function seedSports(executor: Executor, now = new Date()): Promise<void> {
  const sites = await findAllSites(executor);
  const feeds = demoFeeds(now);
  for (const site of sites) {
    const codes = sportsProfile(site.jurisdiction).competitions;
    for (const [position, code] of codes.entries()) {
      const existing = await findCompetitionId(executor, site.id, code);
      const feed = feeds[code];
      if (existing !== undefined) {
        await realignDemo(executor, BigInt(existing), now);
        continue;
      }
      if (!feed) continue;
      await importFeed(executor, { id: BigInt(site.id), jurisdiction: site.jurisdiction }, feed, position);
    }
  }
}

/**
 * Brings a site up to date with a feed (a real odds provider's adapter calls this on its schedule):
 * new events are imported; the feed's prices replace those of markets it priced before ('feed'
 * markets — an operator's hand-set odds and model-priced markets are left alone: operators override
 * the feed); a result the feed reports for a match still open settles it at once, paying through the
 * wallet. Every change is pushed live as an operator's would be.
 */
export async function syncFeed(
  deps: TSportsDeps,
  site: { id: bigint; jurisdiction: TJurisdiction },
  feed: SportsFeed,
): Promise<{ created: number; repriced: number; settled: number }> {
  let repriced = 0;
  let settled = 0;
  const competitions = await feed.competitions();
  const fixed: SportsFeed = { name: feed.name, competitions: async () => competitions };
  const created = await importFeed(deps.db, site, fixed, 100);
  for (const competition of competitions) {
    const rows = await findCompetitionPrices(deps.db, site.id, competition.code);
    const byRef = new Map<string, typeof rows>();
    for (const row of rows) byRef.set(row.external_ref, [...(byRef.get(row.external_ref) ?? []), row]);
    for (const event of competition.events) {
      const known = byRef.get(event.ref);
      if (!known) continue;
      const open = known[0]!.status === 'scheduled' || known[0]!.status === 'live';
      if (open && event.odds) {
        for (const [type, prices] of Object.entries(event.odds) as [
          TSportsMarketType,
          Record<string, bigint>,
        ][]) {
          const selections = known.filter((row) => row.type === type);
          const market = selections[0];
          if (market?.odds_source !== 'feed' || market.market_status === 'settled') continue;
          const changes = selections.flatMap((row) => {
            const price = prices[row.code];
            return price !== undefined && price !== parseOdds(row.odds)
              ? [{ selection_id: row.selection_id, odds: formatOdds(price) }]
              : [];
          });
          if (changes.length === 0) continue;
          await setOdds(deps, site, BigInt(market.market_id), { selections: changes, source: 'feed' });
          repriced += 1;
        }
      }
      if (open && event.score) {
        await enterResult(deps, site, BigInt(known[0]!.event_id), event.score);
        settled += 1;
      }
    }
  }
  return { created, repriced, settled };
}

/**
 * A demo restarted after its upcoming rounds went by: when no match of the competition is ahead and no
 * bet waits on an unplayed one, the unplayed matches move forward by whole days so the next one kicks
 * off just after `now` again (the same shift as the first import; played rounds stay as they are).
 */
export async function realignDemo(executor: Executor, competitionId: bigint, now: Date): Promise<void> {
  // Several processes may start at once: the competition row serialises them, so one shift happens.
  await executor.transaction(async (tx) => {
    await lockCompetition(tx, competitionId);
    const state = await findCompetitionSchedule(tx, competitionId, now);
    if (!state?.next || state.ahead !== '0' || state.bets !== '0') return;
    const DAY = 86_400_000;
    const target = now.getTime() + 2 * 3_600_000;
    const days = Math.ceil((target - new Date(state.next).getTime()) / DAY);
    if (days <= 0) return;
    await shiftScheduledKickoffs(tx, competitionId, days);
  });
}
