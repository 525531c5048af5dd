import {
  commitWithNextStatement,
  type Db,
  isEmbedded,
  perDatabase,
  type Tx,
  transactionOnGenericPlans,
} from '../../db/client.ts';
import {
  type GroupDecision,
  type GroupItem,
  type GroupOutcome,
  GroupQueue,
  postOrOneByOne,
} from '../../db/group-queue.ts';
import type { StakeInput } from './bonus/grant-model.ts';
import { cashStake, cashStakeFeedingGrant, type TFedGrant } from './posting/grant-parts.ts';
import { keyOf, lockGroup } from './posting/ledger.ts';
import {
  answerPrior,
  conflict,
  decideTransfer,
  type GroupLedger,
  memberKey,
  type PlannedTransfer,
} from './posting/plan.ts';
import { type PreparedTransfer, prepareTransfer, type TransferInput } from './posting/request.ts';
import { writePlanned } from './posting/statement.ts';
import type { TJson, TransferResult } from './wallet.schema.ts';
import { transfer } from './wallet.service.ts';

/**
 * Group commit (docs/decisions/033-the-bet-pipeline.md): `transferGrouped(db, input)` answers exactly
 * what `transfer(db, input)` would, but transfers that arrive while another group is being posted
 * (or within WINDOW_MS of the first) are posted together in ONE transaction of four statements
 * whatever their number: BEGIN · lock every member account of the group in id order and read the
 * system accounts and the keys already taken · one INSERT of all transfers and one UPDATE of all
 * balances (a single statement) · COMMIT.
 *
 * Each transfer keeps its own idempotency key, result and refusal: refusals (insufficient funds,
 * unknown account, limits, a key reused for another request) are decided in memory, in arrival
 * order, against the balances as the earlier transfers of the group left them — the decisions
 * one-by-one `transfer` calls would make in that order — and never reach the database. A key
 * already taken answers as a replay (or a conflict); a key twice in one group, the second as a
 * replay of the first. A site's first transfer, which must open its system accounts, is the
 * planner's `alone` decision: the group writes nothing and every transfer of it is posted on its
 * own with `transfer`, in order; so is every transfer of a group whose statements fail anyway (a
 * key taken by a concurrent transfer of another member). The per-item fallback gives each its own
 * outcome, and keys make the retry exact.
 *
 * At most four groups at a time per database, with no member and no key in common: each member's
 * transfers and each key's requests keep their arrival order (a later one waits for the group in
 * flight), and a group takes its locks in one statement in id order, so groups cannot deadlock
 * with each other or with `transfer`. Only calls on the database itself are grouped: inside a
 * caller's transaction use `transfer` (the group would not commit with it).
 */

/** How long the first transfer of a group waits for others (ms); later ones wait for a group in flight. */
const WINDOW_MS = 1;
/** Most transfers in one group (one statement's parameters stay small: ≈ 500 × 400 bytes of JSON). */
const MAX_GROUP = 500;
/**
 * Groups posted at once. Their members and keys are disjoint (`take`), so they touch no common row
 * and keep each member's order; while one waits for its commit the next is already being written.
 */
const MAX_IN_FLIGHT = 4;

export interface GroupCommitStats {
  groups: number;
  transfers: number;
  /** Groups that rolled back and were posted transfer by transfer. */
  fallbacks: number;
  largestGroup: number;
}

type Item = {
  input: TransferInput;
  prepared: PreparedTransfer;
} & GroupItem<object, TransferResult>;

const committerOf = perDatabase((db) => new GroupCommitter(db));

/**
 * Posts one transfer with group commit; same input, result and WalletError refusals as `transfer`.
 * Use it on the database (not in a transaction) on paths where many transfers arrive at once.
 */
export function transferGrouped(db: Db, input: TransferInput): Promise<TransferResult> {
  return committerOf(db).submit(input);
}

/** Counters of this process's groups on `db` (bench and tests). */
export function groupCommitStats(db: Db): GroupCommitStats {
  const { groups, items, largestGroup, rolledBack } = committerOf(db).queue.stats;
  return { groups, transfers: items, fallbacks: rolledBack, largestGroup };
}

class GroupCommitter {
  readonly queue: GroupQueue<Item>;

  constructor(private readonly db: Db) {
    this.queue = new GroupQueue<Item>({
      name: 'transfers',
      windowMs: WINDOW_MS,
      maxGroup: MAX_GROUP,
      maxInFlight: isEmbedded(db) ? 1 : MAX_IN_FLIGHT,
      oncePerGroup: false,
      scopes: (item) => [
        ...membersOf(item.prepared).map((m) => `m:${m}`),
        `k:${idempotencyOf(item.prepared)}`,
      ],
      post: (group) => this.postGroup(group),
    });
  }

