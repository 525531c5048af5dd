import type { BonusGrant } from '../bonus/grant-model.ts';
import { assertInvariant, WalletError } from '../wallet.errors.ts';
import { type TTransferRaw, transferResultOf } from '../wallet.repo.ts';
import type { TransferResult } from '../wallet.schema.ts';
import { LIMITS, type Posting, type PreparedTransfer, type TAccountRef } from './request.ts';

/**
 * The planner of a posting (ADR 033): decides a transfer against a ledger held in memory (the
 * accounts a read locked), in arrival order, and answers a decision, never an exception: planned
 * (the ledger's balances move), refused (the WalletError the player gets), or alone (the site's
 * system accounts must be opened first: a group goes one by one, a single posting opens them).
 * Every path decides here: a group of bets, and a single transfer (a group of one).
 */

export type Account = { id: bigint; balance: bigint | null; wagering: bigint };

/**
 * A group's ledger in memory, inside its transaction: the members' locked cash and bonus accounts,
 * the sites' system accounts, the transfers already holding one of the group's keys, the members'
 * locked active bonus grants by member (a bet group's lock, `membersLockParts` with grants), and
 * the balances as the transfers planned so far leave them.
 */
export type GroupLedger = {
  memberAccounts: Map<string, Map<string, Account>>;
  systemAccounts: Map<string, bigint>;
  prior: Map<string, TTransferRaw>;
  grants: Map<bigint, BonusGrant[]>;
  /** Withdrawal holds already resolved: hold transfer id → the resolving transfer's id. */
  resolutions: Map<bigint, bigint>;
  touched: Map<bigint, { start: Account; balance: bigint; wagering: bigint }>;
};

/** A transfer decided against a group's ledger, ready to be written with the group's others. */
export type PlannedTransfer = {
  prepared: PreparedTransfer;
  debitId: bigint;
  creditId: bigint;
  debitAfter: bigint | null;
  creditAfter: bigint | null;
  wageringAccountId: bigint | null;
  wageringDelta: bigint;
};

/** Why a posting goes one by one: a site's first transfer opens its system accounts (`transfer`). */
export type TAloneReason = 'site_accounts_missing';

/** What the planner decided for one transfer. */
export type TDecision =
  | { kind: 'plan'; plan: PlannedTransfer }
  | { kind: 'refuse'; error: WalletError }
  | { kind: 'alone'; reason: TAloneReason };

export const memberKey = (siteId: bigint, memberId: bigint) => `${siteId}:${memberId}`;

type TState = { start: Account; balance: bigint; wagering: bigint };

/** The accounts a transfer names, from the ledger: their ids and their balances so far. */
type TAccounts = {
  debitId: bigint;
  creditId: bigint;
  debit: TState | null;
  credit: TState | null;
  /** The member's cash, whose wagering a bet lowers and a reward raises (the same state object). */
  cash: TState | null;
  betFromMember: boolean;
};

/**
 * The checks of wallet.service `post` for a member ↔ system or system ↔ system transfer, on the
 * ledger's in-memory balances; applies the transfer to them when it passes.
 */
export function decideTransfer(ledger: GroupLedger, prepared: PreparedTransfer): TDecision {
  const found = accountsOf(ledger, prepared);
  if ('kind' in found) return found;
  const { posting } = prepared;
  const { debit, credit, cash } = found;
  const wageringBefore = cash?.wagering ?? 0n;
  const resolvedBy =
    posting.holdTransferId === null ? undefined : ledger.resolutions.get(posting.holdTransferId);
  if (resolvedBy !== undefined) {
    return refuse('HOLD_ALREADY_RESOLVED', 'This withdrawal hold was already resolved', {
      holdTransferId: String(posting.holdTransferId),
      resolvedBy: resolvedBy.toString(),
    });
  }
  if (posting.enforceWagering && wageringBefore > 0n) {
    return refuse('WAGERING_NOT_MET', 'Wagering on rewards must be completed before withdrawing', {
      wageringRequiredMinor: wageringBefore.toString(),
    });
  }
  if (debit && debit.balance < posting.amountMinor) {
    return refuse('INSUFFICIENT_FUNDS', 'The balance does not cover this amount', {
      accountId: debit.start.id.toString(),
    });
  }
  let wageringDelta = posting.wageringAddMinor;
  if (found.betFromMember) {
    wageringDelta -= wageringBefore < posting.amountMinor ? wageringBefore : posting.amountMinor;
  }
  const debitAfter = debit ? debit.balance - posting.amountMinor : null;
  const creditAfter = credit ? credit.balance + posting.amountMinor : null;
  if (creditAfter !== null && creditAfter > LIMITS.balanceMinor) {
    return refuse('INVALID_AMOUNT', 'The credited account would exceed its balance limit', {
      accountId: credit!.start.id.toString(),
    });
  }
  if (wageringBefore + wageringDelta > LIMITS.wageringMinor) {
    return refuse('INVALID_AMOUNT', 'The wagering requirement would exceed its limit');
  }
  // Passed: apply to the ledger's balances.
  const { touched } = ledger;
  if (debit) {
    debit.balance = debitAfter!;
    touched.set(debit.start.id, debit);
  }
  if (credit) {
    credit.balance = creditAfter!;
    touched.set(credit.start.id, credit);
  }
  if (cash && wageringDelta !== 0n) {
    cash.wagering += wageringDelta;
    touched.set(cash.start.id, cash);
  }
  const wageringAccountId = wageringDelta === 0n || !cash ? null : cash.start.id;
  const { debitId, creditId } = found;
  return {
    kind: 'plan',
    plan: { prepared, debitId, creditId, debitAfter, creditAfter, wageringAccountId, wageringDelta },
  };
}

