import {
  CURRENCY,
  formatMinor,
  parseMinor,
  type TProviderStatus,
  type TWalletBalanceRequest,
  type TWalletBetRequest,
  type TWalletResponse,
  type TWalletRollbackRequest,
  type TWalletWinRequest,
} from '@sorte/contract';
import { sha256Hex, sha256OfJson } from '../../core/hash.ts';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { takeBetStake } from '../promotions/stake.ts';
import { assertPlayAllowed } from '../responsible-gaming/rg.service.ts';
import { getTransferByKey, memberPlayable } from '../wallet/balances.ts';
import { payWin } from '../wallet/bonus/win.ts';
import { isWalletError } from '../wallet/wallet.errors.ts';
import { holdStakeAccounts } from '../wallet/wallet.service.ts';
import {
  claimTransaction,
  completeTransaction,
  countWins,
  findRoundForUpdate,
  findSessionByTokenHash,
  findTransaction,
  markRolledBack,
  openRoundForUpdate,
  type TSessionWithGame,
  updateRound,
} from './providers.repo.ts';
import type { TProviderTransactionRow } from './providers.schema.ts';

/**
 * The seamless wallet the aggregator calls (packages/contract/src/providers.ts). Each money call
 * runs in ONE database transaction: it claims its transaction id (the unique key decides between
 * concurrent retries), moves the money through the wallet service under a key derived from the
 * aggregator and the transaction id, updates the round, and stores the answer it gives, so a retry
 * with the same body gets that same answer and nothing moves twice. A refusal rolls the whole
 * transaction back: nothing of a refused call stays, and its retry is judged afresh.
 */

export type TWalletContext = {
  db: Db;
  aggregator: string;
  /** Told after a call moved the member's money and committed (the live balance push). */
  onMoved?: (member: { siteId: bigint; memberId: bigint }) => void;
};

/** A refusal raised inside the transaction (rolls it back) and answered as this status. */
class Refusal extends Error {
  constructor(readonly status: TProviderStatus) {
    super(status);
  }
}

/** Refusals of the play gate that a limit makes: the aggregator is told it is a limit. */
export const LIMIT_CODES = new Set(['RG_LOSS_LIMIT', 'RG_STAKE_LIMIT']);

/**
 * The play gate's refusal as the aggregator's status (nothing is debited): a loss or stake limit
 * reached, else (a pause, an exclusion, terms to accept) a player who may not bet now.
 */
function refuseForResponsibleGaming(error: unknown): never {
  if (!(error instanceof AppError)) throw error;
  throw new Refusal(LIMIT_CODES.has(error.code) ? 'RS_ERROR_LIMIT_REACHED' : 'RS_ERROR_USER_DISABLED');
}

/** Refusals answered with the balance as it is, so the game can show it. */
export const WITH_BALANCE = new Set<TProviderStatus>([
  'RS_ERROR_NOT_ENOUGH_MONEY',
  'RS_ERROR_BET_LIMIT_EXCEEDED',
  'RS_ERROR_LIMIT_REACHED',
]);

/*
 * The idempotent request a provider call's hash covers (sha256OfJson): what the call asks for,
 * without the per-attempt request_uuid and the token (a retry after a relaunch carries a new token
 * for the same player).
 */

export const betHash = (session: TSessionWithGame, body: TWalletBetRequest, amountMinor: bigint) =>
  sha256OfJson([
    'bet',
    session.memberId.toString(),
    body.game_code,
    body.round,
    amountMinor.toString(),
    body.currency,
    body.round_closed ?? false,
  ]);

export const winHash = (session: TSessionWithGame, body: TWalletWinRequest, amountMinor: bigint) =>
  sha256OfJson([
    'win',
    session.memberId.toString(),
    body.game_code,
    body.round,
    body.reference_transaction_uuid,
    amountMinor.toString(),
    body.currency,
    body.round_closed !== false,
  ]);

export const rollbackHash = (session: TSessionWithGame, body: TWalletRollbackRequest) =>
  sha256OfJson([
    'rollback',
    session.memberId.toString(),
    body.game_code,
    body.round,
    body.reference_transaction_uuid,
  ]);

/** The session member's cash (0.00 for a member without wallet accounts yet). */
const cashOf = (executor: Executor, session: TSessionWithGame) =>
  memberPlayable(executor, session.siteId, session.memberId);

export function ok(session: TSessionWithGame, balanceMinor: bigint, extra: Partial<TWalletResponse> = {}) {
  return {
    status: 'RS_OK' as const,
    balance: formatMinor(balanceMinor),
    currency: CURRENCY,
    user: session.memberId.toString(),
    ...extra,
  };
}

