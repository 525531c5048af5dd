import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { assertInvariant, WalletError } from './wallet.errors.ts';
import {
  rowsOf,
  TRANSFER_COLUMNS,
  type TTransferRaw,
  type TTransferWrite,
  transferResultOf,
  writeTransfers,
} from './wallet.repo.ts';
import {
  LIMITS,
  type PreparedTransfer,
  prepareTransfer,
  type TAccountRef,
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
  resolve: (result: TransferResult) => void;
  reject: (error: unknown) => void;
};

const committers = new WeakMap<Db, GroupCommitter>();

/**
 * Posts one transfer with group commit; same input, result and WalletError refusals as `transfer`.
 * Use it on the database (not in a transaction) on paths where many transfers arrive at once.
 */
export function transferGrouped(db: Db, input: TransferInput): Promise<TransferResult> {
  let committer = committers.get(db);
  if (!committer) {
    committer = new GroupCommitter(db);
    committers.set(db, committer);
  }
  return committer.submit(input);
}

/** Counters of this process's groups on `db` (bench and tests). */
export function groupCommitStats(db: Db): GroupCommitStats {
  return { ...(committers.get(db)?.stats ?? { groups: 0, transfers: 0, fallbacks: 0, largestGroup: 0 }) };
}

class GroupCommitter {
  readonly stats: GroupCommitStats = { groups: 0, transfers: 0, fallbacks: 0, largestGroup: 0 };
  private queue: Item[] = [];
  private inFlight = 0;
  /** Members and keys of the groups being posted: a later transfer of theirs waits for them. */
  private readonly busyMembers = new Set<string>();
  private readonly busyKeys = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: Db) {}

  submit(input: TransferInput): Promise<TransferResult> {
    let prepared: PreparedTransfer;
    try {
      prepared = prepareTransfer(input);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<TransferResult>((resolve, reject) => {
      this.queue.push({ input, prepared, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.timer || this.inFlight >= MAX_IN_FLIGHT) return;
    if (this.queue.length >= MAX_GROUP) {
      this.pump();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, WINDOW_MS);
  }

  /** Starts groups while there is room; a finished group starts the next. */
  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const group = this.take();
      if (group.length === 0) return;
      this.inFlight++;
      this.stats.groups++;
      this.stats.transfers += group.length;
      if (group.length > this.stats.largestGroup) this.stats.largestGroup = group.length;
      const members = group.flatMap((item) => membersOf(item));
      const keys = group.map((item) => idempotencyOf(item));
      for (const m of members) this.busyMembers.add(m);
      for (const k of keys) this.busyKeys.add(k);
      void this.postGroup(group).finally(() => {
        for (const m of members) this.busyMembers.delete(m);
        for (const k of keys) this.busyKeys.delete(k);
        this.inFlight--;
        this.pump();
      });
    }
  }

  /**
   * The next group, in arrival order, of transfers touching no member and no key of a group in
   * flight; a transfer left waiting holds back every later one of its member and its key, so each
   * member's transfers and each key's requests are posted in the order they arrived.
   */
  private take(): Item[] {
    const group: Item[] = [];
    const waiting: Item[] = [];
    const heldMembers = new Set<string>();
    const heldKeys = new Set<string>();
    for (const item of this.queue) {
      const members = membersOf(item);
      const key = idempotencyOf(item);
      const held =
        group.length >= MAX_GROUP ||
        this.busyKeys.has(key) ||
        heldKeys.has(key) ||
        members.some((m) => this.busyMembers.has(m) || heldMembers.has(m));
      if (held) {
        waiting.push(item);
        heldKeys.add(key);
        for (const m of members) heldMembers.add(m);
      } else {
        group.push(item);
      }
    }
    this.queue = waiting;
    return group;
  }

  private async postGroup(group: Item[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.db.transaction((tx) => postAll(tx, group));
    } catch {
      // Rolled back as a whole: each transfer on its own, in order (its key makes this exact).
      this.stats.fallbacks++;
      for (const item of group) {
        try {
          item.resolve(await transfer(this.db, item.input));
        } catch (error) {
          item.reject(error);
        }
      }
      return;
    }
    group.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if ('error' in outcome) item.reject(outcome.error);
      else item.resolve(outcome.result);
    });
  }
}

