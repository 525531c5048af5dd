import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { TWalletCall } from '@sorte/contract';
import { type Database, openDatabase } from '../../apps/server/src/db/client.ts';
import { groupQueueTotals } from '../../apps/server/src/db/group-queue.ts';
import { resolveGame } from '../../apps/server/src/modules/games/games.service.ts';
import { connectAggregator } from '../../apps/server/src/modules/providers/aggregator.connection.ts';
import { openProviderSession } from '../../apps/server/src/modules/providers/providers.service.ts';
import { setLimit } from '../../apps/server/src/modules/responsible-gaming/rg.service.ts';
import { getBalances } from '../../apps/server/src/modules/wallet/balances.ts';
import { createFundedTestMember } from '../../apps/server/src/modules/wallet/wallet.fixtures.ts';
import { reconcile } from '../../apps/server/src/modules/wallet/wallet.reconcile.ts';
import { grantBenchBonus } from '../support/players.ts';
import {
  type BenchRow,
  fmt,
  pgbenchRow,
  postgresCpuMs,
  postgresReachable,
  withThrowawayDatabase,
} from '../support/report.ts';
import { type Started, startServer } from '../support/server.ts';
import type { TKindStats, TRun, TRunDone, TSetup } from './load-generator.ts';
import { analyze } from './provider-wallet.repo.ts';

/**
 * `npm run bench:provider-wallet` (issue 39): the seamless wallet of third-party games under an
 * aggregator's load, on PGlite and on PostgreSQL. See bench/provider-wallet/README.md.
 */

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
/** Offered rates, requests per second (PW_RATES, comma separated, each 1–5,000). */
const RATES = (process.env.PW_RATES ?? '250,500,1000,2000')
  .split(',')
  .map((rate) => Math.trunc(Number(rate.trim())))
  .filter((rate) => Number.isInteger(rate) && rate >= 1 && rate <= 5_000);
/** Measured seconds per offered rate (PW_SECONDS, 1–60). */
const SECONDS = Math.min(Math.max(Math.trunc(Number(process.env.PW_SECONDS ?? 10)) || 10, 1), 60);
/** The databases (PW_ONLY: pglite, postgres). */
const ONLY = new Set((process.env.PW_ONLY ?? 'pglite,postgres').split(',').map((s) => s.trim()));
/** The app's PostgreSQL pool, as the server's DATABASE_POOL_MAX default (PW_POOL, 2–90). */
const POOL = Math.min(Math.max(Math.trunc(Number(process.env.PW_POOL ?? 20)) || 20, 2), 90);
/** The aggregator's keep-alive connections at most (PW_SOCKETS, 1–1,024); more calls wait for one. */
const SOCKETS = Math.min(Math.max(Math.trunc(Number(process.env.PW_SOCKETS ?? 256)) || 256, 1), 1_024);
/** A directory: a .cpuprofile of the server process over each measured rate (PW_CPU_PROFILE). */
const CPU_PROFILE_DIR = process.env.PW_CPU_PROFILE;
const PLAYERS = 60;
/** Players 0–14 hold an active bonus grant, players 15–29 a monthly loss limit, the rest neither. */
const BONUS_PLAYERS = 15;
const LOSS_LIMIT_PLAYERS = 15;
const FUND_MINOR = 1_000_000n;
const AGGREGATOR = 'sorte-demo';
const GAME = 'aurora-golden-macaw';
/** Not counted: every pooled connection prepares its statements and node compiles the path. */
const WARMUP = { rate: 250, seconds: 3 };
const PGBENCH = { clients: 32, seconds: 10 };
const REQUEST_TIMEOUT_MS = 10_000;
/** The strictest published aggregator SLA (issue 39), and the share of pgbench -N to serve. */
const SLA = { rate: 1_000, p95Ms: 40, p99Ms: 60, pgbenchShare: 0.25 };
const KINDS: (TWalletCall | 'all')[] = ['balance', 'bet', 'win', 'rollback', 'all'];

type TRateRow = {
  database: string;
  rate: number;
  done: TRunDone;
  nodeCpuMsPerCall: number;
  postgresCpuMsPerCall: number | null;
  loadAverage: number;
  groups: string;
};

