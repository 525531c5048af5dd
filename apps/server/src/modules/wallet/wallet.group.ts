import { type SQL, sql } from 'drizzle-orm';
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
import {
  cashStake,
  cashStakeFeedingGrant,
  groupGrantRows,
  groupGrantsOf,
  type TFedGrant,
} from './posting/grant-parts.ts';
import { decideTransfer, type GroupLedger, memberKey, type PlannedTransfer } from './posting/plan.ts';
import type { StakeInput } from './wallet.bonus.ts';
import { assertInvariant, WalletError } from './wallet.errors.ts';
import {
  preparedRowsOf,
  type TBalanceDelta,
  TRANSFER_COLUMNS,
  type TTransferRaw,
  type TTransferWrite,
  type TTransferWrites,
  transferResultOf,
  writeTransfers,
} from './wallet.repo.ts';
import {
  type PreparedTransfer,
  prepareTransfer,
  type TJson,
  type TransferInput,
  type TransferResult,
  transfer,
} from './wallet.service.ts';

/**
 * Group commit (docs/decisions/019-group-commit.md): `transferGrouped(db, input)` answers exactly
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
 * replay of the first. Should the group's statements fail anyway (a key taken by a concurrent
 * transfer of another member, a site's first transfer that must open its system accounts), the
 * group rolls back and every transfer of it is posted on its own with `transfer`, in order: the
 * per-item fallback gives each its own outcome, and keys make the retry exact.
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

type AccountRow = {
  id: string;
  site_id: string;
  member_id: string | null;
  kind: string;
  balance_minor: string | null;
  wagering_required_minor: string | null;
};

const keyOf = (siteId: bigint, key: string) => `${siteId}:${key}`;

function membersOf(prepared: PreparedTransfer): string[] {
  const { posting } = prepared;
  return [posting.from, posting.to].flatMap((ref) =>
    'memberId' in ref ? [memberKey(posting.siteId, ref.memberId)] : [],
  );
}

function idempotencyOf(prepared: PreparedTransfer): string {
  return keyOf(prepared.posting.siteId, prepared.posting.idempotencyKey);
}

function conflict(idempotencyKey: string, transferId: bigint): WalletError {
  return new WalletError('IDEMPOTENCY_CONFLICT', 'This idempotency key was used for a different request', {
    idempotencyKey,
    transferId: transferId.toString(),
  });
}

/** What a group locks and reads: its members' accounts, its sites' system accounts, its keys. */
export type GroupLockTargets = {
  members: readonly { siteId: bigint; memberId: bigint }[];
  sites: readonly bigint[];
  keys: readonly { siteId: bigint; key: string }[];
};

/** The rows of the lock parts (`groupLockParts`), as `groupLedgerOf` reads them. */
export type GroupLockRow = { what: 'account' | 'system' | 'prior'; row: AccountRow | TTransferRaw };

/**
 * The CTEs and result rows that lock the cash and bonus accounts of every member of a group (id
 * order: no deadlock between groups) and read the sites' system accounts and the transfers already
 * holding one of the keys; part of ONE statement (`lockGroup`, or the bet group's read). Members and
 * keys are matched by `= ANY(array)` (index lookups): matched only against the JSON record set, the
 * planner (guessing 100 rows for it) chose a hash join over the whole accounts and transfers
 * tables, a scan per group that grew with the ledger.
 */
export function groupLockParts({ members, sites, keys }: GroupLockTargets): { ctes: SQL; rows: SQL } {
  const siteIds = `{${sites.join(',')}}`;
  return {
    ctes: sql`wanted AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(members.map((m) => ({ site_id: String(m.siteId), member_id: String(m.memberId) })))}::jsonb)
            AS w(site_id bigint, member_id bigint)),
        locked AS (
          SELECT a.id::text, a.site_id::text, a.member_id::text, a.kind, a.balance_minor::text,
                 a.wagering_required_minor::text
          FROM wallet_accounts a
          WHERE a.member_id = ANY(${`{${members.map((m) => m.memberId).join(',')}}`}::bigint[])
            AND (a.site_id, a.member_id) IN (SELECT site_id, member_id FROM wanted)
            AND a.kind IN ('cash', 'bonus')
          ORDER BY a.id
          FOR NO KEY UPDATE OF a),
        system AS (
          SELECT id::text, site_id::text, NULL::text AS member_id, kind, NULL::text AS balance_minor,
                 NULL::text AS wagering_required_minor
          FROM wallet_accounts
          WHERE site_id = ANY(${siteIds}::bigint[]) AND member_id IS NULL),
        prior AS (
          SELECT ${TRANSFER_COLUMNS} FROM wallet_transfers
          WHERE site_id = ANY(${siteIds}::bigint[])
            AND idempotency_key = ANY(ARRAY(
              SELECT jsonb_array_elements_text(${JSON.stringify(keys.map((k) => k.key))}::jsonb)))
            AND (site_id, idempotency_key) IN (
              SELECT site_id, key FROM jsonb_to_recordset(${JSON.stringify(keys.map((k) => ({ site_id: String(k.siteId), key: k.key })))}::jsonb)
                AS k(site_id bigint, key text)))`,
    rows: sql`SELECT 'account' AS what, to_jsonb(locked) AS row FROM locked
        UNION ALL SELECT 'system', to_jsonb(system) FROM system
        UNION ALL SELECT 'prior', to_jsonb(prior) FROM prior`,
  };
}

