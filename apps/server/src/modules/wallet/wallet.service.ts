import type { Executor, Tx } from '../../db/client.ts';
import { atomically } from '../../db/sql.ts';
import { addSystemAccounts, holdResolution, keyOf, lockOne, transferByKey } from './posting/ledger.ts';
import { answerPrior, decideTransfer, type GroupLedger, memberKey, memberKindsOf } from './posting/plan.ts';
import {
  type Posting,
  type PreparedTransfer,
  prepareTransfer,
  requestHash,
  type TransferInput,
} from './posting/request.ts';
import { emptyLedger, plannedWrites } from './posting/statement.ts';
import { assertInvariant, WalletError } from './wallet.errors.ts';
import {
  findSystemAccounts,
  insertSystemAccounts,
  lockMemberAccounts,
  siteExists,
  writeTransfers,
} from './wallet.repo.ts';
import { SYSTEM_ACCOUNT_KINDS, type TransferResult, type TWalletAccountRow } from './wallet.schema.ts';

/**
 * The one place that moves money (architecture.md §3). Every movement is a single append-only
 * transfer from a debit account to a credit account of one site, under an idempotency key.
 *
 * Hot rows (ADR, also in the migration header): system accounts (house, psp_clearing, ...) have no
 * stored balance. A transfer locks only the PLAYER accounts it touches, in id order, and appends a
 * row; a system account's balance is the sum of its transfers, computed on read (getSystemBalances)
 * and by reconcile. So thousands of players betting against one house account never queue on one
 * row, and there is no system balance that could drift. The cost is on the rare reads of a system
 * balance (an indexed aggregate over its transfers), which only back-office reports and the
 * reconcile job do. Sharded balance rows were the alternative: they still serialise the players
 * who hash to one shard for the length of their (possibly long) caller transactions, and add a
 * stored value that must itself be reconciled.
 */

// Moving money

/**
 * Posts one transfer. Runs in the caller's transaction when `executor` is one (a refusal writes
 * nothing and leaves that transaction usable; success commits with the caller's other writes),
 * otherwise in its own. Throws WalletError INVALID_AMOUNT, INVALID_TRANSFER, ACCOUNT_NOT_FOUND,
 * INSUFFICIENT_FUNDS or IDEMPOTENCY_CONFLICT; a refused transfer changes nothing.
 *
 * Wagering: a `bet` debiting a member's cash or bonus reduces the member's wagering requirement by
 * the stake (never below zero); `wageringAddMinor` raises it. A refund of a bet restores what the
 * bet took off only when the caller passes it as `wageringAddMinor` (providers do, for rollbacks).
 */
export async function transfer(executor: Executor, input: TransferInput): Promise<TransferResult> {
  const prepared = prepareTransfer(input);
  return atomically(executor, (tx) => post(tx, prepared.posting, undefined, prepared.hash));
}

/**
 * Holds the member's stake accounts (cash, bonus: id order, FOR NO KEY UPDATE) in the caller's
 * transaction, as the stake that follows will. For a rule that must see every earlier stake of the
 * member: under READ COMMITTED each statement sees what committed before it began, so a statement
 * run after this one sees the play of every transaction that held these rows before it. The
 * third-party bet reads the responsible-gaming gate after it (docs/decisions/029-one-lock-order.md).
 */
export async function holdStakeAccounts(tx: Tx, member: { siteId: bigint; memberId: bigint }): Promise<void> {
  await lockMemberAccounts(tx, member.siteId, member.memberId, ['cash', 'bonus']);
}

/**
 * A member's accounts locked FOR NO KEY UPDATE (and the site's system accounts read) once by a caller in
 * its transaction for several transfers (a stake and its bonus parts, a win): `post` uses them
 * instead of locking again and keeps their balances as its own statements leave them. Only the
 * wallet builds one, right after locking, in the same transaction.
 */
export type TLockedAccounts = {
  siteId: bigint;
  memberId: bigint;
  member: TWalletAccountRow[];
  system: TWalletAccountRow[];
};

/** `transfer` inside the caller's transaction on accounts it has already locked. */
export function transferLocked(
  tx: Tx,
  input: TransferInput,
  accounts: TLockedAccounts,
): Promise<TransferResult> {
  const { posting, hash } = prepareTransfer(input);
  return post(tx, posting, accounts, hash);
}

/**
 * One posting, as a group of one (posting/, ADR 033): read the ledger (one statement: the member's
 * accounts locked in id order, the site's system accounts, the transfer holding the key; or the
 * accounts the caller locked), decide with the planner, write (one statement), answer. A site's
 * first transfer opens its system accounts (the planner's `alone`). A taken key answers as a
 * replay or a conflict; a refusal first looks the key up again (an earlier request with it may
 * have committed while this one waited for the locks) and changes nothing.
 */