type TPlayers = { tokens: string[]; memberIds: bigint[]; startMinor: bigint[] };

/**
 * The game aggregator's connection on the server, as server.ts attaches it once listening: with no
 * aggregator configured, the demo aggregator on loopback, with a secret of its own that the load
 * generator signs with.
 */
async function attachAggregator(server: Started): Promise<string> {
  const connection = await connectAggregator(
    { id: AGGREGATOR },
    { walletUrl: `http://127.0.0.1:${server.port}/api/providers/${AGGREGATOR}/wallet`, sandboxPort: 0 },
  );
  server.app.aggregator.attach(connection);
  return connection.secret;
}

/**
 * 60 funded players, each with a game session of the slot (the token the aggregator gets at
 * launch); a quarter hold an active bonus grant (R$ 100,00, wagering far above the run, max bet
 * R$ 50,00) and a quarter a monthly loss limit far above what the run can lose, set as the player
 * sets it (the responsible-gaming service), so every bet of theirs passes the gate's sums.
 */
async function seedPlayers(server: Started): Promise<TPlayers> {
  const { db } = server.database;
  const game = await resolveGame(db, server.siteId, { name: GAME });
  const players: TPlayers = { tokens: [], memberIds: [], startMinor: [] };
  for (let i = 0; i < PLAYERS; i++) {
    const memberId = await createFundedTestMember(db, server.siteId, FUND_MINOR);
    if (i < BONUS_PLAYERS) {
      await grantBenchBonus(db, server.siteId, memberId);
    } else if (i < BONUS_PLAYERS + LOSS_LIMIT_PLAYERS) {
      await setLimit(
        db,
        server.site,
        memberId,
        { kind: 'loss', period: 'month', value: '100000.00' },
        { ip: '127.0.0.1', userAgent: 'bench' },
      );
    }
    const session = await openProviderSession(db, {
      aggregator: AGGREGATOR,
      siteId: server.siteId,
      memberId,
      gameId: game.id,
    });
    players.tokens.push(session.token);
    players.memberIds.push(memberId);
    players.startMinor.push((await getBalances(db, memberId)).totalMinor);
  }
  return players;
}

/** The load generator in a process of its own, and how to ask it for a run. */
async function forkLoad(setup: Omit<TSetup, 'type'>) {
  const child: ChildProcess = fork(join(import.meta.dirname, 'load-generator.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (message) => resolve(message as T));
      void exited.then((code) => reject(new Error(`the load generator exited with ${code}`)));
    });
  const ready = next<{ type: 'ready' }>();
  child.send({ type: 'setup', ...setup } satisfies TSetup);
  await ready;
  return {
    run: (rate: number, seconds: number) => {
      const done = next<TRunDone>();
      child.send({ type: 'run', rate, seconds } satisfies TRun);
      return done;
    },
    stop: async () => {
      child.disconnect();
      await exited;
    },
  };
}

/** What the provider calls' groups did between two readings of the process's group totals. */
function groupsSince(before: { groups: number; items: number; deferred: number; rolledBack: number }) {
  const after = groupQueueTotals().get('provider-calls');
  if (!after) return 'no groups';
  const groups = after.groups - before.groups;
  const items = after.items - before.items;
  return `${groups} groups, ${fmt(items / Math.max(1, groups), 1)} calls per group, ${after.deferred - before.deferred} deferred, ${after.rolledBack - before.rolledBack} groups rolled back`;
}

