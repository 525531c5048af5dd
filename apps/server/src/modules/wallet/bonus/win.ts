import { isGameCategory } from '@sorte/contract';
import type { Executor, Tx } from '../../../db/client.ts';
import { atomically } from '../../../db/sql.ts';
import type { TransferInput } from '../posting/request.ts';
import { assertInvariant, WalletError } from '../wallet.errors.ts';
import type { TransferResult } from '../wallet.schema.ts';
import { type TLockedAccounts, transferLocked } from '../wallet.service.ts';
import { type BonusGrant, categoryWeight, partKey, toGrant, type WinInput } from './grant-model.ts';
import { lockGrantRows, updateGrant } from './grants.repo.ts';
import { lockForMove, playableOf } from './lock.ts';
import { minorOf, routeShares, stakeSplitOf, type TWinRoute, winShares } from './split.ts';

export interface WinResult {
  /** The first transfer of the win (cash if any went to cash, else the first bonus part). */
  first: TransferResult;
  cashPartMinor: bigint;
  /** The part paid to active grants (stays under their wagering). */
  bonusPartMinor: bigint;
  /** The part of grants closed (expired, forfeited) before the win: credited and taken back at once. */
  forfeitedMinor: bigint;
  /** What the member can stake now: cash + bonus after the win. */
  playableAfterMinor: bigint;
  replayed: boolean;
}

/**
 * Pays a bet's win in the stake's real/bonus proportion (ADR 012), in the caller's transaction:
 * the share of the win staked from a grant's bonus goes back to that grant's balance and stays
 * under its wagering (so expiry or forfeit takes it back); the real-money share goes to cash. A
 * grant that completed meanwhile (wagering met, converted) gets its share as cash up to what its max
 * win still allows (the excess is credited and forfeited, like the excess of its conversion); one that expired
 * or was forfeited before the win gets it credited and taken back at once (bonus_forfeit), so money
 * won with bonus never becomes withdrawable without its wagering. Rounding favours bonus: the cash
 * share is rounded down. A repeated key answers the first win, or IDEMPOTENCY_CONFLICT for another
 * amount. Stakes posted before stakes recorded their split pay all to cash, as they did.
 */
export async function payWin(executor: Executor, input: WinInput): Promise<WinResult> {
  if (typeof input.amountMinor !== 'bigint' || input.amountMinor <= 0n) {
    throw new WalletError('INVALID_AMOUNT', 'A win must be positive');
  }
  return atomically(executor, async (tx) => {
    const { accounts, balances, transfers } = await lockForMove(
      tx,
      input.siteId,
      input.memberId,
      [input.idempotencyKey, input.stakeKey],
      { grants: false },
    );
    const previous = transfers.get(input.idempotencyKey);
    if (previous) return replayedWin(input, previous, balances);
    const stake = transfers.get(input.stakeKey);
    const split = stakeSplitOf(stake);
    const { cashShareMinor, shares } = winShares(input.amountMinor, split);
    // A refund takes back the wagering the bet fed on its grant (an undone bet never counts as play).
    const fedId = (input.kind ?? 'win') === 'refund' ? minorOf(stake?.metadata.fedGrantId) : null;
    const locked = await lockWinGrants(tx, input.memberId, shares, fedId);
    const fed = locked.find((g) => g.id === fedId);
    if (fed?.status === 'active' && split.stakeMinor !== null) {
      await takeBackWagering(tx, fed, split.stakeMinor, stake?.metadata.category);
    }
    const route = routeShares(locked, shares, cashShareMinor);
    const paid = await postWin(tx, input, route, accounts);
    for (const [grant, allowed] of route.lateConverted) {
      await updateGrant(tx, grant.id, { convertedMinor: allowed });
    }
    // Every transfer above went through the locked rows, which are current.
    const now = playableOf(accounts);
    return {
      first: paid.first,
      cashPartMinor: route.cashShareMinor,
      bonusPartMinor: paid.bonusPartMinor,
      forfeitedMinor: paid.forfeitedMinor,
      playableAfterMinor: now.cashMinor + now.bonusMinor,
      replayed: false,
    };
  });
}

/** The first answer for a key already paid, or IDEMPOTENCY_CONFLICT when it paid something else. */
function replayedWin(
  input: WinInput,
  previous: TransferResult,
  balances: { cashMinor: bigint; bonusMinor: bigint },
): WinResult {
  const paid = minorOf(previous.metadata.winMinor) ?? previous.amountMinor;
  if (previous.kind !== (input.kind ?? 'win') || paid !== input.amountMinor) {
    throw new WalletError('IDEMPOTENCY_CONFLICT', 'This key was used for another win', {
      idempotencyKey: input.idempotencyKey,
    });
  }
  const cashPart = previous.metadata.part === 'bonus' ? 0n : previous.amountMinor;
  return {
    first: previous,
    cashPartMinor: cashPart,
    bonusPartMinor: input.amountMinor - cashPart,
    forfeitedMinor: 0n,
    playableAfterMinor: balances.cashMinor + balances.bonusMinor,
    replayed: true,
  };
}

