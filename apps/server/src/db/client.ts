import fs, { mkdirSync } from 'node:fs';
import { PGlite, type QueryOptions, type Results, types } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { serialize } from 'pg-protocol';
import { poolOptions } from './primary.ts';
import { ReadRouterPool } from './replica.ts';
import * as schema from './schema.ts';
import { retryTransactionsOnConflict } from './transaction-retry.ts';

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

const embeddedDialects = new WeakSet<object>();

/**
 * Whether an executor runs on the embedded database: ONE connection, whose statements run one at
 * a time on this process's threads. Group committers keep one group in flight there (a second
 * would only wait for the first's turn, and the bets behind it would make a smaller group).
 */
export function isEmbedded(executor: Executor): boolean {
  return embeddedDialects.has((executor as unknown as { dialect: object }).dialect);
}

/**
 * `BEGIN` of a transaction whose prepared statements run on their generic plans, in ONE round trip
 * on PostgreSQL: drizzle appends a transaction's options to its `begin` unquoted and sends it
 * without parameters, which node-postgres sends as a simple query, where several statements are
 * allowed (client.int.test.ts checks the setting takes effect on both databases).
 */
const GENERIC_PLANS_ISOLATION = 'read committed; SET LOCAL plan_cache_mode = force_generic_plan';
const GENERIC_PLANS_BEGIN = { isolationLevel: GENERIC_PLANS_ISOLATION } as unknown as Parameters<
  Db['transaction']
>[1];
/** The text drizzle sends for GENERIC_PLANS_BEGIN: `pipelineTransactions` sends it without waiting. */
const PIPELINED_BEGIN = `begin isolation level ${GENERIC_PLANS_ISOLATION}`;

/**
 * A transaction whose named prepared statements (`preparedRowsOf`) use their generic plan from
 * the first execution on. The group commit statements take a whole group as JSON parameters, so one
 * plan fits every group; left to choose (`plan_cache_mode = auto`), PostgreSQL planned the group's
 * read and lock statements anew on most executions (their estimated generic cost, with `= ANY` of
 * an array of unknown length, stayed above the custom plans'): planning was a large share of the
 * group's statement time in bench:bets (pg_stat_statements). The embedded database
 * takes the setting as a statement of its own (its round trips stay in this process).
 *
 * On PostgreSQL the work does not wait for BEGIN's answer: its first statement is written right
 * behind it (`pipelineTransactions`), so that statement must not write (a BEGIN that failed would
 * leave it outside the transaction; it fails too, and the work with it). The group committers'
 * first statement reads and locks.
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

/** A statement prepared on the embedded database: its name and its parameters' and columns' types. */
type TEmbeddedStatement = {
  name: string;
  paramTypes: number[];
  fields: { name: string; dataTypeID: number }[];
};

type TMessage = {
  name: string;
  text?: string;
  dataTypeIDs?: number[];
  fields?: ({ name: string; dataTypeID: number } | string | null)[];
};

/**
 * What one connection keeps prepared, on either database; the least recently used statements go
 * first. A prepared statement holds its parse and query trees and its generic plan in the backend.
 * Measured after bench:bets (`pg_backend_memory_contexts` before and after DEALLOCATE ALL; the
 * figures are in docs/bench-log/2026-11-29.md): a statement's memory grows with its text, and the
 * group commit statements' plans are the largest, so a bound by number alone let a pooled
 * connection hold far more than its share; bounded by text too (pgjdbc bounds its cache the same
 * way: 256 statements, 5 MiB of text). The hot paths fit well inside both bounds.
 */
export const MAX_PREPARED_STATEMENTS = 200;
/** Most characters of statement text one connection keeps prepared (see MAX_PREPARED_STATEMENTS). */
export const MAX_PREPARED_TEXT = 128 * 1024;

/** Transaction control and settings go PGlite's own way (they may run in an aborted transaction). */
const NOT_PREPARED =
  /^\s*(begin|start|commit|end|rollback|abort|savepoint|release|set|reset|prepare|deallocate|discard)\b/i;