/** One offered rate: the server's (and PostgreSQL's) CPU around the load generator's run. */
async function measureRate(
  server: Started,
  load: Awaited<ReturnType<typeof forkLoad>>,
  rate: number,
): Promise<TRateRow> {
  const groupsBefore = { ...(groupQueueTotals().get('provider-calls') ?? emptyGroups) };
  const cpuBefore = process.cpuUsage();
  const pgBefore = server.database.kind === 'postgres' ? postgresCpuMs() : null;
  const profiler = CPU_PROFILE_DIR ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const done = await load.run(rate, SECONDS);
  const cpu = process.cpuUsage(cpuBefore);
  const pgAfter = pgBefore === null ? null : postgresCpuMs();
  if (profiler && CPU_PROFILE_DIR) {
    const { profile } = await profiler.post('Profiler.stop');
    profiler.disconnect();
    mkdirSync(CPU_PROFILE_DIR, { recursive: true });
    const file = join(
      CPU_PROFILE_DIR,
      `provider-wallet-${server.database.kind}-${rate}-${Date.now()}.cpuprofile`,
    );
    writeFileSync(file, JSON.stringify(profile));
    console.log(`cpu profile of the server process at ${rate} req/s: ${file}`);
  }
  // The window's CPU covers the settling of abandoned calls too: per call the server answered.
  const calls = Math.max(1, done.answered + done.settled);
  return {
    database: server.database.kind,
    rate,
    done,
    nodeCpuMsPerCall: (cpu.user + cpu.system) / 1000 / calls,
    postgresCpuMsPerCall: pgBefore === null || pgAfter === null ? null : (pgAfter - pgBefore) / calls,
    loadAverage: loadavg()[0]!,
    groups: groupsSince(groupsBefore),
  };
}
const emptyGroups = { groups: 0, items: 0, deferred: 0, rolledBack: 0 };

/**
 * The drift check: the wallet's reconcile over the site, and every player's cash + bonus equal to
 * what they had at the start plus what the answers moved (AnswerBook).
 */
async function driftCheck(server: Started, players: TPlayers, last: TRunDone): Promise<string> {
  const report = await reconcile(server.database.db, { siteId: server.siteId });
  const reconciled = report.ok
    ? `reconcile: no drift (${report.transfers.toLocaleString('en')} transfers)`
    : `reconcile: DRIFT ${JSON.stringify(report.drift.slice(0, 3), (_, v) => (typeof v === 'bigint' ? String(v) : v))}`;
  let expected = 0n;
  let actual = 0n;
  let off = 0;
  for (const [i, memberId] of players.memberIds.entries()) {
    const want = players.startMinor[i]! + BigInt(last.movedMinor[i]!);
    const have = (await getBalances(server.database.db, memberId)).totalMinor;
    expected += want;
    actual += have;
    if (want !== have) off += 1;
  }
  const sums =
    off === 0
      ? `players' cash + bonus as the answers say: ${fmtMinor(actual)} (every one of ${players.memberIds.length})`
      : `players' cash + bonus NOT as the answers say: ${fmtMinor(actual)}, expected ${fmtMinor(expected)} (${off} players off)`;
  const unresolved = last.unresolved > 0 ? `; ${last.unresolved} calls never answered: sums not exact` : '';
  return `${server.database.kind}: ${reconciled}; ${sums}${unresolved}`;
}
const fmtMinor = (minor: bigint) =>
  `${minor < 0n ? '-' : ''}${(minor < 0n ? -minor : minor) / 100n}.${((minor < 0n ? -minor : minor) % 100n).toString().padStart(2, '0')}`;

