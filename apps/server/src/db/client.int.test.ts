import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../test/databases.ts';
import { preparedRowsOf, rowsOf } from '../modules/wallet/wallet.repo.ts';
import { type Executor, transactionOnGenericPlans } from './client.ts';

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

describe.each(await databaseKinds())('preparedRowsOf on %s', (kind) => {
  afterAll(closeTestDatabases);

  type TRow = Record<string, unknown>;
  /** Every kind of column the group statements answer: bigints, JSON, timestamps, booleans, NULLs, arrays. */
  const statement = (n: number, doc: unknown) =>
    sql`SELECT ${String(n)}::bigint AS big, ${JSON.stringify(doc)}::jsonb AS doc, now() AS at, 'é ✓'::text AS t,
          ${n % 2 === 0}::boolean AS even, NULL::int AS nothing, ARRAY[${n}::int, 2] AS arr, i,
          to_jsonb(i) AS j
        FROM generate_series(1, ${n}::int) AS i`;
  const plansOf = async (executor: Executor, name: string) =>
    (
      await rowsOf<{ generic: number; custom: number }>(
        executor,
        sql`SELECT generic_plans::int AS generic, custom_plans::int AS custom
            FROM pg_prepared_statements WHERE name = ${name}`,
      )
    )[0];

  it('answers the rows of the same statement run as usual, on one generic plan per connection', async () => {
    const { db } = await testDatabase(kind);
    const name = `sorte_test_rows_${kind}`;
    const plans = await transactionOnGenericPlans(db, async (tx) => {
      for (const [n, doc] of [
        [1, { a: [1, 'x'], b: null }],
        [3, 'text'],
        [2, [9007199254740993n.toString()]],
      ] as const) {
        const prepared = await preparedRowsOf<TRow>(tx, name, statement(n, doc));
        expect(prepared).toEqual(await rowsOf<TRow>(tx, statement(n, doc)));
        expect(prepared).toHaveLength(n);
        expect(prepared[0]!.doc).toEqual(doc);
      }
      return plansOf(tx, name);
    });
    // Planned once and kept: three executions on the generic plan, none planned for its values.
    expect(plans).toEqual({ generic: 3, custom: 0 });
  });

  it('keeps working after a failed execution, a rollback and a table changed under it', async () => {
    const { db } = await testDatabase(kind);
    const name = `sorte_test_recover_${kind}`;
    const table = `prepared_rows_${kind}_${Date.now()}`;
    await db.execute(sql.raw(`CREATE TABLE ${table} (n int)`));
    const read = (doc: string) =>
      transactionOnGenericPlans(db, (tx) =>
        preparedRowsOf<TRow>(tx, name, sql`SELECT ${doc}::jsonb AS doc, t.* FROM ${sql.raw(table)} t`),
      );
    await db.execute(sql.raw(`INSERT INTO ${table} VALUES (1)`));
    // The first execution fails (its parameter is no JSON): its transaction rolls back.
    await expect(read('{not json')).rejects.toThrow();
    expect(await read('{"a": 1}')).toEqual([{ doc: { a: 1 }, n: 1 }]);
    await expect(
      transactionOnGenericPlans(db, async (tx) => {
        await preparedRowsOf<TRow>(tx, name, sql`SELECT ${'[]'}::jsonb AS doc, t.* FROM ${sql.raw(table)} t`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await read('2')).toEqual([{ doc: 2, n: 1 }]);
    if (kind === 'pglite') {
      // A column more: the kept plan cannot answer it (PostgreSQL refuses to change a prepared
      // statement's columns); the embedded database then prepares it anew for the next execution.
      await db.execute(sql.raw(`ALTER TABLE ${table} ADD COLUMN m text DEFAULT 'x'`));
      await expect(read('3')).rejects.toThrow();
      expect(await read('3')).toEqual([{ doc: 3, n: 1, m: 'x' }]);
    }
    await db.execute(sql.raw(`DROP TABLE ${table}`));
  });

  it('outside a transaction and with a new text under the same name, answers the statement it is given', async () => {
    const { db } = await testDatabase(kind);
    const name = `sorte_test_outside_${kind}`;
    expect(await preparedRowsOf<TRow>(db, name, sql`SELECT ${'1'}::int AS n`)).toEqual([{ n: 1 }]);
    if (kind === 'pglite') {
      const changed = await transactionOnGenericPlans(db, async (tx) => {
        await preparedRowsOf<TRow>(tx, name, sql`SELECT ${'1'}::int AS n`);
        return preparedRowsOf<TRow>(tx, name, sql`SELECT ${'2'}::int AS m, 'y' AS o`);
      });
      expect(changed).toEqual([{ m: 2, o: 'y' }]);
    }
  });
});
