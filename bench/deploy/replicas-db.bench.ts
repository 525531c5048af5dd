import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { type Database, openDatabase } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { LAG_PROBE } from '../../apps/server/src/db/replica.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo-data.ts';
import { CAPTCHA_TEXT, fundedPlayer, testRegistry } from '../../apps/server/test/app.ts';
import { type ClusterNode, startDbCluster } from '../../apps/server/test/db-cluster.ts';
import {
  type BenchRow,
  fmt,
  percentile,
  pgbenchRow,
  printTable,
  processTreeCpuMs,
} from '../support/report.ts';

/**
 * Issue 40 §3: what read replicas take off the primary. A pg_auto_failover cluster (primary and
 * synchronous standby, apps/server/test/db-cluster.ts) and two apps in this process on it, one
 * without DATABASE_READ_URL and one with the standby as its read replica. PLAYERS players with
 * BETS dice bets each; then CLIENTS concurrent callers read the transaction record (POST
 * /api/transaction/record, pages of 20, through the whole Fastify pipeline by inject) for SECONDS
 * on each app. Prints reads/s, and each node's CPU per read (its postmaster's process tree from
 * /proc), then `pgbench -N` on the primary in the same run, the lag probe's round trip and the
 * load average. `npm run bench:replicas-db`.
 */

const PLAYERS = 20;
const BETS = 60;
const CLIENTS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

