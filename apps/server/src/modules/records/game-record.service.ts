import { formatMinor, type TGameRecordResponse, type TRound } from '@sorte/contract';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { findRound, type TPlayer } from '../originals/originals.repo.ts';
import { toRoundView } from '../originals/rounds.service.ts';
import {
  findProviderRecord,
  isProviderRecordId,
  type TProviderRecord,
} from '../providers/provider-rounds.repo.ts';
import { findSportsRound, isSportsRecordId } from '../sports/sports.records.ts';
import {
  findCrashRecord,
  findRecordPage,
  hundredthsText,
  isCrashRecordId,
  recordEntryExists,
  sumRecord,
  type TCrashRecord,
} from './game-record.repo.ts';

/**
 * The player's game record across every kind of game (originals' rounds, crash bets, provider
 * rounds, sportsbook bets): the list and one round's details. It sits above the games it reads,
 * so none of them depends on another's records (ADR 034).
 */

/**
 * A settled crash bet as a round. Crash is fair by a hash chain, not by a seed pair; its evidence
 * maps onto the same fields: the crash point is HMAC-SHA256(key = round hash, message = public
 * salt), so `server_seed` is the round hash (null until the round crashed), `server_seed_hash` its
 * SHA-256 (the commitment shown before the round), `client_seed` the chain's public salt and
 * `nonce` the round's position in the chain. `outcome` carries the same evidence by name, with the
 * chain's terminating hash that every round hash leads to.
 */
export function toCrashRoundView(bet: TCrashRecord, demo: boolean): TRound {
  return {
    id: bet.recordId.toString(),
    game: 'crash',
    game_name: bet.gameName,
    status: 'settled',
    demo,
    stake: formatMinor(bet.stakeMinor),
    payout: formatMinor(bet.payoutMinor),
    win_loss: formatMinor(bet.payoutMinor - bet.stakeMinor),
    multiplier: bet.cashoutHundredths === null ? '0.0000' : hundredthsText(bet.cashoutHundredths),
    params: {
      auto_cashout: bet.autoCashoutHundredths === null ? null : hundredthsText(bet.autoCashoutHundredths, 2),
    },
    outcome: {
      result: bet.status,
      cashout: bet.cashoutHundredths === null ? null : hundredthsText(bet.cashoutHundredths, 2),
      crash_point: bet.crashed ? hundredthsText(bet.crashed.crashHundredths, 2) : null,
      round_id: bet.roundId.toString(),
      round_hash: bet.crashed?.roundHash ?? null,
      hash_commitment: bet.hashCommitment,
      chain_position: bet.position,
      chain_length: bet.chainLength,
      terminating_hash: bet.terminatingHash,
      public_salt: bet.publicSalt,
      // How the salt was fixed: from these client seeds (verifyCrashSalt), or by the server before ADR 008.
      salt_source: bet.saltSource,
      salt_inputs: bet.saltSeeds,
      crashed_at: bet.crashed?.crashedAt.toISOString() ?? null,
    },
    fairness: {
      server_seed_hash: bet.hashCommitment,
      server_seed: bet.crashed?.roundHash ?? null,
      client_seed: bet.publicSalt,
      nonce: bet.position,
    },
    created_at: bet.createdAt.toISOString(),
    settled_at: bet.settledAt?.toISOString() ?? null,
  };
}

/** "1.9500" from a payout over what stayed staked, floored to 4 decimals like the record's. */
function ratioText(payoutMinor: bigint, stakedMinor: bigint): string {
  if (stakedMinor <= 0n) return '0.0000';
  const tenThousandths = (payoutMinor * 10_000n) / stakedMinor;
  return `${tenThousandths / 10_000n}.${(tenThousandths % 10_000n).toString().padStart(4, '0')}`;
}

/**
 * A third-party round: its result comes from the provider's RNG, so there is no seed pair
 * (`fairness` is null); the details are the provider's round id and the wallet calls it made.
 */
export function toProviderRoundView(round: TProviderRecord): TRound {
  const staked = round.stakeMinor - round.refundedMinor;
  return {
    id: round.recordId.toString(),
    game: round.gameCode,
    game_name: round.gameName,
    status: round.status === 'open' ? 'active' : 'settled',
    demo: false,
    stake: formatMinor(staked),
    payout: formatMinor(round.payoutMinor),
    win_loss: formatMinor(round.payoutMinor - staked),
    multiplier: ratioText(round.payoutMinor, staked),
    params: { provider: round.providerName, provider_round: round.roundRef },
    outcome: {
      transactions: round.transactions.map((t) => ({
        kind: t.kind,
        id: t.ref,
        amount: formatMinor(t.amountMinor),
        at: t.at.toISOString(),
      })),
      refunded: formatMinor(round.refundedMinor),
    },
    fairness: null,
    created_at: round.createdAt.toISOString(),
    settled_at: round.settledAt?.toISOString() ?? null,
  };
}

export async function getRoundDetails(executor: Executor, player: TPlayer, roundId: bigint): Promise<TRound> {
  if (isProviderRecordId(roundId)) {
    // Only members play third-party games for real; fun money stays at the aggregator.
    const round = player.kind === 'member' ? await findProviderRecord(executor, player, roundId) : null;
    if (!round) throw new AppError('NOT_FOUND');
    return toProviderRoundView(round);
  }
  if (isSportsRecordId(roundId)) {
    const round = player.kind === 'member' ? await findSportsRound(executor, player, roundId) : null;
    if (!round) throw new AppError('NOT_FOUND');
    return round;
  }
  if (isCrashRecordId(roundId)) {
    const bet = await findCrashRecord(executor, player, roundId);
    if (!bet) throw new AppError('NOT_FOUND');
    return toCrashRoundView(bet, player.kind === 'demo');
  }
  const round = await findRound(executor, player, roundId);
  if (!round) throw new AppError('NOT_FOUND');
  return toRoundView(round);
}

/** The record lists the in-house rounds and the member's settled crash bets, newest first. */
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
  const rows = await findRecordPage(executor, player, {
    ...filter,
    beforeId: input.beforeId,
    afterId: input.afterId,
    limit: input.pageSize,
  });
  const first = rows[0];
  const last = rows[rows.length - 1];
  const [hasOlder, hasNewer, totals] = await Promise.all([
    last ? recordEntryExists(executor, player, filter, { olderThan: last.recordId }) : Promise.resolve(false),
    first
      ? recordEntryExists(executor, player, filter, { newerThan: first.recordId })
      : Promise.resolve(false),
    sumRecord(executor, player, filter),
  ]);
  return {
    list: rows.map((round) => ({
      id: round.recordId.toString(),
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
    next_before_id: hasOlder && last ? last.recordId.toString() : null,
    prev_after_id: hasNewer && first ? first.recordId.toString() : null,
    totals: {
      bet_amount: formatMinor(totals.stakeMinor),
      win_loss: formatMinor(totals.winLossMinor),
      count: totals.count,
    },
  };
}
