import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { preparedRowsOf } from '../../db/sql.ts';
import { GROUP_VIP_TOTALS } from '../promotions/vip.ts';
import { notifyEach } from '../realtime/member-channel.ts';
import { groupGateColumns } from '../responsible-gaming/rg.repo.ts';
import type { TSidePart } from '../wallet/posting/statement.ts';
import { LEG_SHOWN } from './sports.repo.ts';

/**
 * The sportsbook bet group's own rows (sports.bet-group.ts, ADR 027), as a statement of its own
 * (the markets' lock) and side parts of the wallet's read and write statements. SQL of the
 * sportsbook tables only; the ledger's part is the wallet's.
 */

/** `{1,2,3}`: the selections' ids as one bigint[] parameter. */
function idArray(ids: readonly string[]): string {
  return `{${[...new Set(ids)].join(',')}}`;
}

/**
 * Share-locks the markets of the selections (ascending id; odds and market status change only
 * under the market row's lock). Sent with the read, which waits for it on the same connection.
 */
export function lockSelectionMarkets(tx: Tx, selectionIds: readonly string[]): Promise<unknown[]> {
  return preparedRowsOf(
    tx,
    'sorte_sports_bet_group_lock',
    sql`WITH locked AS (
          SELECT m.id FROM sports_markets m
          WHERE m.id IN (SELECT market_id FROM sports_selections WHERE id = ANY(${idArray(selectionIds)}::bigint[]))
          ORDER BY m.id FOR SHARE)
        -- A CTE no statement reads is not run: the count makes the lock happen.
        SELECT count(*) AS markets FROM locked`,
  );
}

/** A bet as the group's read asks about it. */
export type TSportsBetWanted = { ord: number; member_id: string; site_id: string; key: string; tz: string };

/**
 * The read's side part: per bet whether its key placed a bet already, the site's in-play delay,
 * a bet id drawn for it, the database's clock, the responsible-gaming gate and VIP totals; and
 * every selection with its market, event and the leg as shown. Rows: 'bet', 'selection'.
 */
export function sportsBetReadSide(
  wanted: readonly TSportsBetWanted[],
  selectionIds: readonly string[],
): TSidePart {
  return {
    ctes: sql`w AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb)
            AS w(ord int, member_id bigint, site_id bigint, key text, tz text)),
        selections AS (
          SELECT s.id::text AS selection_id, m.id::text AS market_id, e.id::text AS event_id, ${LEG_SHOWN},
                 s.odds::text AS odds, m.site_id::text AS site_id
          FROM sports_selections s
          JOIN sports_markets m ON m.id = s.market_id
          JOIN sports_events e ON e.id = m.event_id
          JOIN sports_competitions c ON c.id = e.competition_id
          WHERE s.id = ANY(${idArray(selectionIds)}::bigint[])),
        bets AS (
          SELECT w.ord,
            (SELECT true FROM sports_bets b WHERE b.member_id = w.member_id AND b.idempotency_key = w.key)
              IS NOT NULL AS taken,
            (SELECT s.in_play_delay_ms FROM sports_settings s WHERE s.site_id = w.site_id) AS delay_ms,
            nextval(pg_get_serial_sequence('sports_bets', 'id'))::text AS bet_id,
            floor(extract(epoch FROM now()) * 1000)::bigint::text AS now_ms,
            ${groupGateColumns(sql`w.member_id`, sql`w.tz`)},
            ${GROUP_VIP_TOTALS} AS vip
          FROM w LEFT JOIN member_vip v ON v.member_id = w.member_id)`,
    rows: sql`SELECT 'bet' AS what, to_jsonb(bets) AS row FROM bets
        UNION ALL SELECT 'selection', to_jsonb(selections) FROM selections`,
  };
}

/** A sportsbook bet the group's write inserts. */
export type TSportsBetInsert = {
  id: string;
  site_id: string;
  member_id: string;
  type: string;
  stake: string;
  potential: string;
  key: string;
  hash: string;
};

/** A leg of a bet the group's write inserts. */
export type TSportsLegInsert = {
  bet_id: string;
  position: number;
  selection_id: string;
  market_id: string;
  event_id: string;
  odds: string;
};

/**
 * The write's side part: every bet and its legs inserted, each bet's push to its member's
 * sockets (`pg_notify`, sent at COMMIT) and the counters' part (`counts`). Rows: 'bet' per bet
 * (with its placed time), 'legs' and 'pushed' with their counts.
 */
export function sportsBetsSide(
  bets: readonly TSportsBetInsert[],
  legs: readonly TSportsLegInsert[],
  pushes: readonly { channel: string; text: string }[],
  counts: { ctes: SQL; rows: SQL },
): TSidePart {
  return {
    ctes: sql`bets AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(bets)}::jsonb) AS b(id bigint, site_id bigint,
            member_id bigint, type text, stake bigint, potential bigint, key text, hash text)),
        inserted AS (
          INSERT INTO sports_bets (id, site_id, member_id, type, stake_minor, potential_return_minor,
            idempotency_key, request_hash)
          OVERRIDING SYSTEM VALUE
          SELECT b.id, b.site_id, b.member_id, b.type, b.stake, b.potential, b.key, b.hash FROM bets b
          RETURNING id, floor(extract(epoch FROM placed_at) * 1000)::bigint::text AS placed_ms),
        legs AS (
          INSERT INTO sports_bet_legs (bet_id, position, selection_id, market_id, event_id, odds)
          SELECT l.bet_id, l.position, l.selection_id, l.market_id, l.event_id, l.odds
          FROM jsonb_to_recordset(${JSON.stringify(legs)}::jsonb) AS l(bet_id bigint, position int,
            selection_id bigint, market_id bigint, event_id bigint, odds numeric)
          JOIN inserted ON inserted.id = l.bet_id
          RETURNING bet_id),
        pushed AS (${notifyEach(pushes)}),
        ${counts.ctes}`,
    rows: sql`SELECT 'bet' AS what, jsonb_build_object('id', id::text, 'placed_ms', placed_ms) AS row FROM inserted
        UNION ALL SELECT 'legs', jsonb_build_object('n', (SELECT count(*) FROM legs))
        UNION ALL SELECT 'pushed', jsonb_build_object('n', (SELECT count(*) FROM pushed))
        ${counts.rows}`,
  };
}
