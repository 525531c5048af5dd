import type { Executor } from '../../db/client.ts';
import { grantWageringOwed } from './bonus/grants.ts';
import { LIMITS } from './posting/request.ts';
import { assertInvariant, isWalletError, WalletError } from './wallet.errors.ts';
import {
  findAccountKinds,
  findMemberAccounts,
  findMemberTransfers,
  findTransferByKey,
  sumSystemBalances,
} from './wallet.repo.ts';
import {
  SYSTEM_ACCOUNT_KINDS,
  type TPlayerAccountKind,
  type TransferResult,
  type TSystemAccountKind,
  type TTransferKind,
  type TWalletAccountRow,
  type TWalletTransferRow,
} from './wallet.schema.ts';

export interface Balances {
  cashMinor: bigint;
  bonusMinor: bigint;
  /** Money in pending withdrawals (not available, not yet paid out). */
  holdMinor: bigint;
  /** Turnover still to bet before a withdrawal is allowed (`ml_money` of user info). */
  wageringRequiredMinor: bigint;
  /** cash + bonus: what the member can play with (`total_money`). */
  totalMinor: bigint;
  /** What a withdrawal may take now: the cash, or 0 while wagering is outstanding. */
  withdrawableMinor: bigint;
}

/**
 * A member's balances (user info: money = cash, fs_money = bonus, ml_money = wagering required,
 * total_money = cash + bonus). With `siteId`, a member of another site is ACCOUNT_NOT_FOUND.
 */
export async function getBalances(
  executor: Executor,
  memberId: bigint,
  options: { siteId?: bigint } = {},
): Promise<Balances> {
  const all = await findMemberAccounts(executor, memberId);
  const accounts = options.siteId === undefined ? all : all.filter((a) => a.siteId === options.siteId);
  const byKind = new Map(accounts.map((a) => [a.kind, a]));
  const cash = byKind.get('cash');
  const bonus = byKind.get('bonus');
  const hold = byKind.get('withdrawal_hold');
  if (!cash || !bonus || !hold) {
    throw new WalletError('ACCOUNT_NOT_FOUND', 'The member has no wallet accounts', {
      memberId: memberId.toString(),
    });
  }
  const cashMinor = storedBalance(cash);
  // Turnover owed: the cash account's requirement plus what active bonus grants still need.
  const wageringRequiredMinor =
    (cash.wageringRequiredMinor ?? 0n) + (await grantWageringOwed(executor, memberId));
  return {
    cashMinor,
    bonusMinor: storedBalance(bonus),
    holdMinor: storedBalance(hold),
    wageringRequiredMinor,
    totalMinor: cashMinor + storedBalance(bonus),
    withdrawableMinor: wageringRequiredMinor > 0n ? 0n : cashMinor,
  };
}

/** The site's system account balances, derived from transfers (credits − debits). */
export async function getSystemBalances(
  executor: Executor,
  siteId: bigint,
): Promise<Record<TSystemAccountKind, bigint>> {
  const rows = await sumSystemBalances(executor, siteId);
  const result = Object.fromEntries(SYSTEM_ACCOUNT_KINDS.map((k) => [k, 0n])) as Record<
    TSystemAccountKind,
    bigint
  >;
  for (const row of rows) result[row.kind] = row.balanceMinor;
  return result;
}

export interface ListMemberTransfersInput {
  memberId: bigint;
  /** Only the member's accounts on this site (pass the session's site). */
  siteId?: bigint;
  kinds?: readonly TTransferKind[];
  /** created_at >= since and < until (e.g. today / last 3 days / last 7 days). */
  since?: Date;
  until?: Date;
  /** Next page: transfers older than this id. Previous page: `afterTransferId` (newer). */
  beforeTransferId?: bigint;
  afterTransferId?: bigint;
  /** 1..100, default 20. */
  limit?: number;
}

export interface MemberTransfer extends TransferResult {
  /** What each side is: the member's 'cash' / 'bonus' / 'withdrawal_hold', or a system account. */
  debitAccountKind: TPlayerAccountKind | TSystemAccountKind;
  creditAccountKind: TPlayerAccountKind | TSystemAccountKind;
}

/** A page of a member's transfers, newest first, keyset-paged by id (stable under inserts). */
export async function listMemberTransfers(
  executor: Executor,
  input: ListMemberTransfersInput,
): Promise<MemberTransfer[]> {
  if (input.beforeTransferId !== undefined && input.afterTransferId !== undefined) {
    throw new WalletError('INVALID_TRANSFER', 'Page either before or after a transfer, not both');
  }
  const limit = Math.min(Math.max(Math.trunc(Number(input.limit ?? 20)) || 1, 1), LIMITS.transferPageSize);
  const rows = await findMemberTransfers(executor, {
    memberId: input.memberId,
    siteId: input.siteId ?? null,
    kinds: input.kinds ?? null,
    since: input.since ?? null,
    until: input.until ?? null,
    beforeId: input.beforeTransferId ?? null,
    afterId: input.afterTransferId ?? null,
    limit,
  });
  const kinds = await findAccountKinds(executor, [
    ...new Set(rows.flatMap((r) => [r.debitAccountId, r.creditAccountId])),
  ]);
  return rows.map((row) => {
    const debitAccountKind = kinds.get(row.debitAccountId);
    const creditAccountKind = kinds.get(row.creditAccountId);
    assertInvariant(debitAccountKind && creditAccountKind, `transfer ${row.id} has both accounts`);
    return { ...toResult(row, false), debitAccountKind, creditAccountKind };
  });
}

/** The transfer posted under an idempotency key, or null (e.g. "was this order credited?"). */
export async function getTransferByKey(
  executor: Executor,
  input: { siteId: bigint; idempotencyKey: string },
): Promise<TransferResult | null> {
  const row = await findTransferByKey(executor, input.siteId, input.idempotencyKey);
  return row ? toResult(row, false) : null;
}

/**
 * What a member can stake now (cash and bonus); a member without wallet accounts has nothing to
 * stake. The games' and the providers' balance answers read this.
 */
export async function memberPlayable(executor: Executor, siteId: bigint, memberId: bigint): Promise<bigint> {
  try {
    return (await getBalances(executor, memberId, { siteId })).totalMinor;
  } catch (error) {
    if (isWalletError(error, 'ACCOUNT_NOT_FOUND')) return 0n;
    throw error;
  }
}

function storedBalance(account: TWalletAccountRow): bigint {
  assertInvariant(account.balanceMinor !== null, `player account ${account.id} has no stored balance`);
  return account.balanceMinor;
}

function toResult(row: TWalletTransferRow, replayed: boolean): TransferResult {
  return {
    transferId: row.id,
    siteId: row.siteId,
    kind: row.kind,
    debitAccountId: row.debitAccountId,
    creditAccountId: row.creditAccountId,
    amountMinor: row.amountMinor,
    debitBalanceAfterMinor: row.debitBalanceAfterMinor,
    creditBalanceAfterMinor: row.creditBalanceAfterMinor,
    wageringDeltaMinor: row.wageringDeltaMinor,
    holdTransferId: row.holdTransferId,
    reference: row.reference,
    metadata: row.metadata,
    idempotencyKey: row.idempotencyKey,
    createdAt: row.createdAt,
    replayed,
  };
}
