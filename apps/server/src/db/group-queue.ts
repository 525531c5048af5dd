import { type Db, isEmbedded } from './client.ts';

/**
 * The queue of group commit (ADR 019), shared by the wallet's grouped transfers and the grouped
 * in-house bets: items that arrive while a group is being posted (or within `windowMs` of the
 * first) form the next group, up to `maxGroup`. At most `maxInFlight` groups are posted at once
 * and never two with a scope in common (a member, an idempotency key): an item whose scope is in a
 * group in flight waits, and holds back every later item of that scope, so each scope's items are
 * posted in arrival order. `post` gets each group and must settle every item of it itself.
 */

export interface GroupQueueStats {
  groups: number;
  items: number;
  largestGroup: number;
  /** Items that `post` placed one by one though their group committed (`countDeferred`). */
  deferred: number;
  /** Groups that rolled back as a whole (`countRolledBack`). */
  rolledBack: number;
}

const emptyStats = (): GroupQueueStats => ({
  groups: 0,
  items: 0,
  largestGroup: 0,
  deferred: 0,
  rolledBack: 0,
});

/**
 * This process's counts of every group queue of a name ('bets', 'transfers'), all databases
 * together: what GET /metrics reports (plugins/operations.ts).
 */
const totals = new Map<string, GroupQueueStats>();

export function groupQueueTotals(): ReadonlyMap<string, Readonly<GroupQueueStats>> {
  return totals;
}

export interface GroupQueueOptions<T> {
  /** What the queue groups, for the process's totals (`groupQueueTotals`). */
  name: string;
  windowMs: number;
  maxGroup: number;
  maxInFlight: number;
  /** What an item must not share with a group in flight (its member, its key). */
  scopes: (item: T) => readonly string[];
  /** Whether a scope also appears at most once per group (else items of one scope group together). */
  oncePerGroup: boolean;
  /**
   * Whether a finished group lets the event loop read what keeps arriving before the next starts
   * (`READ_MAX_MS`). On the embedded database a statement runs on this thread: a group started right
   * behind the last one gets only what was read before it, one or two requests over HTTP.
   */
  readBeforeNext?: boolean;
  post: (group: T[]) => Promise<void>;
}

/**
 * Longest a finished group lets the event loop read before the next starts (`readBeforeNext`):
 * long enough for the requests already on the wire to join the next group, short enough that a
 * lone request does not wait (the runs that chose it are in docs/bench-log/).
 */
const READ_MAX_MS = 10;

export class GroupQueue<T> {
  readonly stats: GroupQueueStats = emptyStats();
  private readonly total: GroupQueueStats;
  private queue: T[] = [];
  private inFlight = 0;
  private readonly busy = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** A finished group is letting the event loop read (`readBeforeNext`): the next waits for it. */
  private reading = false;

  constructor(private readonly options: GroupQueueOptions<T>) {
    let total = totals.get(options.name);
    if (!total) {
      total = emptyStats();
      totals.set(options.name, total);
    }
    this.total = total;
  }

  /** `post` placed `count` items of a committed group one by one after it. */
  countDeferred(count: number): void {
    this.stats.deferred += count;
    this.total.deferred += count;
  }

  /** `post`'s group rolled back as a whole (its items were then placed one by one). */
  countRolledBack(): void {
    this.stats.rolledBack += 1;
    this.total.rolledBack += 1;
  }

  push(item: T): void {
    this.queue.push(item);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.reading || this.inFlight >= this.options.maxInFlight) return;
    if (this.queue.length >= this.options.maxGroup) {
      this.pump();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, this.options.windowMs);
  }

  /** Starts groups while there is room; a finished group starts the next. */
  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const group = this.take();
      if (group.length === 0) return;
      this.inFlight++;
      for (const stats of [this.stats, this.total]) {
        stats.groups++;
        stats.items += group.length;
        if (group.length > stats.largestGroup) stats.largestGroup = group.length;
      }
      const scopes = group.flatMap((item) => this.options.scopes(item));
      for (const scope of scopes) this.busy.add(scope);
      void this.options
        .post(group)
        .catch(() => {
          // `post` settles its items; a throw here would leave nothing to settle.
        })
        .finally(() => {
          for (const scope of scopes) this.busy.delete(scope);
          this.inFlight--;
          if (this.options.readBeforeNext) this.readThenPump(this.queue.length, performance.now());
          else this.pump();
        });
    }
  }

  /**
   * Lets the event loop read what has arrived, for as long as more keeps arriving (up to
   * READ_MAX_MS, or a full group), then starts the next group.
   */
  private readThenPump(seen: number, since: number): void {
    this.reading = true;
    setImmediate(() => {
      const more = this.queue.length > seen && this.queue.length < this.options.maxGroup;
      if (more && performance.now() - since < READ_MAX_MS) {
        this.readThenPump(this.queue.length, since);
        return;
      }
      this.reading = false;
      this.pump();
    });
  }

  /**
   * The next group, in arrival order, of items sharing no scope with a group in flight (nor, with
   * `oncePerGroup`, with each other); an item left waiting holds back every later one of its scopes.
   */
  private take(): T[] {
    const group: T[] = [];
    const waiting: T[] = [];
    const held = new Set<string>();
    const { maxGroup, oncePerGroup } = this.options;
    for (const item of this.queue) {
      const scopes = this.options.scopes(item);
      const blocked = group.length >= maxGroup || scopes.some((s) => this.busy.has(s) || held.has(s));
      if (blocked || oncePerGroup) for (const s of scopes) held.add(s);
      if (blocked) waiting.push(item);
      else group.push(item);
    }
    this.queue = waiting;
    return group;
  }
}

