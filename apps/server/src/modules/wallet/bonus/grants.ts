import type { Executor, Tx } from '../../../db/client.ts';
import { atomically } from '../../../db/sql.ts';
import { assertInvariant, WalletError } from '../wallet.errors.ts';
import { lockMemberAccounts } from '../wallet.repo.ts';
import type { TJson } from '../wallet.schema.ts';
import { transfer } from '../wallet.service.ts';
import { type BonusGrant, type TGrantStatus, toGrant } from './grant-model.ts';
import {
  findDueGrantIds,
  findGrantMember,
  findGrantOfPeriod,
  findGrantPage,
  insertGrant,
  lockActiveGrantRows,
  lockGrantRow,
  sumWageringOwed,
  updateGrant,
} from './grants.repo.ts';

/**
 * Bonus money, per grant (ADR 012). A member's `bonus` account holds the sum of the balances of
 * their active grants; each grant's part lives on its `bonus_grants` row and changes only in the
 * bonus files, in the transaction of the ledger transfer that moves the money, every such transfer
 * naming the grant in `metadata.grantId` (so reconcile checks each grant against the ledger).
 *
 * - A grant is given once per (member, campaign, period): the unique key makes 200 concurrent
 *   claims one grant.
 * - Stakes (stake.ts) spend real money first, then bonus, and feed one grant's wagering; wins
 *   (win.ts) go back where the stake came from.
 * - When a grant's wagering is met its balance converts to cash (up to its max win; the excess is
 *   forfeited); on expiry or forfeit the rest goes back to promotions_expense by a ledger transfer.
 * - Lock order: the member's cash and bonus accounts, then their grants (every bonus path).
 */

export interface GrantBonusInput {
  siteId: bigint;
  memberId: bigint;
  campaignCode: string;
  /** The occurrence: 'once', a site-local day, 'deposit:<order>', … (one grant per key). */
  periodKey: string;
  amountMinor: bigint;
  /** Turnover to bet before the grant converts to cash (0: converts at once). */
  wageringRequiredMinor: bigint;
  maxBetMinor: bigint | null;
  /** While wagering, the member's cash is locked too (no withdrawal). */
  locksCash: boolean;
  expiresAt: Date;
  /** The campaign's rules at grant time: category weights (`weights`), `maxWinMinor`, the formula. */
  terms: { [key: string]: TJson };
  reference?: string;
}

/** The cap the campaign's terms put on what a grant may convert to cash (null: none). */
export function maxWinOf(grant: BonusGrant): bigint | null {
  const value = grant.terms.maxWinMinor;
  return typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : null;
}

/** Locks the member's cash and bonus accounts (the first step of every bonus path) and reads them. */
export async function lockPlayerAccounts(tx: Tx, siteId: bigint, memberId: bigint) {
  const rows = await lockMemberAccounts(tx, siteId, memberId, ['cash', 'bonus']);
  const cash = rows.find((r) => r.kind === 'cash');
  const bonus = rows.find((r) => r.kind === 'bonus');
  if (!cash || !bonus || cash.balanceMinor === null || bonus.balanceMinor === null) {
    throw new WalletError('ACCOUNT_NOT_FOUND', 'The member has no wallet accounts on this site', {
      memberId: memberId.toString(),
    });
  }
  return { cashMinor: cash.balanceMinor, bonusMinor: bonus.balanceMinor };
}

/**
 * Gives a grant: the row (unique per member, campaign and period) and its bonus_grant transfer
 * promotions_expense → bonus, in one transaction. A second call for the same period returns the
 * first grant with `created: false` and moves nothing.
 */
export async function grantBonus(
  executor: Executor,
  input: GrantBonusInput,
): Promise<{ grant: BonusGrant; created: boolean }> {
  if (typeof input.amountMinor !== 'bigint' || input.amountMinor <= 0n) {
    throw new WalletError('INVALID_AMOUNT', 'A grant must give a positive amount');
  }
  if (input.wageringRequiredMinor < 0n) throw new WalletError('INVALID_AMOUNT', 'Negative wagering');
  return atomically(executor, async (tx) => {
    await lockPlayerAccounts(tx, input.siteId, input.memberId);
    const inserted = await insertGrant(tx, input);
    if (!inserted) {
      const existing = await findGrantOfPeriod(tx, input);
      assertInvariant(existing, 'a conflicting grant exists');
      return { grant: toGrant(existing), created: false };
    }
    const grant = toGrant(inserted);
    const moved = await transfer(tx, {
      siteId: input.siteId,
      kind: 'bonus_grant',
      from: { system: 'promotions_expense' },
      to: { memberId: input.memberId, account: 'bonus' },
      amountMinor: input.amountMinor,
      idempotencyKey: `grant:${grant.id}`,
      reference: input.reference ?? `grant:${grant.id}`,
      metadata: { grantId: grant.id.toString(), campaign: input.campaignCode, period: input.periodKey },
    });
    await updateGrant(tx, grant.id, {
      balanceDeltaMinor: input.amountMinor,
      grantTransferId: moved.transferId,
    });
    let result: BonusGrant = { ...grant, balanceMinor: input.amountMinor };
    if (input.wageringRequiredMinor === 0n) result = await convertGrant(tx, result);
    return { grant: result, created: true };
  });
}

/**
 * Wagering met: the grant's balance goes bonus → cash (up to its max win; the rest is forfeited).
 * `grant` is the grant as it is now, locked by the caller.
 */
