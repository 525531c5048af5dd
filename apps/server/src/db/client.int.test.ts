import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/databases.ts';

describe('the PGlite client', () => {
  it('runs operations queued at once in arrival order, and every one of them', async () => {
    const { db } = await testDatabase('pglite');
    const finished: number[] = [];
    const failing = db.execute(sql`SELECT 1 / 0`).then(
      () => 'answered',
      () => 'refused',
    );
    const queries = Array.from({ length: 40 }, (_, i) =>
      db.execute(sql`SELECT ${i}::int AS i`).then(() => finished.push(i)),
    );
    await Promise.all(queries);
    // A failed operation does not stall the queue behind it.
    expect(await failing).toBe('refused');
    expect(finished).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('answers timestamps and bigints as drizzle maps them, in and out of transactions', async () => {
    const { db } = await testDatabase('pglite');
    const read = async (executor: Pick<typeof db, 'execute'>) =>
      (
        (await executor.execute(
          sql`SELECT now() AS at, 9007199254740993::bigint AS big, interval '1 day' AS span`,
        )) as unknown as { rows: { at: unknown; big: unknown; span: unknown }[] }
      ).rows[0]!;
    const outside = await read(db);
    const inside = await db.transaction((tx) => read(tx));
    for (const row of [outside, inside]) {
      // Timestamps stay PostgreSQL text (drizzle's columns convert them), bigints stay exact.
      expect(typeof row.at).toBe('string');
      expect(Number.isNaN(Date.parse(String(row.at)))).toBe(false);
      expect(String(row.big)).toBe('9007199254740993');
      expect(row.span).toBe('1 day');
    }
  });
});
