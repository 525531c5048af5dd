import { mkdirSync } from 'node:fs';
import { PGlite, type QueryOptions, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { serialize } from 'pg-protocol';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** One type for both drivers: every repository function takes this (or a transaction of it). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything a repository can run a query on: the database or an open transaction. */
export type Executor = Db | Tx;

/**
 * One `T` per database, made on first use (group committers, caches of catalogue rows): the
 * process's databases never share it, and it goes with its database.
 */
export function perDatabase<T>(create: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = create(db);
      made.set(db, value);
    }
    return value;
  };
}

/** The embedded database of each PGlite dialect (drizzle gives a database and its transactions one). */
const embeddedClients = new WeakMap<object, PGlite>();

/**
 * Whether an executor runs on the embedded database: ONE connection, whose statements run one at
 * a time on this process's threads. Group committers keep one group in flight there (a second
 * would only wait for the first's turn, and the bets behind it would make a smaller group).
 */
export function isEmbedded(executor: Executor): boolean {
  return embeddedClients.has((executor as unknown as { dialect: object }).dialect);
}

/**
 * `BEGIN` of a transaction whose prepared statements run on their generic plans, in ONE round trip
 * on PostgreSQL: drizzle appends a transaction's options to its `begin` unquoted and sends it
 * without parameters, which node-postgres sends as a simple query, where several statements are
 * allowed (client.int.test.ts checks the setting takes effect on both databases).
 */
const GENERIC_PLANS_BEGIN = {
  isolationLevel: 'read committed; SET LOCAL plan_cache_mode = force_generic_plan',
} as unknown as Parameters<Db['transaction']>[1];

/**
 * A transaction whose named prepared statements (`preparedRowsOf`) use their generic plan from
 * the first execution on. The group commit statements take a whole group as JSON parameters, so one
 * plan fits every group; left to choose (`plan_cache_mode = auto`), PostgreSQL planned the group's
 * read and lock statements anew on most executions (their estimated generic cost, with `= ANY` of
 * an array of unknown length, stayed above the custom plans'): 0.87 ms of planning per group in
 * bench:bets (pg_stat_statements), a quarter of the group's statement time. The embedded database
 * takes the setting as a statement of its own (its round trips stay in this process).
 */
export async function transactionOnGenericPlans<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (isEmbedded(db)) {
    return db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
      return work(tx);
    });
  }
  return db.transaction(work, GENERIC_PLANS_BEGIN);
}

/** A statement prepared on an embedded database: its parameters' and columns' types. */
type TEmbeddedStatement = {
  text: string;
  paramTypes: number[];
  fields: { name: string; dataTypeID: number }[];
};

const embeddedStatements = new WeakMap<PGlite, Map<string, TEmbeddedStatement>>();

type TMessage = {
  name: string;
  dataTypeIDs?: number[];
  fields?: ({ name: string; dataTypeID: number } | string | null)[];
};

/**
 * Runs a named prepared statement inside a transaction of the embedded database, as PostgreSQL
 * runs node-postgres's (`preparedRowsOf`): parsed and described once per database, then each
 * execution is ONE protocol exchange (Bind · Execute · Sync) on the statement's cached plan.
 * PGlite's own `query` parses, analyses and plans every statement anew in six exchanges (unnamed
 * statement): for the group commit statements that planning was 18 % of the process's CPU in
 * bench:bets. Parameters and columns go through the instance's serializers and parsers by type,
 * as PGlite's `query` does, so rows are the same. Returns null outside a transaction (another
 * transaction could be open on the one connection): the caller runs the statement as usual.
 */
export async function embeddedPreparedRows<T>(
  executor: Executor,
  name: string,
  text: string,
  params: readonly unknown[],
): Promise<T[] | null> {
  const client = embeddedClients.get((executor as unknown as { dialect: object }).dialect);
  const session = (executor as unknown as { session: { client: unknown } }).session;
  if (!client || session.client === client) return null;
  let statements = embeddedStatements.get(client);
  if (!statements) {
    statements = new Map();
    embeddedStatements.set(client, statements);
  }
  const known = statements.get(name);
  const statement = known?.text === text ? known : await prepareEmbedded(client, statements, name, text);
  const values = params.map((param, i) => {
    if (param === null || param === undefined) return null;
    const serializer = client.serializers[statement.paramTypes[i]!];
    return serializer ? serializer(param) : String(param);
  });
  const message = Buffer.concat([
    serialize.bind({ statement: name, values }),
    serialize.execute({}),
    serialize.sync(),
  ]);
  let messages: TMessage[];
  try {
    messages = (await client.runExclusive(() => client.execProtocol(message, { syncToFs: false })))
      .messages as TMessage[];
  } catch (error) {
    // A plan PostgreSQL could not keep (a table changed under it) or a statement gone: prepare anew.
    statements.delete(name);
    throw error;
  }
  const { fields } = statement;
  const rows: T[] = [];
  for (const message of messages) {
    if (message.name !== 'dataRow') continue;
    const row: Record<string, unknown> = {};
    message.fields!.forEach((value, i) => {
      const field = fields[i]!;
      const parser = client.parsers[field.dataTypeID];
      row[field.name] = value === null || !parser ? value : parser(value as string, field.dataTypeID);
    });
    rows.push(row as T);
  }
  return rows;
}

