import { formatMinor, type TRound } from '@sorte/contract';
import type { Executor } from '../../db/client.ts';
import { betViews, findBet } from './sports.repo.ts';
import { SPORTS_GAME_CODE } from './sports.service.ts';

/**
 * Sports bets in the player's game record (records/game-record.repo.ts): a bet's record id is
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
