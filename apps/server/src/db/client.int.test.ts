import { eq, getTableName, sql } from 'drizzle-orm';
import { bigint, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../test/databases.ts';
import {
  commitWithNextStatement,
  type Database,
  type Executor,
  MAX_PREPARED_STATEMENTS,
  MAX_PREPARED_TEXT,
  openDatabase,
  type Tx,
  transactionOnGenericPlans,
} from './client.ts';
import { preparedRowsOf, rowsOf } from './sql.ts';

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

/**
 * The wire of a transaction's pooled PostgreSQL connection (null on the embedded database): from
 * the call on, the simple-query texts written to it and the answers (ReadyForQuery) read from it.
 */
function watchWire(tx: Tx): { sent: string[]; answers: () => number } | null {
  const client = (tx as unknown as { session: { client: { connection?: unknown } } }).session.client;
  const connection = client.connection as
    | { query: (text: string) => void; on: (event: string, listener: () => void) => void }
    | undefined;
  if (!connection || typeof connection.query !== 'function') return null;
  const sent: string[] = [];
  let answers = 0;
  const query = connection.query.bind(connection);
  connection.query = (text: string) => {
    sent.push(text);
    query(text);
  };
  connection.on('readyForQuery', () => {
    answers += 1;
  });
  return { sent, answers: () => answers };
}

/** A database of ONE connection on the same server as `database` (PGlite has one anyway). */
async function oneConnection(database: Database): Promise<Database> {
  if (database.kind === 'pglite') return { ...database, close: async () => undefined };
  const pool = (database.db as unknown as { $client: { options: { connectionString: string } } }).$client;
  return openDatabase({ kind: 'postgres', url: pool.options.connectionString, poolMax: 1 });
}

/** Waits until the backend `pid` has ended (pg_terminate_backend only signals it). */
async function backendGone(database: Database, pid: number): Promise<void> {
  for (let i = 0; i < 250; i++) {
    const [row] = await rowsOf<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${pid}::int`,
    );
    if (row!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`backend ${pid} still running`);
}

async function countOf(executor: Executor, table: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(executor, sql.raw(`SELECT count(*)::int AS n FROM ${table}`));
  return row!.n;
}

describe.each(await databaseKinds())('a group transaction on %s (its round trips)', (kind) => {
  afterAll(closeTestDatabases);

  it('commits with the statement named by commitWithNextStatement; on PostgreSQL BEGIN and COMMIT ride with the first and that statement', async () => {
    const database = await testDatabase(kind);
    const { db } = database;
    const table = `pipelined_${kind}_${Date.now()}`;
    await db.execute(sql.raw(`CREATE TABLE ${table} (n int)`));
    const seen = await transactionOnGenericPlans(db, async (tx) => {
      const wire = watchWire(tx);
      await tx.execute(sql.raw(`INSERT INTO ${table} VALUES (1)`));
      // Answers read since the work began: BEGIN's too when the work did not wait for it.
      const answersAfterFirst = wire?.answers();
      commitWithNextStatement(tx);
      const rows = await preparedRowsOf<{ n: number }>(
        tx,
        `sorte_test_pipelined_${kind}`,
        sql`INSERT INTO ${sql.raw(table)} VALUES (${2}::int) RETURNING n`,
      );
      // Written before that statement's answer came back.
      const commitSent = wire?.sent.some((text) => /^\s*commit\s*$/i.test(text));
      return { rows, answersAfterFirst, commitSent, mode: wire ? 'wire' : 'embedded' };
    });
    expect(seen.rows).toEqual([{ n: 2 }]);
    expect(await countOf(db, table)).toBe(2);
    expect(seen.mode).toBe(kind === 'postgres' ? 'wire' : 'embedded');
    if (kind === 'postgres') {
      expect(seen.answersAfterFirst).toBe(2);
      expect(seen.commitSent).toBe(true);
    }
    await db.execute(sql.raw(`DROP TABLE ${table}`));
  });

  it('rolls back all the work when the statement named by commitWithNextStatement fails, and its connection goes on', async () => {
    const database = await testDatabase(kind);
    const one = await oneConnection(database);
    const table = `pipelined_failing_${kind}_${Date.now()}`;
    await one.db.execute(sql.raw(`CREATE TABLE ${table} (n int)`));
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const failed = await transactionOnGenericPlans(one.db, async (tx) => {
          await tx.execute(sql.raw(`INSERT INTO ${table} VALUES (1)`));
          commitWithNextStatement(tx);
          await preparedRowsOf(tx, `sorte_test_failing_${kind}`, sql`SELECT 1 / ${0}::int AS n`);
          return 'answered';
        }).catch((error: { code?: string; cause?: { code?: string } }) => error.cause?.code ?? error.code);
        expect(failed).toBe('22012');
        expect(await countOf(one.db, table)).toBe(0);
      }
      // The same (only) connection runs the next transaction, and its COMMIT holds.
      await transactionOnGenericPlans(one.db, async (tx) => {
        await tx.execute(sql.raw(`INSERT INTO ${table} VALUES (1)`));
        commitWithNextStatement(tx);
        await preparedRowsOf(
          tx,
          `sorte_test_after_${kind}`,
          sql`INSERT INTO ${sql.raw(table)} VALUES (${2}::int)`,
        );
      });
      expect(await countOf(one.db, table)).toBe(2);
      await expect(
        transactionOnGenericPlans(one.db, async (tx) => {
          await tx.execute(sql.raw(`INSERT INTO ${table} VALUES (3)`));
          throw new Error('refused before the last statement');
        }),
      ).rejects.toThrow('refused before the last statement');
      expect(await countOf(one.db, table)).toBe(2);
    } finally {
      await one.db.execute(sql.raw(`DROP TABLE ${table}`));
      await one.close();
    }
  });
});

describe.each((await databaseKinds()).filter((kind) => kind === 'postgres'))(
  'a group transaction on %s after its COMMIT was written',
  (kind) => {
    afterAll(closeTestDatabases);

    it('fails a group transaction whose connection was lost, writes nothing, and the next one runs on a new connection', async () => {
      const database = await testDatabase(kind);
      const one = await oneConnection(database);
      const table = `pipelined_lost_${Date.now()}`;
      await one.db.execute(sql.raw(`CREATE TABLE ${table} (n int)`));
      try {
        const [backend] = await rowsOf<{ pid: number }>(one.db, sql`SELECT pg_backend_pid() AS pid`);
        // Every statement of the pipeline (BEGIN, the first, the last and its COMMIT) is answered
        // with the loss, none waits forever.
        const failed = await transactionOnGenericPlans(one.db, async (tx) => {
          // The connection dies once the transaction holds it. (Killed while idle in the pool, the
          // pool could hear of it first and give the transaction a new connection.)
          await database.db.execute(sql`SELECT pg_terminate_backend(${backend!.pid}::int)`);
          await backendGone(database, backend!.pid);
          await tx.execute(sql.raw(`INSERT INTO ${table} VALUES (1)`));
          commitWithNextStatement(tx);
          await preparedRowsOf(tx, 'sorte_test_lost', sql`INSERT INTO ${sql.raw(table)} VALUES (${2}::int)`);
          return 'committed';
        }).catch(() => 'failed');
        expect(failed).toBe('failed');
        await transactionOnGenericPlans(one.db, async (tx) => {
          await tx.execute(sql.raw(`INSERT INTO ${table} VALUES (3)`));
          commitWithNextStatement(tx);
          await preparedRowsOf(tx, 'sorte_test_lost', sql`INSERT INTO ${sql.raw(table)} VALUES (${4}::int)`);
        });
        const rows = await rowsOf<{ n: number }>(one.db, sql.raw(`SELECT n FROM ${table} ORDER BY n`));
        expect(rows.map((row) => row.n)).toEqual([3, 4]);
      } finally {
        await one.db.execute(sql.raw(`DROP TABLE ${table}`));
        await one.close();
      }
    });

    it('refuses a statement sent after it, and keeps what the transaction committed', async () => {
      const { db } = await testDatabase(kind);
      const table = `pipelined_after_${Date.now()}`;
      await db.execute(sql.raw(`CREATE TABLE ${table} (n int)`));
      const refused = await transactionOnGenericPlans(db, async (tx) => {
        commitWithNextStatement(tx);
        await tx.execute(sql`INSERT INTO ${sql.raw(table)} VALUES (${1}::int)`);
        await tx.execute(sql`INSERT INTO ${sql.raw(table)} VALUES (${2}::int)`);
      }).catch((error: { cause?: Error }) => error.cause?.message);
      expect(refused).toBe('a statement sent after its transaction was committed');
      expect(await countOf(db, table)).toBe(1);
      await db.execute(sql.raw(`DROP TABLE ${table}`));
    });
  },
);

type TRow = Record<string, unknown>;

/**
 * Every kind of column the statements answer (bigints, JSON, timestamps, booleans, NULLs, arrays),
 * with its values as parameters or, for a simple query, as literals.
 */
function statement(marker: string, n: number, doc: unknown, literal = false) {
  const json = JSON.stringify(doc);
  const value = (text: string) => (literal ? sql.raw(`'${text.replace(/'/g, "''")}'`) : sql`${text}`);
  return sql`SELECT /* ${sql.raw(marker)} */ ${value(String(n))}::bigint AS big, ${value(json)}::jsonb AS doc, now() AS at,
      'é ✓'::text AS t, ${value(String(n % 2 === 0))}::boolean AS even, NULL::int AS nothing,
      ARRAY[${value(String(n))}::int, 2] AS arr, i, to_jsonb(i) AS j
    FROM generate_series(1, ${value(String(n))}::int) AS i`;
}