/** Every rate on one database: the server, its players and aggregator, the load, the drift check. */
async function scenario(database: Database): Promise<{ rows: TRateRow[]; drift: string }> {
  const server = await startServer(database);
  try {
    const secret = await attachAggregator(server);
    const players = await seedPlayers(server);
    await analyze(database);
    const load = await forkLoad({
      port: server.port,
      aggregator: AGGREGATOR,
      secret,
      gameCode: GAME,
      tokens: players.tokens,
      sockets: SOCKETS,
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    try {
      let last = await load.run(WARMUP.rate, WARMUP.seconds);
      await analyze(database);
      const rows: TRateRow[] = [];
      for (const rate of RATES) {
        const row = await measureRate(server, load, rate);
        rows.push(row);
        last = row.done;
        console.log(`done: ${progressLine(row)}`);
      }
      return { rows, drift: await driftCheck(server, players, last) };
    } finally {
      await load.stop();
    }
  } finally {
    await server.app.aggregator.close();
    await server.close();
  }
}

function progressLine(row: TRateRow): string {
  const { done } = row;
  const all = done.byKind.all;
  return `${row.database} at ${row.rate} req/s: served ${fmt(done.answered / Math.max(0.001, done.elapsedS), 0)} req/s, p50 ${fmt(all.p50Ms, 1)} / p95 ${fmt(all.p95Ms, 1)} / p99 ${fmt(all.p99Ms, 1)} ms, non-200 ${done.non200}, load average ${fmt(row.loadAverage, 2)}`;
}

function markdown(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

const served = (row: TRateRow) => row.done.answered / Math.max(0.001, row.done.elapsedS);

function printRows(rows: TRateRow[]): void {
  const latency = rows.flatMap((row) =>
    KINDS.map((kind) => {
      const stats: TKindStats = row.done.byKind[kind];
      return [
        row.database,
        `${row.rate}`,
        kind,
        `${stats.count}`,
        fmt(stats.p50Ms, 1),
        fmt(stats.p95Ms, 1),
        fmt(stats.p99Ms, 1),
      ];
    }),
  );
  console.log(
    `\n${markdown(['database', 'offered req/s', 'call', 'calls', 'p50 ms', 'p95 ms', 'p99 ms'], latency)}\n`,
  );
  const perRate = rows.map((row) => [
    row.database,
    `${row.rate}`,
    fmt(row.done.sent / row.done.windowS, 0),
    fmt(served(row), 0),
    `${row.done.non200}`,
    row.done.unexpected.length === 0
      ? '0'
      : row.done.unexpected.map(([what, n]) => `${what} ×${n}`).join(', '),
    `${row.done.abandoned}`,
    fmt(row.nodeCpuMsPerCall, 3),
    row.postgresCpuMsPerCall === null ? '-' : fmt(row.postgresCpuMsPerCall, 3),
    fmt(row.done.loadCpuMs / Math.max(1, row.done.answered + row.done.settled), 3),
    fmt(row.loadAverage, 2),
    row.groups,
  ]);
  console.log(
    markdown(
      [
        'database',
        'offered req/s',
        'sent/s',
        'served req/s',
        'non-200',
        'unexpected answers',
        'abandoned',
        'node CPU ms/call',
        'PostgreSQL CPU ms/call',
        'load generator CPU ms/call',
        'load average',
        'groups',
      ],
      perRate,
    ),
  );
}

/** Whether a row holds the SLA's latencies on every call kind with no error; the kinds that miss. */
function slaMisses(row: TRateRow): { misses: (TWalletCall | 'all')[]; errors: number } {
  const misses = KINDS.filter((kind) => {
    const stats = row.done.byKind[kind];
    return stats.count > 0 && !(stats.p95Ms <= SLA.p95Ms && stats.p99Ms <= SLA.p99Ms);
  });
  const errors = row.done.non200 + row.done.unexpected.reduce((sum, [, n]) => sum + n, 0);
  return { misses, errors };
}

/**
 * The calls per second this machine's cores could carry at the row's CPU per call (node's,
 * PostgreSQL's and the load generator's, which share them) with no core ever idle: a ceiling no
 * shorter wait can pass, only less CPU per call or more cores.
 */
function cpuBudget(row: TRateRow): string {
  const cores = availableParallelism();
  const loadMs = row.done.loadCpuMs / Math.max(1, row.done.answered + row.done.settled);
  const perCall = row.nodeCpuMsPerCall + (row.postgresCpuMsPerCall ?? 0) + loadMs;
  const ceiling = (cores * 1000) / perCall;
  const pg = row.postgresCpuMsPerCall === null ? '' : ` + PostgreSQL ${fmt(row.postgresCpuMsPerCall, 2)}`;
  return `${row.database}: CPU budget at ${row.rate} req/s: node ${fmt(row.nodeCpuMsPerCall, 2)}${pg} + load generator ${fmt(loadMs, 2)} = ${fmt(perCall, 2)} ms per call; ${cores} cores carry at most ${Math.round(ceiling).toLocaleString('en')} calls/s with none idle; ${SLA.rate} req/s needs ≤ ${fmt((cores * 1000) / SLA.rate, 2)} ms per call`;
}

/** The SLA and the pgbench share read against this run's own rows. */
function slaLines(rows: TRateRow[], pgbench: BenchRow | null): string[] {
  const lines: string[] = [];
  const tps = pgbench && Number.isFinite(pgbench.perSecond) ? pgbench.perSecond : null;
  if (tps !== null)
    lines.push(`pgbench -N -c ${PGBENCH.clients}: ${Math.round(tps).toLocaleString('en')} tps`);
  for (const database of ['pglite', 'postgres']) {
    const mine = rows.filter((row) => row.database === database);
    if (mine.length === 0) continue;
    const at = mine.find((row) => row.rate === SLA.rate);
    if (!at) {
      lines.push(
        `${database}: no row at ${SLA.rate} req/s in this run (PW_RATES): SLA NOT MET (not measured)`,
      );
    } else {
      const { misses, errors } = slaMisses(at);
      const all = at.done.byKind.all;
      const met = misses.length === 0 && errors === 0;
      lines.push(
        `${database} at ${SLA.rate} req/s: all calls p95 ${fmt(all.p95Ms, 1)} ms, p99 ${fmt(all.p99Ms, 1)} ms (≤ ${SLA.p95Ms} / ≤ ${SLA.p99Ms} ms on every call kind${misses.length > 0 ? `; missed by ${misses.join(', ')}` : ''}), ${errors} errors, served ${fmt(served(at), 0)} req/s: ${met ? 'SLA met' : 'SLA NOT MET'}`,
      );
    }
    const holding = mine.filter((row) => {
      const { misses, errors } = slaMisses(row);
      return misses.length === 0 && errors === 0;
    });
    lines.push(
      holding.length === 0
        ? `${database}: the SLA's latencies held at none of the offered rates (${RATES.join(', ')} req/s)`
        : `${database}: the SLA's latencies held at ${holding.map((row) => row.rate).join(', ')} req/s offered (of ${RATES.join(', ')})`,
    );
    lines.push(cpuBudget(at ?? mine.at(-1)!));
    const best = mine.reduce((a, b) => (served(b) > served(a) ? b : a));
    if (tps !== null) {
      const share = served(best) / tps;
      lines.push(
        `${database}: served at most ${fmt(served(best), 0)} req/s (offered ${best.rate}) = ${fmt(share, 3)} × pgbench -N (target ≥ ${SLA.pgbenchShare} ×): ${share >= SLA.pgbenchShare ? 'met' : 'NOT MET'}`,
      );
    }
  }
  return lines;
}

async function main(): Promise<void> {
  console.log(
    `provider-wallet benchmark: ${PLAYERS} players (${BONUS_PLAYERS} with a bonus grant, ${LOSS_LIMIT_PLAYERS} with a loss limit), offered ${RATES.join(', ')} req/s for ${SECONDS} s each, at most ${SOCKETS} connections; load average ${loadavg()
      .map((n) => fmt(n, 2))
      .join(' ')}`,
  );
  const rows: TRateRow[] = [];
  const drift: string[] = [];
  let pgbench: BenchRow | null = null;
  if (ONLY.has('pglite')) {
    const database = await openDatabase({ kind: 'pglite' });
    try {
      const result = await scenario(database);
      rows.push(...result.rows);
      drift.push(result.drift);
    } finally {
      await database.close();
    }
  }
  if (!ONLY.has('postgres')) {
    // PostgreSQL left out on request.
  } else if (await postgresReachable(ADMIN_URL)) {
    const adminUrl = new URL(ADMIN_URL);
    await withThrowawayDatabase(adminUrl, 'sorte_pw', async (url, name) => {
      const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: POOL });
      try {
        const result = await scenario(database);
        rows.push(...result.rows);
        drift.push(result.drift);
      } finally {
        await database.close();
      }
      pgbench = pgbenchRow(adminUrl, name, PGBENCH.clients, Math.min(PGBENCH.seconds, Math.max(5, SECONDS)));
      console.log(`done: ${pgbench.what}: ${fmt(pgbench.perSecond, 0)} tps (${pgbench.note})`);
    });
  } else {
    console.log(`PostgreSQL not reachable at ${ADMIN_URL}: PostgreSQL rows skipped`);
  }
  printRows(rows);
  console.log(`\ndrift check:\n${drift.map((line) => `  ${line}`).join('\n')}`);
  console.log(
    `\nissue 39's SLA in this run:\n${slaLines(rows, pgbench)
      .map((line) => `  ${line}`)
      .join('\n')}`,
  );
  console.log(
    `load average at the end: ${loadavg()
      .map((n) => fmt(n, 2))
      .join(' ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
