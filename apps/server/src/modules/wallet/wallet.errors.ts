import { formatMinor } from '@sorte/contract';
import { AppError } from '../../errors.ts';

/**
 * Errors the wallet throws on purpose. Each has a stable code the HTTP layer maps to a status and a
 * translated message (packages/contract/src/errors.ts); `details` is safe to log, never shown raw.
 * Anything else escaping the wallet is a bug or an infrastructure failure.
 */
export const WALLET_ERROR_CODES = {
  /** The amount is not a bigint, is <= 0, or exceeds MAX_MINOR. Nothing was written. */
  INVALID_AMOUNT: 422,
  /**
   * The transfer is malformed: same account on both sides, two different members, a withdrawal-hold
   * account touched outside hold/settleHold/releaseHold, a key or reference too long, metadata
   * too large. Nothing was written.
   */
  INVALID_TRANSFER: 422,
  /** A debited player account holds less than the amount. Nothing was written. */
  INSUFFICIENT_FUNDS: 409,
  /** The idempotency key was already used on this site for a different request. */
  IDEMPOTENCY_CONFLICT: 409,
  /** No such site, member or member account on this site (e.g. accounts never opened). */
  ACCOUNT_NOT_FOUND: 404,
  /** settleHold/releaseHold named a transfer that is not a withdrawal hold of this site. */
  HOLD_NOT_FOUND: 404,
  /** The withdrawal hold was already paid out or released (each hold is resolved once). */
  HOLD_ALREADY_RESOLVED: 409,
  /** A withdrawal was asked while the member still owes wagering (turnover) on rewards. */
  WAGERING_NOT_MET: 409,
  /** A stake above the max bet of a bonus grant still wagering (details.maxBetMinor). */
  BONUS_MAX_BET: 422,
} as const;

export type TWalletErrorCode = keyof typeof WALLET_ERROR_CODES;

export class WalletError extends Error {
  override readonly name = 'WalletError';
  constructor(
    readonly code: TWalletErrorCode,
    message: string,
    readonly details: Record<string, string | number | boolean | null> = {},
  ) {
    super(message);
  }

  get httpStatus(): number {
    return WALLET_ERROR_CODES[this.code];
  }
}

export function isWalletError(error: unknown, code?: TWalletErrorCode): error is WalletError {
  return error instanceof WalletError && (code === undefined || error.code === code);
}

/**
 * A broken invariant: something that must never happen did. Thrown (never caught by the wallet) so
 * the surrounding transaction rolls back instead of recording a wrong balance.
 */
export function assertInvariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`wallet invariant violated: ${message}`);
}

/**
 * The player-facing error for a wallet refusal that no caller translated itself: every wallet code
 * is also a contract code, so the client always gets a stable code and a translated message, never
 * a 500 for a refusal.
 */
export function walletAppError(error: WalletError): AppError {
  if (error.code === 'WAGERING_NOT_MET') {
    const owed = error.details.wageringRequiredMinor;
    const amount = typeof owed === 'string' && /^\d+$/.test(owed) ? formatMinor(BigInt(owed)) : '0.00';
    return new AppError('WAGERING_NOT_MET', { params: { amount }, cause: error });
  }
  if (error.code === 'BONUS_MAX_BET') {
    const max = error.details.maxBetMinor;
    const amount = typeof max === 'string' && /^\d+$/.test(max) ? formatMinor(BigInt(max)) : '0.00';
    return new AppError('BONUS_MAX_BET', { params: { max: amount }, cause: error });
  }
  return new AppError(error.code, { cause: error });
}