export async function post(
  tx: Tx,
  posting: Posting,
  pre?: TLockedAccounts,
  hash = requestHash(posting),
): Promise<TransferResult> {
  const prepared: PreparedTransfer = { posting, hash };
  const covered = pre !== undefined && covers(pre, posting);
  const ledger = covered ? ledgerOfLocked(pre) : await lockOne(tx, prepared);
  const earlier = ledger.prior.get(keyOf(posting.siteId, posting.idempotencyKey));
  if (earlier) return answered(answerPrior(earlier, hash));
  if (posting.holdTransferId !== null) {
    const resolvedBy = await holdResolution(tx, posting.holdTransferId);
    if (resolvedBy !== undefined) ledger.resolutions.set(posting.holdTransferId, resolvedBy);
  }
  let decision = decideTransfer(ledger, prepared);
  if (decision.kind === 'alone') {
    const opened = await openSystemAccounts(tx, posting.siteId);
    addSystemAccounts(ledger, opened);
    if (covered) pre.system.push(...opened.filter((row) => !pre.system.some((a) => a.id === row.id)));
    decision = decideTransfer(ledger, prepared);
  }
  assertInvariant(decision.kind !== 'alone', 'a site with system accounts plans its posting');
  if (decision.kind === 'refuse') {
    const taken = await transferByKey(tx, posting.siteId, posting.idempotencyKey);
    if (taken) return answered(answerPrior(taken, hash));
    throw decision.error;
  }
  const { transfers, deltas, answers } = plannedWrites(ledger, [decision.plan]);
  const written = await writeTransfers(tx, transfers, deltas, { skipTaken: true });
  if (written.inserted.length === 0) {
    // The key is taken: by a request that committed after this one's read (replay or conflict),
    // or, for a transfer between system accounts (nothing locked), by one the insert waited for.
    const winner = await transferByKey(tx, posting.siteId, posting.idempotencyKey);
    assertInvariant(winner, `transfer with key ${posting.idempotencyKey} exists after a conflict`);
    return answered(answerPrior(winner, hash));
  }
  const result = answers(written)(decision.plan, false);
  if (covered) keepBalances(pre, ledger);
  return result;
}

function answered(outcome: { result: TransferResult } | { error: WalletError }): TransferResult {
  if ('error' in outcome) throw outcome.error;
  return outcome.result;
}

/** Whether a caller's locked accounts hold every member account the posting moves or checks. */
function covers(pre: TLockedAccounts, posting: Posting): boolean {
  if (pre.siteId !== posting.siteId) return false;
  const member = [posting.from, posting.to].find((ref) => 'memberId' in ref);
  if (member && 'memberId' in member && member.memberId !== pre.memberId) return false;
  return [...memberKindsOf(posting)].every((kind) => pre.member.some((a) => a.kind === kind));
}

/** The ledger of accounts a caller locked (its transfers' keys are looked up when they matter). */
function ledgerOfLocked(pre: TLockedAccounts): GroupLedger {
  const kinds = new Map(
    pre.member.map((a) => [
      a.kind,
      { id: a.id, balance: a.balanceMinor, wagering: a.wageringRequiredMinor ?? 0n },
    ]),
  );
  const ledger = emptyLedger();
  ledger.memberAccounts.set(memberKey(pre.siteId, pre.memberId), kinds);
  addSystemAccounts(ledger, pre.system);
  return ledger;
}

/** The caller's locked rows as the posting left them (it reads its balances from them after). */
function keepBalances(pre: TLockedAccounts, ledger: GroupLedger): void {
  for (const [id, state] of ledger.touched) {
    const row = pre.member.find((a) => a.id === id);
    if (!row) continue;
    row.balanceMinor = state.balance;
    if (row.wageringRequiredMinor !== null) row.wageringRequiredMinor = state.wagering;
  }
}

/** A site's system accounts, opened by its first transfer (once; concurrent openers agree). */
async function openSystemAccounts(tx: Tx, siteId: bigint): Promise<TWalletAccountRow[]> {
  if (!(await siteExists(tx, siteId))) {
    throw new WalletError('ACCOUNT_NOT_FOUND', 'No such site', { siteId: siteId.toString() });
  }
  await insertSystemAccounts(tx, siteId);
  return findSystemAccounts(tx, siteId, SYSTEM_ACCOUNT_KINDS);
}
