import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import {
  countFailuresInWindow,
  deleteFailures,
  deleteFailuresOlderThan,
  deleteKeyFailures,
  findWaitSeconds,
  insertFailures,
  lockThrottleKey,
} from './login-throttle.repo.ts';
import type { TLoginFailureScope } from './sessions.schema.ts';

export type TThrottleKey = { scope: TLoginFailureScope; key: string; max: number };

/**
 * One attempt, counted as a failure of each of its keys before the secret was looked at. `fail`
 * keeps it counted; `release` takes it back (the secret was right, so it was no failure).
 */
export type TAttempt = {
  fail(): Promise<void>;
  release(): Promise<void>;
};

/**
 * Brute-force protection for logins, counted in the database so every server process shares the
 * same counts. A key (an account name or a client address) is locked once it has `max` failures
 * within the window; the lock lifts as the oldest of those failures leave the window.
 *
 * An attempt is written as a failure BEFORE its secret is evaluated (`reserve`): counting and
 * writing run under a transaction-scoped advisory lock per key, so however many attempts run at
 * once, in however many processes, at most `max` of them are ever evaluated within the window.
 */
export class LoginThrottle {
  constructor(
    private readonly executor: Executor,
    private readonly windowMinutes: number,
  ) {}

  /** Throws TOO_MANY_ATTEMPTS (with minutes to wait) when any key is locked. */
  async assertAllowed(siteId: bigint, keys: readonly TThrottleKey[]): Promise<void> {
    await this.assertUnlocked(this.executor, siteId, keys);
  }

  /**
   * Counts one attempt against every key, or throws TOO_MANY_ATTEMPTS (counting nothing) when a
   * key already has `max` failures or attempts within the window. Call before evaluating the secret.
   */
  async reserve(siteId: bigint, keys: readonly TThrottleKey[]): Promise<TAttempt> {
    // Locks taken in one order (scope, key) so two attempts sharing keys cannot deadlock.
    const ordered = [...keys].sort((a, b) => (`${a.scope}:${a.key}` < `${b.scope}:${b.key}` ? -1 : 1));
    const ids = await this.executor.transaction(async (tx) => {
      for (const { scope, key } of ordered) {
        await lockThrottleKey(tx, siteId, scope, key);
      }
      await this.assertUnlocked(tx, siteId, ordered);
      return insertFailures(tx, siteId, ordered);
    });
    return { fail: () => this.forgetExpired(), release: () => this.remove(ids) };
  }

  /** A successful login forgives the account's failures (not the address's). */
  async clear(siteId: bigint, scope: TLoginFailureScope, key: string): Promise<void> {
    await deleteKeyFailures(this.executor, siteId, scope, key);
  }

  /** Failures (and attempts being evaluated) of a key within the window. */
  async countInWindow(siteId: bigint, scope: TLoginFailureScope, key: string): Promise<number> {
    return countFailuresInWindow(this.executor, { siteId, scope, key }, this.windowMinutes);
  }

  /** Throws TOO_MANY_ATTEMPTS, with the seconds until the lock lifts, when a key has `max` now. */
  private async assertUnlocked(
    executor: Executor,
    siteId: bigint,
    keys: readonly TThrottleKey[],
  ): Promise<void> {
    for (const { scope, key, max } of keys) {
      const waitSeconds = await findWaitSeconds(executor, { siteId, scope, key, max }, this.windowMinutes);
      if (waitSeconds !== undefined) throw tooManyAttempts(Math.max(1, waitSeconds));
    }
  }

  private async remove(ids: readonly bigint[]): Promise<void> {
    if (ids.length > 0) await deleteFailures(this.executor, ids);
  }

  /**
   * Failures that left the window no longer count: remove them (all keys) as new ones are kept, so
   * the table holds at most one window of failures (small enough that this scan is cheap).
   */
  private async forgetExpired(): Promise<void> {
    await deleteFailuresOlderThan(this.executor, this.windowMinutes);
  }
}

function tooManyAttempts(seconds: number): AppError {
  return new AppError('TOO_MANY_ATTEMPTS', {
    params: { minutes: Math.ceil(seconds / 60) },
    extra: { retry_after: seconds },
    headers: { 'retry-after': String(seconds) },
  });
}
