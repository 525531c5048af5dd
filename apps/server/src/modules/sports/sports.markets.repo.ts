import type { TSportsMarketType } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import type { TOutcome } from './sports.pricing.ts';

/**
 * The writes of the sportsbook's operators and feed: a site's in-play controls, the locks and the
 * result, status and price changes of events and markets, and new events with their markets. The
 * service decides what to write; these only talk to the database.
 */

const big = (value: bigint | string) => sql`${value.toString()}::bigint`;
const idArray = (ids: readonly (bigint | string)[]) => sql`${`{${ids.map(String).join(',')}}`}::bigint[]`;

export async function findSportsSettings(
  executor: Executor,
  siteId: bigint,
): Promise<{ delay: number; suspension: number } | undefined> {
  const rows = await rowsOf<{ delay: number; suspension: number }>(
    executor,
    sql`SELECT in_play_delay_ms AS delay, score_suspension_seconds AS suspension
        FROM sports_settings WHERE site_id = ${big(siteId)}`,
  );
  return rows[0];
}

export async function upsertSportsSettings(
  tx: Tx,
  siteId: bigint,
  settings: { in_play_delay_ms: number; score_suspension_seconds: number },
): Promise<void> {
  await tx.execute(
    sql`INSERT INTO sports_settings (site_id, in_play_delay_ms, score_suspension_seconds)
          VALUES (${big(siteId)}, ${settings.in_play_delay_ms}, ${settings.score_suspension_seconds})
          ON CONFLICT (site_id) DO UPDATE SET in_play_delay_ms = EXCLUDED.in_play_delay_ms,
            score_suspension_seconds = EXCLUDED.score_suspension_seconds, updated_at = now()`,
  );
}

export async function lockEventMarkets(
  tx: Tx,
  eventId: bigint,
): Promise<{ id: string; type: TSportsMarketType }[]> {
  return rowsOf<{ id: string; type: TSportsMarketType }>(
    tx,
    sql`SELECT id::text AS id, type FROM sports_markets WHERE event_id = ${big(eventId)} ORDER BY id FOR NO KEY UPDATE`,
  );
}

/** Locks the site's event; false when the site has no such event. */
export async function lockEventRow(tx: Tx, siteId: bigint, eventId: bigint): Promise<boolean> {
  const locked = await rowsOf<{ id: string }>(
    tx,
    sql`SELECT id FROM sports_events WHERE id = ${big(eventId)} AND site_id = ${big(siteId)} FOR NO KEY UPDATE`,
  );
  return locked.length > 0;
}

export async function updateEventResult(
  tx: Tx,
  eventId: bigint,
  state: { status: 'finished' | 'cancelled'; score: { home: number; away: number } | null },
): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_events SET status = ${state.status},
            home_goals = ${state.score?.home ?? null}, away_goals = ${state.score?.away ?? null},
            result_version = result_version + 1, updated_at = now()
          WHERE id = ${big(eventId)}`,
  );
}

export async function updateSelectionResult(
  tx: Tx,
  marketId: string,
  code: string,
  outcome: TOutcome,
): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_selections SET result = ${outcome} WHERE market_id = ${big(marketId)} AND code = ${code}`,
  );
}

export async function markMarketSettled(tx: Tx, marketId: string): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_markets SET status = 'settled', updated_at = now() WHERE id = ${big(marketId)}`,
  );
}

export async function updateEventLive(
  tx: Tx,
  eventId: bigint,
  score: { home: number; away: number },
): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_events SET status = 'live', home_goals = ${score.home}, away_goals = ${score.away},
            updated_at = now() WHERE id = ${big(eventId)}`,
  );
}

export async function suspendOpenMarkets(tx: Tx, eventId: bigint, seconds: number): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_markets SET suspended_until = now() + make_interval(secs => ${seconds}), updated_at = now()
            WHERE event_id = ${big(eventId)} AND status = 'open'`,
  );
}

export type TLockedMarket = {
  id: string;
  event_id: string;
  type: TSportsMarketType;
  status: string;
  margin: string;
};

export async function lockMarketRow(
  tx: Tx,
  siteId: bigint,
  marketId: bigint,
): Promise<TLockedMarket | undefined> {
  const rows = await rowsOf<TLockedMarket>(
    tx,
    sql`SELECT id::text AS id, event_id::text AS event_id, type, status, margin::text AS margin
        FROM sports_markets WHERE id = ${big(marketId)} AND site_id = ${big(siteId)} FOR NO KEY UPDATE`,
  );
  return rows[0];
}

/** Reopening by hand ends a goal's suspension window too. */
export async function updateMarketStatus(
  tx: Tx,
  marketId: bigint,
  status: 'open' | 'suspended',
): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_markets SET status = ${status}, updated_at = now(),
            suspended_until = CASE WHEN ${status} = 'open' THEN NULL ELSE suspended_until END
          WHERE id = ${big(marketId)}`,
  );
}

export async function findMarketSelections(
  tx: Tx,
  marketId: bigint,
): Promise<{ id: string; code: string; probability: string }[]> {
  return rowsOf<{ id: string; code: string; probability: string }>(
    tx,
    sql`SELECT id::text AS id, code, probability::text AS probability FROM sports_selections
          WHERE market_id = ${big(marketId)} ORDER BY position`,
  );
}

export async function updateSelectionOdds(tx: Tx, selectionId: string, oddsText: string): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_selections SET odds = ${oddsText}::numeric WHERE id = ${big(selectionId)}`,
  );
}

export async function markMarketOddsSet(tx: Tx, marketId: bigint, source: string): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_markets SET odds_source = ${source}, updated_at = now(),
              suspended_until = NULL
            WHERE id = ${big(marketId)}`,
  );
}

