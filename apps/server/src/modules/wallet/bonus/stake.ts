import type { Executor, Tx } from '../../../db/client.ts';
import { atomically } from '../../../db/sql.ts';
import { assertInvariant, WalletError } from '../wallet.errors.ts';
import type { TransferResult } from '../wallet.schema.ts';
import { type TLockedAccounts, transferLocked } from '../wallet.service.ts';
import { partKey, type StakeInput } from './grant-model.ts';
import { updateGrant } from './grants.repo.ts';
import { convertGrant, lockPlayerAccounts } from './grants.ts';
import { lockForMove, playableOf } from './lock.ts';
import { planStake, type TStakePlan } from './stake-plan.ts';

export interface StakeResult {
  /** The first transfer of the stake (cash if any cash was spent, else the first bonus part). */
  first: TransferResult;
  cashPartMinor: bigint;
  bonusPartMinor: bigint;
  /** The grant whose wagering this bet fed (null: no active grant). */
  fedGrantId: bigint | null;
  /** What the member can still stake: cash + bonus after the bet. */
  playableAfterMinor: bigint;
  replayed: boolean;
}

/**
 * A bet's stake, in the bet's transaction: real money first, then bonus; the max bet of every grant
 * still wagering is checked before anything moves (WalletError BONUS_MAX_BET); the stake feeds the
 * earliest-expiring active grant, which converts to cash once its wagering is met. A repeated key
 * answers the first stake (replayed) or IDEMPOTENCY_CONFLICT for another amount.
 */
export async function stakeWithBonus(executor: Executor, input: StakeInput): Promise<StakeResult> {
  if (typeof input.amountMinor !== 'bigint' || input.amountMinor <= 0n) {
    throw new WalletError('INVALID_AMOUNT', 'The stake must be positive');
  }
  return atomically(executor, async (tx) => {
    const { accounts, balances, transfers, grants } = await lockForMove(
      tx,
      input.siteId,
      input.memberId,
      [input.idempotencyKey],
      { grants: true },
    );
    const previous = transfers.get(input.idempotencyKey);
    if (previous) return replayedStake(input, previous, balances);
    const plan = planStake(input, balances, grants);
    const first = await postStake(tx, input, plan, accounts);
    const converted = await moveGrants(tx, plan);
    // The rows are locked and the stake's transfers kept them current; a grant converting to cash
    // moved money by transfers of its own, so then they are read again.
    const now = converted ? await lockPlayerAccounts(tx, input.siteId, input.memberId) : playableOf(accounts);
    return {
      first,
      cashPartMinor: plan.cashPartMinor,
      bonusPartMinor: input.amountMinor - plan.cashPartMinor,
      fedGrantId: plan.fed?.id ?? null,
      playableAfterMinor: now.cashMinor + now.bonusMinor,
      replayed: false,
    };
  });
}

/** The first answer for a key already staked, or IDEMPOTENCY_CONFLICT when it staked something else. */
function replayedStake(
  input: StakeInput,
  previous: TransferResult,
  balances: { cashMinor: bigint; bonusMinor: bigint },
): StakeResult {
  if (previous.kind !== 'bet' || String(previous.metadata.stakeMinor) !== input.amountMinor.toString()) {
    throw new WalletError('IDEMPOTENCY_CONFLICT', 'This key was used for another stake', {
      idempotencyKey: input.idempotencyKey,
    });
  }
  const cashPart = previous.metadata.part === 'cash' ? previous.amountMinor : 0n;
  return {
    first: previous,
    cashPartMinor: cashPart,
    bonusPartMinor: input.amountMinor - cashPart,
    fedGrantId:
      typeof previous.metadata.fedGrantId === 'string' ? BigInt(previous.metadata.fedGrantId) : null,
    playableAfterMinor: balances.cashMinor + balances.bonusMinor,
    replayed: true,
  };
}

/** The stake's transfers: the cash part under the bet's key, then each grant's part; the first. */
async function postStake(
  tx: Tx,
  input: StakeInput,
  plan: TStakePlan,
  accounts: TLockedAccounts,
): Promise<TransferResult> {
  let first: TransferResult | null = null;
  if (plan.cashPartMinor > 0n) {
    first = await transferLocked(
      tx,
      {
        siteId: input.siteId,
        kind: 'bet',
        from: { memberId: input.memberId, account: 'cash' },
        to: { system: 'house' },
        amountMinor: plan.cashPartMinor,
        idempotencyKey: input.idempotencyKey,
        reference: input.reference,
        metadata: { ...plan.metadata, part: 'cash' },
      },
      accounts,
    );
  }
  for (const [grant, part] of plan.parts) {
    const moved = await transferLocked(
      tx,
      {
        siteId: input.siteId,
        kind: 'bet',
        from: { memberId: input.memberId, account: 'bonus' },
        to: { system: 'house' },
        amountMinor: part,
        idempotencyKey: partKey(input.idempotencyKey, grant.id, !first),
        reference: input.reference,
        metadata: { ...plan.metadata, part: 'bonus', grantId: grant.id.toString() },
      },
      accounts,
    );
    first ??= moved;
  }
  assertInvariant(first, 'a positive stake posted a transfer');
  return first;
}

/**
 * The grants' side of a posted stake: each part leaves its grant's balance, the fed grant's
 * wagering moves on, and a fed grant whose wagering is met converts. True when one converted.
 */
async function moveGrants(tx: Tx, plan: TStakePlan): Promise<boolean> {
  const { fed } = plan;
  for (const [grant, part] of plan.parts) {
    if (grant.id !== fed?.id) await updateGrant(tx, grant.id, { balanceDeltaMinor: -part });
  }
  if (!fed) return false;
  const spentFromFed = plan.parts.find(([grant]) => grant.id === fed.id)?.[1] ?? 0n;
  await updateGrant(tx, fed.id, {
    balanceDeltaMinor: -spentFromFed,
    wageringDoneDeltaMinor: plan.countedMinor,
  });
  const after = {
    ...fed,
    balanceMinor: fed.balanceMinor - spentFromFed,
    wageringDoneMinor: fed.wageringDoneMinor + plan.countedMinor,
  };
  if (after.wageringDoneMinor < after.wageringRequiredMinor) return false;
  await convertGrant(tx, after);
  return true;
}
