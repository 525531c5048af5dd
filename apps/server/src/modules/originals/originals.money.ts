import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { takeBetStake } from '../promotions/stake.ts';
import { memberPlayable } from '../wallet/balances.ts';
import { payWin } from '../wallet/bonus/win.ts';
import {
  decideTransfer,
  type GroupLedger,
  type PlannedTransfer,
  type TAloneReason,
} from '../wallet/posting/plan.ts';
import type { PreparedTransfer } from '../wallet/posting/request.ts';
import { isWalletError, walletAppError } from '../wallet/wallet.errors.ts';
import { creditDemo, debitDemo, findDemoBalance, type TPlayer } from './originals.repo.ts';

/**
 * Stakes and payouts of a round. A member's money moves only through the wallet (cash ↔ house,
 * kinds bet/win) under keys derived from the round id, in the caller's transaction, so the round
 * record and its transfers commit or roll back together. A demo session's fun money is a counter on
 * its own row and never touches the ledger.
 */

export type TMoveResult = { transferId: bigint | null; balanceMinor: bigint };

/** A wallet refusal as the player's error (an empty or missing wallet: insufficient funds). */
export function walletRefusal(error: unknown): never {
  // A member without wallet accounts has nothing to stake: the same answer as an empty wallet.
  if (isWalletError(error, 'INSUFFICIENT_FUNDS') || isWalletError(error, 'ACCOUNT_NOT_FOUND')) {
    throw new AppError('INSUFFICIENT_FUNDS');
  }
  if (isWalletError(error, 'IDEMPOTENCY_CONFLICT')) throw new AppError('IDEMPOTENCY_CONFLICT');
  if (isWalletError(error, 'BONUS_MAX_BET')) throw walletAppError(error);
  throw error;
}

/**
 * A group's stake planned in its ledger, the refusal the bet would get placed one by one
 * (insufficient funds), or the planner's decision that only the one-by-one path can post it
 * (`alone`: the group goes that way).
 */
export function plannedStake(
  ledger: GroupLedger,
  stake: PreparedTransfer,
): { plan: PlannedTransfer } | { refusal: unknown } | { alone: TAloneReason } {
  const decision = decideTransfer(ledger, stake);
  if (decision.kind === 'plan') return { plan: decision.plan };
  if (decision.kind === 'alone') return { alone: decision.reason };
  try {
    walletRefusal(decision.error);
  } catch (refusal) {
    return { refusal };
  }
}

export async function takeStake(
  tx: Executor,
  player: TPlayer,
  round: { id: bigint; gameCode: string; stakeMinor: bigint },
): Promise<TMoveResult> {
  if (player.kind === 'demo') {
    const balanceMinor = await debitDemo(tx, player.demoSessionId, round.stakeMinor);
    if (balanceMinor === null) throw new AppError('INSUFFICIENT_FUNDS');
    return { transferId: null, balanceMinor };
  }
  try {
    const result = await takeBetStake(tx, {
      siteId: player.siteId,
      memberId: player.memberId,
      amountMinor: round.stakeMinor,
      idempotencyKey: `round:${round.id}:bet`,
      reference: `round:${round.id}`,
      metadata: { game: round.gameCode, roundId: round.id.toString() },
      gameCode: round.gameCode,
    });
    return { transferId: result.transferId, balanceMinor: result.debitBalanceAfterMinor ?? 0n };
  } catch (error) {
    walletRefusal(error);
  }
}

export async function payWinnings(
  tx: Executor,
  player: TPlayer,
  round: { id: bigint; gameCode: string; payoutMinor: bigint },
): Promise<TMoveResult | null> {
  if (round.payoutMinor <= 0n) return null;
  if (player.kind === 'demo') {
    return { transferId: null, balanceMinor: await creditDemo(tx, player.demoSessionId, round.payoutMinor) };
  }
  try {
    // Split as the stake was (real money to cash, bonus back to its grant): wallet.bonus.ts payWin.
    const result = await payWin(tx, {
      siteId: player.siteId,
      memberId: player.memberId,
      amountMinor: round.payoutMinor,
      idempotencyKey: `round:${round.id}:win`,
      stakeKey: `round:${round.id}:bet`,
      reference: `round:${round.id}`,
      metadata: { game: round.gameCode, roundId: round.id.toString() },
    });
    return { transferId: result.first.transferId, balanceMinor: result.playableAfterMinor };
  } catch (error) {
    walletRefusal(error);
  }
}

/** What the player can stake now: the member's cash and bonus, or the demo session's fun money. */
export async function playableBalance(executor: Executor, player: TPlayer): Promise<bigint> {
  if (player.kind === 'demo') return findDemoBalance(executor, player.demoSessionId);
  return memberPlayable(executor, player.siteId, player.memberId);
}