export async function updateSelectionPrice(
  tx: Tx,
  selectionId: string,
  price: { probabilityText: string; oddsText: string },
): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_selections SET probability = ${price.probabilityText}::numeric,
                odds = ${price.oddsText}::numeric
              WHERE id = ${big(selectionId)}`,
  );
}

export async function markMarketRepriced(tx: Tx, marketId: bigint, marginText: string): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_markets SET margin = ${marginText}::numeric, odds_source = 'model',
              updated_at = now(), suspended_until = NULL WHERE id = ${big(marketId)}`,
  );
}

export type TEventInsert = {
  externalRef: string;
  round: number | null;
  home: string;
  away: string;
  kickoffAt: Date;
};

/** Events already there (same competition and external ref) are left as they are and not returned. */
export async function insertEventRows(
  executor: Executor,
  siteId: bigint,
  competitionId: bigint,
  events: readonly TEventInsert[],
): Promise<{ id: string; external_ref: string }[]> {
  return rowsOf<{ id: string; external_ref: string }>(
    executor,
    sql`INSERT INTO sports_events (site_id, competition_id, external_ref, round, home_team, away_team, kickoff_at)
        VALUES ${sql.join(
          events.map(
            (event) =>
              sql`(${big(siteId)}, ${big(competitionId)}, ${event.externalRef}, ${event.round}, ${event.home},
                   ${event.away}, ${event.kickoffAt.toISOString()}::timestamptz)`,
          ),
          sql`, `,
        )}
        ON CONFLICT (competition_id, external_ref) DO NOTHING
        RETURNING id::text AS id, external_ref`,
  );
}

export type TMarketInsert = {
  eventId: string;
  type: TSportsMarketType;
  marginText: string;
  oddsSource: string;
};

export async function insertMarketRows(
  executor: Executor,
  siteId: bigint,
  markets: readonly TMarketInsert[],
): Promise<{ id: string; event_id: string; type: TSportsMarketType }[]> {
  return rowsOf<{ id: string; event_id: string; type: TSportsMarketType }>(
    executor,
    sql`INSERT INTO sports_markets (site_id, event_id, type, margin, odds_source)
        VALUES ${sql.join(
          markets.map(
            (
              market,
            ) => sql`(${big(siteId)}, ${big(market.eventId)}, ${market.type}, ${market.marginText}::numeric,
                          ${market.oddsSource})`,
          ),
          sql`, `,
        )}
        RETURNING id::text AS id, event_id::text AS event_id, type`,
  );
}

export type TSelectionInsert = {
  marketId: string;
  code: string;
  position: number;
  probabilityText: string;
  oddsText: string;
};

export async function insertSelectionRows(
  executor: Executor,
  selections: readonly TSelectionInsert[],
): Promise<void> {
  const values = selections.map(
    (s) =>
      sql`(${big(s.marketId)}, ${s.code}, ${s.position}, ${s.probabilityText}::numeric, ${s.oddsText}::numeric)`,
  );
  await executor.execute(
    sql`INSERT INTO sports_selections (market_id, code, position, probability, odds)
        VALUES ${sql.join(values, sql`, `)}`,
  );
}

/** Finishes the events nobody bet on that are still scheduled; returns those it finished. */
export async function finishUnbetEvents(
  executor: Executor,
  results: readonly { eventId: bigint; score: { home: number; away: number } }[],
): Promise<{ id: string; home_goals: number; away_goals: number }[]> {
  return rowsOf<{ id: string; home_goals: number; away_goals: number }>(
    executor,
    sql`UPDATE sports_events e SET status = 'finished', home_goals = v.home, away_goals = v.away,
          result_version = 1, updated_at = now()
        FROM (VALUES ${sql.join(
          results.map(
            (r) => sql`(${r.eventId.toString()}::bigint, ${r.score.home}::integer, ${r.score.away}::integer)`,
          ),
          sql`, `,
        )}) AS v(id, home, away)
        WHERE e.id = v.id AND e.status = 'scheduled'
          AND NOT EXISTS (SELECT 1 FROM sports_bet_legs l WHERE l.event_id = e.id)
        RETURNING e.id::text AS id, e.home_goals, e.away_goals`,
  );
}

export async function findEventsMarkets(
  executor: Executor,
  eventIds: readonly string[],
): Promise<{ id: string; event_id: string; type: TSportsMarketType }[]> {
  return rowsOf<{ id: string; event_id: string; type: TSportsMarketType }>(
    executor,
    sql`SELECT id::text AS id, event_id::text AS event_id, type FROM sports_markets
        WHERE event_id = ANY(${idArray(eventIds)})`,
  );
}

export async function updateSelectionResults(
  executor: Executor,
  results: readonly { marketId: string; code: string; outcome: TOutcome }[],
): Promise<void> {
  const values = results.map((r) => sql`(${r.marketId}::bigint, ${r.code}, ${r.outcome})`);
  await executor.execute(
    sql`UPDATE sports_selections s SET result = v.result
        FROM (VALUES ${sql.join(values, sql`, `)}) AS v(market_id, code, result)
        WHERE s.market_id = v.market_id AND s.code = v.code`,
  );
}

export async function markEventsMarketsSettled(
  executor: Executor,
  eventIds: readonly string[],
): Promise<void> {
  await executor.execute(
    sql`UPDATE sports_markets SET status = 'settled' WHERE event_id = ANY(${idArray(eventIds)})`,
  );
}
