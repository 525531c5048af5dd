import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import {
  createFundedTestMember,
  createTestSite,
} from '../../apps/server/src/modules/wallet/wallet.fixtures.ts';
import { groupCommitStats, transferGrouped } from '../../apps/server/src/modules/wallet/wallet.group.ts';
import { reconcile } from '../../apps/server/src/modules/wallet/wallet.reconcile.ts';
import { transfer } from '../../apps/server/src/modules/wallet/wallet.service.ts';
import {
  type BenchRow,
  percentile,
  pgbenchRow,
  postgresReachable,
  printTable,
  withThrowawayDatabase,
} from '../support/report.ts';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const SECONDS = Math.min(Math.max(Number(process.env.BENCH_SECONDS ?? 8), 1), 60);
const MAX_TRANSFERS = Math.min(Math.max(Number(process.env.BENCH_MAX_TRANSFERS ?? 20_000), 100), 200_000);
/**
 * Before each measured window, the same load from every caller (not counted): each pooled database
 * connection then has its statements prepared and node has compiled the path, as in service.
 */
const WARMUP = { seconds: 2, maxTransfers: 4_000 };
const PG_CONCURRENCY = 8;
/** Callers of the group-commit scenarios (as many as the bets benchmark's connections). */
const GROUP_CONCURRENCY = 32;
const PGBENCH_SECONDS = 10;

async function scenario(
  database: Database,
  players: number,
  concurrency: number,
  grouped = false,
): Promise<BenchRow> {
  const { db } = database;
  const siteId = await createTestSite(db);
  const memberIds: bigint[] = [];
  // Open the players' accounts and fund them with enough cash for every possible bet.
  for (let i = 0; i < players; i++) {
    memberIds.push(await createFundedTestMember(db, siteId, BigInt(MAX_TRANSFERS + WARMUP.maxTransfers + 1)));
  }
  // Statistics as a database in service has them (autovacuum analyzes as tables grow).
  await db.execute(sql`ANALYZE`);
  let next = 0;
  const post = grouped ? transferGrouped : transfer;
  const bet = (i: number) =>
    post(db, {
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
  // Every caller posts until the deadline or until maxTransfers were posted in all.
  const run = async (seconds: number, maxTransfers: number) => {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    const worker = async () => {
      while (latencies.length < maxTransfers && performance.now() < deadline) {
        const t0 = performance.now();
        await bet(next++);
        latencies.push(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return latencies;
  };
  await run(WARMUP.seconds, WARMUP.maxTransfers);
  // Again once the warm-up has filled the ledger, as autovacuum does in service: the group's
  // prepared statements keep a generic plan, and one made on the set-up tables read the whole
  // ledger for the keys (bench/bets `analyzeAfterWarmUp`). ANALYZE invalidates it.
  await db.execute(sql`ANALYZE`);
  const before = groupCommitStats(db);
  const started = performance.now();
  const latencies = await run(SECONDS, MAX_TRANSFERS);
  const elapsedS = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);

  const stats = groupCommitStats(db);
  const report = await reconcile(db, { siteId });
  if (!report.ok)
    throw new Error(`ledger drift after the benchmark: ${JSON.stringify(report.drift.slice(0, 3))}`);
  return {
    what: `wallet ${grouped ? 'transferGrouped' : 'transfer'}, ${database.kind}, ${players.toLocaleString('en')} player${players === 1 ? '' : 's'}`,
    concurrency,
    count: latencies.length,
    perSecond: latencies.length / elapsedS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    note: grouped
      ? `reconcile: no drift; ${stats.groups - before.groups} groups (largest ${stats.largestGroup}, ${stats.fallbacks - before.fallbacks} fell back)`
      : 'reconcile: no drift',
  };
}

async function main(): Promise<void> {
  const rows: BenchRow[] = [];
  // Set inside the scenarios' callbacks: what the issue's target compares.
  const compared: { grouped?: BenchRow; pgbench?: BenchRow } = {};
  console.log(
    `ledger benchmark: ≤ ${SECONDS} s and ≤ ${MAX_TRANSFERS} transfers per scenario, a ${WARMUP.seconds} s warm-up on every caller before each`,
  );

  const lite = await openDatabase({ kind: 'pglite' });
  try {
    await migrate(lite);
    for (const players of [1, 1000]) {
      rows.push(await scenario(lite, players, 1));
      console.log(`done: ${rows.at(-1)!.what}`);
    }
    rows.push(await scenario(lite, 1000, GROUP_CONCURRENCY, true));
    console.log(`done: ${rows.at(-1)!.what}`);
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
        compared.grouped = await scenario(database, 1000, GROUP_CONCURRENCY, true);
        rows.push(compared.grouped);
        console.log(`done: ${rows.at(-1)!.what}`);
      } finally {
        await database.close();
      }
    });
    await withThrowawayDatabase(adminUrl, 'sorte_pgbench', async (_url, name) => {
      rows.push(pgbenchRow(adminUrl, name, PG_CONCURRENCY, PGBENCH_SECONDS));
      compared.pgbench = pgbenchRow(adminUrl, name, GROUP_CONCURRENCY, PGBENCH_SECONDS);
      rows.push(compared.pgbench);
      console.log('done: pgbench');
    });
  } else {
    console.log(`PostgreSQL not reachable at ${ADMIN_URL}: PostgreSQL scenarios and pgbench skipped`);
  }

  console.log('');
  printTable(rows, { concurrency: 'callers', count: 'transfers', rate: 'tps' });
  // Issue 16's target: grouped transfers on PostgreSQL at least 1.0 × pgbench -N at the same concurrency.
  const { grouped, pgbench: pgbenchGrouped } = compared;
  if (grouped && pgbenchGrouped && Number.isFinite(pgbenchGrouped.perSecond)) {
    const ratio = grouped.perSecond / pgbenchGrouped.perSecond;
    console.log(
      `\nissue 16's target in this run: grouped transfers on PostgreSQL ${Math.round(grouped.perSecond).toLocaleString('en')}/s = ${ratio.toFixed(3)} × pgbench -N -c ${GROUP_CONCURRENCY} (${Math.round(pgbenchGrouped.perSecond).toLocaleString('en')} tps; target ≥ 1.0 ×): ${ratio >= 1 ? 'met' : 'NOT MET'}`,
    );
  }
}

await main();
