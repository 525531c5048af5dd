import type { TFedGrant, TGrantMove } from '../posting/grant-parts.ts';
import type { GroupLedger } from '../posting/plan.ts';
import { type PreparedTransfer, prepareTransfer } from '../posting/request.ts';
import { WalletError } from '../wallet.errors.ts';
import { groupBalance } from '../wallet.group.ts';
import type { TJson } from '../wallet.schema.ts';
import type { BonusGrant, StakeInput, WinInput } from './grant-model.ts';
import { routeShares, winShares } from './split.ts';
import { planStake, type TStakePlan } from './stake-plan.ts';

/**
 * A bonus holder's stake that takes a bonus part, and the win of that bet, as a group posts them
 * (ADR 028): the transfers `stakeWithBonus` and `payWin` post one by one, planned on the group's
 * locked accounts and grants, with the grants' balance and wagering moves the group's write checks
 * against its read. Null wherever the group does not decide alone: a refusal (BONUS_MAX_BET,
 * INSUFFICIENT_FUNDS, answered by the one-by-one path), a stake whose wagering completes the grant
 * it feeds (a conversion), a win share that would not go back to an active grant.
 */

/** A stake split over cash and the member's grants, with what it does to them. */
export type TGroupBonusStake = {
  /** The cash part under the bet's key (when there is cash), then each grant's part. */
  stakes: PreparedTransfer[];
  fed: TFedGrant | null;
  moves: TGrantMove[];
  bonusPartMinor: bigint;
  plan: TStakePlan;
};

type TInput<T> = T & { metadata: { [key: string]: TJson } };

/** A grant's move from the values the group's read locked. */
function moveOf(grant: BonusGrant, deltaMinor: bigint): TGrantMove {
  return {
    grantId: grant.id,
    balanceBeforeMinor: grant.balanceMinor,
    doneBeforeMinor: grant.wageringDoneMinor,
    balanceDeltaMinor: deltaMinor,
  };
}

/** The stake of a member holding active grants whose cash does not cover it alone. */
export function groupBonusStake(ledger: GroupLedger, input: TInput<StakeInput>): TGroupBonusStake | null {
  const { siteId, memberId } = input;
  const grants = ledger.grants.get(memberId) ?? [];
  if (grants.length === 0) return null;
  const balances = {
    cashMinor: groupBalance(ledger, siteId, memberId, 'cash') ?? 0n,
    bonusMinor: groupBalance(ledger, siteId, memberId, 'bonus') ?? 0n,
  };
  let plan: TStakePlan;
  try {
    plan = planStake(input, balances, grants);
  } catch (error) {
    if (error instanceof WalletError) return null;
    throw error;
  }
  const { fed } = plan;
  if (fed && fed.wageringDoneMinor + plan.countedMinor >= fed.wageringRequiredMinor) return null;
  const stakes: PreparedTransfer[] = [];
  // The first part under the bet's key, further parts under `<key>:b<grant>` (as `postStake`).
  const keyOf = (grant: BonusGrant) =>
    stakes.length === 0 ? input.idempotencyKey : `${input.idempotencyKey}:b${grant.id}`;
  const common = {
    siteId,
    kind: 'bet' as const,
    to: { system: 'house' as const },
    reference: input.reference,
  };
  if (plan.cashPartMinor > 0n) {
    stakes.push(
      prepareTransfer({
        ...common,
        from: { memberId, account: 'cash' },
        amountMinor: plan.cashPartMinor,
        idempotencyKey: input.idempotencyKey,
        metadata: { ...plan.metadata, part: 'cash' },
      }),
    );
  }
  for (const [grant, amount] of plan.parts) {
    stakes.push(
      prepareTransfer({
        ...common,
        from: { memberId, account: 'bonus' },
        amountMinor: amount,
        idempotencyKey: keyOf(grant),
        metadata: { ...plan.metadata, part: 'bonus', grantId: grant.id.toString() },
      }),
    );
  }
  return {
    stakes,
    fed: fed
      ? { grantId: fed.id, doneBeforeMinor: fed.wageringDoneMinor, countedMinor: plan.countedMinor }
      : null,
    moves: plan.parts.map(([grant, amount]) => moveOf(grant, -amount)),
    bonusPartMinor: input.amountMinor - plan.cashPartMinor,
    plan,
  };
}

/** A win split as its stake was, with the grants' balances it moves back. */
export type TGroupBonusWin = { wins: PreparedTransfer[]; moves: TGrantMove[] };

/**
 * The win of a bet whose stake `groupBonusStake` split, paid in the stake's proportion in the same
 * group (as `payWin`): the cash share to cash under the win's key, each grant's share back to the
 * bonus account and the grant's balance. The grants are the ones the group locked, still active.
 */
export function groupBonusWin(
  ledger: GroupLedger,
  stake: TGroupBonusStake,
  input: TInput<Omit<WinInput, 'kind' | 'wageringAddMinor'>>,
): TGroupBonusWin | null {
  const { siteId, memberId } = input;
  const parts = new Map(stake.plan.parts.map(([grant, amount]) => [grant.id, amount]));
  const split = {
    stakeMinor: stake.plan.parts.reduce((sum, [, a]) => sum + a, 0n) + stake.plan.cashPartMinor,
    parts,
  };
  const { cashShareMinor, shares } = winShares(input.amountMinor, split);
  const route = routeShares(ledger.grants.get(memberId) ?? [], shares, cashShareMinor);
  if (route.toForfeit.length > 0 || route.lateConverted.length > 0) return null;
  const common = {
    siteId,
    kind: 'win' as const,
    from: { system: 'house' as const },
    reference: input.reference,
  };
  const meta = { ...input.metadata, winMinor: input.amountMinor.toString(), stakeKey: input.stakeKey };
  const wins: PreparedTransfer[] = [];
  if (route.cashShareMinor > 0n) {
    wins.push(
      prepareTransfer({
        ...common,
        to: { memberId, account: 'cash' },
        amountMinor: route.cashShareMinor,
        idempotencyKey: input.idempotencyKey,
        metadata: { ...meta, part: 'cash' },
      }),
    );
  }
  for (const [grant, share] of route.toGrants) {
    wins.push(
      prepareTransfer({
        ...common,
        to: { memberId, account: 'bonus' },
        amountMinor: share,
        idempotencyKey: wins.length === 0 ? input.idempotencyKey : `${input.idempotencyKey}:b${grant.id}`,
        metadata: { ...meta, part: 'bonus', grantId: grant.id.toString() },
      }),
    );
  }
  return { wins, moves: route.toGrants.map(([grant, share]) => moveOf(grant, share)) };
}