/** PostgreSQL errors after which a connection's prepared statement is dropped and prepared anew. */
const STATEMENT_GONE = new Set([
  '0A000', // cached plan must not change result type: a table changed under it
  '26000', // the statement is gone (DEALLOCATE ALL, DISCARD ALL)
]);

/**
 * A connection's prepared statements by text, the least recently used first (a Map keeps
 * insertion order): at most MAX_PREPARED_STATEMENTS and MAX_PREPARED_TEXT characters of text,
 * both databases' (`EmbeddedStatements`, `prepareByText`).
 */
class RecentlyUsed<V> {
  private readonly byText = new Map<string, V>();
  private characters = 0;

  get(text: string): V | undefined {
    const value = this.byText.get(text);
    if (value !== undefined) {
      this.byText.delete(text);
      this.byText.set(text, value);
    }
    return value;
  }

  /** Keeps `value` for `text`; answers the values dropped: the one it replaces, those dropped for room. */
  set(text: string, value: V): V[] {
    const dropped: V[] = [];
    const replaced = this.byText.get(text);
    if (replaced !== undefined) {
      this.byText.delete(text);
      this.characters -= text.length;
      if (replaced !== value) dropped.push(replaced);
    }
    while (
      this.byText.size > 0 &&
      (this.byText.size >= MAX_PREPARED_STATEMENTS || this.characters + text.length > MAX_PREPARED_TEXT)
    ) {
      const [oldText, oldValue] = this.byText.entries().next().value!;
      this.byText.delete(oldText);
      this.characters -= oldText.length;
      dropped.push(oldValue);
    }
    this.byText.set(text, value);
    this.characters += text.length;
    return dropped;
  }

  /** Forgets `text` if `value` is still what it holds. */
  delete(text: string, value: V): boolean {
    if (this.byText.get(text) !== value) return false;
    this.characters -= text.length;
    return this.byText.delete(text);
  }
}

/**
 * The embedded database's statements, prepared once by text as node-postgres prepares a named
 * statement on PostgreSQL: parsed and described the first time, then each execution is ONE
 * protocol exchange (Bind · Execute · Sync) on the kept statement, whose plan PostgreSQL caches
 * (a generic plan from the sixth execution when it is no dearer, at once in
 * `transactionOnGenericPlans`). PGlite's own `query` sends an unnamed statement in six exchanges
 * and parses, analyses and plans it on every execution: for the group commit statements that
 * planning led the process's CPU profile in bench:bets. Parameters and columns go through
 * the instance's serializers and parsers by type, as PGlite's `query` does: the same results.
 */
class EmbeddedStatements {
  private readonly byText = new RecentlyUsed<TEmbeddedStatement>();
  /** Statements dropped from the map, closed with the next exchange that succeeds. */
  private closing: string[] = [];
  private made = 0;

  constructor(private readonly client: PGlite) {}

  static preparable(text: string, options: QueryOptions | undefined): boolean {
    if (options && Object.keys(options).some((key) => key !== 'rowMode' && key !== 'parsers')) return false;
    return !NOT_PREPARED.test(text);
  }

