import type { TFedGrant, TGrantMove } from '../posting/grant-parts.ts';
import type { GroupLedger } from '../posting/plan.ts';
import { type PreparedTransfer, prepareTransfer } from '../posting/request.ts';
import { WalletError } from '../wallet.errors.ts';
import { groupBalance, groupStake } from '../wallet.group.ts';
import type { TJson } from '../wallet.schema.ts';
import { type BonusGrant, partKey, type StakeInput, type WinInput } from './grant-model.ts';
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
  stakeMinor: bigint;
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
  const stakes = partTransfers({ ...input, kind: 'bet', metadata: plan.metadata }, [
    ...(plan.cashPartMinor > 0n ? [{ amountMinor: plan.cashPartMinor, grant: null }] : []),
    ...plan.parts.map(([grant, amountMinor]) => ({ amountMinor, grant })),
  ]);
  return {
    stakes,
    fed: fed
      ? { grantId: fed.id, doneBeforeMinor: fed.wageringDoneMinor, countedMinor: plan.countedMinor }
      : null,
    moves: plan.parts.map(([grant, amount]) => moveOf(grant, -amount)),
    bonusPartMinor: input.amountMinor - plan.cashPartMinor,
    stakeMinor: input.amountMinor,
    plan,
  };
}

/** A bet's stake as a group posts it, with what it does to the member's grants. */
export type TGroupBetStake = {
  /** The first under the bet's key (the cash part, else the first grant part), then the parts. */
  stakes: PreparedTransfer[];
  fed: TFedGrant | null;
  moves: TGrantMove[];
  bonusPartMinor: bigint;
};

/**
 * The stake of a bet whose win is paid later (a crash cash-out, a sportsbook settlement), as
 * `takeBetStake` posts it one by one: cash → house, feeding a grant the member holds
 * (`groupStake`), or split over cash and the grants when the cash does not cover it
 * (`groupBonusStake`). Null: a stake the group does not decide (a max bet passed, a grant
 * completed: one by one, ADR 028).
 */
export function groupBetStake(ledger: GroupLedger, input: TInput<StakeInput>): TGroupBetStake | null {
  const staked = groupStake(ledger, input);
  if (staked) return { stakes: [staked.stake], fed: staked.fed, moves: [], bonusPartMinor: 0n };
  const split = groupBonusStake(ledger, input);
  if (!split) return null;
  const { stakes, fed, moves, bonusPartMinor } = split;
  return { stakes, fed, moves, bonusPartMinor };
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
  const { memberId } = input;
  const parts = new Map(stake.plan.parts.map(([grant, amount]) => [grant.id, amount]));
  const split = { stakeMinor: stake.stakeMinor, parts };
  const { cashShareMinor, shares } = winShares(input.amountMinor, split);
  const route = routeShares(ledger.grants.get(memberId) ?? [], shares, cashShareMinor);
  if (route.toForfeit.length > 0 || route.lateConverted.length > 0) return null;
  const meta = { ...input.metadata, winMinor: input.amountMinor.toString(), stakeKey: input.stakeKey };
  const wins = partTransfers({ ...input, kind: 'win', metadata: meta }, [
    ...(route.cashShareMinor > 0n ? [{ amountMinor: route.cashShareMinor, grant: null }] : []),
    ...route.toGrants.map(([grant, amountMinor]) => ({ amountMinor, grant })),
  ]);
  return { wins, moves: route.toGrants.map(([grant, share]) => moveOf(grant, share)) };
}

/** A part of a split stake or win: cash (no grant), or a grant's part in the bonus account. */
type TPart = { amountMinor: bigint; grant: BonusGrant | null };

/**
 * The transfers of a split stake (member → house) or win (house → member), as `postStake` and
 * `postWin` post them: the first part under the key, further parts under `<key>:b<grant>`, each
 * naming its part (and grant) in the metadata.
 */
function partTransfers(
  base: {
    siteId: bigint;
    memberId: bigint;
    kind: 'bet' | 'win';
    idempotencyKey: string;
    reference?: string;
    metadata: { [key: string]: TJson };
  },
  parts: readonly TPart[],
): PreparedTransfer[] {
  const { siteId, memberId, kind, idempotencyKey, reference, metadata } = base;
  return parts.map(({ amountMinor, grant }, i) => {
    const member = { memberId, account: grant ? ('bonus' as const) : ('cash' as const) };
    const house = { system: 'house' as const };
    return prepareTransfer({
      siteId,
      kind,
      from: kind === 'bet' ? member : house,
      to: kind === 'bet' ? house : member,
      amountMinor,
      idempotencyKey: grant ? partKey(idempotencyKey, grant.id, i === 0) : idempotencyKey,
      reference,
      metadata: grant
        ? { ...metadata, part: 'bonus', grantId: grant.id.toString() }
        : { ...metadata, part: 'cash' },
    });
  });
}