type TSessionCheck = { session: TSessionWithGame } | { refusal: TWalletResponse };

/** The token's session, if it was opened for this game (expiry is each call's own rule). */
export async function sessionFor(
  context: TWalletContext,
  body: { token: string; game_code: string },
): Promise<TSessionCheck> {
  const session = await findSessionByTokenHash(context.db, context.aggregator, sha256Hex(body.token));
  if (!session || session.gameCode !== body.game_code)
    return { refusal: { status: 'RS_ERROR_INVALID_TOKEN' } };
  return { session };
}

/** The earlier answer to this transaction id, or a conflict when the body differs. */
export function replay(existing: TProviderTransactionRow, hash: string): TWalletResponse {
  if (existing.kind === 'tombstone') return { status: 'RS_ERROR_TRANSACTION_ROLLED_BACK' };
  if (existing.requestHash !== hash) return { status: 'RS_ERROR_DUPLICATE_TRANSACTION' };
  return existing.response as TWalletResponse;
}

/**
 * Runs a money call: answers a known transaction id from its row, otherwise runs `work` in a
 * transaction. A refusal is answered with the balance as it is (so the game can show it).
 */
async function moneyCall(
  context: TWalletContext,
  session: TSessionWithGame,
  transactionRef: string,
  hash: string,
  options: { refuseExpired: boolean },
  work: (tx: Tx) => Promise<TWalletResponse>,
): Promise<TWalletResponse> {
  const existing = await findTransaction(context.db, context.aggregator, transactionRef);
  if (existing) return replay(existing, hash);
  if (options.refuseExpired && session.expired) return { status: 'RS_ERROR_TOKEN_EXPIRED' };
  try {
    const answer = await context.db.transaction(work);
    if (answer.status === 'RS_OK') context.onMoved?.({ siteId: session.siteId, memberId: session.memberId });
    return answer;
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (WITH_BALANCE.has(error.status)) {
      return { ...ok(session, await cashOf(context.db, session)), status: error.status };
    }
    return { status: error.status };
  }
}

export async function walletBalance(
  context: TWalletContext,
  body: TWalletBalanceRequest,
): Promise<TWalletResponse> {
  const check = await sessionFor(context, body);
  if ('refusal' in check) return check.refusal;
  if (check.session.expired) return { status: 'RS_ERROR_TOKEN_EXPIRED' };
  if (body.currency !== undefined && body.currency !== CURRENCY) return { status: 'RS_ERROR_WRONG_CURRENCY' };
  return ok(check.session, await cashOf(context.db, check.session));
}

/** A positive amount for bets, a non-negative one for wins; null when it is not money. */
export function amountOf(text: string, allowZero: boolean): bigint | null {
  const minor = parseMinor(text);
  if (minor === null || minor < 0n || (!allowZero && minor === 0n)) return null;
  return minor;
}