  /** Runs `text` on the connection; the caller holds it (PGlite's query mutex, in or out of a transaction). */
  async run<T>(text: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const { client } = this;
    try {
      const statement = this.byText.get(text) ?? (await this.prepare(text));
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const serializer =
          options?.serializers?.[statement.paramTypes[i]!] ?? client.serializers[statement.paramTypes[i]!];
        return serializer ? serializer(param) : String(param);
      });
      let messages: TMessage[];
      try {
        messages = (
          await client.execProtocol(
            Buffer.concat([
              serialize.bind({ statement: statement.name, values }),
              serialize.execute({}),
              serialize.sync(),
            ]),
            { syncToFs: false },
          )
        ).messages as TMessage[];
      } catch (error) {
        if (
          STATEMENT_GONE.has((error as { code?: string }).code ?? '') &&
          this.byText.delete(text, statement)
        ) {
          this.closing.push(statement.name);
        }
        throw error;
      }
      return resultOf<T>(
        messages,
        statement.fields,
        options?.parsers ? { ...client.parsers, ...options.parsers } : client.parsers,
        options?.rowMode === 'array',
      );
    } catch (error) {
      // As PGlite's `query` reports a statement's error.
      if (error && typeof error === 'object')
        Object.assign(error, { query: text, params, queryOptions: options });
      throw error;
    }
  }

  private async prepare(text: string): Promise<TEmbeddedStatement> {
    this.made += 1;
    const name = `sorte_embedded_${this.made}`;
    const closing = this.closing;
    // Closing a statement that does not exist is no error: a close repeated after a failure is harmless.
    const message = Buffer.concat([
      ...closing.map((old) => serialize.close({ type: 'S', name: old })),
      serialize.parse({ name, text }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]);
    let found: TMessage[];
    try {
      found = (await this.client.execProtocol(message, { syncToFs: false })).messages as TMessage[];
    } catch (error) {
      this.closing.push(name);
      throw error;
    }
    this.closing = this.closing.slice(closing.length);
    const statement: TEmbeddedStatement = {
      name,
      paramTypes: found.find((m) => m.name === 'parameterDescription')?.dataTypeIDs ?? [],
      fields: (found.find((m) => m.name === 'rowDescription')?.fields ?? []) as TEmbeddedStatement['fields'],
    };
    for (const dropped of this.byText.set(text, statement)) this.closing.push(dropped.name);
    return statement;
  }
}

/** One statement's results, as PGlite's `parseResults` makes them from its messages. */
function resultOf<T>(
  messages: readonly TMessage[],
  fields: TEmbeddedStatement['fields'],
  parsers: Record<number | string, (value: string, typeId?: number) => unknown>,
  asArrays: boolean,
): Results<T> {
  const rows: unknown[] = [];
  const result: Results<T> = { rows: rows as T[], fields, affectedRows: 0 };
  for (const message of messages) {
    if (message.name === 'dataRow') {
      const values = message.fields!.map((value, i) => {
        const type = fields[i]!.dataTypeID;
        const parser = parsers[type];
        return value === null || !parser ? value : parser(value as string, type);
      });
      rows.push(asArrays ? values : Object.fromEntries(values.map((value, i) => [fields[i]!.name, value])));
    } else if (message.name === 'commandComplete') {
      // "SELECT 2", "UPDATE 3", "INSERT 0 5": the count ends the tag; "CREATE TABLE" has none.
      const parts = message.text!.split(' ');
      const count = Number.parseInt(parts[parts.length - 1]!, 10);
      result.command = parts[0]!;
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(parts[0]!)) result.affectedRows = count;
      if (!Number.isNaN(count)) result.rowCount = count;
    }
  }
  return result;
}

/** SQLSTATEs of a database that went away or cannot take the connection now. */
const UNAVAILABLE_STATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // A write on a server that is (now) a standby: a connection opened before a failover demoted it.
  '25006',
]);
/** Socket errors of a connection to the database. */
const UNAVAILABLE_SOCKETS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  // A host name that did not resolve for now (one host of a multi-host URL being replaced).
  'EAI_AGAIN',
]);
/** node-postgres's own words for a connection it lost or could not open (these carry no code). */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * Whether an error (or what it wraps: drizzle puts the driver's error in `cause`) says the database
 * could not be reached or dropped the connection: a restart, a failover, a killed backend, no free
 * connection slot. The request may be tried again shortly: a transaction it was in rolled back,
 * unless the connection went with its COMMIT on the wire, when it may have committed; a bet sent
 * again with its key answers either way.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (
      typeof code === 'string' &&
      (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SOCKETS.has(code))
    )
      return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((words) => message.startsWith(words)))
      return true;
    e = cause;
  }
  return false;
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
  /**
   * Reads that may be a few seconds old (records, order centre, back-office reports and CSV
   * exports): on a read replica when DATABASE_READ_URL names one that keeps up, else on the
   * primary. The same object as `db` when there is no read URL (and on the embedded database).
   * Never for money, sessions, a transaction, or a read of the request's own writes (ADR 044).
   */
  readDb: Db;
  /** The read replicas' router, when there are read replicas (tests and the bench read its counts). */
  readRouter?: ReadRouterPool;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL (several statements allowed); used by the migration runner. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      poolMax?: number;
      /** `pgbouncer`: `url` is a transaction-mode pooler (see `throughPooler`). */
      pooler?: 'none' | 'pgbouncer' | undefined;
      /** PostgreSQL itself, for the scripts (the migrations' session lock) behind a pooler. */
      directUrl?: string | undefined;
      /** Read replicas (one or several hosts, standbys or a primary) for `readDb` (replica.ts). */
      readUrl?: string | undefined;
      /** A read host lagging more than this many seconds behind is skipped (default 5). */
      readMaxLagS?: number | undefined;
    }
  | { kind: 'pglite'; dataDir?: string | undefined };

