import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';

/**
 * Integration tests run on every database we ship on: PGlite always, and PostgreSQL when one is
 * reachable (DATABASE_URL, or a local server on 127.0.0.1:5432 with the user postgres/postgres).
 * Each test process gets one fresh, migrated database per kind, shared by all its test files:
 * PGlite costs hundreds of MB and seconds to open, so one per process, never one per test.
 * Tests stay independent by creating their own users with unique names.
 */
export type DatabaseKind = 'pglite' | 'postgres';

const LOCAL_ADMIN_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

let adminUrl: Promise<string | null> | undefined;
/** The PostgreSQL server URL tests may create databases on, or null when there is none. */
export function postgresAdminUrl(): Promise<string | null> {
  adminUrl ??= (async () => {
    const candidate = process.env.DATABASE_URL ?? LOCAL_ADMIN_URL;
    if (await reachable(candidate)) return candidate;
    if (process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === 'true') {
      throw new Error(`PostgreSQL is required in CI but ${candidate} is not reachable`);
    }
    return null;
  })();
  return adminUrl;
}

/** The database kinds this process can test on. */
export async function databaseKinds(): Promise<DatabaseKind[]> {
  const kinds: DatabaseKind[] = ['pglite'];
  if (await postgresAdminUrl()) kinds.push('postgres');
  else console.warn('[test] no PostgreSQL reachable: integration tests run on PGlite only');
  return kinds;
}

const opened = new Map<DatabaseKind, Promise<Database>>();

/** One migrated database per kind per process (created fresh for this run). */
export function testDatabase(kind: DatabaseKind): Promise<Database> {
  let database = opened.get(kind);
  if (!database) {
    database = (async () => {
      const db = kind === 'pglite' ? await openDatabase({ kind: 'pglite' }) : await freshPostgres();
      await migrate(db);
      return db;
    })();
    opened.set(kind, database);
  }
  return database;
}

/** A new, empty PostgreSQL database of its own (dropped when it is closed). */
export async function freshPostgres(): Promise<Database> {
  const admin = await postgresAdminUrl();
  if (!admin) throw new Error('no PostgreSQL server reachable');
  const name = `sorte_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 50 });
  const close = database.close;
  // Drop the throwaway database when the process's tests are done with it.
  database.close = async () => {
    await close();
    const dropper = new pg.Client({ connectionString: admin });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  };
  return database;
}

/** Closes every database this process opened (call from a global teardown or afterAll). */
export async function closeTestDatabases(): Promise<void> {
  for (const database of opened.values()) await (await database).close();
  opened.clear();
}
