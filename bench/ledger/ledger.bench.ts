/**
 * Ledger benchmark: transfers per second and p50/p99 latency of the wallet service
 * (apps/server/src/modules/wallet) on PGlite and on PostgreSQL, with 1 player (every transfer
 * contends for the same player row) and 1,000 players (random player per transfer), printed beside
 * `pgbench -N` (the "simple update" TPC-B-like script) run against the same PostgreSQL server in the
 * same run, as the ceiling this machine gives a write transaction.
 *
 * Run:  node --import tsx bench/ledger/ledger.bench.ts
 * Env:  DATABASE_URL   PostgreSQL server to create throwaway databases on
 *                      (default postgres://postgres:postgres@127.0.0.1:5432/postgres)
 *       BENCH_SECONDS  time limit per scenario (default 8, max 60)
 *       BENCH_MAX_TRANSFERS  count limit per scenario (default 20000, max 200000)
 *
 * Each transfer is a bet-like `transfer()` (player cash → house, 1 centavo, its own idempotency key,
 * its own transaction). PostgreSQL scenarios run 8 concurrent callers on a pool of 8 connections
 * (as pgbench -c 8); PGlite has one connection, so it runs 1 caller. Everything created is dropped.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { type Database, openDatabase } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { createTestMember, createTestSite } from '../../apps/server/src/modules/wallet/wallet.fixtures.ts';
import { reconcile, transfer } from '../../apps/server/src/modules/wallet/wallet.service.ts';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const SECONDS = Math.min(Math.max(Number(process.env.BENCH_SECONDS ?? 8), 1), 60);
const MAX_TRANSFERS = Math.min(Math.max(Number(process.env.BENCH_MAX_TRANSFERS ?? 20_000), 100), 200_000);
const WARMUP_TRANSFERS = 200;
const PG_CONCURRENCY = 8;
const PGBENCH_SECONDS = 10;

interface Row {
  what: string;
  concurrency: number;
  count: number;
  tps: number;
  p50Ms: number;
  p99Ms: number;
  note: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

async function scenario(database: Database, players: number, concurrency: number): Promise<Row> {
  const { db } = database;
  const siteId = await createTestSite(db);
  const memberIds: bigint[] = [];
  // Open the players' accounts and fund them with enough cash for every possible bet.
  for (let i = 0; i < players; i++) {
    const memberId = await createTestMember(db, siteId);
    await transfer(db, {
      siteId,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId, account: 'cash' },
      amountMinor: BigInt(MAX_TRANSFERS + WARMUP_TRANSFERS + 1),
      idempotencyKey: `bench-fund-${memberId}`,
    });
    memberIds.push(memberId);
  }
  let next = 0;
  const bet = (i: number) =>
    transfer(db, {
      siteId,
      kind: 'bet',
      from: {
        memberId: memberIds[players === 1 ? 0 : Math.floor(Math.random() * players)]!,
        account: 'cash',
      },
      to: { system: 'house' },
      amountMinor: 1n,
      idempotencyKey: `bench-bet-${i}`,
      reference: `round:${i}`,
    });
  for (let i = 0; i < WARMUP_TRANSFERS; i++) await bet(next++);

  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const worker = async () => {
    while (latencies.length < MAX_TRANSFERS && performance.now() < deadline) {
      const t0 = performance.now();
      await bet(next++);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedS = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);

  const report = await reconcile(db, { siteId });
  if (!report.ok)
    throw new Error(`ledger drift after the benchmark: ${JSON.stringify(report.drift.slice(0, 3))}`);
  return {
    what: `wallet transfer, ${database.kind}, ${players.toLocaleString('en')} player${players === 1 ? '' : 's'}`,
    concurrency,
    count: latencies.length,
    tps: latencies.length / elapsedS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    note: 'reconcile: no drift',
  };
}

function pgEnv(url: URL, database: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PGHOST: url.hostname,
    PGPORT: url.port || '5432',
    PGUSER: decodeURIComponent(url.username),
    PGPASSWORD: decodeURIComponent(url.password),
    PGDATABASE: database,
  };
}

function pgbenchRow(adminUrl: URL, database: string): Row {
  const which = spawnSync('pgbench', ['--version'], { encoding: 'utf8' });
  if (which.error || which.status !== 0) {
    return {
      what: 'pgbench -N: NOT INSTALLED (no pgbench on PATH)',
      concurrency: PG_CONCURRENCY,
      count: 0,
      tps: Number.NaN,
      p50Ms: Number.NaN,
      p99Ms: Number.NaN,
      note: 'install postgresql-client to compare',
    };
  }
  const env = pgEnv(adminUrl, database);
  execFileSync('pgbench', ['-i', '-q', '-s', '1'], { env, stdio: 'pipe' });
  const logDir = mkdtempSync(join(tmpdir(), 'pgbench-'));
  try {
    const out = execFileSync(
      'pgbench',
      [
        '-N',
        '-c',
        String(PG_CONCURRENCY),
        '-j',
        '2',
        '-T',
        String(PGBENCH_SECONDS),
        '-l',
        '--log-prefix',
        join(logDir, 'log'),
      ],
      { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: (PGBENCH_SECONDS + 60) * 1000 },
    );
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1] ?? Number.NaN);
    const count = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? 0);
    // Per-transaction log lines: client_id transaction_no time(us) script_no time_epoch time_us.
    const latencies: number[] = [];
    for (const file of readdirSync(logDir)) {
      for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
        const micros = Number(line.split(' ')[2]);
        if (Number.isFinite(micros) && line.length > 0) latencies.push(micros / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    const version = which.stdout.trim().replace(/^pgbench \(PostgreSQL\) /, 'PostgreSQL ');
    return {
      what: `pgbench -N -c ${PG_CONCURRENCY} -j 2 -T ${PGBENCH_SECONDS} (scale 1)`,
      concurrency: PG_CONCURRENCY,
      count,
      tps,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      note: `pgbench ${version}`,
    };
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}

async function withThrowawayDatabase<T>(
  adminUrl: URL,
  prefix: string,
  work: (url: URL, name: string) => Promise<T>,
) {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl.toString());
  url.pathname = `/${name}`;
  try {
    return await work(url, name);
  } finally {
    const dropper = new pg.Client({ connectionString: adminUrl.toString() });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  }
}

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function fmt(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

function printTable(rows: Row[]): void {
  const header = ['scenario', 'callers', 'transfers', 'tps', 'p50 ms', 'p99 ms', 'note'];
  const body = rows.map((r) => [
    r.what,
    String(r.concurrency),
    String(r.count),
    fmt(r.tps, 0),
    fmt(r.p50Ms, 2),
    fmt(r.p99Ms, 2),
    r.note,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 || i === 6 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  console.log(
    `ledger benchmark: ≤ ${SECONDS} s and ≤ ${MAX_TRANSFERS} transfers per scenario, ${WARMUP_TRANSFERS} warm-up transfers`,
  );

  const lite = await openDatabase({ kind: 'pglite' });
  try {
    await migrate(lite);
    for (const players of [1, 1000]) {
      rows.push(await scenario(lite, players, 1));
      console.log(`done: ${rows.at(-1)!.what}`);
    }
  } finally {
    await lite.close();
  }

  if (await postgresReachable(ADMIN_URL)) {
    const adminUrl = new URL(ADMIN_URL);
    await withThrowawayDatabase(adminUrl, 'sorte_bench', async (url) => {
      const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: PG_CONCURRENCY });
      try {
        await migrate(database);
        for (const players of [1, 1000]) {
          rows.push(await scenario(database, players, PG_CONCURRENCY));
          console.log(`done: ${rows.at(-1)!.what}`);
        }
      } finally {
        await database.close();
      }
    });
    await withThrowawayDatabase(adminUrl, 'sorte_pgbench', async (_url, name) => {
      rows.push(pgbenchRow(adminUrl, name));
      console.log('done: pgbench');
    });
  } else {
    console.log(`PostgreSQL not reachable at ${ADMIN_URL}: PostgreSQL scenarios and pgbench skipped`);
  }

  console.log('');
  printTable(rows);
}

await main();