/**
 * A first-come-first-served queue whose every turn starts on a fresh event-loop turn.
 *
 * PGlite runs SQL synchronously on this thread. Measured with 32 busy keep-alive connections
 * (bench/bets), connections opened meanwhile were accepted only seconds later while the sockets
 * already open kept being served, and the dice bets' p99 was seconds long. With every operation
 * starting from a setImmediate, sockets are polled and connections accepted between any two
 * database operations: a p99 several times shorter at the same throughput. The order stays the
 * order of arrival.
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
 * which measured as a large share of a simple query's time. They are set once on the instance
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
 * every statement (in a transaction too) through `withoutDrizzleParsers` and, when it can be,
 * `EmbeddedStatements` (under PGlite's own locks: the transaction's, then the connection's).
 */
function takeTurns(client: PGlite): void {
  const turn = fairTurns();
  const statements = new EmbeddedStatements(client);
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  const exec = client.exec.bind(client);
  client.query = (<T>(text: string, params?: unknown[], options?: QueryOptions) => {
    const own = withoutDrizzleParsers(options);
    if (!EmbeddedStatements.preparable(text, own)) return turn(() => query<T>(text, params, own));
    return turn(() =>
      client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(async () => {
          const result = await statements.run<T>(text, params, own);
          await client.syncToFs();
          return result;
        }),
      ),
    );
  }) as typeof query;
  client.transaction = ((callback: Parameters<typeof transaction>[0]) =>
    turn(() =>
      transaction((tx) =>
        callback(
          Object.create(tx, {
            query: {
              value: <T>(text: string, params?: unknown[], options?: QueryOptions) => {
                const own = withoutDrizzleParsers(options);
                // A closed transaction: PGlite's own answer (an error).
                if (tx.closed || !EmbeddedStatements.preparable(text, own))
                  return tx.query<T>(text, params, own);
                return client._runExclusiveQuery(() => statements.run<T>(text, params, own));
              },
            },
          }),
        ),
      ),
    )) as typeof transaction;
  client.exec = ((...args: Parameters<typeof exec>) => turn(() => exec(...args))) as typeof exec;
}

type TQueryConfig = { text?: unknown; name?: string; values?: unknown; submit?: unknown };
type TCallback = (error: Error | null, result?: unknown) => void;

/** A client's `query` as pg calls it (config or text, values, callback). */
type TQuery = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** The client's own `query`, bound, for a wrapper that replaces it to call through to. */
function ownQuery(client: pg.PoolClient): TQuery {
  return client.query.bind(client) as TQuery;
}

/**
 * Each pooled connection prepares every parameterised statement it runs under a name of its own,
 * by text, as the embedded database does (`EmbeddedStatements`) and postgres.js does by default:
 * drizzle sends unnamed statements, which PostgreSQL parses, analyses and plans on every
 * execution. At most MAX_PREPARED_STATEMENTS and MAX_PREPARED_TEXT per connection (the least
 * recently used ones are deallocated); scripts without parameters, transaction control and named
 * statements go as they come.
 */