async function prepareEmbedded(
  client: PGlite,
  statements: Map<string, TEmbeddedStatement>,
  name: string,
  text: string,
): Promise<TEmbeddedStatement> {
  statements.delete(name);
  // Closing a statement that does not exist is no error: one left by a failed first run goes.
  const message = Buffer.concat([
    serialize.close({ type: 'S', name }),
    serialize.parse({ name, text }),
    serialize.describe({ type: 'S', name }),
    serialize.sync(),
  ]);
  const { messages } = await client.runExclusive(() => client.execProtocol(message, { syncToFs: false }));
  const found = messages as TMessage[];
  const statement: TEmbeddedStatement = {
    text,
    paramTypes: found.find((m) => m.name === 'parameterDescription')?.dataTypeIDs ?? [],
    fields: (found.find((m) => m.name === 'rowDescription')?.fields ?? []) as TEmbeddedStatement['fields'],
  };
  statements.set(name, statement);
  return statement;
}

const databaseNumbers = new WeakMap<object, number>();
let databasesSeen = 0;

/**
 * A number for the database an executor runs on, the same for the database and its transactions
 * (drizzle gives each its database's dialect object). Keys per-process caches of database rows in
 * a process that opens more than one database (the tests open PGlite and PostgreSQL side by side).
 */
export function databaseNumber(executor: Executor): number {
  const dialect = (executor as unknown as { dialect: object }).dialect;
  let n = databaseNumbers.get(dialect);
  if (n === undefined) {
    databasesSeen += 1;
    n = databasesSeen;
    databaseNumbers.set(dialect, n);
  }
  return n;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL (several statements allowed); used by the migration runner. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolMax?: number }
  | { kind: 'pglite'; dataDir?: string | undefined };

/**
 * A first-come-first-served queue whose every turn starts on a fresh event-loop turn.
 *
 * PGlite runs SQL synchronously on this thread. Measured with 32 busy keep-alive connections
 * (bench/bets), connections opened meanwhile were accepted only seconds later while the sockets
 * already open kept being served: dice bet p99 2.1–2.3 s. With every operation starting from a
 * setImmediate, sockets are polled and connections accepted between any two database operations:
 * p99 0.6 s at the same throughput. The order stays the order of arrival.
 */
function fairTurns(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(work);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * Types drizzle reads as text and converts itself: it sends these parsers (identity functions)
 * with every PGlite query. PGlite then merges them into its whole parser table for each statement,
 * which measured about 100 µs a query, a third of a simple one. They are set once on the instance
 * instead (`openDatabase`) and dropped from each query (`withoutDrizzleParsers`): same results.
 */
const TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231,
  1115,
  1185,
  1187,
  1182,
];
const TEXT_TYPE_KEYS = new Set(TEXT_TYPES.map(String));
const TEXT_PARSERS = Object.fromEntries(TEXT_TYPES.map((type) => [type, (value: string) => value]));

function withoutDrizzleParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options;
  if (!Object.keys(options.parsers).every((key) => TEXT_TYPE_KEYS.has(key))) return options;
  const { parsers: _sameAsTheInstance, ...rest } = options;
  return rest;
}

/**
 * Routes the client's entry points (statements, transactions, scripts) through `fairTurns`, and
 * every statement (in a transaction too) through `withoutDrizzleParsers`.
 */
function takeTurns(client: PGlite): void {
  const turn = fairTurns();
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  const exec = client.exec.bind(client);
  client.query = ((text: string, params?: unknown[], options?: QueryOptions) =>
    turn(() => query(text, params, withoutDrizzleParsers(options)))) as typeof query;
  client.transaction = ((callback: Parameters<typeof transaction>[0]) =>
    turn(() =>
      transaction((tx) =>
        callback(
          Object.create(tx, {
            query: {
              value: (text: string, params?: unknown[], options?: QueryOptions) =>
                tx.query(text, params, withoutDrizzleParsers(options)),
            },
          }),
        ),
      ),
    )) as typeof transaction;
  client.exec = ((...args: Parameters<typeof exec>) => turn(() => exec(...args))) as typeof exec;
}

/**
 * Opens the embedded PGlite database (persisted under `dataDir`, in memory when absent) or a
 * PostgreSQL server pool. The same schema and migrations run on both.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolMax ?? 20 });
    // Bigints come back as strings from pg; keep them exact (int8 = OID 20).
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it. Queries in flight still fail loudly.
    });
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      exec: async (sql) => {
        await pool.query(sql);
      },
      close: () => pool.end(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite({ dataDir: options.dataDir, parsers: TEXT_PARSERS });
  await client.waitReady;
  takeTurns(client);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  embeddedClients.set((db as unknown as { dialect: object }).dialect, client);
  return {
    db,
    kind: 'pglite',
    exec: async (sql) => {
      await client.exec(sql);
    },
    close: () => client.close(),
  };
}