/**
 * `count` statements of distinct texts (`marker_i`, padded with `padding`), each answering its
 * number `i`: they fill a connection's prepared statements.
 */
function numbered(marker: string, count: number, padding = '') {
  return Array.from(
    { length: count },
    (_, i) => sql`SELECT /* ${sql.raw(`${marker}_${i}${padding}`)} */ ${String(i)}::int AS i`,
  );
}

async function plansOf(executor: Executor, marker: string) {
  const [row] = await rowsOf<{ generic: number; custom: number }>(
    executor,
    sql`SELECT generic_plans::int AS generic, custom_plans::int AS custom
        FROM pg_prepared_statements WHERE statement LIKE ${`%/* ${marker} */%`}`,
  );
  return row;
}

/** How many statements the connection keeps prepared for `marker`'s text, and their executions. */
async function preparedOf(executor: Executor, marker: string) {
  const [row] = await rowsOf<{ statements: number; executions: number }>(
    executor,
    sql`SELECT count(*)::int AS statements, sum(generic_plans + custom_plans)::int AS executions
        FROM pg_prepared_statements WHERE statement LIKE ${`%/* ${marker} */%`}`,
  );
  return row;
}

describe.each(await databaseKinds())('preparedRowsOf on %s', (kind) => {
  afterAll(closeTestDatabases);

  it('answers the rows PostgreSQL answers, on one generic plan per connection', async () => {
    const { db } = await testDatabase(kind);
    const marker = `rows_${kind}_${Date.now()}`;
    const plans = await transactionOnGenericPlans(db, async (tx) => {
      for (const [n, doc] of [
        [1, { a: [1, 'x'], b: null }],
        [3, "it's text"],
        [2, [9007199254740993n.toString()]],
      ] as const) {
        const prepared = await preparedRowsOf<TRow>(tx, `sorte_test_${marker}`, statement(marker, n, doc));
        // The oracle: the same statement with its values as literals, as a simple query (not
        // prepared, none of our code between): PGlite's `exec`, node-postgres's query of a text.
        const literal = (
          tx as unknown as { dialect: { sqlToQuery(q: unknown): { sql: string } } }
        ).dialect.sqlToQuery(statement(`${marker}_literal`, n, doc, true)).sql;
        const client = (tx as unknown as { session: { client: SimpleQueries } }).session.client;
        const expected =
          kind === 'pglite'
            ? (await client.exec!(literal))[0]!.rows
            : // node-postgres reads a timestamp as a Date where drizzle keeps the text.
              (await client.query!(literal)).rows.map((row) => ({
                ...row,
                at: prepared[0]!.at,
                atMs: (row.at as Date).getTime(),
              }));
        if (kind === 'postgres') {
          for (const row of expected) expect(Date.parse(String(prepared[0]!.at))).toBe(row.atMs);
          for (const row of expected) delete row.atMs;
        }
        expect(prepared).toEqual(expected);
        expect(prepared).toHaveLength(n);
        expect(prepared[0]!.doc).toEqual(doc);
      }
      return plansOf(tx, marker);
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
});

const probe = pgTable(`embedded_probe_${Date.now()}`, {
  id: bigint('id', { mode: 'bigint' }).primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  doc: jsonb('doc'),
  tags: text('tags').array(),
});

type SimpleQueries = {
  exec?(text: string): Promise<{ rows: TRow[] }[]>;
  query?(text: string): Promise<{ rows: TRow[] }>;
};

type PGliteTx = { exec(text: string): Promise<{ rows: TRow[] }[]> };

describe("the embedded database's statements", () => {
  afterAll(closeTestDatabases);

  it("prepares each text once, in and out of transactions, and answers as PGlite's own query does", async () => {
    const { db } = await testDatabase('pglite');
    const marker = `once_${Date.now()}`;
    const outside = await rowsOf<TRow>(db, statement(marker, 2, { x: 1 }));
    const inside = await db.transaction((tx) => rowsOf<TRow>(tx, statement(marker, 2, { x: 1 })));
    const literal = await (db as unknown as { $client: PGliteTx }).$client.exec(
      `SELECT 1 AS one, '2026-01-02 03:04:05+00'::timestamptz AS at, 9007199254740993::bigint AS big`,
    );
    const prepared = await rowsOf<TRow>(
      db,
      sql`SELECT ${'1'}::int AS one, ${'2026-01-02 03:04:05+00'}::timestamptz AS at, ${'9007199254740993'}::bigint AS big`,
    );
    expect(prepared).toEqual(literal[0]!.rows);
    // The same but for now(), each statement's own transaction's time.
    const timeless = (rows: TRow[]) => rows.map(({ at: _at, ...rest }) => rest);
    expect(timeless(inside)).toEqual(timeless(outside));
    expect(outside).toHaveLength(2);
    // The query builder's rows (arrays, mapped by drizzle's columns) through the same statements.
    await db.execute(
      sql.raw(`CREATE TABLE ${getTableName(probe)} (
      id bigint PRIMARY KEY, at timestamptz NOT NULL, doc jsonb, tags text[])`),
    );
    const at = new Date('2026-11-28T23:59:59.123Z');
    const row = { id: 9007199254740993n, at, doc: { b: [1, null], a: 'é' }, tags: ['x', 'y z'] };
    expect(await db.insert(probe).values(row).returning()).toEqual([row]);
    expect(await db.transaction((tx) => tx.select().from(probe).where(eq(probe.id, row.id)))).toEqual([row]);
    expect(await db.select({ id: probe.id }).from(probe).where(eq(probe.id, 1n))).toEqual([]);
    const stats = await preparedOf(db, marker);
    expect(stats).toEqual({ statements: 1, executions: 2 });
  });

  it('keeps at most MAX_PREPARED_STATEMENTS statements, and one dropped for room runs again when asked', async () => {
    const { db } = await testDatabase('pglite');
    const marker = `room_${Date.now()}`;
    const texts = numbered(marker, MAX_PREPARED_STATEMENTS + 20);
    for (const [i, text] of texts.entries()) expect(await rowsOf(db, text)).toEqual([{ i }]);
    const [count] = await rowsOf<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM pg_prepared_statements`,
    );
    expect(count!.n).toBeLessThanOrEqual(MAX_PREPARED_STATEMENTS + 1);
    expect(await rowsOf(db, texts[0]!)).toEqual([{ i: 0 }]);
  });

  it("reports a statement's error with its code, leaves no transaction open and goes on", async () => {
    const { db } = await testDatabase('pglite');
    const table = `embedded_errors_${Date.now()}`;
    await db.execute(sql.raw(`CREATE TABLE ${table} (n int PRIMARY KEY)`));
    const insert = (executor: Executor, n: number) =>
      executor.execute(sql`INSERT INTO ${sql.raw(table)} VALUES (${n})`);
    await insert(db, 1);
    const codeOf = (error: unknown) => {
      const found = error as { code?: string; cause?: { code?: string; query?: string } };
      return { code: found.cause?.code ?? found.code, query: found.cause?.query };
    };
    const outside = await insert(db, 1).catch(codeOf);
    expect(outside).toEqual({ code: '23505', query: `INSERT INTO ${table} VALUES ($1)` });
    // Not in a transaction: the next statement commits on its own.
    await insert(db, 2);
    const inside = await db
      .transaction(async (tx) => {
        await insert(tx, 3);
        // A savepoint rolled back: the transaction goes on without it.
        await tx.transaction((nested) => insert(nested, 1)).catch(() => undefined);
        await insert(tx, 4);
        await insert(tx, 2);
      })
      .catch(codeOf);
    expect(inside).toMatchObject({ code: '23505' });
    await db.transaction(async (tx) => {
      await insert(tx, 5);
      await tx.transaction((nested) => insert(nested, 1)).catch(() => undefined);
      await insert(tx, 6);
    });
    const rows = await rowsOf<{ n: number }>(db, sql.raw(`SELECT n FROM ${table} ORDER BY n`));
    expect(rows.map((r) => r.n)).toEqual([1, 2, 5, 6]);
    await db.execute(sql.raw(`DROP TABLE ${table}`));
  });
});

describe.each(await databaseKinds())('statements prepared by text on %s', (kind) => {
  afterAll(closeTestDatabases);

  it('prepares a parameterised statement once per connection, whatever its values', async () => {
    const { db } = await testDatabase(kind);
    const marker = `by_text_${kind}_${Date.now()}`;
    const [plans, answers] = await db.transaction(async (tx) => {
      const answered = [];
      for (const n of [1, 3, 2]) answered.push((await rowsOf<TRow>(tx, statement(marker, n, { n }))).length);
      const row = await preparedOf(tx, marker);
      return [row, answered] as const;
    });
    expect(answers).toEqual([1, 3, 2]);
    expect(plans).toEqual({ statements: 1, executions: 3 });
  });

  it('keeps a statement whose execution failed on its values', async () => {
    const { db } = await testDatabase(kind);
    const marker = `kept_${kind}_${Date.now()}`;
    const count = await db.transaction(async (tx) => {
      const read = (executor: Executor, value: string) =>
        rowsOf<TRow>(executor, sql`SELECT /* ${sql.raw(marker)} */ ${value}::int AS n`);
      expect(await read(tx, '1')).toEqual([{ n: 1 }]);
      // 22P02 (not a number): an error of this execution, not of the statement.
      const refused = await tx
        .transaction((nested) => read(nested, 'one'))
        .catch((error: { cause?: { code?: string } }) => error.cause?.code);
      expect(refused).toBe('22P02');
      expect(await read(tx, '2')).toEqual([{ n: 2 }]);
      const row = await preparedOf(tx, marker);
      return row;
    });
    // One statement that ran both good executions (one prepared anew would show one).
    expect(count).toEqual({ statements: 1, executions: 2 });
  });

  it('keeps at most MAX_PREPARED_STATEMENTS on a connection and prepares anew what a changed table or room dropped', async () => {
    const { db } = await testDatabase(kind);
    const marker = `room_${kind}_${Date.now()}`;
    const table = `by_text_${kind}_${Date.now()}`;
    await db.transaction(async (tx) => {
      const texts = numbered(marker, MAX_PREPARED_STATEMENTS + 20);
      for (const [i, text] of texts.entries()) expect(await rowsOf(tx, text)).toEqual([{ i }]);
      const [count] = await rowsOf<{ n: number }>(
        tx,
        sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE ${`%/* ${marker}_%`}`,
      );
      expect(count!.n).toBeGreaterThanOrEqual(MAX_PREPARED_STATEMENTS * 0.8);
      expect(count!.n).toBeLessThanOrEqual(MAX_PREPARED_STATEMENTS);
      expect(await rowsOf(tx, texts[0]!)).toEqual([{ i: 0 }]);

      await tx.execute(sql.raw(`CREATE TABLE ${table} (n int)`));
      await tx.execute(sql.raw(`INSERT INTO ${table} VALUES (1)`));
      const read = (executor: Executor) =>
        rowsOf<TRow>(executor, sql`SELECT ${'1'}::int AS one, t.* FROM ${sql.raw(table)} t`);
      expect(await read(tx)).toEqual([{ one: 1, n: 1 }]);
      // A column more: the kept plan cannot answer it (PostgreSQL refuses to change a prepared
      // statement's columns); the statement is then prepared anew.
      await tx.execute(sql.raw(`ALTER TABLE ${table} ADD COLUMN m text DEFAULT 'x'`));
      const refused = await tx
        .transaction((nested) => read(nested))
        .catch((error: { cause?: { code?: string } }) => error.cause?.code);
      expect(refused).toBe('0A000');
      expect(await read(tx)).toEqual([{ one: 1, n: 1, m: 'x' }]);
      await tx.execute(sql.raw(`DROP TABLE ${table}`));
    });
  });

  it('keeps at most MAX_PREPARED_TEXT characters of statements on a connection', async () => {
    const { db } = await testDatabase(kind);
    const marker = `long_${kind}_${Date.now()}`;
    // Long texts (a plan's memory grows with its text): twice the budget in 4,000-character statements.
    const long = 'x'.repeat(4_000);
    const texts = numbered(marker, Math.ceil((2 * MAX_PREPARED_TEXT) / long.length), ` ${long}`);
    const kept = await db.transaction(async (tx) => {
      for (const [i, text] of texts.entries()) expect(await rowsOf(tx, text)).toEqual([{ i }]);
      return rowsOf<{ n: number; characters: number }>(
        tx,
        sql`SELECT count(*)::int AS n, coalesce(sum(length(statement)), 0)::int AS characters
            FROM pg_prepared_statements WHERE statement LIKE ${`%/* ${marker}_%`}`,
      );
    });
    expect(kept[0]!.characters).toBeLessThanOrEqual(MAX_PREPARED_TEXT);
    // The most recent ones are kept: as many as fit, whatever else the connection holds.
    expect(kept[0]!.n).toBeGreaterThanOrEqual(Math.floor(MAX_PREPARED_TEXT / long.length) - 8);
    expect(await rowsOf(db, texts[0]!)).toEqual([{ i: 0 }]);
  });
});

// Two connections can deadlock only on PostgreSQL: the embedded database runs one transaction at a time.
describe.each((await databaseKinds()).filter((kind) => kind === 'postgres'))(
  'a transaction PostgreSQL chose to break a deadlock on %s',
  (kind) => {
    it('runs again as a whole, and both transactions commit', async () => {
      const { db } = await testDatabase(kind);
      await db.execute(
        sql`CREATE TABLE IF NOT EXISTS test_lock_conflicts (id int PRIMARY KEY, n int NOT NULL)`,
      );
      const a = 1 + Math.floor(Math.random() * 1e9);
      const b = a + 1;
      await db.execute(sql`INSERT INTO test_lock_conflicts VALUES (${a}, 0), (${b}, 0)`);
      const bump = (tx: Tx, id: number) =>
        tx.execute(sql`UPDATE test_lock_conflicts SET n = n + 1 WHERE id = ${id}`);
      // Each transaction takes its first row, waits until the other holds its own, then takes the other's.
      let arrived = 0;
      let bothHold!: () => void;
      const holding = new Promise<void>((resolve) => {
        bothHold = resolve;
      });
      let tries = 0;
      const crossing = (first: number, second: number) =>
        db.transaction(async (tx) => {
          tries += 1;
          await bump(tx, first);
          arrived += 1;
          if (arrived === 2) bothHold();
          await holding;
          await bump(tx, second);
        });
      await Promise.all([crossing(a, b), crossing(b, a)]);
      expect(tries).toBe(3);
      const rows = await rowsOf<{ n: number }>(
        db,
        sql`SELECT n FROM test_lock_conflicts WHERE id IN (${a}, ${b}) ORDER BY id`,
      );
      expect(rows.map((row) => row.n)).toEqual([2, 2]);
    });
  },
);