/**
 * `groupLockParts` of a group of members' bets: their accounts and their sites' system accounts;
 * with `grants`, then their active bonus grants (a stake feeds one: `groupStake`, ADR 028).
 */
export function membersLockParts(
  members: readonly { siteId: bigint; memberId: bigint }[],
  options: { grants?: boolean } = {},
): {
  ctes: SQL;
  rows: SQL;
} {
  const parts = groupLockParts({
    members: members.map(({ siteId, memberId }) => ({ siteId, memberId })),
    sites: [...new Set(members.map(({ siteId }) => siteId))],
    keys: [],
  });
  if (!options.grants) return parts;
  const grants = groupGrantRows(members.map(({ memberId }) => memberId));
  return { ctes: parts.ctes, rows: sql`${parts.rows} UNION ALL ${grants}` };
}

/** A bet group's read: its rows of `what` in the group's order (`ord`), and its ledger. */
export function groupReadOf<T extends { ord: number }>(
  rows: readonly { what: string; row: unknown }[],
  what: string,
): { reads: T[]; ledger: GroupLedger } {
  const reads = rows.filter((r) => r.what === what).map((r) => r.row as T);
  reads.sort((a, b) => a.ord - b.ord);
  return { reads, ledger: groupLedgerOf(rows) };
}

/** A group's ledger from the rows of its lock parts (other rows are skipped). */
export function groupLedgerOf(read: readonly { what: string; row: unknown }[]): GroupLedger {
  const ledger: GroupLedger = {
    memberAccounts: new Map(),
    systemAccounts: new Map(),
    prior: new Map(),
    grants: groupGrantsOf(read),
    touched: new Map(),
  };
  for (const { what, row } of read) {
    if (what === 'account') {
      const r = row as AccountRow;
      const at = memberKey(BigInt(r.site_id), BigInt(r.member_id!));
      let kinds = ledger.memberAccounts.get(at);
      if (!kinds) {
        kinds = new Map();
        ledger.memberAccounts.set(at, kinds);
      }
      kinds.set(r.kind, {
        id: BigInt(r.id),
        balance: r.balance_minor === null ? null : BigInt(r.balance_minor),
        wagering: BigInt(r.wagering_required_minor ?? '0'),
      });
    } else if (what === 'system') {
      const r = row as AccountRow;
      ledger.systemAccounts.set(`${r.site_id}:${r.kind}`, BigInt(r.id));
    } else if (what === 'prior') {
      const r = row as TTransferRaw;
      ledger.prior.set(keyOf(BigInt(r.site_id), r.idempotency_key), r);
    }
  }
  return ledger;
}