export async function walletBet(context: TWalletContext, body: TWalletBetRequest): Promise<TWalletResponse> {
  const check = await sessionFor(context, body);
  if ('refusal' in check) return check.refusal;
  const { session } = check;
  if (body.currency !== CURRENCY) return { status: 'RS_ERROR_WRONG_CURRENCY' };
  const amountMinor = amountOf(body.amount, false);
  if (amountMinor === null) return { status: 'RS_ERROR_WRONG_TYPES' };
  const hash = betHash(session, body, amountMinor);
  const { aggregator } = context;
  return moneyCall(context, session, body.transaction_uuid, hash, { refuseExpired: true }, async (tx) => {
    const claimed = await claimTransaction(tx, {
      aggregator,
      transactionRef: body.transaction_uuid,
      kind: 'bet',
      siteId: session.siteId,
      memberId: session.memberId,
      amountMinor,
      requestHash: hash,
    });
    if (!claimed) return replayAfterRace(tx, aggregator, body.transaction_uuid, hash);
    const round = await openRoundForUpdate(tx, {
      aggregator,
      roundRef: body.round,
      siteId: session.siteId,
      memberId: session.memberId,
      gameId: session.gameId,
      sessionId: session.id,
    });
    if (round.memberId !== session.memberId) throw new Refusal('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    if (round.status === 'rolled_back') throw new Refusal('RS_ERROR_TRANSACTION_ROLLED_BACK');
    if (round.status !== 'open') throw new Refusal('RS_ERROR_ROUND_CLOSED');
    // The gate is read once the member's accounts are held, as the stake will hold them: a
    // parallel bet of the member commits its stake before this read, or waits for this one.
    await holdStakeAccounts(tx, session);
    await assertPlayAllowed(tx, session, amountMinor).catch(refuseForResponsibleGaming);
    let balanceMinor: bigint;
    let transferId: bigint;
    try {
      const moved = await takeBetStake(tx, {
        siteId: session.siteId,
        memberId: session.memberId,
        amountMinor,
        idempotencyKey: `provider:${aggregator}:${body.transaction_uuid}`,
        reference: `provider-round:${round.id}`,
        metadata: { aggregator, game: body.game_code, round: body.round },
        gameCode: body.game_code,
      });
      balanceMinor = moved.debitBalanceAfterMinor ?? 0n;
      transferId = moved.transferId;
    } catch (error) {
      if (isWalletError(error, 'INSUFFICIENT_FUNDS') || isWalletError(error, 'ACCOUNT_NOT_FOUND')) {
        throw new Refusal('RS_ERROR_NOT_ENOUGH_MONEY');
      }
      if (isWalletError(error, 'IDEMPOTENCY_CONFLICT')) throw new Refusal('RS_ERROR_DUPLICATE_TRANSACTION');
      // Above the max bet of a bonus still wagering: a smaller stake may pass (ADR 012).
      if (isWalletError(error, 'BONUS_MAX_BET')) throw new Refusal('RS_ERROR_BET_LIMIT_EXCEEDED');
      throw error;
    }
    await updateRound(tx, round.id, {
      stakeMinor: round.stakeMinor + amountMinor,
      ...(body.round_closed ? { status: 'settled' as const } : {}),
    });
    const response = ok(session, balanceMinor, { transaction_uuid: body.transaction_uuid });
    await completeTransaction(tx, claimed.id, { roundId: round.id, transferId, response });
    return response;
  });
}

export async function walletWin(context: TWalletContext, body: TWalletWinRequest): Promise<TWalletResponse> {
  const check = await sessionFor(context, body);
  if ('refusal' in check) return check.refusal;
  const { session } = check;
  if (body.currency !== CURRENCY) return { status: 'RS_ERROR_WRONG_CURRENCY' };
  const amountMinor = amountOf(body.amount, true);
  if (amountMinor === null) return { status: 'RS_ERROR_WRONG_TYPES' };
  const closes = body.round_closed !== false;
  const hash = winHash(session, body, amountMinor);
  const { aggregator } = context;
  // A win settles a bet that was already taken: it lands even when the token expired meanwhile.
  return moneyCall(context, session, body.transaction_uuid, hash, { refuseExpired: false }, async (tx) => {
    const claimed = await claimTransaction(tx, {
      aggregator,
      transactionRef: body.transaction_uuid,
      kind: 'win',
      siteId: session.siteId,
      memberId: session.memberId,
      referenceRef: body.reference_transaction_uuid,
      amountMinor,
      requestHash: hash,
    });
    if (!claimed) return replayAfterRace(tx, aggregator, body.transaction_uuid, hash);
    const round = await findRoundForUpdate(tx, aggregator, body.round);
    if (!round || round.memberId !== session.memberId)
      throw new Refusal('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    if (round.status === 'rolled_back') throw new Refusal('RS_ERROR_TRANSACTION_ROLLED_BACK');
    if (round.status !== 'open') throw new Refusal('RS_ERROR_ROUND_CLOSED');
    const bet = await findTransaction(tx, aggregator, body.reference_transaction_uuid);
    if (bet?.kind !== 'bet' || bet.roundId !== round.id) {
      throw new Refusal('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    }
    if (bet.rolledBackBy !== null) throw new Refusal('RS_ERROR_TRANSACTION_ROLLED_BACK');
    let balanceMinor: bigint | null = null;
    let transferId: bigint | null = null;
    if (amountMinor > 0n) {
      const moved = await payWin(tx, {
        siteId: session.siteId,
        memberId: session.memberId,
        amountMinor,
        idempotencyKey: `provider:${aggregator}:${body.transaction_uuid}`,
        stakeKey: `provider:${aggregator}:${bet.transactionRef}`,
        reference: `provider-round:${round.id}`,
        metadata: { aggregator, game: body.game_code, round: body.round },
      });
      balanceMinor = moved.playableAfterMinor;
      transferId = moved.first.transferId;
    }
    await updateRound(tx, round.id, {
      payoutMinor: round.payoutMinor + amountMinor,
      ...(closes ? { status: 'settled' as const } : {}),
    });
    const response = ok(session, balanceMinor ?? (await cashOf(tx, session)), {
      transaction_uuid: body.transaction_uuid,
    });
    await completeTransaction(tx, claimed.id, { roundId: round.id, transferId, response });
    return response;
  });
}

export async function walletRollback(
  context: TWalletContext,
  body: TWalletRollbackRequest,
): Promise<TWalletResponse> {
  const check = await sessionFor(context, body);
  if ('refusal' in check) return check.refusal;
  const { session } = check;
  const hash = rollbackHash(session, body);
  const { aggregator } = context;
  return moneyCall(context, session, body.transaction_uuid, hash, { refuseExpired: false }, async (tx) => {
    const claimed = await claimTransaction(tx, {
      aggregator,
      transactionRef: body.transaction_uuid,
      kind: 'rollback',
      siteId: session.siteId,
      memberId: session.memberId,
      referenceRef: body.reference_transaction_uuid,
      requestHash: hash,
    });
    if (!claimed) return replayAfterRace(tx, aggregator, body.transaction_uuid, hash);
    const answer = async (transferId: bigint | null, balanceMinor: bigint | null, roundId: bigint | null) => {
      const response = ok(session, balanceMinor ?? (await cashOf(tx, session)), {
        transaction_uuid: body.transaction_uuid,
        reference_transaction_uuid: body.reference_transaction_uuid,
      });
      await completeTransaction(tx, claimed.id, { roundId, transferId, response });
      return response;
    };

    // The bet never reached us: leave a tombstone under its id so it is refused if it arrives late.
    const tombstone = await claimTransaction(tx, {
      aggregator,
      transactionRef: body.reference_transaction_uuid,
      kind: 'tombstone',
      siteId: session.siteId,
      memberId: session.memberId,
      referenceRef: body.transaction_uuid,
      requestHash: hash,
    });
    if (tombstone) return answer(null, null, null);

    const bet = await findTransaction(tx, aggregator, body.reference_transaction_uuid, { lock: true });
    if (!bet || bet.memberId !== session.memberId) throw new Refusal('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    // Already a tombstone, or a bet refunded by an earlier rollback: nothing more to undo.
    if (bet.kind === 'tombstone' || bet.rolledBackBy !== null) return answer(null, null, bet.roundId);
    if (bet.kind !== 'bet' || bet.roundId === null) throw new Refusal('RS_ERROR_WRONG_TYPES');
    const round = await findRoundForUpdate(tx, aggregator, body.round);
    if (!round || round.id !== bet.roundId) throw new Refusal('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    // A round that paid a win is an outcome the player saw; its bets are no longer undone.
    if ((await countWins(tx, round.id)) > 0) throw new Refusal('RS_ERROR_ROUND_CLOSED');
    // The stake counted toward the player's wagering requirement; a bet undone must not count.
    const staked = await getTransferByKey(tx, {
      siteId: session.siteId,
      idempotencyKey: `provider:${aggregator}:${bet.transactionRef}`,
    });
    const wageringRestored = staked && staked.wageringDeltaMinor < 0n ? -staked.wageringDeltaMinor : 0n;
    // Each part of the stake goes back where it came from (cash to cash, bonus to its grant).
    const refunded = await payWin(tx, {
      kind: 'refund',
      siteId: session.siteId,
      memberId: session.memberId,
      amountMinor: bet.amountMinor,
      idempotencyKey: `provider:${aggregator}:refund:${bet.transactionRef}`,
      stakeKey: `provider:${aggregator}:${bet.transactionRef}`,
      ...(wageringRestored > 0n ? { wageringAddMinor: wageringRestored } : {}),
      reference: `provider-round:${round.id}`,
      metadata: { aggregator, game: body.game_code, round: body.round, rollback: body.transaction_uuid },
    });
    const moved = {
      transferId: refunded.first.transferId,
      creditBalanceAfterMinor: refunded.playableAfterMinor,
    };
    await markRolledBack(tx, bet.id, claimed.id);
    const refundedMinor = round.refundedMinor + bet.amountMinor;
    await updateRound(tx, round.id, {
      refundedMinor,
      ...(refundedMinor === round.stakeMinor ? { status: 'rolled_back' as const } : {}),
    });
    return answer(moved.transferId, moved.creditBalanceAfterMinor, round.id);
  });
}

/**
 * A concurrent call with the same transaction id committed between our first look and our claim:
 * answer as a retry would be answered.
 */
async function replayAfterRace(
  tx: Tx,
  aggregator: string,
  transactionRef: string,
  hash: string,
): Promise<TWalletResponse> {
  const existing = await findTransaction(tx, aggregator, transactionRef);
  if (!existing) throw new Error(`provider transaction ${transactionRef} vanished after a conflict`);
  const answer = replay(existing, hash);
  if (answer.status !== 'RS_OK') throw new Refusal(answer.status);
  return answer;
}