function prepareByText(client: pg.PoolClient): void {
  const names = new RecentlyUsed<string>();
  let made = 0;
  const query = ownQuery(client);
  const parsed = (client as unknown as { connection: { parsedStatements: Record<string, string> } })
    .connection.parsedStatements;
  const drop = (name: string) => {
    delete parsed[name];
    // Queued before the next statement; refused in an aborted transaction (the name is not reused).
    (query(`DEALLOCATE ${name}`) as Promise<unknown>).catch(() => undefined);
  };
  (client as unknown as { query: TQuery }).query = (config, values, callback) => {
    const named = config as TQueryConfig;
    if (
      typeof config !== 'object' ||
      config === null ||
      named.name !== undefined ||
      named.submit !== undefined ||
      typeof named.text !== 'string' ||
      NOT_PREPARED.test(named.text) ||
      !Array.isArray(typeof values === 'function' ? named.values : (values ?? named.values))
    ) {
      return query(config, values, callback);
    }
    const text = named.text;
    let name = names.get(text);
    if (!name) {
      made += 1;
      name = `sorte_q${made}`;
      for (const dropped of names.set(text, name)) drop(dropped);
    }
    const forget = (error: unknown) => {
      if (STATEMENT_GONE.has((error as { code?: string }).code ?? '') && names.delete(text, name)) drop(name);
    };
    const withName = { ...named, name };
    const done = typeof values === 'function' ? values : callback;
    if (typeof done === 'function') {
      return query(
        withName,
        typeof values === 'function' ? undefined : values,
        (error: Error | null, result: unknown) => {
          if (error) forget(error);
          (done as TCallback)(error, result);
        },
      );
    }
    return (query(withName, values) as Promise<unknown>).catch((error: unknown) => {
      forget(error);
      throw error;
    });
  };
}

/** A pooled connection's transaction in flight: what `pipelineTransactions` sent ahead. */
type TPipelined = {
  /** PIPELINED_BEGIN, sent without waiting for its answer: the next statement's answer waits for it. */
  begun: Promise<unknown> | null;
  /** `commitWithNextStatement` was called: COMMIT goes right behind the next statement. */
  commitNext: boolean;
  /** That COMMIT's answer: the transaction's own COMMIT (or ROLLBACK) answers with it. */
  committing: Promise<unknown> | null;
};

const pipelined = new WeakMap<object, TPipelined>();

/** What drizzle gets for a statement it need not wait for (it reads nothing of BEGIN's answer). */
const NO_ROWS = { command: '', rowCount: 0, rows: [], fields: [] };

/**
 * Two round trips less for a group commit's transaction on PostgreSQL: the pool's connections run
 * in node-postgres's pipeline mode (a statement is written without waiting for the answers before
 * it; each still has its own Sync, so one's error never skips another), and
 *   - PIPELINED_BEGIN is written and answered at once; the transaction's first statement goes right
 *     behind it and its answer also waits for BEGIN's (an error of either fails it);
 *   - after `commitWithNextStatement(tx)`, COMMIT is written right behind the next statement. If
 *     that statement fails, the transaction is aborted and PostgreSQL answers that COMMIT with
 *     ROLLBACK; drizzle's own COMMIT or ROLLBACK of the transaction then gets that answer instead
 *     of a round trip, and a statement sent after it is refused.
 * Only the group committers and the sportsbook's placement use these (their first statement reads
 * and locks, their last writes and nothing runs between it and COMMIT but deciding the answers);
 * every other transaction and statement waits for each answer as before.
 */
function pipelineTransactions(client: pg.PoolClient): void {
  const state: TPipelined = { begun: null, commitNext: false, committing: null };
  pipelined.set(client, state);
  const query = ownQuery(client);
  (client as unknown as { query: TQuery }).query = (config, values, callback) => {
    const named = config as TQueryConfig | null;
    const text = typeof config === 'string' ? config : named?.text;
    if (
      typeof text !== 'string' ||
      typeof values === 'function' ||
      callback !== undefined ||
      named?.submit !== undefined
    ) {
      return query(config, values, callback);
    }
    if (state.committing) {
      const committing = state.committing;
      state.committing = null;
      if (/^\s*commit\s*$/i.test(text)) return committing;
      // The pipelined COMMIT ended the transaction either way (committed, or rolled back after an error).
      if (/^\s*rollback\s*$/i.test(text))
        return committing.then(
          () => NO_ROWS,
          () => NO_ROWS,
        );
      return Promise.reject(new Error('a statement sent after its transaction was committed'));
    }
    if (text === PIPELINED_BEGIN) {
      const sent = query(config, values) as Promise<unknown>;
      sent.catch(() => undefined);
      state.begun = sent;
      return Promise.resolve(NO_ROWS);
    }
    const begun = state.begun;
    state.begun = null;
    const sent = query(config, values) as Promise<unknown>;
    if (state.commitNext) {
      state.commitNext = false;
      if (!NOT_PREPARED.test(text)) {
        const commit = query('COMMIT') as Promise<unknown>;
        commit.catch(() => undefined);
        state.committing = commit;
      }
    }
    return begun ? Promise.all([begun, sent]).then(([, result]) => result) : sent;
  };
}