type Outcome = { result: TransferResult } | { error: unknown };

type AccountRow = {
  id: string;
  site_id: string;
  member_id: string | null;
  kind: string;
  balance_minor: string | null;
  wagering_required_minor: string | null;
};

type Account = { id: bigint; balance: bigint | null; wagering: bigint };

type Planned = {
  ord: number;
  item: Item;
  debitId: bigint;
  creditId: bigint;
  debitAfter: bigint | null;
  creditAfter: bigint | null;
  wageringAccountId: bigint | null;
  wageringDelta: bigint;
};

/** Thrown inside the group's transaction to roll it back and post transfer by transfer. */
class PostOneByOne extends Error {}

const keyOf = (siteId: bigint, key: string) => `${siteId}:${key}`;
const memberKey = (siteId: bigint, memberId: bigint) => `${siteId}:${memberId}`;

function membersOf(item: Item): string[] {
  const { posting } = item.prepared;
  return [posting.from, posting.to].flatMap((ref) =>
    'memberId' in ref ? [memberKey(posting.siteId, ref.memberId)] : [],
  );
}

function idempotencyOf(item: Item): string {
  return keyOf(item.prepared.posting.siteId, item.prepared.posting.idempotencyKey);
}

function conflict(idempotencyKey: string, transferId: bigint): WalletError {
  return new WalletError('IDEMPOTENCY_CONFLICT', 'This idempotency key was used for a different request', {
    idempotencyKey,
    transferId: transferId.toString(),
  });
}

