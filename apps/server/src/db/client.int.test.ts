import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../test/databases.ts';
import { transactionOnGenericPlans } from './client.ts';

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

describe.each(await databaseKinds())('transactionOnGenericPlans on %s', (kind) => {
  afterAll(closeTestDatabases);

  it('runs the work in one transaction whose statements use generic plans, and leaves the session as it was', async () => {
    const { db } = await testDatabase(kind);
    const setting = async (executor: Pick<typeof db, 'execute'>) =>
      (
        (await executor.execute(
          sql`SELECT current_setting('plan_cache_mode') AS mode, now()::text AS at`,
        )) as unknown as {
          rows: { mode: string; at: string }[];
        }
      ).rows[0]!;
    const inside = await transactionOnGenericPlans(db, async (tx) => {
      const first = await setting(tx);
      await new Promise((resolve) => setTimeout(resolve, 5));
      // Still the same transaction: now() is its start.
      return { first, second: await setting(tx) };
    });
    expect(inside.first.mode).toBe('force_generic_plan');
    expect(inside.second).toEqual(inside.first);
    // SET LOCAL: gone with the transaction, on whichever pooled connection runs next.
    const after = await Promise.all(Array.from({ length: 4 }, () => setting(db)));
    expect(after.map((row) => row.mode)).toEqual(['auto', 'auto', 'auto', 'auto']);
  });

  it('rolls back everything when the work throws', async () => {
    const { db } = await testDatabase(kind);
    const table = `generic_plans_${kind}_${Date.now()}`;
    await db.execute(sql.raw(`CREATE TABLE ${table} (n int)`));
    await expect(
      transactionOnGenericPlans(db, async (tx) => {
        await tx.execute(sql.raw(`INSERT INTO ${table} VALUES (1)`));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    const rows = (await db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))) as unknown as {
      rows: { n: number }[];
    };
    expect(rows.rows[0]!.n).toBe(0);
    await db.execute(sql.raw(`DROP TABLE ${table}`));
  });
});
