import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/**
 * The SQL of cross-process messages: `pg_notify` in the caller's executor, so a message leaves only
 * when that transaction commits.
 */

export async function notifyText(executor: Executor, channel: string, text: string): Promise<void> {
  await executor.execute(sql`SELECT pg_notify(${channel}, ${text})`);
}

/** Queues every text of `texts` on `channel` in one statement. */
export async function notifyTexts(
  executor: Executor,
  channel: string,
  texts: readonly string[],
): Promise<void> {
  await executor.execute(
    sql`SELECT pg_notify(${channel}, c) FROM jsonb_array_elements_text(${JSON.stringify(texts)}::jsonb) c`,
  );
}

/**
 * A query that queues every notice with `pg_notify`, one row each: a CTE of a statement that
 * pushes many, which must read its rows for them to be sent (count them).
 */
export function notifyEach(notices: readonly { channel: string; text: string }[]): SQL {
  return sql`SELECT pg_notify(p.channel, p.text) FROM jsonb_to_recordset(${JSON.stringify(notices)}::jsonb)
    AS p(channel text, text text)`;
}