/**
 * In a `transactionOnGenericPlans` transaction on PostgreSQL, COMMIT is written right behind the
 * next statement, whose answer ends the transaction's work: nothing but deciding answers may follow
 * it (see `pipelineTransactions`). Nothing on the embedded database, whose round trips stay in
 * this process.
 */
export function commitWithNextStatement(tx: Tx): void {
  const client = (tx as unknown as { session?: { client?: object } }).session?.client;
  const state = client ? pipelined.get(client) : undefined;
  if (state) state.commitNext = true;
}

/**
 * The embedded database's files as `npm start` keeps them, durable: a commit answers once its WAL
 * is on the disk, so a power loss or an OS crash loses no acknowledged deposit or bet.
 *
 * PGlite starts PostgreSQL with `-F` (fsync = off), and its Emscripten file system for Node
 * (NODEFS) gives the files' streams no `fsync`: PostgreSQL's fsync() returned without a system
 * call, and fdatasync() is answered by the runtime without one either. So PostgreSQL runs here
 * without `-F`, with `wal_sync_method = fsync` (not the Linux default fdatasync), on a NodeFS whose
 * streams' `fsync` is the host's fsync(2) of the file behind it; an error of that call reaches
 * PostgreSQL as the errno it is (which then stops rather than go on after a failed sync). Checked
 * with strace: one fsync per commit (docs/decisions/042-embedded-database-durable.md has the
 * bench:bets cost). The in-memory database (no data directory) keeps fsync off: it has no disk.
 */
function durableOnDisk(dataDir: string): { dataDir: string; fs: NodeFS; startParams: string[] } {
  return {
    dataDir,
    fs: new SyncedNodeFS(dataDir),
    startParams: [
      ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
      '-c',
      'fsync=on',
      '-c',
      'wal_sync_method=fsync',
    ],
  };
}

type TNodeStream = { nfd?: number };
type TNodeFsModule = {
  NODEFS: {
    stream_ops: { fsync?: (stream: TNodeStream) => number };
    tryFSOperation: (operation: () => void) => void;
  };
};

/** PGlite's NodeFS whose files' streams sync to the disk (see `durableOnDisk`). */
class SyncedNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(pg, opts);
    const syncFiles = (mod: unknown) => {
      const { NODEFS } = mod as TNodeFsModule;
      NODEFS.stream_ops.fsync = (stream) => {
        const fd = stream.nfd;
        if (fd !== undefined) NODEFS.tryFSOperation(() => fs.fsyncSync(fd));
        return 0;
      };
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), syncFiles] } };
  }
}

/**
 * Whether the pool's URL is a pooler in transaction mode (PgBouncer): each transaction, or each
 * statement outside one, may run on another server connection. The Debian PgBouncer (1.18) keeps
 * no prepared statement across them (its support came in 1.21): a name `prepareByText` prepared
 * on one server connection is unknown on the next, so the pool sends unnamed statements there
 * (parsed and planned on every execution, as drizzle sends them; the cost measured in
 * docs/decisions/043-pgbouncer-in-transaction-mode.md). Everything else (pipelining included)
 * stays as it is.
 */
function throughPooler(pooler: 'none' | 'pgbouncer' | undefined): boolean {
  return pooler === 'pgbouncer';
}