export async function convertGrant(tx: Tx, grant: BonusGrant): Promise<BonusGrant> {
  const maxWin = maxWinOf(grant);
  const convert = maxWin !== null && grant.balanceMinor > maxWin ? maxWin : grant.balanceMinor;
  const excess = grant.balanceMinor - convert;
  let closeTransferId: bigint | null = null;
  if (convert > 0n) {
    const moved = await transfer(tx, {
      siteId: grant.siteId,
      kind: 'bonus_convert',
      from: { memberId: grant.memberId, account: 'bonus' },
      to: { memberId: grant.memberId, account: 'cash' },
      amountMinor: convert,
      idempotencyKey: `grant:${grant.id}:convert`,
      reference: `grant:${grant.id}`,
      metadata: { grantId: grant.id.toString() },
    });
    closeTransferId = moved.transferId;
  }
  if (excess > 0n) {
    const moved = await transfer(tx, {
      siteId: grant.siteId,
      kind: 'bonus_forfeit',
      from: { memberId: grant.memberId, account: 'bonus' },
      to: { system: 'promotions_expense' },
      amountMinor: excess,
      idempotencyKey: `grant:${grant.id}:maxwin`,
      reference: `grant:${grant.id}`,
      metadata: { grantId: grant.id.toString(), reason: 'max_win' },
    });
    closeTransferId ??= moved.transferId;
  }
  await updateGrant(tx, grant.id, {
    balanceDeltaMinor: -grant.balanceMinor,
    status: 'completed',
    closeTransferId,
    convertedMinor: convert,
    forfeitedMinor: excess,
  });
  return {
    ...grant,
    balanceMinor: 0n,
    status: 'completed',
    closedAt: new Date(),
    convertedMinor: convert,
    forfeitedMinor: excess,
  };
}

/**
 * Ends an active grant before its wagering is met: expiry (the job) or forfeit (e.g. the player
 * gives it up, self-exclusion). The rest goes back bonus → promotions_expense by a bonus_forfeit
 * transfer. Already closed: returns it unchanged. Expiry refuses (returns null) a grant not yet due.
 */
export async function closeGrant(
  executor: Executor,
  input: { siteId: bigint; grantId: bigint; reason: 'expired' | 'forfeited'; now?: Date },
): Promise<BonusGrant | null> {
  return atomically(executor, async (tx) => {
    const memberId = await findGrantMember(tx, input.siteId, input.grantId);
    if (memberId === null) return null;
    await lockPlayerAccounts(tx, input.siteId, memberId);
    const row = await lockGrantRow(tx, input.grantId);
    const grant = row ? toGrant(row) : null;
    if (grant?.status !== 'active') return grant;
    if (input.reason === 'expired' && grant.expiresAt > (input.now ?? new Date())) return null;
    let closeTransferId: bigint | null = null;
    if (grant.balanceMinor > 0n) {
      const moved = await transfer(tx, {
        siteId: grant.siteId,
        kind: 'bonus_forfeit',
        from: { memberId: grant.memberId, account: 'bonus' },
        to: { system: 'promotions_expense' },
        amountMinor: grant.balanceMinor,
        idempotencyKey: `grant:${grant.id}:${input.reason}`,
        reference: `grant:${grant.id}`,
        metadata: { grantId: grant.id.toString(), reason: input.reason },
      });
      closeTransferId = moved.transferId;
    }
    await updateGrant(tx, grant.id, {
      balanceDeltaMinor: -grant.balanceMinor,
      status: input.reason,
      closeTransferId,
      forfeitedMinor: grant.balanceMinor,
    });
    return { ...grant, balanceMinor: 0n, status: input.reason, forfeitedMinor: grant.balanceMinor };
  });
}

/**
 * Forfeits every active grant of a member on a site at once (a pause or self-exclusion starts: no
 * bonus may wait for the player's return), each by closeGrant in the caller's transaction.
 * Returns the grants closed.
 */
export async function forfeitActiveGrants(
  executor: Executor,
  input: { siteId: bigint; memberId: bigint },
): Promise<BonusGrant[]> {
  return atomically(executor, async (tx) => {
    await lockPlayerAccounts(tx, input.siteId, input.memberId).catch((error: unknown) => {
      // A member without wallet accounts has no grants either.
      if (error instanceof WalletError && error.code === 'ACCOUNT_NOT_FOUND') return null;
      throw error;
    });
    const grants = (await lockActiveGrantRows(tx, input.memberId))
      .map(toGrant)
      .filter((g) => g.siteId === input.siteId);
    const closed: BonusGrant[] = [];
    for (const grant of grants) {
      const done = await closeGrant(tx, { siteId: input.siteId, grantId: grant.id, reason: 'forfeited' });
      if (done) closed.push(done);
    }
    return closed;
  });
}

/** Active grants of a site past their expiry (for the expiry job), oldest first. */
export function dueGrantIds(executor: Executor, siteId: bigint, now: Date, limit = 500): Promise<bigint[]> {
  return findDueGrantIds(executor, siteId, now, limit);
}

/** Turnover the member still owes on grants that lock cash (blocks a withdrawal while > 0). */
export function grantWageringOwed(executor: Executor, memberId: bigint): Promise<bigint> {
  return sumWageringOwed(executor, memberId);
}

/** A member's grants, newest first (reward history), keyset-paged by id. */
export async function listGrants(
  executor: Executor,
  input: { siteId: bigint; memberId: bigint; status?: TGrantStatus; beforeId?: bigint; limit?: number },
): Promise<BonusGrant[]> {
  const rows = await findGrantPage(executor, {
    siteId: input.siteId,
    memberId: input.memberId,
    status: input.status ?? null,
    beforeId: input.beforeId ?? null,
    limit: Math.min(Math.max(input.limit ?? 50, 1), 200),
  });
  return rows.map(toGrant);
}
