import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { loginFailures, type TLoginFailureScope } from './auth.schema.ts';

export type TThrottleKey = { scope: TLoginFailureScope; key: string; max: number };

/**
 * Brute-force protection for logins, counted in the database so every server process shares the
 * same counts. A key (an account name or a client address) is locked once it has `max` failures
 * within the window; the lock lifts as the oldest of those failures leave the window.
 */
export class LoginThrottle {
  constructor(
    private readonly executor: Executor,
    private readonly windowMinutes: number,
  ) {}

  /** Throws TOO_MANY_ATTEMPTS (with minutes to wait) when any key is locked. */
  async assertAllowed(siteId: bigint, keys: readonly TThrottleKey[]): Promise<void> {
    for (const { scope, key, max } of keys) {
      const result = (await this.executor.execute(sql`
        SELECT ceil(extract(epoch FROM (failed_at + make_interval(mins => ${this.windowMinutes}) - now())))::int
               AS wait_seconds
        FROM login_failures
        WHERE site_id = ${siteId.toString()}::bigint AND scope = ${scope} AND key = ${key}
          AND failed_at > now() - make_interval(mins => ${this.windowMinutes})
        ORDER BY failed_at DESC
        OFFSET ${max - 1} LIMIT 1`)) as unknown as { rows: { wait_seconds: number }[] };
      const waitSeconds = result.rows[0]?.wait_seconds;
      if (waitSeconds !== undefined) {
        const seconds = Math.max(1, waitSeconds);
        throw new AppError('TOO_MANY_ATTEMPTS', {
          params: { minutes: Math.ceil(seconds / 60) },
          extra: { retry_after: seconds },
          headers: { 'retry-after': String(seconds) },
        });
      }
    }
  }

  async recordFailure(siteId: bigint, keys: readonly Omit<TThrottleKey, 'max'>[]): Promise<void> {
    if (keys.length === 0) return;
    await this.executor.insert(loginFailures).values(keys.map(({ scope, key }) => ({ siteId, scope, key })));
    // Failures that left the window no longer count: remove them (all keys) as new ones arrive, so
    // the table holds at most one window of failures (small enough that this scan is cheap).
    await this.executor
      .delete(loginFailures)
      .where(lt(loginFailures.failedAt, sql`now() - make_interval(mins => ${this.windowMinutes})`));
  }

  /** A successful login forgives the account's failures (not the address's). */
  async clear(siteId: bigint, scope: TLoginFailureScope, key: string): Promise<void> {
    await this.executor
      .delete(loginFailures)
      .where(
        and(eq(loginFailures.siteId, siteId), eq(loginFailures.scope, scope), eq(loginFailures.key, key)),
      );
  }
}