/** The whole group inside its transaction: one read-and-lock statement, one write statement. */
async function postAll(tx: Tx, group: Item[]): Promise<Outcome[]> {
  const members = new Map<string, { site_id: string; member_id: string }>();
  const sites = new Set<string>();
  const keys = new Map<string, { site_id: string; key: string }>();
  for (const { prepared } of group) {
    const { posting } = prepared;
    sites.add(String(posting.siteId));
    keys.set(keyOf(posting.siteId, posting.idempotencyKey), {
      site_id: String(posting.siteId),
      key: posting.idempotencyKey,
    });
    for (const ref of [posting.from, posting.to]) {
      if ('memberId' in ref) {
        members.set(memberKey(posting.siteId, ref.memberId), {
          site_id: String(posting.siteId),
          member_id: String(ref.memberId),
        });
      }
    }
  }

  // 1. Lock the members' cash and bonus accounts (id order: no deadlock between groups), read the
  //    sites' system accounts and the transfers already holding one of the group's keys.
  const read = await rowsOf<{ what: 'account' | 'system' | 'prior'; row: AccountRow | TTransferRaw }>(
    tx,
    sql`WITH wanted AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify([...members.values()])}::jsonb)
            AS w(site_id bigint, member_id bigint)),
        locked AS (
          SELECT a.id::text, a.site_id::text, a.member_id::text, a.kind, a.balance_minor::text,
                 a.wagering_required_minor::text
          FROM wallet_accounts a
          WHERE (a.site_id, a.member_id) IN (SELECT site_id, member_id FROM wanted)
            AND a.kind IN ('cash', 'bonus')
          ORDER BY a.id
          FOR UPDATE OF a),
        system AS (
          SELECT id::text, site_id::text, NULL::text AS member_id, kind, NULL::text AS balance_minor,
                 NULL::text AS wagering_required_minor
          FROM wallet_accounts
          WHERE site_id = ANY(${`{${[...sites].join(',')}}`}::bigint[]) AND member_id IS NULL),
        prior AS (
          SELECT ${TRANSFER_COLUMNS} FROM wallet_transfers
          WHERE (site_id, idempotency_key) IN (
            SELECT site_id, key FROM jsonb_to_recordset(${JSON.stringify([...keys.values()])}::jsonb)
              AS k(site_id bigint, key text)))
        SELECT 'account' AS what, to_jsonb(locked) AS row FROM locked
        UNION ALL SELECT 'system', to_jsonb(system) FROM system
        UNION ALL SELECT 'prior', to_jsonb(prior) FROM prior`,
  );
  const memberAccounts = new Map<string, Map<string, Account>>();
  const systemAccounts = new Map<string, bigint>();
  const prior = new Map<string, TTransferRaw>();
  for (const { what, row } of read) {
    if (what === 'account') {
      const r = row as AccountRow;
      const at = memberKey(BigInt(r.site_id), BigInt(r.member_id!));
      let kinds = memberAccounts.get(at);
      if (!kinds) {
        kinds = new Map();
        memberAccounts.set(at, kinds);
      }
      kinds.set(r.kind, {
        id: BigInt(r.id),
        balance: r.balance_minor === null ? null : BigInt(r.balance_minor),
        wagering: BigInt(r.wagering_required_minor ?? '0'),
      });
    } else if (what === 'system') {
      const r = row as AccountRow;
      systemAccounts.set(`${r.site_id}:${r.kind}`, BigInt(r.id));
    } else {
      const r = row as TTransferRaw;
      prior.set(keyOf(BigInt(r.site_id), r.idempotency_key), r);
    }
  }

  // 2. Decide every transfer in arrival order, as one-by-one `transfer` calls would.
  const outcomes: (Outcome | { planned: Planned } | { replayOf: Planned } | { conflictWith: Planned })[] = [];
  const planned = new Map<string, Planned>();
  const touched = new Map<bigint, { start: Account; balance: bigint; wagering: bigint }>();
  group.forEach((item, ord) => {
    const { posting, hash } = item.prepared;
    const key = keyOf(posting.siteId, posting.idempotencyKey);
    const earlier = prior.get(key);
    if (earlier) {
      outcomes.push(
        earlier.request_hash === hash
          ? { result: transferResultOf(earlier, true) }
          : { error: conflict(earlier.idempotency_key, BigInt(earlier.id)) },
      );
      return;
    }
    const first = planned.get(key);
    if (first) {
      outcomes.push(first.item.prepared.hash === hash ? { replayOf: first } : { conflictWith: first });
      return;
    }
    try {
      const plan = decide(item, ord, memberAccounts, systemAccounts, touched);
      planned.set(key, plan);
      outcomes.push({ planned: plan });
    } catch (error) {
      if (error instanceof PostOneByOne) throw error;
      outcomes.push({ error });
    }
  });

  // 3. One statement: insert every planned transfer, move every touched balance.
  const plans = [...planned.values()];
  const inserted = new Map<string, { id: bigint; createdAt: Date; metadata: Record<string, unknown> }>();
  if (plans.length > 0) {
    const rows = plans.map((p): TTransferWrite => {
      const { posting, hash } = p.item.prepared;
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
    const deltas = [...touched].map(([id, t]) => ({
      id: String(id),
      balance: String(t.balance - t.start.balance!),
      wagering: String(t.wagering - t.start.wagering),
    }));
    const written = await writeTransfers(tx, rows, deltas, { skipTaken: false });
    for (const row of written.inserted) inserted.set(keyOf(row.siteId, row.idempotencyKey), row);
    for (const [id, after] of written.balances) {
      const t = touched.get(id);
      assertInvariant(t && after.balanceMinor === t.balance, `account ${id} balance as planned`);
      assertInvariant(after.wageringMinor === t.wagering, `account ${id} wagering as planned`);
    }
    assertInvariant(inserted.size === plans.length, 'every planned transfer was inserted');
  }

  const resultOf = (p: Planned, replayed: boolean): TransferResult => {
    const { posting } = p.item.prepared;
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
  return outcomes.map((o): Outcome => {
    if ('planned' in o) return { result: resultOf(o.planned, false) };
    if ('replayOf' in o) return { result: resultOf(o.replayOf, true) };
    if ('conflictWith' in o) {
      return {
        error: conflict(
          o.conflictWith.item.prepared.posting.idempotencyKey,
          resultOf(o.conflictWith, false).transferId,
        ),
      };
    }
    return o;
  });
}

/**
 * The checks of wallet.service `post` for a member ↔ system or system ↔ system transfer, on the
 * group's in-memory balances; applies the transfer to them when it passes.
 */
function decide(
  item: Item,
  ord: number,
  memberAccounts: Map<string, Map<string, Account>>,
  systemAccounts: Map<string, bigint>,
  touched: Map<bigint, { start: Account; balance: bigint; wagering: bigint }>,
): Planned {
  const { posting } = item.prepared;
  const refs: TAccountRef[] = [posting.from, posting.to];
  const memberRef = refs.find((ref) => 'memberId' in ref) as { memberId: bigint } | undefined;
  const betFromMember = posting.kind === 'bet' && 'memberId' in posting.from;
  const kinds = new Set<string>();
  for (const ref of refs) if ('memberId' in ref) kinds.add(ref.account);
  if (memberRef && (betFromMember || posting.wageringAddMinor > 0n)) kinds.add('cash');

  const mine = memberRef ? memberAccounts.get(memberKey(posting.siteId, memberRef.memberId)) : undefined;
  for (const kind of kinds) {
    if (!mine?.has(kind)) {
      throw new WalletError('ACCOUNT_NOT_FOUND', 'No such member account on this site', {
        memberId: memberRef?.memberId.toString() ?? null,
        account: kind,
      });
    }
  }
  // A site's first transfer opens its system accounts: that is `transfer`'s job.
  const accountId = (ref: TAccountRef): bigint => {
    if ('memberId' in ref) return mine!.get(ref.account)!.id;
    const id = systemAccounts.get(`${posting.siteId}:${ref.system}`);
    if (id === undefined) throw new PostOneByOne();
    return id;
  };
  const debitId = accountId(posting.from);
  const creditId = accountId(posting.to);
  const state = (ref: TAccountRef) => {
    if (!('memberId' in ref)) return null;
    const account = mine!.get(ref.account)!;
    let t = touched.get(account.id);
    if (!t) {
      assertInvariant(account.balance !== null, `player account ${account.id} has a stored balance`);
      t = { start: account, balance: account.balance, wagering: account.wagering };
    }
    return t;
  };
  const debit = state(posting.from);
  const credit = state(posting.to);
  const cash = kinds.has('cash') ? state({ memberId: memberRef!.memberId, account: 'cash' }) : null;
  // The same account object when cash is debited or credited.
  const cashState =
    cash && debit && cash.start.id === debit.start.id
      ? debit
      : cash && credit && cash.start.id === credit.start.id
        ? credit
        : cash;

  const wageringBefore = cashState?.wagering ?? 0n;
  if (debit && debit.balance < posting.amountMinor) {
    throw new WalletError('INSUFFICIENT_FUNDS', 'The balance does not cover this amount', {
      accountId: debit.start.id.toString(),
    });
  }
  let wageringDelta = posting.wageringAddMinor;
  if (betFromMember)
    wageringDelta -= wageringBefore < posting.amountMinor ? wageringBefore : posting.amountMinor;
  const debitAfter = debit ? debit.balance - posting.amountMinor : null;
  const creditAfter = credit ? credit.balance + posting.amountMinor : null;
  if (creditAfter !== null && creditAfter > LIMITS.balanceMinor) {
    throw new WalletError('INVALID_AMOUNT', 'The credited account would exceed its balance limit', {
      accountId: credit!.start.id.toString(),
    });
  }
  if (wageringBefore + wageringDelta > LIMITS.wageringMinor) {
    throw new WalletError('INVALID_AMOUNT', 'The wagering requirement would exceed its limit');
  }
  // Passed: apply to the group's balances.
  if (debit) {
    debit.balance = debitAfter!;
    touched.set(debit.start.id, debit);
  }
  if (credit) {
    credit.balance = creditAfter!;
    touched.set(credit.start.id, credit);
  }
  if (cashState && wageringDelta !== 0n) {
    cashState.wagering += wageringDelta;
    touched.set(cashState.start.id, cashState);
  }
  return {
    ord,
    item,
    debitId,
    creditId,
    debitAfter,
    creditAfter,
    wageringAccountId: wageringDelta === 0n || !cashState ? null : cashState.start.id,
    wageringDelta,
  };
}
