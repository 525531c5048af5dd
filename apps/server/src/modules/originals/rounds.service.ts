import { formatMinor, type TGameRecordResponse, type TRound } from '@sorte/contract';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import {
  findRound,
  findRoundPage,
  roundExists,
  sumRounds,
  type TPlayer,
  type TRoundWithGame,
} from './originals.repo.ts';

/**
 * Round recall: the game record list (brand, name, bet time, bet amount, win/loss) and the full
 * details of one round with what the verifier needs. The server seed appears only once its pair
 * was rotated; before that the commitment (hash) is shown.
 */

export function toRoundView(round: TRoundWithGame): TRound {
  return {
    id: round.id.toString(),
    game: round.gameCode,
    game_name: round.gameName,
    status: round.status,
    demo: round.demoSessionId !== null,
    stake: formatMinor(round.stakeMinor),
    payout: formatMinor(round.payoutMinor),
    win_loss: formatMinor(round.payoutMinor - round.stakeMinor),
    multiplier: round.multiplier,
    params: round.params,
    outcome: round.outcome ?? {},
    fairness: {
      server_seed_hash: round.serverSeedHash,
      server_seed: round.pairRevealed ? round.serverSeed : null,
      client_seed: round.clientSeed,
      nonce: Number(round.nonce),
    },
    created_at: round.createdAt.toISOString(),
    settled_at: round.settledAt?.toISOString() ?? null,
  };
}

export async function getRoundDetails(executor: Executor, player: TPlayer, roundId: bigint): Promise<TRound> {
  const round = await findRound(executor, player, roundId);
  if (!round) throw new AppError('NOT_FOUND');
  return toRoundView(round);
}

const DAY_MS = 86_400_000;

/**
 * Start of the range in the site's day: "today" is since local midnight, "3days" / "7days" include
 * today and the 2 / 6 days before. Brazilian sites count days in Brasília time (UTC−3, no DST).
 */
export function rangeStart(
  range: 'today' | '3days' | '7days' | 'all',
  jurisdiction: string,
  now: Date,
): Date | null {
  if (range === 'all') return null;
  const offsetMs = jurisdiction === 'br' ? -3 * 3_600_000 : 0;
  const localMidnight = Math.floor((now.getTime() + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
  const daysBack = range === 'today' ? 0 : range === '3days' ? 2 : 6;
  return new Date(localMidnight - daysBack * DAY_MS);
}

export async function listGameRecord(
  executor: Executor,
  player: TPlayer,
  input: {
    since: Date | null;
    game: string | undefined;
    beforeId: bigint | undefined;
    afterId: bigint | undefined;
    pageSize: number;
  },
): Promise<TGameRecordResponse> {
  if (input.beforeId !== undefined && input.afterId !== undefined) throw new AppError('VALIDATION_FAILED');
  const filter = { since: input.since, gameCode: input.game };
  const rows = await findRoundPage(executor, player, {
    ...filter,
    beforeId: input.beforeId,
    afterId: input.afterId,
    limit: input.pageSize,
  });
  const first = rows[0];
  const last = rows[rows.length - 1];
  const [hasOlder, hasNewer, totals] = await Promise.all([
    last ? roundExists(executor, player, filter, { olderThan: last.id }) : Promise.resolve(false),
    first ? roundExists(executor, player, filter, { newerThan: first.id }) : Promise.resolve(false),
    sumRounds(executor, player, filter),
  ]);
  return {
    list: rows.map((round) => ({
      id: round.id.toString(),
      brand: round.providerName,
      name: round.gameName,
      game: round.gameCode,
      bet_time: round.createdAt.toISOString(),
      bet_amount: formatMinor(round.stakeMinor),
      payout: formatMinor(round.payoutMinor),
      win_loss: formatMinor(round.payoutMinor - round.stakeMinor),
      multiplier: round.multiplier,
      status: round.status,
    })),
    next_before_id: hasOlder && last ? last.id.toString() : null,
    prev_after_id: hasNewer && first ? first.id.toString() : null,
    totals: {
      bet_amount: formatMinor(totals.stakeMinor),
      win_loss: formatMinor(totals.winLossMinor),
      count: totals.count,
    },
  };
}