function postmasterPid(node: ClusterNode): number {
  return Number(readFileSync(join(node.pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function cpuMs(pid: number): number {
  const cpu = processTreeCpuMs(pid);
  return cpu ? cpu.user + cpu.system : Number.NaN;
}

async function appOn(database: Database, url: string, readUrl?: string): Promise<FastifyInstance> {
  const app = await buildApp({
    config: testConfig({ DATABASE_URL: url, ...(readUrl ? { DATABASE_READ_URL: readUrl } : {}) }),
    database,
    captchaGenerator: () => ({ text: CAPTCHA_TEXT, svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
  });
  await app.ready();
  const { connection } = await testRegistry();
  app.registry.attach({ ...connection, close: async () => undefined });
  return app;
}

type TReads = { row: BenchRow; primaryCpuPerRead: number; standbyCpuPerRead: number };

async function readLoad(
  app: FastifyInstance,
  what: string,
  tokens: string[],
  pids: { primary: number; standby: number },
): Promise<TReads> {
  const latencies: number[] = [];
  let failures = 0;
  const primaryBefore = cpuMs(pids.primary);
  const standbyBefore = cpuMs(pids.standby);
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client; performance.now() < until; i += CLIENTS) {
        const t0 = performance.now();
        const response = await app.inject({
          method: 'POST',
          url: '/api/transaction/record',
          headers: { host: 'localhost', authorization: `Bearer ${tokens[i % tokens.length]}` },
          payload: { page_size: 20 },
        });
        if (response.statusCode === 200) latencies.push(performance.now() - t0);
        else failures += 1;
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const reads = latencies.length;
  const primaryCpuPerRead = (cpuMs(pids.primary) - primaryBefore) / Math.max(1, reads);
  const standbyCpuPerRead = (cpuMs(pids.standby) - standbyBefore) / Math.max(1, reads);
  latencies.sort((a, b) => a - b);
  return {
    row: {
      what,
      concurrency: CLIENTS,
      count: reads,
      perSecond: reads / elapsedS,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      note: `primary CPU ${fmt(primaryCpuPerRead, 3)} ms/read, standby ${fmt(standbyCpuPerRead, 3)} ms/read; ${failures} answers other than 200`,
    },
    primaryCpuPerRead,
    standbyCpuPerRead,
  };
}

/** The lag probe's round trip on the standby (ms), median of 200: its cost, twice a second per host. */
async function probeRoundTripMs(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await client.query(LAG_PROBE);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return percentile(times, 50);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const cluster = await startDbCluster({ log: console.log });
  const opened: Database[] = [];
  const apps: FastifyInstance[] = [];
  try {
    const primary = (await cluster.primary())!;
    const standby = cluster.nodes.find((node) => node !== primary)!;
    const standbyUrl = cluster.nodeUrl(standby);
    const onPrimary = await openDatabase({ kind: 'postgres', url: cluster.url, poolMax: CLIENTS });
    opened.push(onPrimary);
    await migrate(onPrimary);
    await seedDemoData(onPrimary.db);
    const withReplica = await openDatabase({
      kind: 'postgres',
      url: cluster.url,
      poolMax: CLIENTS,
      readUrl: standbyUrl,
    });
    opened.push(withReplica);
    const primaryApp = await appOn(onPrimary, cluster.url);
    const replicaApp = await appOn(withReplica, cluster.url, standbyUrl);
    apps.push(primaryApp, replicaApp);

    console.log(`bench:replicas-db: ${PLAYERS} players × ${BETS} dice bets`);
    const tokens: string[] = [];
    for (let p = 0; p < PLAYERS; p++) {
      const player = await fundedPlayer(primaryApp, 1_000_000n);
      tokens.push(player.token);
      for (let b = 0; b < BETS; b++) {
        const bet = await primaryApp.inject({
          method: 'POST',
          url: '/api/originals/dice/bet',
          headers: { host: 'localhost', authorization: `Bearer ${player.token}` },
          payload: { amount: '1.00', direction: 'under', target: 5000 },
        });
        if (bet.statusCode !== 200) throw new Error(`dice bet answered ${bet.statusCode}: ${bet.body}`);
      }
    }
    await withReplica.readRouter!.checkAll();

    const pids = { primary: postmasterPid(primary), standby: postmasterPid(standby) };
    const load = loadavg();
    const onlyPrimary = await readLoad(
      primaryApp,
      'transaction record, all reads on the primary',
      tokens,
      pids,
    );
    const countsBefore = { ...withReplica.readRouter!.counts };
    const replica = await readLoad(
      replicaApp,
      'transaction record, DATABASE_READ_URL = standby',
      tokens,
      pids,
    );
    const routed = withReplica.readRouter!.counts;
    replica.row.note += `; read checkouts: ${routed.replica - countsBefore.replica} on the standby, ${routed.primary - countsBefore.primary} on the primary`;
    const pgbench = pgbenchRow(new URL(cluster.nodeUrl(primary)), 'sorte', CLIENTS, SECONDS);
    const probeMs = await probeRoundTripMs(standbyUrl);
    const loadAfter = loadavg();

    printTable([onlyPrimary.row, replica.row, pgbench], {
      concurrency: 'callers',
      count: 'reads',
      rate: 'reads/s',
    });
    const saved = onlyPrimary.primaryCpuPerRead - replica.primaryCpuPerRead;
    console.log(
      [
        `primary CPU per read: ${fmt(onlyPrimary.primaryCpuPerRead, 3)} ms on the primary alone, ` +
          `${fmt(replica.primaryCpuPerRead, 3)} ms with the standby reading (sessions come from the process's session cache, on the primary when not cached): ` +
          `${fmt(saved, 3)} ms saved per read (${fmt((100 * saved) / onlyPrimary.primaryCpuPerRead, 0)} %)`,
        `reads/s ÷ pgbench -N tps of the same run: primary ${fmt(onlyPrimary.row.perSecond / pgbench.perSecond, 3)}, ` +
          `replica ${fmt(replica.row.perSecond / pgbench.perSecond, 3)}`,
        `lag probe round trip on the standby: ${fmt(probeMs, 3)} ms (median of 200; every 500 ms per host and process, off the request path)`,
        `load average (1, 5, 15 min): ${load.map((l) => fmt(l, 2)).join(', ')} before the reads, ${loadAfter.map((l) => fmt(l, 2)).join(', ')} after`,
      ].join('\n'),
    );
  } finally {
    for (const app of apps) await app.close();
    for (const database of opened) await database.close();
    await cluster.stop();
  }
}

await main();
process.exit(0);