/** How long the first request of a members' group waits for others (ms); later ones wait for a group in flight. */
const MEMBERS_WINDOW_MS = 1;
/** Most requests in one members' group. */
const MEMBERS_MAX_GROUP = 200;
/**
 * Members' groups posted at once on PostgreSQL (their members are disjoint): while one waits for
 * its commit the next is written; more groups in flight only make each group smaller. On the
 * embedded database one (its statements run on this thread).
 */
const MEMBERS_MAX_IN_FLIGHT = 2;

/**
 * The queue of members' requests on `db`: the in-house bets (ADR 023), the crash bets and the
 * presses of "cash out" (ADR 026). At most one request of a member in a group, and a member's
 * requests posted in arrival order; on the embedded database one group at a time, each letting the
 * event loop read before the next (`readBeforeNext`).
 */
export function membersQueue<T>(
  db: Db,
  name: string,
  memberOf: (item: T) => { siteId: bigint; memberId: bigint },
  post: (group: T[]) => Promise<void>,
  /**
   * More scopes of an item (a provider's round and transaction ids), and whether a member's
   * requests may share a group (its `post` then decides them in order itself).
   */
  options: { scopes?: (item: T) => readonly string[]; oncePerGroup?: boolean } = {},
): GroupQueue<T> {
  return new GroupQueue<T>({
    name,
    windowMs: MEMBERS_WINDOW_MS,
    maxGroup: MEMBERS_MAX_GROUP,
    maxInFlight: isEmbedded(db) ? 1 : MEMBERS_MAX_IN_FLIGHT,
    oncePerGroup: options.oncePerGroup ?? true,
    readBeforeNext: isEmbedded(db),
    scopes: (item) => {
      const { siteId, memberId } = memberOf(item);
      return [`${siteId}:${memberId}`, ...(options.scopes?.(item) ?? [])];
    },
    post,
  });
}

/** What a group's transaction decided for one of its items. */
export type GroupOutcome<R> = { result: R } | { error: unknown } | { defer: true };

/**
 * A group's transaction decided that the whole group goes one by one (a planner's `alone`: a
 * site's first transfer, which opens its system accounts). It wrote nothing; `reason` says why.
 */
export type GroupAlone = { alone: string };

/** What a group's transaction answers: an outcome per item, in order, or that it goes alone. */
export type GroupDecision<R> = GroupOutcome<R>[] | GroupAlone;

/**
 * An item of a committer: how its caller is answered, and what readies it for the group (none: it
 * is ready as it is; null: it goes one by one).
 */
export type GroupItem<X, R> = {
  ready?: Promise<X | null>;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
};

/**
 * Posts a group as every committer does (ADR 033): the items whose `ready` gave nothing, the ones
 * the group defers, or all of them when its transaction (`write`) decides the group goes alone or
 * fails, are placed `oneByOne` after it, in arrival order (so each member's and each key's order
 * holds).
 */
export async function postOrOneByOne<X, R, I extends GroupItem<X, R>>(
  queue: Pick<GroupQueue<I>, 'countRolledBack' | 'countDeferred'>,
  all: readonly I[],
  write: (group: (I & X)[]) => Promise<GroupDecision<R>>,
  oneByOne: (item: I) => Promise<R>,
): Promise<void> {
  const group: (I & X)[] = [];
  const later: I[] = [];
  for (const item of all) {
    const ready = item.ready ? await item.ready.catch(() => null) : ({} as X);
    if (ready) group.push({ ...item, ...ready });
    else later.push(item);
  }
  let decided: GroupDecision<R> = [];
  let fellBack = false;
  try {
    if (group.length > 0) decided = await write(group);
  } catch {
    // A statement failed (a deadlock, a guard of the rows): the transaction rolled back.
    fellBack = true;
  }
  if (!Array.isArray(decided)) fellBack = true;
  if (fellBack) queue.countRolledBack();
  const outcomes: GroupOutcome<R>[] =
    fellBack || !Array.isArray(decided) ? group.map(() => ({ defer: true })) : decided;
  group.forEach((item, i) => {
    const outcome = outcomes[i]!;
    if ('defer' in outcome) later.push(item);
    else if ('error' in outcome) item.reject(outcome.error);
    else item.resolve(outcome.result);
  });
  if (!fellBack) queue.countDeferred(later.length);
  for (const item of later) {
    try {
      item.resolve(await oneByOne(item));
    } catch (error) {
      item.reject(error);
    }
  }
}
