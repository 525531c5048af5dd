import {
  formatMinor,
  SPORTS_MARKET_TYPES,
  type TSportsBet,
  type TSportsBetFilter,
  type TSportsCompetition,
  type TSportsEvent,
  type TSportsEventStatus,
  type TSportsMarket,
  type TSportsMarketStatus,
  type TSportsMarketType,
} from '@sorte/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { isoText, preparedRowsOf, rowsOf } from '../../db/sql.ts';
import {
  cashOutValue,
  formatOdds,
  parseOdds,
  returnOf,
  type TOutcome,
  totalOddsOf,
} from './sports.pricing.ts';

/**
 * Reads of the sportsbook and the views the API answers. Every id, bigint and numeric is cast to
 * text in SQL so node-postgres and PGlite answer the same shapes.
 */

const big = (value: bigint | string) => sql`${value.toString()}::bigint`;
const idArray = (ids: readonly (bigint | string)[]) => sql`${`{${ids.map(String).join(',')}}`}::bigint[]`;

export type TEventRow = {
  id: string;
  site_id: string;
  competition_id: string;
  competition_name: string;
  round: number | null;
  home_team: string;
  away_team: string;
  kickoff_at: Date | string;
  status: TSportsEventStatus;
  home_goals: number | null;
  away_goals: number | null;
  result_version: number;
};

export type TMarketRow = {
  id: string;
  event_id: string;
  type: TSportsMarketType;
  status: TSportsMarketStatus;
  margin: string;
  odds_source: string;
  selection_id: string;
  code: string;
  odds: string;
  probability: string;
  result: TOutcome | null;
};

const EVENT_COLUMNS = sql`e.id::text AS id, e.site_id::text AS site_id, e.competition_id::text AS competition_id,
  c.name AS competition_name, e.round, e.home_team, e.away_team, e.kickoff_at, e.status, e.home_goals,
  e.away_goals, e.result_version`;

/**
 * Whether bets are taken on an event: before kick-off, or while an operator runs it live. A match past
 * its kick-off that nobody marked live is closed to bets (its markets show as suspended) until its
 * result comes.
 */
export function eventTakesBets(event: Pick<TEventRow, 'status' | 'kickoff_at'>, now = new Date()): boolean {
  if (event.status === 'live') return true;
  return event.status === 'scheduled' && new Date(event.kickoff_at).getTime() > now.getTime();
}

export function shownEventStatus(
  event: Pick<TEventRow, 'status' | 'kickoff_at'>,
  now = new Date(),
): TSportsEventStatus {
  if (event.status === 'scheduled' && new Date(event.kickoff_at).getTime() <= now.getTime()) return 'live';
  return event.status;
}

export function shownMarketStatus(
  market: { status: TSportsMarketStatus },
  event: Pick<TEventRow, 'status' | 'kickoff_at'>,
  now = new Date(),
): TSportsMarketStatus {
  if (market.status === 'open' && !eventTakesBets(event, now)) return 'suspended';
  return market.status;
}

export async function findEvents(
  executor: Executor,
  siteId: bigint,
  filter: {
    competitionId?: bigint;
    state: 'open' | 'live' | 'upcoming' | 'finished' | 'all';
    limit: number;
    eventIds?: bigint[];
  },
): Promise<TEventRow[]> {
  const conditions = [sql`e.site_id = ${big(siteId)}`];
  if (filter.competitionId !== undefined)
    conditions.push(sql`e.competition_id = ${big(filter.competitionId)}`);
  if (filter.eventIds) conditions.push(sql`e.id = ANY(${idArray(filter.eventIds)})`);
  switch (filter.state) {
    case 'open':
      conditions.push(sql`e.status IN ('scheduled', 'live')`);
      break;
    case 'live':
      conditions.push(sql`(e.status = 'live' OR (e.status = 'scheduled' AND e.kickoff_at <= now()))`);
      break;
    case 'upcoming':
      conditions.push(sql`e.status = 'scheduled' AND e.kickoff_at > now()`);
      break;
    case 'finished':
      conditions.push(sql`e.status IN ('finished', 'cancelled')`);
      break;
    case 'all':
      break;
  }
  const order = filter.state === 'finished' ? sql`e.kickoff_at DESC, e.id DESC` : sql`e.kickoff_at, e.id`;
  return rowsOf<TEventRow>(
    executor,
    sql`SELECT ${EVENT_COLUMNS}
        FROM sports_events e JOIN sports_competitions c ON c.id = e.competition_id
        WHERE ${sql.join(conditions, sql` AND `)}
        ORDER BY c.position, c.id, ${order}
        LIMIT ${filter.limit}`,
  );
}

