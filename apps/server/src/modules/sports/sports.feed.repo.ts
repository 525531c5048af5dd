import type { TSportsMarketType } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';

/** The SQL of the odds feed and the demo's sportsbook: competitions, their prices and dates. */

export type TCompetitionInsert = { code: string; country: string; name: string; season: string };

/** The site's competition of this code (created at `position` when it is not there yet): its id. */
export async function upsertCompetition(
  executor: Executor,
  siteId: bigint,
  competition: TCompetitionInsert,
  position: number,
): Promise<bigint> {
  await executor.execute(
    sql`INSERT INTO sports_competitions (site_id, code, country, name, season, position)
          VALUES (${siteId.toString()}::bigint, ${competition.code}, ${competition.country}, ${competition.name},
                  ${competition.season}, ${position})
          ON CONFLICT (site_id, code) DO NOTHING`,
  );
  const [row] = await rowsOf<{ id: string }>(
    executor,
    sql`SELECT id::text AS id FROM sports_competitions
          WHERE site_id = ${siteId.toString()}::bigint AND code = ${competition.code}`,
  );
  return BigInt(row!.id);
}

export async function findAllSites(
  executor: Executor,
): Promise<{ id: string; jurisdiction: TJurisdiction }[]> {
  return rowsOf<{ id: string; jurisdiction: TJurisdiction }>(
    executor,
    sql`SELECT id::text AS id, jurisdiction FROM sites ORDER BY id`,
  );
}

export async function findCompetitionId(
  executor: Executor,
  siteId: string,
  code: string,
): Promise<string | undefined> {
  const exists = await rowsOf<{ id: string }>(
    executor,
    sql`SELECT id::text AS id FROM sports_competitions WHERE site_id = ${siteId}::bigint AND code = ${code}`,
  );
  return exists[0]?.id;
}

export type TFeedPriceRow = {
  event_id: string;
  external_ref: string;
  status: string;
  market_id: string;
  type: TSportsMarketType;
  market_status: string;
  odds_source: string;
  selection_id: string;
  code: string;
  odds: string;
};

/** Every selection's price of the site's competition, with its market and event. */
export async function findCompetitionPrices(
  executor: Executor,
  siteId: bigint,
  code: string,
): Promise<TFeedPriceRow[]> {
  return rowsOf<TFeedPriceRow>(
    executor,
    sql`SELECT e.id::text AS event_id, e.external_ref, e.status, m.id::text AS market_id, m.type,
                 m.status AS market_status, m.odds_source, s.id::text AS selection_id, s.code, s.odds::text AS odds
          FROM sports_events e
          JOIN sports_competitions c ON c.id = e.competition_id
          JOIN sports_markets m ON m.event_id = e.id
          JOIN sports_selections s ON s.market_id = m.id
          WHERE c.site_id = ${siteId.toString()}::bigint AND c.code = ${code}`,
  );
}

/** Several processes may start at once: the competition row serialises them. */
export async function lockCompetition(tx: Executor, competitionId: bigint): Promise<void> {
  await tx.execute(
    sql`SELECT id FROM sports_competitions WHERE id = ${competitionId.toString()}::bigint FOR NO KEY UPDATE`,
  );
}

/** The next scheduled kick-off, how many scheduled events lie after `now`, and the open bets' legs. */
export async function findCompetitionSchedule(
  tx: Executor,
  competitionId: bigint,
  now: Date,
): Promise<{ next: Date | string | null; ahead: string; bets: string } | undefined> {
  const [state] = await rowsOf<{ next: Date | string | null; ahead: string; bets: string }>(
    tx,
    sql`SELECT min(e.kickoff_at) FILTER (WHERE e.status = 'scheduled') AS next,
                 count(*) FILTER (WHERE e.status = 'scheduled' AND e.kickoff_at > ${now.toISOString()}::timestamptz)::text AS ahead,
                 (SELECT count(*) FROM sports_bet_legs l JOIN sports_events x ON x.id = l.event_id
                   WHERE x.competition_id = ${competitionId.toString()}::bigint AND x.status IN ('scheduled', 'live'))::text AS bets
          FROM sports_events e WHERE e.competition_id = ${competitionId.toString()}::bigint`,
  );
  return state;
}

export async function shiftScheduledKickoffs(
  tx: Executor,
  competitionId: bigint,
  days: number,
): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_events SET kickoff_at = kickoff_at + make_interval(days => ${days}), updated_at = now()
          WHERE competition_id = ${competitionId.toString()}::bigint AND status = 'scheduled'`,
  );
}
