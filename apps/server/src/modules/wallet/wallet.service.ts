import { createHash } from 'node:crypto';
import { MAX_MINOR } from '@sorte/contract';
import type { Executor, Tx } from '../../db/client.ts';
import { atomically } from '../../db/sql.ts';
import { assertInvariant, WalletError } from './wallet.errors.ts';
import {
  findHoldResolution,
  findSystemAccounts,
  findTransferByKey,
  insertSystemAccounts,
  lockMemberAccounts,
  lockMemberWithSystemAccounts,
  siteExists,
  writeTransfers,
} from './wallet.repo.ts';
import {
  PLAYER_ACCOUNT_KINDS,
  SYSTEM_ACCOUNT_KINDS,
  type TJson,
  type TPlayerAccountKind,
  type TransferResult,
  type TSystemAccountKind,
  type TTransferKind,
  type TWalletAccountRow,
  type TWalletTransferRow,
} from './wallet.schema.ts';

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

/** A member's own account, or one of the site's system accounts. */
export type TAccountRef = { memberId: bigint; account: TPlayerAccountKind } | { system: TSystemAccountKind };

/** Kinds only hold/settleHold/releaseHold may post (they keep the hold account consistent). */
const HOLD_KINDS = ['withdrawal_hold', 'withdrawal_release', 'withdrawal_payout'] as const;
export type TTransferInputKind = Exclude<TTransferKind, (typeof HOLD_KINDS)[number]>;

export const LIMITS = {
  idempotencyKeyChars: 128,
  referenceChars: 128,
  metadataJsonChars: 4096,
  transferPageSize: 100,
  /**
   * Ceilings on what one player account may hold / owe in wagering (100 × MAX_MINOR, about
   * R$ 10 trillion): far beyond any real balance, far below bigint overflow.
   */
  balanceMinor: MAX_MINOR * 100n,
  wageringMinor: MAX_MINOR * 100n,
} as const;

export interface TransferInput {
  siteId: bigint;
  kind: TTransferInputKind;
  /** The debit side: money leaves this account. */
  from: TAccountRef;
  /** The credit side: money arrives here. */
  to: TAccountRef;
  amountMinor: bigint;
  /** Unique per site; a retry with the same key and same request returns the original transfer. */
  idempotencyKey: string;
  /** The order / bet / round this transfer belongs to (≤ 128 chars), e.g. "order:R123". */
  reference?: string;
  /** Extra references as JSON (≤ 4 KB), e.g. { roundId, gameId }. Part of the idempotent request. */
  metadata?: { [key: string]: TJson };
  /**
   * Turnover the member must bet before withdrawing, added by this transfer: a recharge reward
   * with a 5× rule passes 5 × the reward here. Bets reduce it automatically (see `transfer`).
   */
  wageringAddMinor?: bigint;
}

/** Everything `post` needs; built by transfer/hold/settleHold/releaseHold after validation. */
export interface Posting {
  siteId: bigint;
  kind: TTransferKind;
  from: TAccountRef;
  to: TAccountRef;
  amountMinor: bigint;
  idempotencyKey: string;
  reference: string;
  metadata: { [key: string]: TJson };
  /** `metadata` as canonical JSON (sorted keys), made once by `normalise` for the request hash. */
  metadataJson: string;
  wageringAddMinor: bigint;
  holdTransferId: bigint | null;
  enforceWagering: boolean;
}

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
  const { posting, hash } = prepareTransfer(input);
  return atomically(executor, (tx) => post(tx, posting, undefined, hash));
}

/** A transfer checked as `transfer` checks it before the database, with its request hash. */
export interface PreparedTransfer {
  posting: Readonly<Posting>;
  hash: string;
}

/**
 * What `transfer` refuses without the database (kind, accounts, amount, key, reference, metadata),
 * thrown as the same WalletError; group commit (wallet.group.ts) prepares its transfers with it.
 */
export function prepareTransfer(input: TransferInput): PreparedTransfer {
  if ((HOLD_KINDS as readonly string[]).includes(input.kind)) {
    throw new WalletError('INVALID_TRANSFER', 'Holds are posted by hold, settleHold and releaseHold', {
      kind: input.kind,
    });
  }
  for (const ref of [input.from, input.to]) {
    if ('memberId' in ref && ref.account === 'withdrawal_hold') {
      throw new WalletError('INVALID_TRANSFER', 'Withdrawal-hold accounts move only through holds');
    }
  }
  const posting = normalise({
    siteId: input.siteId,
    kind: input.kind,
    from: input.from,
    to: input.to,
    amountMinor: input.amountMinor,
    idempotencyKey: input.idempotencyKey,
    reference: input.reference,
    metadata: input.metadata,
    wageringAddMinor: input.wageringAddMinor,
    holdTransferId: null,
    enforceWagering: false,
  });
  return { posting, hash: requestHash(posting) };
}