export async function findEvent(
  executor: Executor,
  siteId: bigint,
  eventId: bigint,
): Promise<TEventRow | null> {
  const rows = await findEvents(executor, siteId, { state: 'all', limit: 1, eventIds: [eventId] });
  return rows[0] ?? null;
}

/**
 * A market's status as bets and cash-outs see it (alias `m`): an open market is suspended while a
 * goal's suspension window runs (migration 0043: until it ends or the market is repriced).
 */
export const marketStatus = sql`(CASE WHEN m.status = 'open' AND m.suspended_until > now() THEN 'suspended' ELSE m.status END)`;

export async function findMarketRows(
  executor: Executor,
  eventIds: readonly (bigint | string)[],
): Promise<TMarketRow[]> {
  if (eventIds.length === 0) return [];
  return rowsOf<TMarketRow>(
    executor,
    sql`SELECT m.id::text AS id, m.event_id::text AS event_id, m.type, ${marketStatus} AS status, m.margin::text AS margin,
               m.odds_source, s.id::text AS selection_id, s.code, s.odds::text AS odds,
               s.probability::text AS probability, s.result
        FROM sports_markets m JOIN sports_selections s ON s.market_id = m.id
        WHERE m.event_id = ANY(${idArray(eventIds)})
        ORDER BY m.event_id, m.id, s.position`,
  );
}

