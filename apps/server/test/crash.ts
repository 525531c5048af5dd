import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import { multiplierAt } from '../src/modules/crash/crash.curve.ts';
import { rowsOf } from '../src/modules/wallet/wallet.repo.ts';

/**
 * Where a test's crash clock starts: after every time of the rounds already in the database. The
 * test files of a process share it (databases.ts), and a file that drives the engine by hand moves
 * its clock minutes ahead per round, so the next file's engine would find a round it cannot reach.
 */
export async function crashClockStart(db: Db): Promise<number> {
  const [row] = await rowsOf<{ ms: unknown }>(
    db,
    sql`SELECT (extract(epoch FROM max(greatest(betting_ends_at, started_at, crashed_at))) * 1000)::float8 AS ms
        FROM crash_rounds`,
  );
  const last = row?.ms === null || row?.ms === undefined ? 0 : Math.ceil(Number(row.ms));
  return Math.max(Date.now(), last + 60_000);
}

/** The first whole millisecond at which the curve reaches `crash` hundredths (the crash instant). */
export function crashInstant(crash: number): number {
  let t = 0;
  while (multiplierAt(t) < crash) t += 1;
  return t;
}