// ---------------------------------------------------------------------------------------------
// Checks and answers of a posting (also used by holds.ts and balances.ts, which build on `post`)

export type PostingDraft = Omit<Posting, 'reference' | 'metadata' | 'metadataJson' | 'wageringAddMinor'> & {
  reference: string | undefined;
  metadata: { [key: string]: TJson } | undefined;
  wageringAddMinor: bigint | undefined;
};

/** Validates what can be validated without the database; refusals change nothing. */
export function normalise(draft: PostingDraft): Posting {
  checkAmount(draft.amountMinor, 'amountMinor');
  checkKey(draft.idempotencyKey, 0);
  const reference = draft.reference ?? '';
  if (typeof reference !== 'string' || reference.length > LIMITS.referenceChars || !storableText(reference)) {
    throw new WalletError('INVALID_TRANSFER', `The reference must be at most ${LIMITS.referenceChars} chars`);
  }
  const metadata = draft.metadata ?? {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new WalletError('INVALID_TRANSFER', 'The metadata must be a JSON object');
  }
  const metadataJson = canonicalJson(metadata);
  if (metadataJson.length > LIMITS.metadataJsonChars) {
    throw new WalletError(
      'INVALID_TRANSFER',
      `The metadata must be at most ${LIMITS.metadataJsonChars} chars`,
    );
  }
  const wageringAddMinor = draft.wageringAddMinor ?? 0n;
  if (wageringAddMinor !== 0n) checkAmount(wageringAddMinor, 'wageringAddMinor');
  if (typeof draft.siteId !== 'bigint' || draft.siteId <= 0n) {
    throw new WalletError('ACCOUNT_NOT_FOUND', 'No such site');
  }
  const members = memberIdsOf(draft.from, draft.to);
  if (members.length > 1) {
    throw new WalletError('INVALID_TRANSFER', 'A transfer may not move money between two members');
  }
  if (sameAccount(draft.from, draft.to)) {
    throw new WalletError('INVALID_TRANSFER', 'Debit and credit accounts must differ');
  }
  if (wageringAddMinor > 0n && (members.length === 0 || draft.kind === 'bet')) {
    throw new WalletError('INVALID_TRANSFER', 'Wagering is added only by a credit to a member, not by a bet');
  }
  return { ...draft, reference, metadata, metadataJson, wageringAddMinor };
}

function checkAmount(amount: unknown, field: string): asserts amount is bigint {
  if (typeof amount !== 'bigint' || amount <= 0n || amount > MAX_MINOR) {
    throw new WalletError('INVALID_AMOUNT', `${field} must be a bigint in 1..${MAX_MINOR}`, {
      field,
      amount: typeof amount === 'bigint' ? amount.toString() : typeof amount,
    });
  }
}