const oddsText = (numeric: string) => formatOdds(parseOdds(numeric) ?? 0n);
const marginText = (numeric: string) => {
  const [whole, fraction = ''] = numeric.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${trimmed}`;
};

export function marketViews(event: TEventRow, rows: TMarketRow[], now = new Date()): TSportsMarket[] {
  const byId = new Map<string, TSportsMarket>();
  for (const row of rows) {
    if (row.event_id !== event.id) continue;
    let market = byId.get(row.id);
    if (!market) {
      market = {
        id: row.id,
        type: row.type,
        status: shownMarketStatus(row, event, now),
        margin: marginText(row.margin),
        selections: [],
      };
      byId.set(row.id, market);
    }
    market.selections.push({
      id: row.selection_id,
      code: row.code,
      odds: oddsText(row.odds),
      result: row.result,
    });
  }
  return [...byId.values()].sort(
    (a, b) => SPORTS_MARKET_TYPES.indexOf(a.type) - SPORTS_MARKET_TYPES.indexOf(b.type),
  );
}

export function eventView(event: TEventRow, rows: TMarketRow[], now = new Date()): TSportsEvent {
  return {
    id: event.id,
    competition_id: event.competition_id,
    competition_name: event.competition_name,
    round: event.round,
    home_team: event.home_team,
    away_team: event.away_team,
    kickoff_at: new Date(event.kickoff_at).toISOString(),
    status: shownEventStatus(event, now),
    score:
      event.home_goals === null || event.away_goals === null
        ? null
        : { home: event.home_goals, away: event.away_goals },
    markets: marketViews(event, rows, now),
  };
}

export async function eventViews(executor: Executor, events: TEventRow[]): Promise<TSportsEvent[]> {
  const rows = await findMarketRows(
    executor,
    events.map((event) => event.id),
  );
  const now = new Date();
  return events.map((event) => eventView(event, rows, now));
}

export async function findCompetitions(executor: Executor, siteId: bigint): Promise<TSportsCompetition[]> {
  const rows = await rowsOf<{
    id: string;
    sport: string;
    country: string;
    name: string;
    season: string;
    open: string;
  }>(
    executor,
    sql`SELECT c.id::text AS id, c.sport, c.country, c.name, c.season,
               (SELECT count(*) FROM sports_events e WHERE e.competition_id = c.id
                  AND e.status IN ('scheduled', 'live'))::text AS open
        FROM sports_competitions c WHERE c.site_id = ${big(siteId)}
        ORDER BY c.position, c.id`,
  );
  return rows.map((row) => ({
    id: row.id,
    sport: row.sport,
    country: row.country,
    name: row.name,
    season: row.season,
    open_event_count: Number(row.open),
  }));
}

// ---------------------------------------------------------------------------------------------
// Bets

export type TBetRow = {
  id: string;
  site_id: string;
  member_id: string;
  type: 'single' | 'accumulator';
  status: TSportsBet['status'];
  stake_minor: string;
  potential_return_minor: string;
  payout_minor: string;
  unrecovered_minor: string;
  settle_seq: number;
  idempotency_key: string;
  request_hash: string;
  placed_at: Date | string;
  settled_at: Date | string | null;
};

export type TLegRow = {
  bet_id: string;
  position: number;
  selection_id: string;
  code: string;
  market_id: string;
  market_type: TSportsMarketType;
  market_status: TSportsMarketStatus;
  event_id: string;
  competition_name: string;
  home_team: string;
  away_team: string;
  kickoff_at: Date | string;
  event_status: TSportsEventStatus;
  home_goals: number | null;
  away_goals: number | null;
  odds: string;
  current_odds: string;
  status: 'open' | TOutcome;
  selection_result: TOutcome | null;
};

const BET_COLUMNS = sql`b.id::text AS id, b.site_id::text AS site_id, b.member_id::text AS member_id, b.type,
  b.status, b.stake_minor::text AS stake_minor, b.potential_return_minor::text AS potential_return_minor,
  b.payout_minor::text AS payout_minor, b.unrecovered_minor::text AS unrecovered_minor, b.settle_seq,
  b.idempotency_key, b.request_hash, b.placed_at, b.settled_at`;

export async function findBet(
  executor: Executor,
  where: { siteId: bigint; memberId?: bigint; betId: bigint },
  options: { forUpdate?: boolean } = {},
): Promise<TBetRow | null> {
  const rows = await rowsOf<TBetRow>(
    executor,
    sql`SELECT ${BET_COLUMNS} FROM sports_bets b
        WHERE b.id = ${big(where.betId)} AND b.site_id = ${big(where.siteId)}
        ${where.memberId === undefined ? sql`` : sql`AND b.member_id = ${big(where.memberId)}`}
        ${options.forUpdate ? sql`FOR NO KEY UPDATE` : sql``}`,
  );
  return rows[0] ?? null;
}

/**
 * A settlement's bets: every bet with a leg in these markets, locked FOR NO KEY UPDATE in ascending id
 * (the order of a bet settled on its own), with whether its stake had a bonus part (its win is
 * split by `payWin`) and whether it fed a grant (its refund takes that wagering back), and the
 * transaction's start (ms), every settled_at it writes.
 */
export async function lockMarketBets(
  executor: Executor,
  marketIds: readonly string[],
): Promise<{ bets: (TBetRow & { bonus_stake: boolean; fed_grant: boolean })[]; nowMs: string }> {
  const bets = await rowsOf<TBetRow & { bonus_stake: boolean; fed_grant: boolean }>(
    executor,
    sql`SELECT ${BET_COLUMNS}, coalesce(t.metadata ? 'bonusParts', false) AS bonus_stake,
          coalesce(t.metadata ? 'fedGrantId', false) AS fed_grant
        FROM sports_bets b
        LEFT JOIN wallet_transfers t
          ON t.site_id = b.site_id AND t.idempotency_key = 'sports-bet:' || b.id || ':stake'
        WHERE b.id IN (SELECT bet_id FROM sports_bet_legs WHERE market_id = ANY(${idArray(marketIds)}))
        ORDER BY b.id FOR NO KEY UPDATE OF b`,
  );
  const [now] = await rowsOf<{ now_ms: string }>(
    executor,
    sql`SELECT floor(extract(epoch FROM now()) * 1000)::bigint::text AS now_ms`,
  );
  return { bets, nowMs: now!.now_ms };
}

export async function findBetByKey(
  executor: Executor,
  memberId: bigint,
  key: string,
): Promise<TBetRow | null> {
  const rows = await rowsOf<TBetRow>(
    executor,
    sql`SELECT ${BET_COLUMNS} FROM sports_bets b
        WHERE b.member_id = ${big(memberId)} AND b.idempotency_key = ${key}`,
  );
  return rows[0] ?? null;
}

/**
 * What a leg's view shows of its selection, market, event and competition (`s`, `m`, `e`, `c`):
 * read for a bet's legs (`findLegs`) and, before the bet exists, for a placement's selections.
 */
export const LEG_SHOWN = sql`s.code, m.type AS market_type, ${marketStatus} AS market_status,
  c.name AS competition_name, e.home_team, e.away_team, e.kickoff_at, e.status AS event_status,
  e.home_goals, e.away_goals, s.result AS selection_result`;

/**
 * A placement's first statement: locks the markets of its selections FOR SHARE (ascending id: odds
 * and market status change only under the market row's lock) and finds the bet its key placed
 * already, if any. Prepared: one plan per connection.
 */
export async function lockPlacement(
  executor: Executor,
  where: { siteId: bigint; memberId: bigint; key: string; selectionIds: readonly string[] },
): Promise<{ taken: string | null }> {
  const [row] = await preparedRowsOf<{ taken: string | null }>(
    executor,
    'sorte_sports_lock_placement',
    sql`WITH locked AS (
          SELECT m.id FROM sports_markets m
          WHERE m.site_id = ${big(where.siteId)}
            AND m.id IN (SELECT market_id FROM sports_selections WHERE id = ANY(${idArray(where.selectionIds)}))
          ORDER BY m.id FOR SHARE)
        -- A CTE no statement reads is not run: the count makes the lock happen.
        SELECT (SELECT count(*) FROM locked) AS markets,
          (SELECT b.id::text FROM sports_bets b
           WHERE b.member_id = ${big(where.memberId)} AND b.idempotency_key = ${where.key}) AS taken`,
  );
  return { taken: row?.taken ?? null };
}

/** A selection as a placement reads it, under its market's lock: its price and what the bet's view shows. */
export type TPlacementSelection = Omit<TLegRow, 'bet_id' | 'position' | 'current_odds' | 'status'>;

/**
 * The selections of a placement with their markets and events, read after `lockPlacement` (a
 * statement of its own: it sees what committed while the lock waited), and what the statement
 * `gate` reads with them (the responsible-gaming gate's parts, `playGateParts`), in `also`.
 * Prepared: one plan per connection.
 */
export async function placementSelections(
  executor: Executor,
  siteId: bigint,
  selectionIds: readonly string[],
  gate: { ctes: SQL; columns: SQL },
): Promise<{ selections: TPlacementSelection[]; also: Record<string, unknown> }> {
  const [row] = await preparedRowsOf<{ selections: TPlacementSelection[] } & Record<string, unknown>>(
    executor,
    'sorte_sports_placement_selections',
    sql`WITH ${gate.ctes}
        SELECT ${gate.columns}, coalesce((SELECT jsonb_agg(to_jsonb(x)) FROM (
          SELECT s.id::text AS selection_id, m.id::text AS market_id, e.id::text AS event_id, ${LEG_SHOWN},
                 s.odds::text AS odds
          FROM sports_selections s
          JOIN sports_markets m ON m.id = s.market_id
          JOIN sports_events e ON e.id = m.event_id
          JOIN sports_competitions c ON c.id = e.competition_id
          WHERE s.id = ANY(${idArray(selectionIds)}) AND m.site_id = ${big(siteId)}) x), '[]'::jsonb) AS selections`,
  );
  const { selections, ...also } = row!;
  return { selections, also };
}

/**
 * ONE statement: the bet and its legs (at the odds read under the lock). Null when its key is
 * taken meanwhile (a concurrent request with the same key).
 */
export async function insertBetWithLegs(
  executor: Executor,
  bet: {
    siteId: bigint;
    memberId: bigint;
    type: TBetRow['type'];
    stakeMinor: bigint;
    potentialReturnMinor: bigint;
    key: string;
    hash: string;
  },
  legs: readonly TPlacementSelection[],
): Promise<TBetRow | null> {
  const rows = legRows(legs);
  const [row] = await preparedRowsOf<TBetRow>(
    executor,
    'sorte_sports_insert_bet',
    sql`WITH b AS (
          INSERT INTO sports_bets (site_id, member_id, type, stake_minor, potential_return_minor,
                                   idempotency_key, request_hash)
          VALUES (${big(bet.siteId)}, ${big(bet.memberId)}, ${bet.type}, ${big(bet.stakeMinor)},
                  ${big(bet.potentialReturnMinor)}, ${bet.key}, ${bet.hash})
          ON CONFLICT (member_id, idempotency_key) DO NOTHING
          RETURNING *),
        legs AS (
          INSERT INTO sports_bet_legs (bet_id, position, selection_id, market_id, event_id, odds)
          SELECT b.id, l.position, l.selection_id, l.market_id, l.event_id, l.odds
          FROM b, jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            AS l(position int, selection_id bigint, market_id bigint, event_id bigint, odds numeric))
        SELECT ${BET_COLUMNS} FROM b`,
  );
  return row ?? null;
}

/** A bet's legs as its insert takes them: position, selection, market, event and the odds taken. */
export function legRows(legs: readonly TPlacementSelection[]) {
  return legs.map((leg, position) => ({
    position,
    selection_id: leg.selection_id,
    market_id: leg.market_id,
    event_id: leg.event_id,
    odds: leg.odds,
  }));
}

/** The legs of a bet just placed, as `findLegs` reads them, from the selections it was placed on. */
export function placedLegs(betId: string, legs: readonly TPlacementSelection[]): TLegRow[] {
  return legs.map((leg, position) => ({
    ...leg,
    bet_id: betId,
    position,
    current_odds: leg.odds,
    status: 'open',
  }));
}

export async function findMemberBets(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  filter: { status: TSportsBetFilter; beforeId?: bigint; limit: number },
): Promise<TBetRow[]> {
  const status =
    filter.status === 'all'
      ? sql``
      : filter.status === 'settled'
        ? sql`AND b.status <> 'open'`
        : sql`AND b.status = ${filter.status}`;
  return rowsOf<TBetRow>(
    executor,
    sql`SELECT ${BET_COLUMNS} FROM sports_bets b
        WHERE b.site_id = ${big(siteId)} AND b.member_id = ${big(memberId)} ${status}
        ${filter.beforeId === undefined ? sql`` : sql`AND b.id < ${big(filter.beforeId)}`}
        ORDER BY b.id DESC LIMIT ${filter.limit}`,
  );
}

export async function findLegs(executor: Executor, betIds: readonly (bigint | string)[]): Promise<TLegRow[]> {
  if (betIds.length === 0) return [];
  return rowsOf<TLegRow>(
    executor,
    sql`SELECT l.bet_id::text AS bet_id, l.position, l.selection_id::text AS selection_id,
               l.market_id::text AS market_id, l.event_id::text AS event_id, ${LEG_SHOWN},
               l.odds::text AS odds, s.odds::text AS current_odds, l.status
        FROM sports_bet_legs l
        JOIN sports_selections s ON s.id = l.selection_id
        JOIN sports_markets m ON m.id = l.market_id
        JOIN sports_events e ON e.id = l.event_id
        JOIN sports_competitions c ON c.id = e.competition_id
        WHERE l.bet_id = ANY(${idArray(betIds)})
        ORDER BY l.bet_id, l.position`,
  );
}

/** The current cash-out offer of an open bet (null once settled or when a leg lost). */
export function cashOutOffer(
  bet: Pick<TBetRow, 'status' | 'stake_minor'>,
  legs: TLegRow[],
  cashOutMarginBp: bigint,
  now = new Date(),
): { valueMinor: bigint; available: boolean } | null {
  if (bet.status !== 'open') return null;
  const value = cashOutValue(
    BigInt(bet.stake_minor),
    legs.map((leg) => ({
      placedOdds: parseOdds(leg.odds) ?? 100n,
      currentOdds: parseOdds(leg.current_odds) ?? 100n,
      status: leg.status,
    })),
    cashOutMarginBp,
  );
  if (value === null) return null;
  const available =
    value > 0n &&
    legs.every(
      (leg) =>
        leg.status !== 'open' ||
        (leg.market_status === 'open' &&
          eventTakesBets({ status: leg.event_status, kickoff_at: leg.kickoff_at }, now)),
    );
  return { valueMinor: value, available };
}

export function betView(
  bet: TBetRow,
  allLegs: TLegRow[],
  cashOutMarginBp: bigint,
  now = new Date(),
): TSportsBet {
  const legs = allLegs.filter((leg) => leg.bet_id === bet.id);
  const effective = legs.map((leg) => (leg.status === 'void' ? 100n : (parseOdds(leg.odds) ?? 100n)));
  const offer = cashOutOffer(bet, legs, cashOutMarginBp, now);
  return {
    id: bet.id,
    type: bet.type,
    status: bet.status,
    stake: formatMinor(BigInt(bet.stake_minor)),
    total_odds: formatOdds(totalOddsOf(effective)),
    potential_return: formatMinor(
      bet.status === 'open'
        ? returnOf(BigInt(bet.stake_minor), effective)
        : BigInt(bet.potential_return_minor),
    ),
    payout: formatMinor(BigInt(bet.payout_minor)),
    legs: legs.map((leg) => ({
      selection_id: leg.selection_id,
      selection_code: leg.code,
      market_id: leg.market_id,
      market_type: leg.market_type,
      event_id: leg.event_id,
      competition_name: leg.competition_name,
      home_team: leg.home_team,
      away_team: leg.away_team,
      kickoff_at: isoText(leg.kickoff_at),
      odds: formatOdds(parseOdds(leg.odds) ?? 0n),
      status: leg.status,
      score:
        leg.home_goals === null || leg.away_goals === null
          ? null
          : { home: leg.home_goals, away: leg.away_goals },
    })),
    cash_out: offer ? { value: formatMinor(offer.valueMinor), available: offer.available } : null,
    placed_at: isoText(bet.placed_at),
    settled_at: bet.settled_at === null ? null : isoText(bet.settled_at),
  };
}

export async function betViews(
  executor: Executor,
  bets: TBetRow[],
  cashOutMarginBp: bigint,
): Promise<TSportsBet[]> {
  const legs = await findLegs(
    executor,
    bets.map((bet) => bet.id),
  );
  const now = new Date();
  return bets.map((bet) => betView(bet, legs, cashOutMarginBp, now));
}