/** The grants the win's shares (and a refund's fed grant) name, locked in the order every path uses. */
async function lockWinGrants(
  tx: Tx,
  memberId: bigint,
  shares: readonly [bigint, bigint][],
  fedId: bigint | null,
): Promise<BonusGrant[]> {
  const ids = [
    ...new Set([
      ...shares.filter(([, share]) => share > 0n).map(([id]) => id.toString()),
      ...(fedId === null ? [] : [fedId.toString()]),
    ]),
  ];
  if (ids.length === 0) return [];
  return (await lockGrantRows(tx, memberId, ids)).map(toGrant);
}

/** A refund's fed grant loses the wagering its stake counted there (never below zero). */
async function takeBackWagering(
  tx: Tx,
  fed: BonusGrant,
  stakeMinor: bigint,
  category: unknown,
): Promise<void> {
  const counted = (stakeMinor * categoryWeight(fed.terms, isGameCategory(category) ? category : null)) / 100n;
  const back = counted < fed.wageringDoneMinor ? counted : fed.wageringDoneMinor;
  if (back > 0n) await updateGrant(tx, fed.id, { wageringDoneDeltaMinor: -back });
}

/**
 * The win's transfers: the cash share under the win's key, then each grant's share to bonus (the
 * first under the win's key when no cash was paid); a closed grant's share is forfeited at once.
 */
async function postWin(
  tx: Tx,
  input: WinInput,
  route: TWinRoute,
  accounts: TLockedAccounts,
): Promise<{ first: TransferResult; bonusPartMinor: bigint; forfeitedMinor: bigint }> {
  const kind = input.kind ?? 'win';
  const common = { ...input.metadata, winMinor: input.amountMinor.toString(), stakeKey: input.stakeKey };
  // The cash account's old turnover counter, restored by the first transfer whichever it is.
  const wagering = input.wageringAddMinor && input.wageringAddMinor > 0n ? input.wageringAddMinor : null;
  let first: TransferResult | null = null;
  const credit = (
    account: 'cash' | 'bonus',
    amountMinor: bigint,
    key: string,
    metadata: TransferInput['metadata'],
  ) =>
    transferLocked(
      tx,
      {
        siteId: input.siteId,
        kind,
        from: { system: 'house' },
        to: { memberId: input.memberId, account },
        amountMinor,
        idempotencyKey: key,
        reference: input.reference,
        metadata,
        ...(wagering && !first ? { wageringAddMinor: wagering } : {}),
      },
      accounts,
    );
  if (route.cashShareMinor > 0n) {
    first = await credit('cash', route.cashShareMinor, input.idempotencyKey, { ...common, part: 'cash' });
  }
  let bonusPartMinor = 0n;
  let forfeitedMinor = 0n;
  for (const [grant, share] of [...route.toGrants, ...route.toForfeit]) {
    const key = partKey(input.idempotencyKey, grant.id, !first);
    const moved = await credit('bonus', share, key, {
      ...common,
      part: 'bonus',
      grantId: grant.id.toString(),
    });
    first ??= moved;
    if (grant.status === 'active') {
      await updateGrant(tx, grant.id, { balanceDeltaMinor: share });
      bonusPartMinor += share;
    } else {
      await forfeitShare(tx, input, grant, share, accounts);
      forfeitedMinor += share;
    }
  }
  assertInvariant(first, 'a positive win or refund posted a transfer');
  return { first, bonusPartMinor, forfeitedMinor };
}

/** A closed grant's share of a win, credited a moment ago, goes back to promotions_expense. */
async function forfeitShare(
  tx: Tx,
  input: WinInput,
  grant: BonusGrant,
  share: bigint,
  accounts: TLockedAccounts,
): Promise<void> {
  const kind = input.kind ?? 'win';
  await transferLocked(
    tx,
    {
      siteId: input.siteId,
      kind: 'bonus_forfeit',
      from: { memberId: input.memberId, account: 'bonus' },
      to: { system: 'promotions_expense' },
      amountMinor: share,
      idempotencyKey: `${input.idempotencyKey}:b${grant.id}:${grant.status}`,
      reference: `grant:${grant.id}`,
      metadata: {
        grantId: grant.id.toString(),
        reason: grant.status === 'completed' ? 'max_win' : `${kind}_after_${grant.status}`,
      },
    },
    accounts,
  );
  await updateGrant(tx, grant.id, { forfeitedMinor: share });
}
