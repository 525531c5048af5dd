import { WalletError } from '../wallet.errors.ts';
import type { TJson } from '../wallet.schema.ts';
import { type BonusGrant, categoryWeight, type StakeInput } from './grant-model.ts';

/**
 * How a bonus holder's stake splits over cash and the active grants, decided before anything
 * moves. Pure: `stakeWithBonus` (stake.ts) posts it one by one, `groupBonusStake`
 * (group-parts.ts) in a group's statement.
 */

/** How a stake splits, decided before anything moves. */
export type TStakePlan = {
  cashPartMinor: bigint;
  /** Which grant pays which part of the rest, in lock order. */
  parts: [BonusGrant, bigint][];
  /** The grant whose wagering the stake feeds (the earliest to expire) and what it counts there. */
  fed: BonusGrant | null;
  countedMinor: bigint;
  /** What every transfer of the stake carries, so its win splits the same way (payWin). */
  metadata: { [key: string]: TJson };
};

/**
 * The split of a stake over the member's cash and active grants (lock order): cash first, then
 * the grants in turn. Refuses a stake above the max bet of a grant still wagering (BONUS_MAX_BET),
 * then one that cash and bonus do not cover (INSUFFICIENT_FUNDS).
 */
export function planStake(
  input: StakeInput,
  balances: { cashMinor: bigint; bonusMinor: bigint },
  grants: readonly BonusGrant[],
): TStakePlan {
  for (const grant of grants) {
    const wagering = grant.wageringDoneMinor < grant.wageringRequiredMinor;
    if (wagering && grant.maxBetMinor !== null && input.amountMinor > grant.maxBetMinor) {
      throw new WalletError('BONUS_MAX_BET', 'The stake is above the max bet of a bonus still wagering', {
        maxBetMinor: grant.maxBetMinor.toString(),
        grantId: grant.id.toString(),
      });
    }
  }
  const cashPartMinor = balances.cashMinor < input.amountMinor ? balances.cashMinor : input.amountMinor;
  let bonusLeft = input.amountMinor - cashPartMinor;
  const grantsBalance = grants.reduce((sum, g) => sum + g.balanceMinor, 0n);
  if (bonusLeft > grantsBalance || bonusLeft > balances.bonusMinor) {
    throw new WalletError('INSUFFICIENT_FUNDS', 'Cash and bonus do not cover the stake', {
      memberId: input.memberId.toString(),
    });
  }
  const parts: [BonusGrant, bigint][] = [];
  for (const grant of grants) {
    if (bonusLeft === 0n) break;
    const part = grant.balanceMinor < bonusLeft ? grant.balanceMinor : bonusLeft;
    if (part === 0n) continue;
    parts.push([grant, part]);
    bonusLeft -= part;
  }
  const fed = grants[0] ?? null;
  const metadata = {
    ...input.metadata,
    stakeMinor: input.amountMinor.toString(),
    category: input.category,
    ...(fed ? { fedGrantId: fed.id.toString() } : {}),
    ...(parts.length > 0
      ? { bonusParts: Object.fromEntries(parts.map(([g, part]) => [g.id.toString(), part.toString()])) }
      : {}),
  };
  const countedMinor = fed ? (input.amountMinor * categoryWeight(fed.terms, input.category)) / 100n : 0n;
  return { cashPartMinor, parts, fed, countedMinor, metadata };
}