/** `reserve` leaves room for derived keys such as `<key>:fee`. */
export function checkKey(key: unknown, reserve: number): asserts key is string {
  if (
    typeof key !== 'string' ||
    key.length === 0 ||
    key.length > LIMITS.idempotencyKeyChars - reserve ||
    !storableText(key)
  ) {
    throw new WalletError(
      'INVALID_TRANSFER',
      `The idempotency key must be 1..${LIMITS.idempotencyKeyChars - reserve} chars`,
    );
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const SURROGATE = /[\uD800-\uDFFF]/;

/** PostgreSQL text and jsonb refuse NUL characters and lone surrogates: refuse them first. */
function storableText(text: string): boolean {
  // Most text has no surrogate at all: the lookaround expression runs only on text that has one.
  return !text.includes('\u0000') && !(SURROGATE.test(text) && LONE_SURROGATE.test(text));
}

function memberIdsOf(...refs: TAccountRef[]): bigint[] {
  const ids: bigint[] = [];
  for (const ref of refs) {
    if ('memberId' in ref) {
      if (typeof ref.memberId !== 'bigint' || !PLAYER_ACCOUNT_KINDS.includes(ref.account)) {
        throw new WalletError('ACCOUNT_NOT_FOUND', 'Unknown member account');
      }
      if (!ids.includes(ref.memberId)) ids.push(ref.memberId);
    } else if (!SYSTEM_ACCOUNT_KINDS.includes(ref.system)) {
      throw new WalletError('ACCOUNT_NOT_FOUND', 'Unknown system account');
    }
  }
  return ids;
}

function sameAccount(a: TAccountRef, b: TAccountRef): boolean {
  if ('memberId' in a && 'memberId' in b) return a.memberId === b.memberId && a.account === b.account;
  if ('system' in a && 'system' in b) return a.system === b.system;
  return false;
}

function refKey(ref: TAccountRef): string {
  return 'memberId' in ref ? `member:${ref.memberId}:${ref.account}` : `system:${ref.system}`;
}

/** A part of a value that `canonicalJson` has made already (a posting's metadata). */
class CanonicalJson {
  constructor(readonly json: string) {}
}

function notJson(): WalletError {
  return new WalletError('INVALID_TRANSFER', 'The metadata must be plain JSON');
}

/**
 * JSON with sorted keys, so equal requests hash equally whatever their key order. Written as loops
 * over sorted keys (no entries arrays, closures or joins): every transfer runs it twice, and it was
 * 8 % of the server's CPU for a dice bet (bench:bets, perf).
 */
function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      if (!storableText(value)) throw notJson();
      return JSON.stringify(value);
    case 'bigint':
      return `"${value}"`;
    case 'number':
      if (!Number.isFinite(value)) throw notJson();
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw notJson();
  }
  if (value === null) return 'null';
  if (value instanceof CanonicalJson) return value.json;
  if (Array.isArray(value)) {
    let json = '[';
    for (let i = 0; i < value.length; i++) json += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${json}]`;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw notJson();
  const object = value as Record<string, unknown>;
  let json = '{';
  // Keys in UTF-16 code unit order (the default sort of strings); undefined values are left out.
  for (const key of Object.keys(object).sort()) {
    const field = object[key];
    if (field === undefined) continue;
    json += `${json.length === 1 ? '' : ','}${canonicalJson(key)}:${canonicalJson(field)}`;
  }
  return `${json}}`;
}

function requestHash(posting: Posting): string {
  const body = canonicalJson({
    kind: posting.kind,
    from: refKey(posting.from),
    to: refKey(posting.to),
    amountMinor: posting.amountMinor,
    reference: posting.reference,
    metadata: new CanonicalJson(posting.metadataJson),
    wageringAddMinor: posting.wageringAddMinor,
    holdTransferId: posting.holdTransferId,
  });
  return createHash('sha256').update(body).digest('hex');
}

export function storedBalance(account: TWalletAccountRow): bigint {
  assertInvariant(account.balanceMinor !== null, `player account ${account.id} has no stored balance`);
  return account.balanceMinor;
}

export function toResult(row: TWalletTransferRow, replayed: boolean): TransferResult {
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

function replayOrConflict(existing: TWalletTransferRow, hash: string): TransferResult {
  if (existing.requestHash !== hash) {
    throw new WalletError('IDEMPOTENCY_CONFLICT', 'This idempotency key was used for a different request', {
      idempotencyKey: existing.idempotencyKey,
      transferId: existing.id.toString(),
    });
  }
  return toResult(existing, true);
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
 * The core, inside a transaction: resolve the system accounts (no lock), lock the member's accounts
 * (id order), check hold / wagering / funds, append the transfer (a taken key answers as a replay or
 * a conflict), move the player balances. Every refusal happens before any write. While the player
 * rows are locked the happy path costs three round trips: insert, update, commit.
 */
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

/** `hash`: the posting's request hash when the caller made it already (`prepareTransfer`). */
export async function post(
  tx: Tx,
  posting: Posting,
  pre?: TLockedAccounts,
  hash = requestHash(posting),
): Promise<TransferResult> {
  const refs = [posting.from, posting.to];
  const memberId = memberIdsOf(...refs)[0];

  // Which of the member's accounts change: the ones named, plus cash when wagering moves.
  const playerKinds = new Set<TPlayerAccountKind>();
  for (const ref of refs) if ('memberId' in ref) playerKinds.add(ref.account);
  const betFromMember = posting.kind === 'bet' && 'memberId' in posting.from;
  if (memberId !== undefined && (betFromMember || posting.wageringAddMinor > 0n || posting.enforceWagering)) {
    playerKinds.add('cash');
  }

  // System accounts are never locked. A member ↔ system transfer (bets, wins, deposits) locks the
  // member's rows and reads the system rows in one statement; the rest resolve them first.
  const systemKinds = refs.flatMap((ref) => ('system' in ref ? [ref.system] : []));
  let systemAccount = new Map<TSystemAccountKind, TWalletAccountRow>();
  let locked: TWalletAccountRow[] | null = null;
  // Rows the caller locked stay the ones moved (the caller reads its balances from them after).
  const memberCovered =
    pre !== undefined &&
    pre.siteId === posting.siteId &&
    pre.memberId === memberId &&
    [...playerKinds].every((kind) => pre.member.some((a) => a.kind === kind));
  if (memberCovered) locked = pre.member;
  if (memberCovered && systemKinds.every((kind) => pre.system.some((a) => a.kind === kind))) {
    systemAccount = new Map(pre.system.map((a) => [a.kind as TSystemAccountKind, a]));
  } else if (systemKinds.length > 0) {
    let rows: TWalletAccountRow[];
    if (memberId !== undefined && !memberCovered) {
      const both = await lockMemberWithSystemAccounts(
        tx,
        posting.siteId,
        memberId,
        [...playerKinds],
        systemKinds,
      );
      rows = both.system;
      locked = both.member;
    } else {
      rows = await findSystemAccounts(tx, posting.siteId, systemKinds);
    }
    if (rows.length < new Set(systemKinds).size) {
      // A site's first transfer: its system accounts are opened now (once; concurrent openers agree).
      if (!(await siteExists(tx, posting.siteId))) {
        throw new WalletError('ACCOUNT_NOT_FOUND', 'No such site', { siteId: posting.siteId.toString() });
      }
      await insertSystemAccounts(tx, posting.siteId);
      rows = await findSystemAccounts(tx, posting.siteId, systemKinds);
    }
    systemAccount = new Map(rows.map((a) => [a.kind as TSystemAccountKind, a]));
    if (memberCovered)
      for (const row of rows) if (!pre.system.some((a) => a.id === row.id)) pre.system.push(row);
  }

  locked ??=
    memberId === undefined ? [] : await lockMemberAccounts(tx, posting.siteId, memberId, [...playerKinds]);
  const playerAccount = new Map(locked.map((a) => [a.kind as TPlayerAccountKind, a]));
  for (const kind of playerKinds) {
    if (!playerAccount.has(kind)) {
      throw new WalletError('ACCOUNT_NOT_FOUND', 'No such member account on this site', {
        memberId: memberId?.toString() ?? null,
        account: kind,
      });
    }
  }
  const accountOf = (ref: TAccountRef): TWalletAccountRow => {
    const account = 'memberId' in ref ? playerAccount.get(ref.account) : systemAccount.get(ref.system);
    assertInvariant(account, `account ${refKey(ref)} was resolved`);
    assertInvariant(
      account.siteId === posting.siteId,
      `account ${account.id} belongs to the transfer's site`,
    );
    return account;
  };
  const debit = accountOf(posting.from);
  const credit = accountOf(posting.to);

  /**
   * A refusal that depends on the current state is only right for a NEW request: a replay of a
   * request that succeeded earlier (and, say, emptied the balance) must get its original result.
   * With the member's rows locked, an earlier request with this key has committed or is absent, so
   * the key is looked up here, on the refusal path, and by the insert on the happy path; the
   * common case pays no extra round trip while holding the lock.
   */
  const refuse = async (error: WalletError): Promise<TransferResult> => {
    const existing = await findTransferByKey(tx, posting.siteId, posting.idempotencyKey);
    if (existing) return replayOrConflict(existing, hash);
    throw error;
  };

  if (posting.holdTransferId !== null) {
    const resolution = await findHoldResolution(tx, posting.holdTransferId);
    if (resolution) {
      if (resolution.siteId === posting.siteId && resolution.idempotencyKey === posting.idempotencyKey) {
        return replayOrConflict(resolution, hash);
      }
      return refuse(
        new WalletError('HOLD_ALREADY_RESOLVED', 'This withdrawal hold was already resolved', {
          holdTransferId: posting.holdTransferId.toString(),
          resolvedBy: resolution.id.toString(),
        }),
      );
    }
  }

  const cash = playerAccount.get('cash');
  const wageringBefore = cash?.wageringRequiredMinor ?? 0n;
  if (posting.enforceWagering && wageringBefore > 0n) {
    return refuse(
      new WalletError('WAGERING_NOT_MET', 'Wagering on rewards must be completed before withdrawing', {
        wageringRequiredMinor: wageringBefore.toString(),
      }),
    );
  }

  const debitBefore = debit.memberId === null ? null : storedBalance(debit);
  if (debitBefore !== null && debitBefore < posting.amountMinor) {
    return refuse(
      new WalletError('INSUFFICIENT_FUNDS', 'The balance does not cover this amount', {
        accountId: debit.id.toString(),
      }),
    );
  }
  const creditBefore = credit.memberId === null ? null : storedBalance(credit);

  let wageringDeltaMinor = posting.wageringAddMinor;
  if (betFromMember) {
    wageringDeltaMinor -= wageringBefore < posting.amountMinor ? wageringBefore : posting.amountMinor;
  }
  assertInvariant(
    wageringDeltaMinor === 0n || cash !== undefined,
    'wagering moves only with a locked cash account',
  );

  const debitAfter = debitBefore === null ? null : debitBefore - posting.amountMinor;
  const creditAfter = creditBefore === null ? null : creditBefore + posting.amountMinor;
  if (creditAfter !== null && creditAfter > LIMITS.balanceMinor) {
    return refuse(
      new WalletError('INVALID_AMOUNT', 'The credited account would exceed its balance limit', {
        accountId: credit.id.toString(),
      }),
    );
  }
  if (wageringBefore + wageringDeltaMinor > LIMITS.wageringMinor) {
    return refuse(new WalletError('INVALID_AMOUNT', 'The wagering requirement would exceed its limit'));
  }
  // The balance changes of the locked player rows, applied by the same statement that appends the
  // transfer; the database re-checks balance >= 0.
  const deltas = new Map<bigint, { balance: bigint; wagering: bigint }>();
  const bump = (account: TWalletAccountRow, balance: bigint, wagering: bigint) => {
    const entry = deltas.get(account.id) ?? { balance: 0n, wagering: 0n };
    deltas.set(account.id, { balance: entry.balance + balance, wagering: entry.wagering + wagering });
  };
  if (debit.memberId !== null) bump(debit, -posting.amountMinor, 0n);
  if (credit.memberId !== null) bump(credit, posting.amountMinor, 0n);
  if (wageringDeltaMinor !== 0n && cash) bump(cash, 0n, wageringDeltaMinor);
  const wageringAccountId = wageringDeltaMinor === 0n ? null : (cash?.id ?? null);
  const written = await writeTransfers(
    tx,
    [
      {
        site_id: String(posting.siteId),
        kind: posting.kind,
        debit: String(debit.id),
        credit: String(credit.id),
        amount: String(posting.amountMinor),
        debit_after: debitAfter === null ? null : String(debitAfter),
        credit_after: creditAfter === null ? null : String(creditAfter),
        wagering_account: wageringAccountId === null ? null : String(wageringAccountId),
        wagering_delta: String(wageringDeltaMinor),
        hold: posting.holdTransferId === null ? null : String(posting.holdTransferId),
        reference: posting.reference,
        metadata: posting.metadata,
        key: posting.idempotencyKey,
        hash,
      },
    ],
    [...deltas].map(([id, delta]) => ({
      id: String(id),
      balance: String(delta.balance),
      wagering: String(delta.wagering),
    })),
    { skipTaken: true },
  );
  const inserted = written.inserted[0];
  if (!inserted) {
    // The key is taken: by an earlier committed request (replay or conflict), or, for a transfer
    // between system accounts (nothing locked), by a concurrent one the insert waited for.
    const winner = await findTransferByKey(tx, posting.siteId, posting.idempotencyKey);
    assertInvariant(winner, `transfer with key ${posting.idempotencyKey} exists after a conflict`);
    return replayOrConflict(winner, hash);
  }
  for (const [accountId] of deltas) {
    const after = written.balances.get(accountId);
    assertInvariant(after, `locked account ${accountId} was updated`);
    if (accountId === debit.id)
      assertInvariant(after.balanceMinor === debitAfter, 'debit balance as computed');
    if (accountId === credit.id)
      assertInvariant(after.balanceMinor === creditAfter, 'credit balance as computed');
    if (accountId === cash?.id) {
      assertInvariant(after.wageringMinor === wageringBefore + wageringDeltaMinor, 'wagering as computed');
    }
    // Callers that lock the accounts once for several transfers see the balances as they are now.
    const row = locked.find((a) => a.id === accountId);
    if (row) {
      row.balanceMinor = after.balanceMinor;
      row.wageringRequiredMinor = after.wageringMinor;
    }
  }
  return {
    transferId: inserted.id,
    siteId: posting.siteId,
    kind: posting.kind,
    debitAccountId: debit.id,
    creditAccountId: credit.id,
    amountMinor: posting.amountMinor,
    debitBalanceAfterMinor: debitAfter,
    creditBalanceAfterMinor: creditAfter,
    wageringDeltaMinor,
    holdTransferId: posting.holdTransferId,
    reference: posting.reference,
    metadata: inserted.metadata,
    idempotencyKey: posting.idempotencyKey,
    createdAt: inserted.createdAt,
    replayed: false,
  };
}
