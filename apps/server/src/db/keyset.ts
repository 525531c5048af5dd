import { asc, desc, gt, lt, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** Where a page starts: the newest rows, rows older than `before`, or rows newer than `after`. */
export type TKeysetQuery = { before: bigint | null; after: bigint | null; limit: number };

/**
 * One keyset page over an id column, newest first, plus whether older / newer rows exist beyond it.
 * Pages are stable under inserts (a new row never shifts a page the player is on) and cost one
 * indexed range read, never an OFFSET. The caller supplies the query (its table, joins and filters)
 * as `fetch(bound, order, limit)`, a cheap `exists(bound)` with the same filters, and the row's id.
 */
export async function keysetPage<T>(
  q: TKeysetQuery,
  id: AnyPgColumn,
  fetch: (bound: SQL | undefined, order: SQL, limit: number) => PromiseLike<T[]>,
  exists: (bound: SQL) => Promise<boolean>,
  idOf: (row: NoInfer<T>) => bigint,
): Promise<{ rows: T[]; hasOlder: boolean; hasNewer: boolean }> {
  const forward = q.after === null;
  const bound = q.before !== null ? lt(id, q.before) : q.after !== null ? gt(id, q.after) : undefined;
  const rows = await fetch(bound, forward ? desc(id) : asc(id), q.limit + 1);
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  if (!forward) page.reverse();
  const first = page[0];
  const last = page.at(-1);
  const hasOlder = forward ? more : last ? await exists(lt(id, idOf(last))) : false;
  const hasNewer = !forward ? more : first ? await exists(gt(id, idOf(first))) : false;
  return { rows: page, hasOlder, hasNewer };
}
