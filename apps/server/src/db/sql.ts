import { type SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Executor, Tx } from './client.ts';

/**
 * Generic SQL helpers every module uses to run raw statements and transactions on either database
 * (node-postgres or PGlite). They decide nothing about any domain.
 */

/**
 * Runs `work` atomically: in a new transaction on a database, or as part of the caller's open
 * transaction, committing or rolling back with the caller's other writes (e.g. a bet and its round
 * record). No savepoint is needed there: every wallet refusal (insufficient funds, conflict, …) is
 * decided from rows read before the wallet writes anything and is thrown in JavaScript, never as an
 * SQL error, so after a refusal the caller's transaction is untouched and usable. Two round trips
 * (SAVEPOINT, RELEASE) fewer per transfer on the bet path.
 */
export function atomically<T>(executor: Executor, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (executor instanceof PgTransaction) return work(executor as Tx);
  return executor.transaction(work);
}

/** A consistent read-only snapshot for reports (repeatable read when we open the transaction). */
export function inSnapshot<T>(executor: Executor, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (executor instanceof PgTransaction) return executor.transaction(work);
  return executor.transaction(work, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** Rows of a raw query, identical on node-postgres and PGlite (both answer `{ rows }`). */
export async function rowsOf<T>(executor: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

type TPreparing = {
  session: { prepareQuery(query: unknown, fields: undefined, name: string, arrayMode: false): TPrepared };
  dialect: { sqlToQuery(query: SQL): unknown };
};
type TPrepared = { execute(): Promise<unknown> };

/**
 * `rowsOf` as a named prepared statement: on PostgreSQL each connection parses and plans it once
 * (the group commit statements take their rows as one JSON parameter, so one plan fits any group;
 * planning them was a fifth of their time; the embedded database prepares every statement by its
 * text, `EmbeddedStatements`). `name` must be unique to the statement's text.
 */
export async function preparedRowsOf<T>(executor: Executor, name: string, query: SQL): Promise<T[]> {
  const { session, dialect } = executor as unknown as TPreparing;
  const result = await session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute();
  return (result as { rows: T[] }).rows;
}

/** How finely `isoOf` writes the time: the back office shows seconds, the API milliseconds, cursors microseconds. */
const ISO_FORMATS = {
  seconds: 'YYYY-MM-DD"T"HH24:MI:SS"Z"',
  millis: 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"',
  micros: 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"',
} as const;

/**
 * A timestamptz column as ISO 8601 UTC text ("2026-11-25T14:03:07.123Z"), written by the database so
 * both drivers answer the same string; NULL stays NULL.
 */
export function isoOf(column: SQL | string, precision: keyof typeof ISO_FORMATS = 'millis'): SQL {
  const expression = typeof column === 'string' ? sql.raw(column) : column;
  return sql`to_char(${expression} AT TIME ZONE 'UTC', ${sql.raw(`'${ISO_FORMATS[precision]}'`)})`;
}

/** A timestamp the database answered (PostgreSQL's text, or a Date) as ISO 8601 UTC text. */
export function isoText(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

/** `%text%` for LIKE/ILIKE, the pattern characters of `text` (%, _ and \) matched as themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
