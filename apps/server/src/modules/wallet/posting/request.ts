import { createHash } from 'node:crypto';
import { MAX_MINOR } from '@sorte/contract';
import { WalletError } from '../wallet.errors.ts';
import {
  PLAYER_ACCOUNT_KINDS,
  SYSTEM_ACCOUNT_KINDS,
  type TJson,
  type TPlayerAccountKind,
  type TSystemAccountKind,
  type TTransferKind,
} from '../wallet.schema.ts';

/**
 * A posting's request, checked before the database (architecture.md §3): what a transfer names
 * (kind, accounts, amount, key, reference, metadata, wagering), the refusals that need no row, and
 * the request hash a key is held to. Pure: every path that moves money prepares its transfers here.
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

/** Everything a posting needs; built by prepareTransfer and by hold/settleHold/releaseHold after validation. */
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

export function memberIdsOf(...refs: TAccountRef[]): bigint[] {
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

export function refKey(ref: TAccountRef): string {
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
 * over sorted keys (no entries arrays, closures or joins): every transfer runs it twice, and its
 * first form showed among a dice bet's costliest functions in bench:bets' CPU profile.
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

export function requestHash(posting: Posting): string {
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