  submit(input: TransferInput): Promise<TransferResult> {
    let prepared: PreparedTransfer;
    try {
      prepared = prepareTransfer(input);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<TransferResult>((resolve, reject) => {
      this.queue.push({ input, prepared, resolve, reject });
    });
  }

  private postGroup(group: Item[]): Promise<void> {
    // Rolled back as a whole: each transfer on its own, in order (its key makes this exact).
    return postOrOneByOne<object, TransferResult, Item>(
      this.queue,
      group,
      (ready) => transactionOnGenericPlans(this.db, (tx) => postAll(tx, ready)),
      (item) => transfer(this.db, item.input),
    );
  }
}

type Outcome = GroupOutcome<TransferResult>;

function membersOf(prepared: PreparedTransfer): string[] {
  const { posting } = prepared;
  return [posting.from, posting.to].flatMap((ref) =>
    'memberId' in ref ? [memberKey(posting.siteId, ref.memberId)] : [],
  );
}

function idempotencyOf(prepared: PreparedTransfer): string {
  return keyOf(prepared.posting.siteId, prepared.posting.idempotencyKey);
}

/** A member account's balance as the group's planned transfers leave it (null: no such account). */
export function groupBalance(
  ledger: GroupLedger,
  siteId: bigint,
  memberId: bigint,
  kind: 'cash' | 'bonus',
): bigint | null {
  const account = ledger.memberAccounts.get(memberKey(siteId, memberId))?.get(kind);
  if (!account) return null;
  return ledger.touched.get(account.id)?.balance ?? account.balance;
}

/**
 * A bet's stake as a group posts it: all from cash (`cashStake`), or for a member holding active
 * grants (locked in the ledger) the cash stake feeding one (`cashStakeFeedingGrant`, ADR 028).
 * Null: the stake is the one-by-one path's (`stakeWithBonus`).
 */
export function groupStake(
  ledger: GroupLedger,
  input: StakeInput & { metadata: { [key: string]: TJson } },
): { stake: PreparedTransfer; fed: TFedGrant | null } | null {
  const held = ledger.grants.get(input.memberId) ?? [];
  if (held.length === 0) return { stake: cashStake(input), fed: null };
  const cash = groupBalance(ledger, input.siteId, input.memberId, 'cash') ?? 0n;
  return cashStakeFeedingGrant(input, held, cash);
}

/** The whole group inside its transaction: one read-and-lock statement, one write statement. */
async function postAll(tx: Tx, group: Item[]): Promise<GroupDecision<TransferResult>> {
  const ledger = await lockGroup(
    tx,
    group.map((item) => item.prepared),
  );

  // Decide every transfer in arrival order, as one-by-one `transfer` calls would.
  const outcomes: (
    | Outcome
    | { planned: PlannedTransfer }
    | { replayOf: PlannedTransfer }
    | { conflictWith: PlannedTransfer }
  )[] = [];
  const planned = new Map<string, PlannedTransfer>();
  for (const item of group) {
    const { posting, hash } = item.prepared;
    const key = keyOf(posting.siteId, posting.idempotencyKey);
    const earlier = ledger.prior.get(key);
    if (earlier) {
      outcomes.push(answerPrior(earlier, hash));
      continue;
    }
    const first = planned.get(key);
    if (first) {
      outcomes.push(first.prepared.hash === hash ? { replayOf: first } : { conflictWith: first });
      continue;
    }
    const decision = decideTransfer(ledger, item.prepared);
    if (decision.kind === 'alone') return { alone: decision.reason };
    if (decision.kind === 'refuse') {
      outcomes.push({ error: decision.error });
      continue;
    }
    planned.set(key, decision.plan);
    outcomes.push({ planned: decision.plan });
  }

  // Nothing follows the write but answering: its COMMIT is written right behind it (the balances it
  // checks are the ones this transaction locked).
  commitWithNextStatement(tx);
  const resultOf = await writePlanned(tx, ledger, [...planned.values()]);
  return outcomes.map((o): Outcome => {
    if ('planned' in o) return { result: resultOf(o.planned, false) };
    if ('replayOf' in o) return { result: resultOf(o.replayOf, true) };
    if ('conflictWith' in o) {
      return {
        error: conflict(
          o.conflictWith.prepared.posting.idempotencyKey,
          resultOf(o.conflictWith, false).transferId,
        ),
      };
    }
    return o;
  });
}

/** A member's playable balance (cash and bonus) as a group leaves it. */
export function groupPlayable(ledger: GroupLedger, siteId: bigint, memberId: bigint): bigint {
  return (
    (groupBalance(ledger, siteId, memberId, 'cash') ?? 0n) +
    (groupBalance(ledger, siteId, memberId, 'bonus') ?? 0n)
  );
}