function refuse(code: WalletError['code'], message: string, details?: WalletError['details']): TDecision {
  return { kind: 'refuse', error: new WalletError(code, message, details) };
}

/**
 * The member's accounts a posting moves or checks: the ones it names, plus cash when wagering
 * moves (a member's bet lowers it, a reward raises it) or is checked (a withdrawal hold).
 */
export function memberKindsOf(posting: Posting): Set<string> {
  const kinds = new Set<string>();
  for (const ref of [posting.from, posting.to]) if ('memberId' in ref) kinds.add(ref.account);
  const betFromMember = posting.kind === 'bet' && 'memberId' in posting.from;
  if (kinds.size > 0 && (betFromMember || posting.wageringAddMinor > 0n || posting.enforceWagering)) {
    kinds.add('cash');
  }
  return kinds;
}

/** The transfer's accounts in the ledger, or why it cannot be planned here. */
function accountsOf(ledger: GroupLedger, prepared: PreparedTransfer): TAccounts | TDecision {
  const { memberAccounts, systemAccounts, touched } = ledger;
  const { posting } = prepared;
  const refs: TAccountRef[] = [posting.from, posting.to];
  const memberRef = refs.find((ref) => 'memberId' in ref) as { memberId: bigint } | undefined;
  const betFromMember = posting.kind === 'bet' && 'memberId' in posting.from;
  const kinds = memberKindsOf(posting);
  const mine = memberRef ? memberAccounts.get(memberKey(posting.siteId, memberRef.memberId)) : undefined;
  for (const kind of kinds) {
    if (!mine?.has(kind)) {
      return refuse('ACCOUNT_NOT_FOUND', 'No such member account on this site', {
        memberId: memberRef?.memberId.toString() ?? null,
        account: kind,
      });
    }
  }
  const systemId = (ref: { system: string }) => systemAccounts.get(`${posting.siteId}:${ref.system}`);
  for (const ref of refs) {
    // A site's first transfer opens its system accounts: that is `transfer`'s job.
    if (!('memberId' in ref) && systemId(ref) === undefined) {
      return { kind: 'alone', reason: 'site_accounts_missing' };
    }
  }
  const accountId = (ref: TAccountRef): bigint =>
    'memberId' in ref ? mine!.get(ref.account)!.id : systemId(ref)!;
  const state = (ref: TAccountRef): TState | null => {
    if (!('memberId' in ref)) return null;
    const account = mine!.get(ref.account)!;
    const t = touched.get(account.id);
    if (t) return t;
    assertInvariant(account.balance !== null, `player account ${account.id} has a stored balance`);
    return { start: account, balance: account.balance, wagering: account.wagering };
  };
  const debit = state(posting.from);
  const credit = state(posting.to);
  const cashRef = kinds.has('cash') ? state({ memberId: memberRef!.memberId, account: 'cash' }) : null;
  // The same account object when cash is debited or credited.
  const cash =
    cashRef && debit && cashRef.start.id === debit.start.id
      ? debit
      : cashRef && credit && cashRef.start.id === credit.start.id
        ? credit
        : cashRef;
  return {
    debitId: accountId(posting.from),
    creditId: accountId(posting.to),
    debit,
    credit,
    cash,
    betFromMember,
  };
}

/**
 * A transfer planned where nothing can fall back (a settlement inside its caller's transaction):
 * a refusal fails the caller's transaction with the WalletError, as `transfer` would.
 */
export function planOrFail(ledger: GroupLedger, prepared: PreparedTransfer): PlannedTransfer {
  const decision = decideTransfer(ledger, prepared);
  if (decision.kind === 'plan') return decision.plan;
  if (decision.kind === 'refuse') throw decision.error;
  throw new WalletError('ACCOUNT_NOT_FOUND', 'The site has no system accounts yet', {
    siteId: prepared.posting.siteId.toString(),
  });
}

export function conflict(idempotencyKey: string, transferId: bigint): WalletError {
  return new WalletError('IDEMPOTENCY_CONFLICT', 'This idempotency key was used for a different request', {
    idempotencyKey,
    transferId: transferId.toString(),
  });
}

/**
 * A request whose key a stored transfer holds: that transfer again when the request is the same
 * (a replay), IDEMPOTENCY_CONFLICT when it differs. Whatever the balances are now.
 */
export function answerPrior(
  earlier: TTransferRaw,
  hash: string,
): { result: TransferResult } | { error: WalletError } {
  return earlier.request_hash === hash
    ? { result: transferResultOf(earlier, true) }
    : { error: conflict(earlier.idempotency_key, BigInt(earlier.id)) };
}

/**
 * Every transfer planned in order on the group's ledger (a stake's bonus parts, a bet's wins,
 * decided on balances the group already moved), or why the group cannot post them: a part the
 * one-by-one path would decide otherwise sends the group that way.
 */
export function planEach(
  ledger: GroupLedger,
  transfers: readonly PreparedTransfer[],
): PlannedTransfer[] | { alone: string } {
  const plans: PlannedTransfer[] = [];
  for (const transfer of transfers) {
    const decision = decideTransfer(ledger, transfer);
    if (decision.kind !== 'plan')
      return { alone: decision.kind === 'alone' ? decision.reason : 'part_refused' };
    plans.push(decision.plan);
  }
  return plans;
}
