import {
  formatMinor,
  LIVE_FEED_LIMIT,
  maskPlayerName,
  type TCrashRoundBetsResponse,
  type TMyCrashBetsResponse,
  type TRecentWinsResponse,
} from '@sorte/contract';
import type { Executor } from '../../db/client.ts';
import { formatHundredths } from '../crash/crash.curve.ts';
import { findOwnCrashBets, findRecentWins, findRoundBets } from './live-feed.repo.ts';

/** A multiplier text with any number of places ("2.0000", "1.5") as two places ("2.00"), rounded down. */
export function twoPlaces(multiplier: string): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(multiplier.trim());
  if (!match) return multiplier;
  return `${match[1]}.${(match[2] ?? '').padEnd(2, '0').slice(0, 2)}`;
}

export async function getRoundBets(
  db: Executor,
  siteId: bigint,
  roundId: bigint,
  viewerMemberId: bigint | null,
): Promise<TCrashRoundBetsResponse> {
  const { rows, count, totalMinor } = await findRoundBets(db, siteId, roundId, LIVE_FEED_LIMIT);
  return {
    round_id: roundId.toString(),
    count,
    total: formatMinor(totalMinor),
    list: rows.map((row) => ({
      player: maskPlayerName(row.username),
      amount: formatMinor(row.stakeMinor),
      status: row.status,
      cashout_multiplier: row.cashoutHundredths === null ? null : formatHundredths(row.cashoutHundredths),
      payout: formatMinor(row.payoutMinor),
      mine: viewerMemberId !== null && row.memberId === viewerMemberId,
    })),
  };
}

export async function getMyCrashBets(
  db: Executor,
  owner: { memberId: bigint } | { demoSessionId: bigint },
): Promise<TMyCrashBetsResponse> {
  const rows = await findOwnCrashBets(db, owner, LIVE_FEED_LIMIT);
  return {
    list: rows.map((row) => ({
      round_id: row.roundId.toString(),
      amount: formatMinor(row.stakeMinor),
      status: row.status,
      cashout_multiplier: row.cashoutHundredths === null ? null : formatHundredths(row.cashoutHundredths),
      crash_point: row.crashHundredths === null ? null : formatHundredths(row.crashHundredths),
      payout: formatMinor(row.payoutMinor),
      created_at: new Date(row.createdAt).toISOString(),
    })),
  };
}

export async function getRecentWins(
  db: Executor,
  siteId: bigint,
  gameCode: string | null,
): Promise<TRecentWinsResponse> {
  const rows = await findRecentWins(db, siteId, gameCode, LIVE_FEED_LIMIT);
  return {
    list: rows.map((row) => ({
      id: row.id,
      game: row.gameCode,
      game_name: row.gameName,
      player: maskPlayerName(row.username),
      amount: formatMinor(row.stakeMinor),
      multiplier: twoPlaces(row.multiplier),
      payout: formatMinor(row.payoutMinor),
      at: new Date(row.at).toISOString(),
    })),
  };
}
