import { formatMinor, type TRound } from '@sorte/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { betViews, findBet } from './sports.repo.ts';
import { SPORTS_GAME_CODE } from './sports.service.ts';

/**
 * Sports bets in the player's game record (originals/game-record.repo.ts): a bet's record id is
 * SPORTS_RECORD_ID_BASE + its id, below the provider range. Game and brand "sportsbook" (the web
 * translates it); the name is the match of a single ("Home x Away") or an accumulator's number of legs
 * ("3"); an open bet is 'active', any other 'settled'.
 */
export const SPORTS_RECORD_ID_BASE = 700_000_000_000_000_000n;
const SPORTS_RECORD_ID_END = 800_000_000_000_000_000n;
/** The record's brand: a stable code the web translates ("Sports betting"). */
export const SPORTS_PROVIDER_NAME = 'sportsbook';

export const isSportsRecordId = (recordId: bigint) =>
  recordId > SPORTS_RECORD_ID_BASE && recordId <= SPORTS_RECORD_ID_END;

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

/** One sports bet as a game-record round: the legs as placed, the outcome per leg; no seed pair. */
export async function findSportsRound(
  executor: Executor,
  member: { siteId: bigint; memberId: bigint },
  recordId: bigint,
): Promise<TRound | null> {
  const bet = await findBet(executor, {
    siteId: member.siteId,
    memberId: member.memberId,
    betId: recordId - SPORTS_RECORD_ID_BASE,
  });
  if (!bet) return null;
  const [view] = await betViews(executor, [bet], 0n);
  const stake = BigInt(bet.stake_minor);
  const payout = BigInt(bet.payout_minor);
  const ratio = (payout * 10_000n) / stake;
  return {
    id: recordId.toString(),
    game: SPORTS_GAME_CODE,
    game_name:
      view!.type === 'single'
        ? `${view!.legs[0]!.home_team} x ${view!.legs[0]!.away_team}`
        : `${view!.legs.length}`,
    status: bet.status === 'open' ? 'active' : 'settled',
    demo: false,
    stake: formatMinor(stake),
    payout: formatMinor(payout),
    win_loss: formatMinor(payout - stake),
    multiplier: `${ratio / 10_000n}.${(ratio % 10_000n).toString().padStart(4, '0')}`,
    params: {
      bet_id: view!.id,
      type: view!.type,
      legs: view!.legs.map((leg) => ({
        event: `${leg.home_team} x ${leg.away_team}`,
        market: leg.market_type,
        selection: leg.selection_code,
        odds: leg.odds,
      })),
    },
    outcome: {
      status: view!.status,
      total_odds: view!.total_odds,
      legs: view!.legs.map((leg) => ({ status: leg.status, score: leg.score })),
    },
    fairness: null,
    created_at: view!.placed_at,
    settled_at: view!.settled_at,
  };
}