/** ONE statement (`groupLockParts`): locks the members' accounts of the transfers and reads the rest. */
export async function lockGroup(tx: Tx, transfers: readonly PreparedTransfer[]): Promise<GroupLedger> {
  const members = new Map<string, { siteId: bigint; memberId: bigint }>();
  const sites = new Set<bigint>();
  const keys = new Map<string, { siteId: bigint; key: string }>();
  for (const { posting } of transfers) {
    sites.add(posting.siteId);
    keys.set(keyOf(posting.siteId, posting.idempotencyKey), {
      siteId: posting.siteId,
      key: posting.idempotencyKey,
    });
    for (const ref of [posting.from, posting.to]) {
      if ('memberId' in ref) {
        members.set(memberKey(posting.siteId, ref.memberId), {
          siteId: posting.siteId,
          memberId: ref.memberId,
        });
      }
    }
  }
  const parts = groupLockParts({
    members: [...members.values()],
    sites: [...sites],
    keys: [...keys.values()],
  });
  return groupLedgerOf(
    await preparedRowsOf<GroupLockRow>(tx, 'sorte_wallet_group_lock', sql`WITH ${parts.ctes} ${parts.rows}`),
  );
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
      outcomes.push(
        earlier.request_hash === hash
          ? { result: transferResultOf(earlier, true) }
          : { error: conflict(earlier.idempotency_key, BigInt(earlier.id)) },
      );
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

/** How to answer each planned transfer once the group's writes are done. */
export type TWrittenPlans = (plan: PlannedTransfer, replayed: boolean) => TransferResult;

/**
 * The group's writes for `writeTransfers` (or `transferWrites`): every planned transfer and every
 * touched balance, and how to answer each planned transfer once they are written (the balances
 * checked against the plan).
 */
export function plannedWrites(
  ledger: GroupLedger,
  plans: readonly PlannedTransfer[],
): {
  transfers: TTransferWrite[];
  deltas: TBalanceDelta[];
  answers: (written: TTransferWrites) => TWrittenPlans;
} {
  const transfers = plans.map((p): TTransferWrite => {
    const { posting, hash } = p.prepared;
    return {
      site_id: String(posting.siteId),
      kind: posting.kind,
      debit: String(p.debitId),
      credit: String(p.creditId),
      amount: String(posting.amountMinor),
      debit_after: p.debitAfter === null ? null : String(p.debitAfter),
      credit_after: p.creditAfter === null ? null : String(p.creditAfter),
      wagering_account: p.wageringAccountId === null ? null : String(p.wageringAccountId),
      wagering_delta: String(p.wageringDelta),
      hold: null,
      reference: posting.reference,
      metadata: posting.metadata,
      key: posting.idempotencyKey,
      hash,
    };
  });
  const deltas = [...ledger.touched].map(([id, t]) => ({
    id: String(id),
    balance: String(t.balance - t.start.balance!),
    wagering: String(t.wagering - t.start.wagering),
  }));
  return { transfers, deltas, answers: (written) => answersOf(ledger, plans, written) };
}

function answersOf(
  ledger: GroupLedger,
  plans: readonly PlannedTransfer[],
  written: TTransferWrites,
): TWrittenPlans {
  const inserted = new Map<string, { id: bigint; createdAt: Date; metadata: Record<string, unknown> }>();
  for (const row of written.inserted) inserted.set(keyOf(row.siteId, row.idempotencyKey), row);
  for (const [id, after] of written.balances) {
    const t = ledger.touched.get(id);
    assertInvariant(t && after.balanceMinor === t.balance, `account ${id} balance as planned`);
    assertInvariant(after.wageringMinor === t.wagering, `account ${id} wagering as planned`);
  }
  assertInvariant(inserted.size === plans.length, 'every planned transfer was inserted');
  return (p, replayed) => {
    const { posting } = p.prepared;
    const row = inserted.get(keyOf(posting.siteId, posting.idempotencyKey));
    assertInvariant(row, `transfer ${posting.idempotencyKey} inserted`);
    return {
      transferId: row.id,
      siteId: posting.siteId,
      kind: posting.kind,
      debitAccountId: p.debitId,
      creditAccountId: p.creditId,
      amountMinor: posting.amountMinor,
      debitBalanceAfterMinor: p.debitAfter,
      creditBalanceAfterMinor: p.creditAfter,
      wageringDeltaMinor: p.wageringDelta,
      holdTransferId: null,
      reference: posting.reference,
      metadata: row.metadata,
      idempotencyKey: posting.idempotencyKey,
      createdAt: row.createdAt,
      replayed,
    };
  };
}

/**
 * ONE statement: inserts every planned transfer and moves every touched balance (checked against
 * the plan). Returns how to answer each planned transfer.
 */
export async function writePlanned(
  tx: Tx,
  ledger: GroupLedger,
  plans: readonly PlannedTransfer[],
): Promise<TWrittenPlans> {
  const { transfers, deltas, answers } = plannedWrites(ledger, plans);
  if (plans.length === 0) return answers({ inserted: [], balances: new Map() });
  return answers(await writeTransfers(tx, transfers, deltas, { skipTaken: false }));
}
