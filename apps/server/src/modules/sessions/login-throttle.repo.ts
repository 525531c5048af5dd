import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { loginFailures, type TLoginFailureScope } from './sessions.schema.ts';

/** The SQL of the login throttle: failures per site, scope and key within a window of minutes. */

/** Key space of the throttle's advisory locks (two-int form), apart from other modules' keys. */
const THROTTLE_LOCK_SPACE = 727004;

/** Serialises the attempts on one key until the transaction ends. */
export async function lockThrottleKey(
  tx: Executor,
  siteId: bigint,
  scope: string,
  key: string,
): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${THROTTLE_LOCK_SPACE}, hashtext(${`${siteId}:${scope}:${key}`}))`,
  );
}

export async function insertFailures(
  tx: Executor,
  siteId: bigint,
  keys: readonly { scope: TLoginFailureScope; key: string }[],
): Promise<bigint[]> {
  const inserted = await tx
    .insert(loginFailures)
    .values(keys.map(({ scope, key }) => ({ siteId, scope, key })))
    .returning({ id: loginFailures.id });
  return inserted.map((row) => row.id);
}

export async function deleteKeyFailures(
  executor: Executor,
  siteId: bigint,
  scope: TLoginFailureScope,
  key: string,
): Promise<void> {
  await executor
    .delete(loginFailures)
    .where(and(eq(loginFailures.siteId, siteId), eq(loginFailures.scope, scope), eq(loginFailures.key, key)));
}

export async function deleteFailures(executor: Executor, ids: readonly bigint[]): Promise<void> {
  await executor.delete(loginFailures).where(inArray(loginFailures.id, [...ids]));
}

export async function countFailuresInWindow(
  executor: Executor,
  failure: { siteId: bigint; scope: TLoginFailureScope; key: string },
  windowMinutes: number,
): Promise<number> {
  const { siteId, scope, key } = failure;
  const result = (await executor.execute(sql`
      SELECT count(*)::int AS count FROM login_failures
      WHERE site_id = ${siteId.toString()}::bigint AND scope = ${scope} AND key = ${key}
        AND failed_at > now() - make_interval(mins => ${windowMinutes})`)) as unknown as {
    rows: { count: number }[];
  };
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * Seconds until the key's `max`-th newest failure in the window leaves it; undefined when the key
 * has fewer than `max` failures in the window.
 */
export async function findWaitSeconds(
  executor: Executor,
  failure: { siteId: bigint; scope: TLoginFailureScope; key: string; max: number },
  windowMinutes: number,
): Promise<number | undefined> {
  const { siteId, scope, key, max } = failure;
  const result = (await executor.execute(sql`
        SELECT ceil(extract(epoch FROM (failed_at + make_interval(mins => ${windowMinutes}) - now())))::int
               AS wait_seconds
        FROM login_failures
        WHERE site_id = ${siteId.toString()}::bigint AND scope = ${scope} AND key = ${key}
          AND failed_at > now() - make_interval(mins => ${windowMinutes})
        ORDER BY failed_at DESC
        OFFSET ${max - 1} LIMIT 1`)) as unknown as { rows: { wait_seconds: number }[] };
  return result.rows[0]?.wait_seconds;
}

export async function deleteFailuresOlderThan(executor: Executor, windowMinutes: number): Promise<void> {
  await executor
    .delete(loginFailures)
    .where(lt(loginFailures.failedAt, sql`now() - make_interval(mins => ${windowMinutes})`));
}
