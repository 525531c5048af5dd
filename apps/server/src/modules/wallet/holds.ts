import type { Executor, Tx } from '../../db/client.ts';
import { atomically } from '../../db/sql.ts';
import { grantWageringOwed } from './bonus/grants.ts';
import { checkKey, normalise } from './posting/request.ts';
import { assertInvariant, WalletError } from './wallet.errors.ts';
import { findAccountById, findTransferById, findTransferByKey, lockMemberAccounts } from './wallet.repo.ts';
import type { TJson, TransferResult } from './wallet.schema.ts';
import { post } from './wallet.service.ts';

/**
 * Withdrawals move money in two phases (architecture.md §3): `hold` takes it out of the available
 * cash into the member's withdrawal_hold account; the hold is then resolved once, by `settleHold`
 * (paid out, less a fee) or `releaseHold` (back to cash). Only these post the hold kinds.
 */

export interface HoldInput {
  siteId: bigint;
  memberId: bigint;
  amountMinor: bigint;
  idempotencyKey: string;
  reference?: string;
  metadata?: { [key: string]: TJson };
  /** Refuse with WAGERING_NOT_MET while the member owes turnover (default true). */
  enforceWagering?: boolean;
}

export interface SettleHoldInput {
  siteId: bigint;
  /** The transferId `hold` returned. */
  holdTransferId: bigint;
  idempotencyKey: string;
  /** Withdrawal fee kept by the site out of the held amount (0 ≤ fee < amount, default 0). */
  feeMinor?: bigint;
  reference?: string;
  metadata?: { [key: string]: TJson };
}

export interface ReleaseHoldInput {
  siteId: bigint;
  holdTransferId: bigint;
  idempotencyKey: string;
  reference?: string;
  metadata?: { [key: string]: TJson };
}

export interface SettleHoldResult {
  /** withdrawal_hold → psp_clearing, the whole held amount. */
  payout: TransferResult;
  /** psp_clearing → fees, when a fee was kept (the PSP then pays out amount − fee). */
  fee: TransferResult | null;
  /** What the PSP must send to the player. */
  payoutMinor: bigint;
}

/** Withdrawal request, phase one: cash → withdrawal_hold. The money leaves the available balance. */
export async function hold(executor: Executor, input: HoldInput): Promise<TransferResult> {
  const posting = normalise({
    siteId: input.siteId,
    kind: 'withdrawal_hold',
    from: { memberId: input.memberId, account: 'cash' },
    to: { memberId: input.memberId, account: 'withdrawal_hold' },
    amountMinor: input.amountMinor,
    idempotencyKey: input.idempotencyKey,
    reference: input.reference,
    metadata: input.metadata,
    wageringAddMinor: 0n,
    holdTransferId: null,
    enforceWagering: input.enforceWagering ?? true,
  });
  return atomically(executor, async (tx) => {
    if (posting.enforceWagering && !(await findTransferByKey(tx, posting.siteId, posting.idempotencyKey))) {
      // Bonus grants still wagering lock the cash too (ADR 012); a replay keeps its first answer.
      const owed = await grantWageringOwed(tx, input.memberId);
      if (owed > 0n) {
        const account = await lockMemberAccounts(tx, posting.siteId, input.memberId, ['cash']);
        throw new WalletError(
          'WAGERING_NOT_MET',
          'Wagering on rewards must be completed before withdrawing',
          {
            wageringRequiredMinor: (owed + (account[0]?.wageringRequiredMinor ?? 0n)).toString(),
          },
        );
      }
    }
    return post(tx, posting);
  });
}

/**
 * Withdrawal approved, phase two: the whole held amount goes withdrawal_hold → psp_clearing, and a
 * fee (if any) psp_clearing → fees, in one atomic step. The fee transfer's key is `<key>:fee`.
 */
export async function settleHold(executor: Executor, input: SettleHoldInput): Promise<SettleHoldResult> {
  const feeMinor = input.feeMinor ?? 0n;
  checkKey(input.idempotencyKey, 4);
  return atomically(executor, async (tx) => {
    const held = await loadHold(tx, input.siteId, input.holdTransferId);
    if (typeof feeMinor !== 'bigint' || feeMinor < 0n || feeMinor >= held.amountMinor) {
      throw new WalletError('INVALID_AMOUNT', 'The fee must be at least 0 and below the held amount', {
        feeMinor: String(feeMinor),
      });
    }
    const payout = await post(
      tx,
      normalise({
        siteId: input.siteId,
        kind: 'withdrawal_payout',
        from: { memberId: held.memberId, account: 'withdrawal_hold' },
        to: { system: 'psp_clearing' },
        amountMinor: held.amountMinor,
        idempotencyKey: input.idempotencyKey,
        reference: input.reference ?? held.reference,
        metadata: { ...input.metadata, feeMinor: feeMinor.toString() },
        wageringAddMinor: 0n,
        holdTransferId: input.holdTransferId,
        enforceWagering: false,
      }),
    );
    const fee =
      feeMinor === 0n
        ? null
        : await post(
            tx,
            normalise({
              siteId: input.siteId,
              kind: 'withdrawal_fee',
              from: { system: 'psp_clearing' },
              to: { system: 'fees' },
              amountMinor: feeMinor,
              idempotencyKey: `${input.idempotencyKey}:fee`,
              reference: input.reference ?? held.reference,
              metadata: { holdTransferId: input.holdTransferId.toString() },
              wageringAddMinor: 0n,
              holdTransferId: null,
              enforceWagering: false,
            }),
          );
    return { payout, fee, payoutMinor: held.amountMinor - feeMinor };
  });
}

/** Withdrawal rejected (or payout failed): the whole held amount returns withdrawal_hold → cash. */
export async function releaseHold(executor: Executor, input: ReleaseHoldInput): Promise<TransferResult> {
  return atomically(executor, async (tx) => {
    const held = await loadHold(tx, input.siteId, input.holdTransferId);
    return post(
      tx,
      normalise({
        siteId: input.siteId,
        kind: 'withdrawal_release',
        from: { memberId: held.memberId, account: 'withdrawal_hold' },
        to: { memberId: held.memberId, account: 'cash' },
        amountMinor: held.amountMinor,
        idempotencyKey: input.idempotencyKey,
        reference: input.reference ?? held.reference,
        metadata: input.metadata ?? {},
        wageringAddMinor: 0n,
        holdTransferId: input.holdTransferId,
        enforceWagering: false,
      }),
    );
  });
}

/** The hold a settle/release names, with its member (read only: transfers never change). */
async function loadHold(
  tx: Tx,
  siteId: bigint,
  holdTransferId: bigint,
): Promise<{ memberId: bigint; amountMinor: bigint; reference: string }> {
  if (typeof holdTransferId !== 'bigint') throw new WalletError('HOLD_NOT_FOUND', 'No such hold');
  const held = await findTransferById(tx, siteId, holdTransferId);
  if (held?.kind !== 'withdrawal_hold') {
    throw new WalletError('HOLD_NOT_FOUND', 'No such withdrawal hold on this site', {
      holdTransferId: holdTransferId.toString(),
    });
  }
  const account = await findAccountById(tx, held.creditAccountId);
  assertInvariant(
    account?.memberId != null && account.kind === 'withdrawal_hold',
    `hold ${held.id} credits a non-hold account`,
  );
  return { memberId: account.memberId, amountMinor: held.amountMinor, reference: held.reference };
}
