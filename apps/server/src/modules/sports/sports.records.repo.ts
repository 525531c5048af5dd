import { type SQL, sql } from 'drizzle-orm';
import { SPORTS_PROVIDER_NAME, SPORTS_RECORD_ID_BASE } from './sports.records.ts';
import { SPORTS_GAME_CODE } from './sports.service.ts';

/** The SQL of sports bets in the player's game record: the union's rows and its cursor. */

const big = (value: bigint) => sql`${value.toString()}::bigint`;

/** The member's sports bets as record rows (the union's column list and order). */
export function sportsRecordEntries(
  memberId: bigint,
  siteId: bigint,
  filter: { since: Date | null; gameCode: string | undefined },
): SQL | null {
  if (filter.gameCode !== undefined && filter.gameCode !== SPORTS_GAME_CODE) return null;
  const where: SQL[] = [sql`sb.member_id = ${big(memberId)}`, sql`sb.site_id = ${big(siteId)}`];
  if (filter.since) where.push(sql`sb.placed_at >= ${filter.since.toISOString()}::timestamptz`);
  return sql`SELECT ${big(SPORTS_RECORD_ID_BASE)} + sb.id AS record_id, 'sports' AS kind, ${SPORTS_GAME_CODE}::text AS game_code,
      CASE WHEN sb.type = 'single'
        THEN (SELECT e.home_team || ' x ' || e.away_team FROM sports_bet_legs l JOIN sports_events e ON e.id = l.event_id
              WHERE l.bet_id = sb.id LIMIT 1)
        ELSE (SELECT count(*) FROM sports_bet_legs l WHERE l.bet_id = sb.id)::text END AS game_name,
      ${SPORTS_PROVIDER_NAME}::text AS provider_name, sb.placed_at AS created_at, sb.stake_minor, sb.payout_minor,
      to_char(round(sb.payout_minor::numeric / sb.stake_minor, 4), 'FM999999999990.0000') AS multiplier,
      NULL::integer AS cashout_hundredths,
      CASE WHEN sb.status = 'open' THEN 'active' ELSE 'settled' END AS status
    FROM sports_bets sb
    WHERE ${sql.join(where, sql` AND `)}`;
}

/** The placed_at of the member's sports bet behind a record id (NULL when not theirs). */
export function sportsCursorCreatedAt(memberId: bigint, recordId: bigint): SQL {
  return sql`(SELECT sx.placed_at FROM sports_bets sx WHERE sx.id = ${big(recordId - SPORTS_RECORD_ID_BASE)}
    AND sx.member_id = ${big(memberId)})`;
}
