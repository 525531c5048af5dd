import { describe, expect, it } from 'vitest';
import {
  isTransactionConflict,
  RETRY_BASE_DELAY_MS,
  retryingConflicts,
  retryTransactionsOnConflict,
  TRANSACTION_TRIES,
  transactionConflictTotals,
} from './transaction-retry.ts';

/** A driver error as node-postgres gives it, wrapped as drizzle wraps a failed query. */
function wrapped(code: string, message: string): Error {
  return Object.assign(new Error('Failed query: SELECT 1'), {
    cause: Object.assign(new Error(message), { code }),
  });
}

const deadlock = () => wrapped('40P01', 'deadlock detected');

/** A run that fails with `errors` in turn, then answers `answer`; counts its tries. */
function failing(errors: unknown[], answer = 'committed') {
  const run = async () => {
    run.tries += 1;
    const error = errors[run.tries - 1];
    if (error !== undefined) throw error;
    return answer;
  };
  run.tries = 0;
  return run;
}

describe('isTransactionConflict', () => {
  it('knows a deadlock and a serialization failure, wrapped or not', () => {
    expect(isTransactionConflict(deadlock())).toBe(true);
    expect(isTransactionConflict(wrapped('40001', 'could not serialize access'))).toBe(true);
    expect(isTransactionConflict(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(
      true,
    );
  });

  it('leaves every other error alone', () => {
    for (const error of [
      wrapped('23505', 'duplicate key value violates unique constraint'),
      wrapped('25P02', 'current transaction is aborted'),
      wrapped('57P01', 'terminating connection due to administrator command'),
      new Error('deadlock detected'),
      null,
      '40P01',
    ]) {
      expect(isTransactionConflict(error), String(error)).toBe(false);
    }
  });
});

describe('retryingConflicts', () => {
  const noWait = { wait: async () => undefined };

  it('runs the whole transaction again after a deadlock, and answers what the try that committed answered', async () => {
    const run = failing([deadlock(), wrapped('40001', 'could not serialize access')]);
    await expect(retryingConflicts(run, noWait)).resolves.toBe('committed');
    expect(run.tries).toBe(3);
  });

  it(`gives up after ${TRANSACTION_TRIES} tries with the conflict itself`, async () => {
    const conflicts = Array.from({ length: TRANSACTION_TRIES + 1 }, deadlock);
    const run = failing(conflicts);
    await expect(retryingConflicts(run, noWait)).rejects.toBe(conflicts[TRANSACTION_TRIES - 1]);
    expect(run.tries).toBe(TRANSACTION_TRIES);
  });

  it('counts the transactions it ran again and the conflicts it gave up on, for the metrics', async () => {
    const before = { ...transactionConflictTotals() };
    await retryingConflicts(failing([deadlock()]), noWait);
    await retryingConflicts(failing(Array.from({ length: TRANSACTION_TRIES }, deadlock)), noWait).catch(
      () => undefined,
    );
    expect(transactionConflictTotals()).toEqual({
      retried: before.retried + 1 + (TRANSACTION_TRIES - 1),
      unresolved: before.unresolved + 1,
    });
  });

  it('never runs again a transaction that failed for any other reason', async () => {
    const duplicate = wrapped('23505', 'duplicate key value violates unique constraint');
    const run = failing([duplicate]);
    await expect(retryingConflicts(run, noWait)).rejects.toBe(duplicate);
    expect(run.tries).toBe(1);
  });

  it('waits a random time below a bound that doubles with each try', async () => {
    const waits: number[] = [];
    const run = failing([deadlock(), deadlock(), deadlock()]);
    await retryingConflicts(run, { random: () => 0.999, wait: async (ms) => waits.push(ms) });
    expect(waits).toEqual([
      Math.floor(0.999 * RETRY_BASE_DELAY_MS),
      Math.floor(0.999 * RETRY_BASE_DELAY_MS * 2),
      Math.floor(0.999 * RETRY_BASE_DELAY_MS * 4),
    ]);
    const none: number[] = [];
    await retryingConflicts(failing([deadlock()]), { random: () => 0, wait: async (ms) => none.push(ms) });
    expect(none).toEqual([0]);
  });
});

describe('retryTransactionsOnConflict', () => {
  it("runs a database's transaction again with the same work and options", async () => {
    const calls: unknown[] = [];
    const db = {
      transaction: async (work: (tx: string) => Promise<string>, config?: unknown) => {
        calls.push(config);
        if (calls.length === 1) throw deadlock();
        return work('tx');
      },
    };
    retryTransactionsOnConflict(db, { wait: async () => undefined });
    const answer = await db.transaction(async (tx) => `work on ${tx}`, { isolationLevel: 'read committed' });
    expect(answer).toBe('work on tx');
    expect(calls).toEqual([{ isolationLevel: 'read committed' }, { isolationLevel: 'read committed' }]);
  });
});
