import { assertInvariant } from '../wallet.errors.ts';
import type { TransferResult } from '../wallet.schema.ts';
import type { BonusGrant } from './grant-model.ts';
import { maxWinOf } from './grants.ts';

/**
 * How a win (or refund) splits, decided from its stake's transfers and its grants before anything
 * moves (ADR 012). Pure: `payWin` (win.ts) reads what these need under its locks and posts what
 * they answer.
 */

/** A minor amount a stake's metadata recorded as text, or null when it holds none. */
export const minorOf = (v: unknown): bigint | null =>
  typeof v === 'string' && /^\d{1,19}$/.test(v) ? BigInt(v) : null;

/** What a stake recorded about its split: its total and `{ grantId: part }` of its bonus parts. */
export type TStakeSplit = { stakeMinor: bigint | null; parts: Map<bigint, bigint> };

/** The split a stake's first transfer recorded (none for stakes posted before stakes recorded it). */
export function stakeSplitOf(stake: TransferResult | undefined): TStakeSplit {
  const stakeMinor = minorOf(stake?.metadata.stakeMinor);
  const parts = new Map<bigint, bigint>();
  const recorded = stake?.metadata.bonusParts;
  if (stakeMinor !== null && stakeMinor > 0n && recorded && typeof recorded === 'object') {
    for (const [grantId, part] of Object.entries(recorded as Record<string, unknown>)) {
      const minor = minorOf(part);
      if (/^\d+$/.test(grantId) && minor !== null && minor > 0n) parts.set(BigInt(grantId), minor);
    }
  }
  const staked = [...parts.values()].reduce((sum, p) => sum + p, 0n);
  assertInvariant(stakeMinor === null || staked <= stakeMinor, 'bonus parts within the stake');
  return { stakeMinor, parts };
}

/**
 * The win in the stake's proportion: each grant's share (the last takes what rounding left of the
 * bonus side) and the cash share, rounded down so rounding favours bonus.
 */
export function winShares(
  amountMinor: bigint,
  split: TStakeSplit,
): { cashShareMinor: bigint; shares: [bigint, bigint][] } {
  const { stakeMinor, parts } = split;
  const staked = [...parts.values()].reduce((sum, p) => sum + p, 0n);
  const shares: [bigint, bigint][] = [];
  if (stakeMinor === null || staked === 0n) return { cashShareMinor: amountMinor, shares };
  const cashShareMinor = (amountMinor * (stakeMinor - staked)) / stakeMinor;
  let rest = amountMinor - cashShareMinor;
  const entries = [...parts.entries()];
  entries.forEach(([grantId, part], i) => {
    const share = i === entries.length - 1 ? rest : (amountMinor * part) / stakeMinor;
    rest -= share;
    shares.push([grantId, share]);
  });
  return { cashShareMinor, shares };
}

/** Where each share of a win goes, by what became of its grant since the stake. */
export type TWinRoute = {
  cashShareMinor: bigint;
  /** Active grants: the share goes back to the grant's balance, under its wagering. */
  toGrants: [BonusGrant, bigint][];
  /** Closed grants (and a completed grant's share above its max win): credited and forfeited at once. */
  toForfeit: [BonusGrant, bigint][];
  /** Completed grants: the share paid as cash, counted on the grant as converted. */
  lateConverted: [BonusGrant, bigint][];
};

/**
 * Routes the shares over the grants as they are now (`locked`, in lock order). A grant that
 * converted meanwhile pays its share as cash within what its max win still allows (its conversion
 * and earlier late wins count); a grant no longer there (never: grants are not deleted) pays cash.
 */
export function routeShares(
  locked: readonly BonusGrant[],
  shares: readonly [bigint, bigint][],
  cashShareMinor: bigint,
): TWinRoute {
  const route: TWinRoute = { cashShareMinor, toGrants: [], toForfeit: [], lateConverted: [] };
  const shareOf = new Map(shares);
  for (const grant of locked) {
    const share = shareOf.get(grant.id) ?? 0n;
    if (share === 0n) continue;
    if (grant.status === 'active') route.toGrants.push([grant, share]);
    else if (grant.status === 'completed') {
      const maxWin = maxWinOf(grant);
      const left =
        maxWin === null ? share : maxWin > grant.convertedMinor ? maxWin - grant.convertedMinor : 0n;
      const allowed = share < left ? share : left;
      route.cashShareMinor += allowed;
      if (allowed > 0n) route.lateConverted.push([grant, allowed]);
      if (share > allowed) route.toForfeit.push([grant, share - allowed]);
    } else route.toForfeit.push([grant, share]);
  }
  for (const [grantId, share] of shares) {
    if (share > 0n && !locked.some((g) => g.id === grantId)) route.cashShareMinor += share;
  }
  return route;
}
