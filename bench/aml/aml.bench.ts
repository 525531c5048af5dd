import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { depositCredited } from '../../apps/server/src/core/money-events.ts';
import { type Database, openDatabase } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { rowsOf } from '../../apps/server/src/db/sql.ts';
import { SCREENING_EVERY_MS } from '../../apps/server/src/modules/aml/aml.jobs.ts';
import { listenForScreening } from '../../apps/server/src/modules/aml/aml.outbox.ts';
import { seedPatterns } from '../../apps/server/src/modules/aml/aml.patterns.fixtures.ts';
import { loadRuleBook, runScreening } from '../../apps/server/src/modules/aml/aml.screening.ts';
import { transfer } from '../../apps/server/src/modules/wallet/wallet.service.ts';
import {
  type BenchRow,
  percentile,
  postgresReachable,
  printTable,
  withThrowawayDatabase,
} from '../support/report.ts';

/**
 * AML screening (ADR 040), `npm run bench:aml`:
 * 1. commit → alert: deposits credited at a steady rate, each in a transaction that moves the money
 *    through the wallet and writes its outbox row (the real listener), while the screening runs as
 *    the job does (every SCREENING_EVERY_MS). Latency is the alert's time minus the outbox row's,
 *    both the database's clock.
 * 2. a backlog: 10,000 seeded money events (the measured test's patterns) screened at once: events/s.
 */

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const SECONDS = Math.min(Math.max(Number(process.env.BENCH_SECONDS ?? 30), 5), 300);
const RATE = Math.min(Math.max(Number(process.env.BENCH_RATE ?? 40), 1), 1000);

async function latencyScenario(database: Database, label: string): Promise<BenchRow> {
  const { db } = database;
  const seeded = await seedPatterns(db, 0);
  await runScreening(db);
  const book = await loadRuleBook(db);
  const [memberId] = seeded.patterns.map((p) => p.memberId);
  let produced = 0;
  let stop = false;
  const producer = (async () => {
    const started = performance.now();
    while (!stop) {
      const due = started + (produced * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      produced += 1;
      const orderNo = `RBENCH${Date.now()}${produced}`;
      await db.transaction(async (tx) => {
        await transfer(tx, {
          siteId: seeded.siteId,
          kind: 'deposit',
          from: { system: 'psp_clearing' },
          to: { memberId: memberId!, account: 'cash' },
          amountMinor: 1_500_000n,
          idempotencyKey: `bench-aml:${orderNo}`,
        });
        await depositCredited.emit(tx, {
          siteId: seeded.siteId,
          memberId: memberId!,
          orderNo,
          amountMinor: 1_500_000n,
          giftMinor: 0n,
          payerCpf: null,
        });
      });
    }
  })();
  const screener = (async () => {
    while (!stop) {
      await runScreening(db, { book });
      await new Promise((resolve) => setTimeout(resolve, SCREENING_EVERY_MS));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  stop = true;
  await Promise.all([producer, screener]);
  await runScreening(db, { book });
  const rows = await rowsOf<{ ms: number }>(
    db,
    sql`SELECT extract(epoch FROM (a.created_at - o.created_at)) * 1000 AS ms
        FROM aml_outbox o JOIN aml_alerts a ON a.rule = 'large_amount' AND a.dedupe_key = 'outbox:' || o.id
        WHERE o.site_id = ${seeded.siteId.toString()}::bigint AND o.reference LIKE 'RBENCH%'`,
  );
  const latencies = rows.map((row) => Number(row.ms)).sort((a, b) => a - b);
  return {
    what: `${label}: commit → alert, job every ${SCREENING_EVERY_MS / 1000} s`,
    concurrency: RATE,
    count: latencies.length,
    perSecond: latencies.length / SECONDS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    note: `${produced} deposits committed, ${latencies.length} alerted`,
  };
}

async function backlogScenario(database: Database, label: string): Promise<BenchRow> {
  const { db } = database;
  const seeded = await seedPatterns(db, 10_000);
  const started = performance.now();
  const run = await runScreening(db);
  const ms = performance.now() - started;
  return {
    what: `${label}: a backlog of ${seeded.moneyEvents} money events`,
    concurrency: 1,
    count: run.events + run.wins,
    perSecond: (run.events + run.wins) / (ms / 1000),
    p50Ms: Number.NaN,
    p99Ms: Number.NaN,
    note: `${run.events} outbox rows and the ledger's large wins in ${(ms / 1000).toFixed(1)} s, ${run.alerts} alerts`,
  };
}

async function onDatabase(database: Database, label: string): Promise<BenchRow[]> {
  await migrate(database);
  try {
    return [await latencyScenario(database, label), await backlogScenario(database, label)];
  } finally {
    await database.close();
  }
}

async function main() {
  listenForScreening();
  const rows: BenchRow[] = [];
  rows.push(...(await onDatabase(await openDatabase({ kind: 'pglite' }), 'PGlite')));
  const admin = new URL(ADMIN_URL);
  if (await postgresReachable(admin.toString())) {
    await withThrowawayDatabase(admin, 'bench_aml', async (url) => {
      rows.push(
        ...(await onDatabase(await openDatabase({ kind: 'postgres', url: url.toString() }), 'PostgreSQL')),
      );
    });
  } else {
    console.log(`PostgreSQL not reachable at ${admin.host}: PGlite only`);
  }
  printTable(rows, { concurrency: 'deposits/s offered', count: 'events', rate: 'events/s' });
}

await main();
