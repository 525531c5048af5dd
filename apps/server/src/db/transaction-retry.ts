import { setTimeout as sleep } from 'node:timers/promises';

/**
 * SQLSTATEs after which PostgreSQL has rolled the whole transaction back and running it again is
 * the documented answer: a deadlock it broke (40P01) and a serialization failure (40001).
 */
const CONFLICT_STATES = new Set(['40P01', '40001']);

/**
 * Whether an error (or what it wraps: drizzle puts the driver's error in `cause`) says the
 * transaction lost a lock conflict: it changed nothing and may run again. A work function that
 * caught the conflict itself and went on gets `25P02` (transaction aborted) on its next statement,
 * which wraps nothing: that one is a bug of the work, not a conflict, and is not retried.
 */
export function isTransactionConflict(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && CONFLICT_STATES.has(code)) return true;
    e = cause;
  }
  return false;
}

/**
 * Most times a transaction runs before its conflict is answered (a 503 with Retry-After). The lock
 * order (docs/decisions/029-one-lock-order.md) leaves no deadlock between our own paths, so a
 * retry is the last line: a conflict with an operator's statement, a path that breaks the order.
 */
export const TRANSACTION_TRIES = 4;
/** The first retry waits up to this long; each later one up to twice as long as the one before. */
export const RETRY_BASE_DELAY_MS = 10;

/** This process's lock conflicts, all databases together: what GET /metrics reports. */
const totals = { retried: 0, unresolved: 0 };

/** Transactions run again after a conflict, and conflicts still there after the last try. */
export function transactionConflictTotals(): Readonly<typeof totals> {
  return totals;
}

export interface RetryOptions {
  tries?: number;
  baseDelayMs?: number;
  /** A number in [0, 1): the jitter (Math.random; a fixed one in tests). */
  random?: () => number;
  wait?: (ms: number) => Promise<unknown>;
  /** Told of each conflict that will be run again (the try that failed, from 1). */
  onRetry?: (error: unknown, failedTry: number) => void;
}

/**
 * Runs a whole transaction (`run` opens it, runs its work and commits) again after a conflict,
 * at most `tries` times, waiting a random time below an exponentially growing bound between tries
 * ("full jitter") so the transactions that collided do not collide again in step. Anything that
 * must happen once happens after `run` resolves: realtime pushes go out after the commit, and
 * notifications are rows of the transaction itself (ADR 016), so a rolled-back try leaves none.
 */
export async function retryingConflicts<T>(run: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const tries = options.tries ?? TRANSACTION_TRIES;
  const base = options.baseDelayMs ?? RETRY_BASE_DELAY_MS;
  const random = options.random ?? Math.random;
  const wait = options.wait ?? sleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
      if (attempt >= tries) {
        totals.unresolved += 1;
        throw error;
      }
      totals.retried += 1;
      options.onRetry?.(error, attempt);
      await wait(Math.floor(random() * base * 2 ** (attempt - 1)));
    }
  }
}

type TTransactionOf = (work: (tx: never) => Promise<unknown>, config?: never) => Promise<unknown>;

/**
 * Makes every transaction a database opens (`db.transaction`, and so `transactionOnGenericPlans`
 * and the group committers) run again on a conflict. Only the database's own: a transaction opened
 * inside one is a savepoint, and a conflict aborts the outer transaction, which is what runs again.
 */
export function retryTransactionsOnConflict(db: { transaction: unknown }, options: RetryOptions = {}): void {
  const transaction = (db.transaction as TTransactionOf).bind(db);
  db.transaction = ((work: (tx: never) => Promise<unknown>, config?: never) =>
    retryingConflicts(() => transaction(work, config), options)) as TTransactionOf;
}