/**
 * Behind a transaction-mode pooler, every statement goes unnamed, those named by the caller too
 * (`preparedRowsOf`): a name is prepared on one server connection, the next transaction may run on
 * another (see `throughPooler`).
 */
function unnamedStatements(client: pg.PoolClient): void {
  const query = ownQuery(client);
  (client as unknown as { query: TQuery }).query = (config, values, callback) => {
    if (typeof config !== 'object' || config === null || (config as TQueryConfig).name === undefined)
      return query(config, values, callback);
    const { name: _unnamed, ...unnamed } = config as TQueryConfig;
    return query(unnamed, values, callback);
  };
}

/**
 * The scripts' connection behind a pooler: ONE session on PostgreSQL itself. The migrations take a
 * session advisory lock in one script and release it in another; through a transaction-mode
 * pooler these could run on two server connections (the lock would stay held on the first).
 */
function scriptsOnOneSession(url: string): pg.Pool {
  const scripts = new pg.Pool({ ...poolOptions(url), max: 1 });
  scripts.on('error', () => {});
  return scripts;
}

/** Default DATABASE_READ_MAX_LAG_S: a read host further behind than this is skipped. */
export const DEFAULT_READ_MAX_LAG_S = 5;

/** The statement wrappers every pooled PostgreSQL connection gets, the read replicas' too. */
function wrapConnection(client: pg.PoolClient, pooled: boolean): void {
  if (pooled) unnamedStatements(client);
  else prepareByText(client);
  pipelineTransactions(client);
}

/**
 * Opens the embedded PGlite database (persisted under `dataDir`, in memory when absent) or a
 * PostgreSQL server pool. The same schema and migrations run on both, and on both a transaction
 * that loses a deadlock or a serialization conflict runs again as a whole (transaction-retry.ts).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pooled = throughPooler(options.pooler);
    // A multi-host URL (a primary and its standbys): each new connection lands on the primary (primary.ts).
    const pool = new pg.Pool({ ...poolOptions(options.url), max: options.poolMax ?? 20, pipeline: true });
    // Bigints come back as strings from pg; keep them exact (int8 = OID 20).
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it. Queries in flight still fail loudly.
    });
    pool.on('connect', (client) => {
      // A connection lost while a client is checked out is reported to its statements (they fail)
      // and emitted as 'error' on the client, where nothing listened: an uncaught error that ended
      // the process. Released, a lost client is not pooled again (pg-pool drops the unqueryable).
      client.on('error', () => {});
      wrapConnection(client, pooled);
    });
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    retryTransactionsOnConflict(db);
    // The read replicas connect to PostgreSQL itself (their lag is probed there), so their
    // connections prepare statements by text whatever DATABASE_POOLER says.
    const readRouter = options.readUrl
      ? new ReadRouterPool(pool, {
          url: options.readUrl,
          maxLagS: options.readMaxLagS ?? DEFAULT_READ_MAX_LAG_S,
          poolMax: options.poolMax ?? 20,
          onConnect: (client) => wrapConnection(client, false),
        })
      : undefined;
    const readDb = readRouter
      ? (drizzleNodePg(readRouter as unknown as pg.Pool, { schema }) as unknown as Db)
      : db;
    const scripts = pooled ? scriptsOnOneSession(options.directUrl ?? options.url) : null;
    return {
      db,
      readDb,
      ...(readRouter ? { readRouter } : {}),
      kind: 'postgres',
      exec: async (sql) => {
        await (scripts ?? pool).query(sql);
      },
      close: async () => {
        await readRouter?.end();
        await scripts?.end();
        await pool.end();
      },
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite({
    parsers: TEXT_PARSERS,
    ...(options.dataDir ? durableOnDisk(options.dataDir) : {}),
  });
  await client.waitReady;
  takeTurns(client);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  retryTransactionsOnConflict(db);
  embeddedDialects.add((db as unknown as { dialect: object }).dialect);
  return {
    db,
    readDb: db,
    kind: 'pglite',
    exec: async (sql) => {
      await client.exec(sql);
    },
    close: () => client.close(),
  };
}
