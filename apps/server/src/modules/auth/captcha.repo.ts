import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { captchas } from './auth.schema.ts';

/** The SQL of the login captcha: challenges stored by answer hash, each good once until it expires. */

/** Stores a challenge valid for `ttlSeconds`, dropping those expired over an hour ago. */
export async function insertCaptcha(
  executor: Executor,
  captcha: { id: string; siteId: bigint; answerHash: string; ttlSeconds: number },
): Promise<void> {
  await executor.delete(captchas).where(lt(captchas.expiresAt, sql`now() - interval '1 hour'`));
  await executor.insert(captchas).values({
    id: captcha.id,
    siteId: captcha.siteId,
    answerHash: captcha.answerHash,
    expiresAt: sql`now() + make_interval(secs => ${captcha.ttlSeconds})`,
  });
}

/** Spends the site's unused, unexpired challenge; returns its answer hash, or undefined. */
export async function consumeCaptcha(
  executor: Executor,
  siteId: bigint,
  id: string,
): Promise<string | undefined> {
  const consumed = await executor
    .update(captchas)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(captchas.id, id),
        eq(captchas.siteId, siteId),
        isNull(captchas.usedAt),
        gt(captchas.expiresAt, sql`now()`),
      ),
    )
    .returning({ answerHash: captchas.answerHash });
  return consumed[0]?.answerHash;
}
