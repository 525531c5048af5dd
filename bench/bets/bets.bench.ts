import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { TConfig } from '../../apps/server/src/config.ts';
import {
  type Database,
  MAX_PREPARED_STATEMENTS,
  MAX_PREPARED_TEXT,
  openDatabase,
} from '../../apps/server/src/db/client.ts';
import { groupQueueTotals } from '../../apps/server/src/db/group-queue.ts';
import { rowsOf } from '../../apps/server/src/db/sql.ts';
import { freePort } from '../../apps/server/src/http/free-port.ts';
import { shareLockRoundSecret } from '../../apps/server/src/modules/crash/crash.repo.ts';
import {
  type BetGroupStats,
  betGroupStats,
  placeInstantBetGrouped,
  startSteppedRoundGrouped,
} from '../../apps/server/src/modules/originals/bet-group.ts';
import { ensurePair } from '../../apps/server/src/modules/originals/fairness.service.ts';
import type { TBetBodies } from '../../apps/server/src/modules/originals/originals.games.ts';
import {
  placeInstantBet,
  startSteppedRound,
  stepRound,
} from '../../apps/server/src/modules/originals/originals.service.ts';
import { stepGrouped, stepGroupStats } from '../../apps/server/src/modules/originals/step-group.ts';
import { upsertLimit } from '../../apps/server/src/modules/responsible-gaming/rg.repo.ts';
import { createMemberSession } from '../../apps/server/src/modules/sessions/sessions.service.ts';
import { sportsBetGroupStats } from '../../apps/server/src/modules/sports/sports.bet-group.ts';
import { enterResult } from '../../apps/server/src/modules/sports/sports.service.ts';
import { createFundedTestMember } from '../../apps/server/src/modules/wallet/wallet.fixtures.ts';
import { reconcile } from '../../apps/server/src/modules/wallet/wallet.reconcile.ts';
import { crashInstant } from '../../apps/server/test/crash.ts';
import { startPgBouncer, type TPgBouncer } from '../../apps/server/test/pgbouncer.ts';
import { grantBenchBonus } from '../support/players.ts';
import {
  type BenchRow,
  fmt,
  percentile,
  pgbenchRow,
  postgresCpuMs,
  postgresCpuPer,
  postgresNote,
  postgresReachable,
  printTable,
  processTreeCpuMs,
  withThrowawayDatabase,
} from '../support/report.ts';
import { type Started, startServer as startBenchServer } from '../support/server.ts';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const SECONDS = Math.min(Math.max(Number(process.env.BENCH_SECONDS ?? 8), 1), 60);
const MAX_BETS = Math.min(Math.max(Number(process.env.BENCH_MAX_BETS ?? 20_000), 100), 200_000);
const TICK_SECONDS = Math.min(Math.max(Number(process.env.BENCH_TICK_SECONDS ?? 20), 5), 120);
/** Which scenarios run (comma separated; default all): pglite, ticks, crash, postgres — for profiling one. */
/**
 * `BENCH_PGLITE_ON_DISK=1`: the embedded database in a throwaway data directory on disk, as
 * `npm start` runs it (`DATA_DIR`), instead of in memory.
 */
const PGLITE_ON_DISK = process.env.BENCH_PGLITE_ON_DISK === '1';
/**
 * `BENCH_PGBOUNCER=1`: the PostgreSQL scenarios (and the production server's) go through a PgBouncer
 * of their own in transaction mode on a loopback port (the Debian package's 1.18), as with
 * DATABASE_POOLER=pgbouncer: unnamed statements, LISTEN and the leader lock direct. Its pool holds
 * as many server connections as the app's pool has clients, so the rows compare with the direct
 * ones at the same number of backends. pgbench stays direct.
 */
const PGBOUNCER = process.env.BENCH_PGBOUNCER === '1';
const ONLY = new Set(
  (process.env.BENCH_ONLY ?? 'pglite,ticks,crash,postgres').split(',').map((s) => s.trim()),
);
/** A directory: write a .cpuprofile of each dice scenario's measured window (not its setup). */
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
/**
 * The production server's worker counts to measure on PostgreSQL besides the app in this process
 * (`npm run serve` with WORKERS=n; BENCH_SERVE_WORKERS=1,2 by default, empty for none).
 */
const SERVE_WORKERS = (process.env.BENCH_SERVE_WORKERS ?? '1,2')
  .split(',')
  .map((n) => Number(n.trim()))
  .filter((n) => Number.isInteger(n) && n >= 1 && n <= 8);
/** A directory: the production server's processes write node's --cpu-prof profiles there on exit. */
const SERVE_PROFILE_DIR = process.env.BENCH_SERVE_PROFILE;
/**
 * BENCH_LOSS_LIMIT=1: every player has a monthly loss limit (mandatory on br), well above what the
 * bench can lose, so every bet's gate sums the month's play (member_play_hours) and none is refused.
 */
const LOSS_LIMIT = process.env.BENCH_LOSS_LIMIT === '1';
/**
 * BENCH_BONUS=1: every player holds an active bonus grant (R$ 100,00, wagering far above what the
 * run stakes, max bet R$ 50,00), as after a promotion's first-deposit bonus: every stake from cash
 * feeds its wagering (ADR 028).
 */
const BONUS = process.env.BENCH_BONUS === '1';
/**
 * Keep-alive connections of the HTTP load, callers of the in-process rows and pgbench clients
 * (BENCH_CONNECTIONS, 32 by default: the issue's figure; at most 90, under PostgreSQL's default of
 * 100 connections). More connections are more players betting at once: larger groups.
 */
const CONNECTIONS = Math.min(Math.max(Math.trunc(Number(process.env.BENCH_CONNECTIONS ?? 32)) || 32, 1), 90);
/**
 * The app's PostgreSQL pool in this process (BENCH_POOL; by default as many as the load's
 * connections, at most 32). The production server rows use the server's own DATABASE_POOL_MAX.
 */
const POOL = Math.min(
  Math.max(Math.trunc(Number(process.env.BENCH_POOL ?? 0)) || Math.min(CONNECTIONS, 32), 2),
  90,
);
const PLAYERS = 1_000;
/** The app's database on `url`: directly, or through a PgBouncer of its own (BENCH_PGBOUNCER). */
async function openPostgres(
  url: URL,
  poolMax: number,
): Promise<{ database: Database; overrides: Partial<TConfig> }> {
  if (!PGBOUNCER) {
    return {
      database: await openDatabase({ kind: 'postgres', url: url.toString(), poolMax }),
      overrides: {},
    };
  }
  const bouncer: TPgBouncer = await startPgBouncer(url.toString(), { poolSize: poolMax });
  const pooled = bouncer.urlFor(url.toString());
  const database = await openDatabase({
    kind: 'postgres',
    url: pooled,
    poolMax,
    pooler: 'pgbouncer',
    directUrl: url.toString(),
  });
  const close = database.close;
  database.close = async () => {
    await close();
    await bouncer.stop();
  };
  return {
    database,
    overrides: { DATABASE_URL: pooled, DATABASE_POOLER: 'pgbouncer', DATABASE_DIRECT_URL: url.toString() },
  };
}

/** Players of the crash promotion row, each betting once in one phase (BENCH_CRASH_PLAYERS ≤ 10,000). */
const CRASH_PLAYERS = Math.min(Math.max(Number(process.env.BENCH_CRASH_PLAYERS ?? PLAYERS), 10), 10_000);
const WS_CLIENTS = 2_000;
/**
 * Before each HTTP scenario's measured window, the same load on every connection (not counted):
 * each of the server's pooled database connections then has its statements prepared and node has
 * compiled the hot path, as in a server in service. A warm-up of 200 bets on one connection left
 * most of the pool cold: the measured window's first 3 s held most of its bets over 50 ms.
 */
const WARMUP = { seconds: 2, maxBets: 4_000 };
const PGBENCH_SECONDS = 10;
const REQUEST_TIMEOUT_MS = 10_000;

/** The real app (bench/support/server.ts) with the crash engine running, as in service. */
const startServer = (database: Database, overrides: Partial<TConfig> = {}) =>
  startBenchServer(database, { CRASH_ENGINE: true, ...overrides });

/** 1,000 funded players with a session each (made directly: argon2 logins are not what we measure). */
async function makePlayers(
  server: Started,
  count = PLAYERS,
): Promise<{ tokens: string[]; memberIds: bigint[] }> {
  const { db } = server.database;
  const { site } = server;
  const tokens: string[] = [];
  const memberIds: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const memberId = await createFundedTestMember(db, server.siteId, 1_000_000n);
    // Each player has played before: their seed pair exists (a first bet commits it).
    await ensurePair(db, { kind: 'member', siteId: server.siteId, memberId });
    if (LOSS_LIMIT) {
      await upsertLimit(db, {
        siteId: server.siteId,
        memberId,
        kind: 'loss',
        period: 'month',
        value: 100_000_000n,
        pendingValue: null,
        pendingRemove: false,
        pendingEffectiveAt: null,
      });
    }
    if (BONUS) {
      await grantBenchBonus(db, server.siteId, memberId);
    }
    tokens.push(
      (await createMemberSession(db, site, memberId, { ip: '127.0.0.1', userAgent: 'bench' })).token,
    );
    memberIds.push(memberId);
  }
  return { tokens, memberIds };
}

/** What the bet groups did between two readings of `betGroupStats`. */
function groupNote(before: BetGroupStats, after: BetGroupStats): string {
  const groups = after.groups - before.groups;
  const bets = after.bets - before.bets;
  return `${groups} groups, ${(bets / Math.max(1, groups)).toFixed(1)} bets per group (largest ${after.largestGroup}), ${after.deferred - before.deferred} deferred, ${after.fallbacks - before.fallbacks} fell back`;
}

/**
 * The same dice bets without HTTP: CONNECTIONS concurrent callers of the bet service itself
 * (`placeInstantBetGrouped`, what the route calls after authentication and validation, or the
 * one-by-one `placeInstantBet`), so that the server's CPU per bet splits into the bet (its
 * statements and logic) and the HTTP layer around it.
 */
async function inProcessScenario(
  server: Started,
  memberIds: bigint[],
  grouped: boolean,
  game: 'dice' | 'mines' = 'dice',
): Promise<BenchRow> {
  const db = server.database.db;
  const body = { amount: '0.10', direction: 'under', target: 4950 } as const;
  const member = (caller: number) => ({
    kind: 'member' as const,
    siteId: server.siteId,
    // A Mines caller plays its own member (one open round each); dice bets any member.
    memberId:
      game === 'mines'
        ? memberIds[caller % memberIds.length]!
        : memberIds[Math.floor(Math.random() * memberIds.length)]!,
  });
  const dice = (caller: number) =>
    (grouped ? placeInstantBetGrouped : placeInstantBet)(
      db,
      member(caller),
      'dice',
      body as TBetBodies['dice'],
      randomUUID(),
    );
  // A Mines round, timed whole: the start (three mines, R$ 10,00, the stake taken), a pick, and
  // the cash-out that pays its win when the pick was safe (22 times in 25).
  const mines = async (caller: number) => {
    const player = member(caller);
    const start = grouped ? startSteppedRoundGrouped : startSteppedRound;
    const step = grouped ? stepGrouped : stepRound;
    const t0 = performance.now();
    const { round } = await start(db, player, 'mines', { amount: '10.00', mines: 3 }, randomUUID());
    const picked = await step(db, player, 'mines', BigInt(round.id), { kind: 'pick', tile: 0 });
    if (picked.round.status === 'active')
      await step(db, player, 'mines', BigInt(round.id), { kind: 'cashout' });
    return performance.now() - t0;
  };
  const bet = async (caller: number): Promise<number | null> => {
    if (game === 'mines') return mines(caller);
    await dice(caller);
    return null;
  };
  let failures = 0;
  // Every caller bets until the deadline or until maxBets were placed in all.
  const run = async (seconds: number, maxBets: number) => {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, caller) => {
        while (latencies.length < maxBets && performance.now() < deadline) {
          const t0 = performance.now();
          const timed = await bet(caller).catch(() => {
            failures += 1;
            return null;
          });
          latencies.push(timed ?? performance.now() - t0);
        }
      }),
    );
    return latencies;
  };
  await run(WARMUP.seconds, WARMUP.maxBets);
  await analyzeAfterWarmUp(server.database);
  const before = betGroupStats(db);
  const stepsBefore = stepGroupStats(db);
  const cpuBefore = process.cpuUsage();
  const pgBefore = server.database.kind === 'postgres' ? postgresCpuMs() : null;
  const started = performance.now();
  const latencies = await run(SECONDS, MAX_BETS);
  const elapsedS = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const pgNote = postgresNote(postgresCpuPer(pgBefore, latencies.length), 'bet');
  latencies.sort((a, b) => a - b);
  const report = await reconcile(db, { siteId: server.siteId });
  if (!report.ok)
    throw new Error(`ledger drift after the benchmark: ${JSON.stringify(report.drift.slice(0, 3))}`);
  const perBet = (micros: number) => micros / 1000 / Math.max(1, latencies.length);
  return {
    what:
      game === 'mines'
        ? `Mines rounds in process (start, pick, cash-out ${grouped ? 'grouped' : 'one by one'}; the round timed), ${server.database.kind}`
        : `dice bets in process (no HTTP, ${grouped ? 'grouped' : 'one by one'}), ${server.database.kind}`,
    concurrency: CONNECTIONS,
    count: latencies.length,
    perSecond: latencies.length / elapsedS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    note: `failed: ${failures}; CPU ${fmt(perBet(cpu.user + cpu.system), 2)} ms/bet (user ${fmt(perBet(cpu.user), 2)}, system ${fmt(perBet(cpu.system), 2)})${pgNote}; ${grouped ? `${groupNote(before, betGroupStats(db))}; ` : ''}${grouped && game === 'mines' ? `steps: ${groupNote(stepsBefore, stepGroupStats(db))}; ` : ''}reconcile: no drift`,
  };
}

/**
 * The load generator (plain JS, run as a separate node process so that the server process's CPU
 * is the server's alone): CONNECTIONS keep-alive connections, each posting a dice bet of a random
 * player as soon as its previous bet answers; a warm-up first (WARMUP), then the measured window, whose
 * start and end it announces so the server process can read its CPU around exactly that window.
 */
const LOAD_CLIENTS = `
const http = require('node:http');
const crypto = require('node:crypto');
const { performance } = require('node:perf_hooks');
process.once('message', async ({ port, tokens, connections, warmup, seconds, maxBets, timeoutMs, method, path, body, keyed }) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const pick = () => tokens[Math.floor(Math.random() * tokens.length)];
  const post = () => new Promise((resolve) => {
    const headers = { host: 'localhost', authorization: 'Bearer ' + pick() };
    if (keyed) headers['idempotency-key'] = crypto.randomUUID();
    if (body !== null) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    const request = http.request({ agent, host: '127.0.0.1', port, method, path, timeout: timeoutMs, headers }, (response) => { response.resume(); response.on('end', () => resolve(response.statusCode || 0)); });
    request.on('timeout', () => request.destroy(new Error('request timeout')));
    request.on('error', () => resolve(0));
    request.end(body === null ? undefined : body);
  });
  let failures = 0;
  // Every connection posts until the deadline or until maxBets were posted in all.
  const run = async (seconds, maxBets) => {
    const latencies = [];
    const deadline = performance.now() + seconds * 1000;
    const connection = async () => {
      while (latencies.length < maxBets && performance.now() < deadline) {
        const t0 = performance.now();
        const status = await post();
        latencies.push(performance.now() - t0);
        if (status !== 200) failures++;
      }
    };
    await Promise.all(Array.from({ length: connections }, connection));
    return latencies;
  };
  await run(warmup.seconds, warmup.maxBets);
  // The server analyzes the tables the warm-up filled, then says go (and starts its counters).
  await new Promise((resolve) => {
    process.once('message', resolve);
    process.send({ type: 'warm' });
  });
  const started = performance.now();
  const cpu = process.cpuUsage();
  const latencies = await run(seconds, maxBets);
  const elapsedS = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  agent.destroy();
  process.send({ type: 'done', latencies, failures, elapsedS, cpuMs: (user + system) / 1000 }, () => process.exit(0));
});
`;

type TLoadDone = {
  type: 'done';
  latencies: number[];
  failures: number;
  elapsedS: number;
  /** The load generator's own CPU (user and system) over the measured window, ms. */
  cpuMs: number;
};

/**
 * ANALYZE once the warm-up has filled the tables, as autovacuum does on a database in service.
 * The group statements are prepared once per connection and PostgreSQL keeps a generic plan for
 * them: planned on the statistics of the tables as set up (no rounds, a transfer per player), the
 * wallet group's key check read `wallet_transfers` whole (a sequential scan, seen with
 * auto_explain), and every group of the window read the table again as it grew. A new ANALYZE
 * invalidates the cached plans; autovacuum's does the same on a growing table in service.
 */
async function analyzeAfterWarmUp(database: Database): Promise<void> {
  await database.db.execute(sql`ANALYZE`);
}

/** What the load generator sends: dice bets, or a request that touches no database (the floor). */
type TLoad = {
  what: string;
  method: 'GET' | 'POST';
  path: string;
  body: string | null;
  /** Whether each request carries an Idempotency-Key of its own (the sportsbook requires one). */
  keyed?: boolean;
  /** The group queue its bets go through (GET /metrics names it), if any. */
  queue?: TBetQueue;
};
type TBetQueue = 'bets' | 'sports_bets';
const DICE: TLoad = {
  what: 'HTTP dice bets',
  method: 'POST',
  path: '/api/originals/dice/bet',
  body: JSON.stringify({ amount: '0.10', direction: 'under', target: 4950 }),
  queue: 'bets',
};
/**
 * A football final: every player backs the home side of one match (its 1x2 market, odds taken as
 * they come), the sportsbook's busiest moment. The match is the first one open on the demo feed.
 */
async function finalLoad(port: number): Promise<TLoad & { eventId: string }> {
  type TEventView = {
    id: string;
    status: string;
    markets: { type: string; status: string; selections: { id: string; code: string; odds: string }[] }[];
  };
  const { data } = await getJson(port, '/api/sports/events');
  const events = (data as { list: TEventView[] }).list;
  const [match] = events
    .filter((event) => event.status === 'scheduled')
    .flatMap((event) =>
      event.markets
        .filter((market) => market.type === '1x2' && market.status === 'open')
        .flatMap((market) => market.selections.filter((selection) => selection.code === 'home'))
        .map((home) => ({ eventId: event.id, home })),
    );
  if (!match) throw new Error('no open 1x2 market on the demo feed');
  const { eventId, home } = match;
  return {
    eventId,
    what: 'HTTP sports bets, one match',
    method: 'POST',
    path: '/api/sports/bets',
    keyed: true,
    queue: 'sports_bets',
    body: JSON.stringify({
      type: 'single',
      legs: [{ selection_id: home.id, odds: home.odds }],
      stake: '1.00',
      accept_odds_changes: 'any',
    }),
  };
}

/**
 * The final whistle of the football final: the operator enters the match's result (1–0, every bet
 * on the home side wins) and every bet on it is settled and paid in one transaction, as
 * POST /api/admin/sports/events/:id/result does. Timed from the call to its commit.
 */
async function finalWhistle(server: Started, eventId: string): Promise<BenchRow> {
  const db = server.database.db;
  const [open] = await rowsOf<{ n: string }>(
    db,
    sql`SELECT count(DISTINCT l.bet_id)::text AS n FROM sports_bet_legs l WHERE l.event_id = ${eventId}::bigint`,
  );
  const cpuBefore = process.cpuUsage();
  const pgBefore = server.database.kind === 'postgres' ? postgresCpuMs() : null;
  const started = performance.now();
  const { bets_settled: settled } = await enterResult(
    { db },
    { id: server.siteId, jurisdiction: server.site.jurisdiction },
    BigInt(eventId),
    { home: 1, away: 0 },
  );
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const report = await reconcile(db, { siteId: server.siteId });
  if (!report.ok)
    throw new Error(`ledger drift after the settlement: ${JSON.stringify(report.drift.slice(0, 3))}`);
  if (settled !== Number(open!.n)) throw new Error(`settled ${settled} of the match's ${open!.n} bets`);
  const perBet = (total: number) => total / Math.max(1, settled);
  return {
    what: `football final's result entered, ${server.database.kind}: its bets settled and paid`,
    concurrency: 1,
    count: settled,
    perSecond: settled / (ms / 1000),
    p50Ms: ms,
    p99Ms: ms,
    note: `one transaction of ${fmt(ms / 1000, 2)} s (the winners' accounts locked until it commits); node CPU ${fmt(perBet((cpu.user + cpu.system) / 1000), 3)} ms/bet${postgresNote(postgresCpuPer(pgBefore, settled), 'bet')}; reconcile: no drift`,
  };
}

/** The framework alone (routing, hooks, logging, metrics, headers): GET /healthz reads no database. */
const FLOOR: TLoad = { what: 'HTTP floor: GET /healthz', method: 'GET', path: '/healthz', body: null };

/**
 * The server the load goes to: the app in this process (`inProcessServer`) or the production
 * server in processes of its own (`productionServer`), with how to read its CPU and bet groups.
 */
type TServed = {
  port: number;
  /** Appended to the scenario's name, e.g. "postgres" or "postgres, npm run serve (2 workers)". */
  label: string;
  /** CPU of the server's process(es) so far, ms. */
  cpu: () => { user: number; system: number };
  /** The server's bet groups so far (null: not readable, several worker processes). */
  groups: ((queue: TBetQueue) => Promise<BetGroupStats>) | null;
  /** Whether the profiler can attach (BENCH_CPU_PROFILE): only to this process. */
  profiled: boolean;
};

function inProcessServer(server: Started): TServed {
  return {
    port: server.port,
    label: server.database.kind,
    cpu: () => {
      const { user, system } = process.cpuUsage();
      return { user: user / 1000, system: system / 1000 };
    },
    groups: async (queue) => {
      if (queue === 'bets') return betGroupStats(server.database.db);
      const { groups, items, deferred, rolledBack, largestGroup } = sportsBetGroupStats(server.database.db);
      return { groups, bets: items, deferred, fallbacks: rolledBack, largestGroup };
    },
    profiled: true,
  };
}

/** The bet groups of a server process, from its GET /metrics (group commit totals, queue "bets"). */
async function scrapedBetGroups(port: number, queue: TBetQueue): Promise<BetGroupStats> {
  const body = await new Promise<string>((resolveBody, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/metrics', headers: { host: 'localhost' } }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () => resolveBody(text));
      })
      .on('error', reject);
  });
  const value = (name: string) =>
    Number(
      body.match(new RegExp(`^sorte_group_commit_${name}\\{queue="${queue}"\\} (\\d+)$`, 'm'))?.[1] ?? 0,
    );
  return {
    groups: value('groups_total'),
    bets: value('items_total'),
    deferred: value('deferred_total'),
    fallbacks: value('rolled_back_total'),
    largestGroup: value('largest_group'),
  };
}

/**
 * The production server on the bench's database: `npm run build`'s bundle of the server
 * (apps/server/dist, plain node, no TypeScript loader) started as `npm run serve` starts it, with
 * WORKERS server processes (node:cluster). Production settings (request logs at info included)
 * but for the demo seed (the bench seeded), the per-address rate limits (every player here comes
 * from 127.0.0.1) and the periodic jobs (below).
 */
async function productionServer(
  url: URL,
  workers: number,
  pooled: Partial<TConfig> = {},
): Promise<{ served: TServed; stop: () => Promise<void> }> {
  const root = resolve(import.meta.dirname, '../..');
  const built = spawnSync(process.execPath, ['apps/server/scripts/build.mjs'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('the server build failed');
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(SERVE_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${SERVE_PROFILE_DIR}`] : []),
      'apps/server/dist/cluster.js',
    ],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: pooled.DATABASE_URL ?? url.toString(),
        ...(pooled.DATABASE_POOLER
          ? { DATABASE_POOLER: pooled.DATABASE_POOLER, DATABASE_DIRECT_URL: pooled.DATABASE_DIRECT_URL }
          : {}),
        PORT: String(port),
        HOST: '127.0.0.1',
        WORKERS: String(workers),
        SEED_DEMO: 'off',
        RATE_LIMIT_PER_MINUTE: '1000000',
        AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
        PSP_SANDBOX_PORT: '0',
        MAIL_CATCHER_PORT: '0',
        REGISTRY_SANDBOX_PORT: '0',
        KYC_SANDBOX_PORT: '0',
        SHUTDOWN_DRAIN_SECONDS: '5',
        // Once a minute and at start (runAtStart) in service; at start they overlapped the measured
        // window here. The app in this process runs none either.
        PROMO_JOBS: 'off',
        COMMUNITY_JOBS: 'off',
      },
    },
  );
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const until = Date.now() + 60_000;
  for (;;) {
    const status = await new Promise<number>((resolveStatus) => {
      http
        .get({ host: '127.0.0.1', port, path: '/readyz', headers: { host: 'localhost' } }, (response) => {
          response.resume();
          resolveStatus(response.statusCode ?? 0);
        })
        .on('error', () => resolveStatus(0));
    });
    // The primary forks the workers one after the other, each once the one before listens: with
    // the last one forked and an answer, give it the time the others took to listen.
    if (status === 200 && processTreeCpuMs(child.pid!)!.processes >= (workers === 1 ? 1 : workers + 1)) break;
    if (child.exitCode !== null || Date.now() > until) throw new Error('the production server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 3000));
  const pid = child.pid!;
  return {
    served: {
      port,
      label: `postgres, npm run serve (${workers} worker${workers === 1 ? '' : 's'})`,
      cpu: () => processTreeCpuMs(pid) ?? { user: 0, system: 0 },
      // GET /metrics answers for the worker the connection reaches: exact with one worker only.
      groups: workers === 1 ? (queue) => scrapedBetGroups(port, queue) : null,
      profiled: false,
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The server's CPU with no request at all (the crash engine, jobs, timers), ms per second. */
async function idleCpuMsPerSecond(served: TServed): Promise<number> {
  const before = served.cpu();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const after = served.cpu();
  return (after.user + after.system - before.user - before.system) / ((performance.now() - started) / 1000);
}

/**
 * A row of the HTTP load, with what the issue's targets read of it: per bet, the server's CPU,
 * PostgreSQL's (null on PGlite) and the load generator's (ms).
 */
type TDiceRow = BenchRow & {
  serverCpuMs: number;
  postgresCpuMs: number | null;
  loadCpuMs: number;
  failures: number;
};

async function diceScenario(
  server: Started,
  served: TServed,
  tokens: string[],
  load: TLoad = DICE,
): Promise<TDiceRow> {
  const idle = await idleCpuMsPerSecond(served);
  const noGroups: BetGroupStats = { groups: 0, bets: 0, deferred: 0, fallbacks: 0, largestGroup: 0 };
  const groupsOf = async () => (load.queue && (await served.groups?.(load.queue))) || noGroups;
  let groupsBefore = await groupsOf();
  const client = spawn(process.execPath, ['-e', LOAD_CLIENTS], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // The server's CPU (not the load generator's) per bet, over the measured window only: steadier
  // than bets/s on a shared machine. On PGlite it includes the database.
  const profiler = CPU_PROFILE_DIR && served.profiled ? new Session() : null;
  let cpuBefore = served.cpu();
  let pgBefore: number | null = null;
  const done = new Promise<TLoadDone>((resolve, reject) => {
    client.on('message', (message: { type: 'warm' } | TLoadDone) => {
      if (message.type === 'warm') {
        void analyzeAfterWarmUp(server.database).then(async () => {
          groupsBefore = await groupsOf();
          cpuBefore = served.cpu();
          pgBefore = server.database.kind === 'postgres' ? postgresCpuMs() : null;
          if (profiler) {
            profiler.connect();
            void profiler.post('Profiler.enable').then(() => profiler.post('Profiler.start'));
          }
          client.send({ type: 'go' });
        }, reject);
      } else resolve(message);
    });
    client.once('exit', (code) => reject(new Error(`the load generator exited with ${code}`)));
  });
  client.send({
    port: served.port,
    tokens,
    connections: CONNECTIONS,
    warmup: WARMUP,
    seconds: SECONDS,
    maxBets: MAX_BETS,
    timeoutMs: REQUEST_TIMEOUT_MS,
    method: load.method,
    path: load.path,
    body: load.body,
    keyed: load.keyed ?? false,
  });
  const { latencies, failures, elapsedS, cpuMs: loadCpuMs } = await done;
  const unit = load.method === 'POST' ? 'bet' : 'request';
  const cpuAfter = served.cpu();
  const cpu = { user: cpuAfter.user - cpuBefore.user, system: cpuAfter.system - cpuBefore.system };
  const postgresCpu = postgresCpuPer(pgBefore, latencies.length);
  const pgNote = postgresNote(postgresCpu, unit);
  const perItem = (ms: number) => ms / Math.max(1, latencies.length);
  const cpuMsPerBet = perItem(cpu.user + cpu.system);
  if (profiler && CPU_PROFILE_DIR) {
    const { profile } = await profiler.post('Profiler.stop');
    mkdirSync(CPU_PROFILE_DIR, { recursive: true });
    const file = join(
      CPU_PROFILE_DIR,
      `${load === DICE ? 'dice' : load === FLOOR ? 'floor' : 'sports'}-${server.database.kind}-${Date.now()}.cpuprofile`,
    );
    writeFileSync(file, JSON.stringify(profile));
    profiler.disconnect();
    console.log(`cpu profile of the measured window (server process): ${file}`);
  }
  latencies.sort((a, b) => a - b);
  const report = await reconcile(server.database.db, { siteId: server.siteId });
  if (!report.ok)
    throw new Error(`ledger drift after the benchmark: ${JSON.stringify(report.drift.slice(0, 3))}`);
  const groupsNote = load.queue && served.groups ? `${groupNote(groupsBefore, await groupsOf())}; ` : '';
  return {
    what: `${load.what}, ${served.label}, ${PLAYERS.toLocaleString('en')} players`,
    concurrency: CONNECTIONS,
    count: latencies.length,
    perSecond: latencies.length / elapsedS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    serverCpuMs: cpuMsPerBet,
    postgresCpuMs: postgresCpu,
    loadCpuMs: perItem(loadCpuMs),
    failures,
    note: `non-200: ${failures}; server CPU ${fmt(cpuMsPerBet, 2)} ms/${unit} (user ${fmt(perItem(cpu.user), 2)}, system ${fmt(perItem(cpu.system), 2)}; ${fmt(cpuMsPerBet - (idle * elapsedS) / Math.max(1, latencies.length), 2)} above the idle ${fmt(idle, 0)} ms/s)${pgNote}; load generator CPU ${fmt(perItem(loadCpuMs), 2)} ms/${unit}; ${groupsNote}reconcile: no drift`,
  };
}

/** The clients of the tick scenario (plain JS: a worker thread runs it without a TS loader). */
const TICK_CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require('ws');
const { url, clients, seconds } = workerData;
const delays = [];
let open = 0, failed = 0, ticks = 0;
const sockets = [];
for (let i = 0; i < clients; i++) {
  const socket = new WebSocket(url);
  socket.on('open', () => { open++; });
  socket.on('error', () => { failed++; });
  socket.on('message', (data) => {
    const now = Date.now();
    const message = JSON.parse(String(data));
    if (message.type === 'tick') { ticks++; if (delays.length < 5000000) delays.push(now - message.at); }
  });
  sockets.push(socket);
}
setTimeout(() => {
  for (const socket of sockets) socket.terminate();
  parentPort.postMessage({ delays, open, failed, ticks });
}, seconds * 1000);
`;

/** A POST to the server as the demo site, answering the parsed envelope. */
function postJson(port: number, path: string, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  return new Promise<{ data: Record<string, unknown> }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: {
          host: 'localhost',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          ...headers,
        },
      },
      (response) => {
        let answer = '';
        response.on('data', (chunk: Buffer) => {
          answer += chunk.toString('utf8');
        });
        response.on('end', () => resolve(JSON.parse(answer)));
      },
    );
    request.on('error', reject);
    request.end(text);
  });
}

/**
 * A fresh database publishes a new crash chain whose first round waits for a bet to fix the salt
 * (docs/decisions/008-crash-salt-ceremony.md): one guest bet of fun money lets the rounds run.
 */
async function openCrashChain(server: Started): Promise<void> {
  const session = await postJson(server.port, '/api/originals/demo/session', {});
  await postJson(
    server.port,
    '/api/crash/bet',
    { amount: '1.00', client_seed: 'bench' },
    { 'x-demo-token': String(session.data.demo_token) },
  );
}

async function tickScenario(server: Started): Promise<BenchRow> {
  await openCrashChain(server);
  const worker = new Worker(TICK_CLIENTS, {
    eval: true,
    workerData: { url: `ws://127.0.0.1:${server.port}/ws/crash`, clients: WS_CLIENTS, seconds: TICK_SECONDS },
  });
  const result = await new Promise<{ delays: number[]; open: number; failed: number; ticks: number }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    },
  );
  await worker.terminate();
  const delays = result.delays.sort((a, b) => a - b);
  return {
    what: `crash ticks to ${WS_CLIENTS.toLocaleString('en')} WebSockets, ${server.database.kind}`,
    concurrency: result.open,
    count: result.ticks,
    perSecond: result.ticks / TICK_SECONDS,
    p50Ms: percentile(delays, 50),
    p99Ms: percentile(delays, 99),
    note: `tick delay; ${result.open} sockets open, ${result.failed} failed, ${TICK_SECONDS} s (betting phases included)`,
  };
}

/** A GET of the server's JSON envelope as the demo site. */
function getJson(port: number, path: string, token?: string, agent?: http.Agent) {
  return new Promise<{ data: Record<string, unknown> }>((resolve, reject) => {
    const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    http
      .get({ host: '127.0.0.1', port, path, agent, headers: { host: 'localhost', ...auth } }, (response) => {
        let answer = '';
        response.on('data', (chunk: Buffer) => {
          answer += chunk.toString('utf8');
        });
        response.on('end', () => resolve(JSON.parse(answer)));
      })
      .on('error', reject);
  });
}

type TAnswer = { status: number; code: string | null; data: Record<string, unknown> | null };

/** POSTs `body` as the player of `token` through `agent`: the status, the error code, the data. */
const postAsPlayer = (port: number, agent: http.Agent, path: string, token: string, body: object) =>
  new Promise<TAnswer>((resolveAnswer) => {
    const text = JSON.stringify(body);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: 'POST',
        path,
        headers: {
          host: 'localhost',
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          'idempotency-key': randomUUID(),
        },
      },
      (response) => {
        let answer = '';
        response.on('data', (chunk: Buffer) => {
          answer += chunk.toString('utf8');
        });
        response.on('end', () => {
          const parsed = JSON.parse(answer) as { code?: string; data?: Record<string, unknown> };
          const status = response.statusCode ?? 0;
          resolveAnswer({
            status,
            code: status === 200 ? null : String(parsed.code ?? status),
            data: parsed.data ?? null,
          });
        });
      },
    );
    request.on('error', () => resolveAnswer({ status: 0, code: 'connection', data: null }));
    request.end(text);
  });

/** Counts the groups a queue of this process posts from now on: "N groups, M <what> per group". */
function groupsFrom(queue: string, what: string): () => string {
  const before = { ...(groupQueueTotals().get(queue) ?? { groups: 0, items: 0 }) };
  return () => {
    const after = groupQueueTotals().get(queue) ?? { groups: 0, items: 0 };
    const groups = after.groups - before.groups;
    return `${groups} groups, ${((after.items - before.items) / Math.max(1, groups)).toFixed(1)} ${what} per group`;
  };
}

/**
 * A crash promotion: every player bets in ONE betting phase (the issue's "thousands of players at
 * once"). The players have the crash page open (each loaded the round's state first). The bets go out through CONNECTIONS keep-alive connections as soon as a betting phase
 * opens; the row counts the bets taken before the phase closed, how long they took and what was
 * refused (by error code), then waits for the round to crash, its auto cash-outs paid, and
 * reconciles the ledger.
 */
async function crashBurstScenario(server: Started, tokens: string[]): Promise<BenchRow> {
  await openCrashChain(server);
  // The players are on the crash page, as in a promotion: each has loaded the round's state.
  let loaded = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (loaded < tokens.length) await getJson(server.port, '/api/crash/state', tokens[loaded++]);
    }),
  );
  // A phase that has just opened (more than 5 s of its 6 s left); a round that runs long (its crash
  // point is drawn, 1 % are past 100 ×) is waited out.
  let state = (await getJson(server.port, '/api/crash/state')).data;
  const deadline = Date.now() + 300_000;
  while (!(state.phase === 'betting' && Number(state.betting_ms_left) > 5_000)) {
    if (Date.now() > deadline) throw new Error('no crash betting phase opened within 300 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
    state = (await getJson(server.port, '/api/crash/state')).data;
  }
  const roundId = String(state.round_id);
  const betGroups = groupsFrom('crash_bets', 'bets');
  const leftAtStart = Number(state.betting_ms_left);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  const refused = new Map<string, number>();
  const started = performance.now();
  /** Every third player sets no auto cash-out: they cash out by hand, all at once. */
  const byHand = (i: number) => i % 3 === 2;
  const one = async (token: string, i: number) => {
    const at = performance.now();
    const auto = byHand(i) ? {} : { auto_cashout: i % 3 === 0 ? '1.50' : '3.00' };
    const { code } = await postAsPlayer(server.port, agent, '/api/crash/bet', token, {
      amount: '1.00',
      ...auto,
    });
    latencies.push(performance.now() - at);
    if (code) refused.set(code, (refused.get(code) ?? 0) + 1);
    else if (byHand(i)) manual.push(token);
  };
  const manual: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < tokens.length) {
        const i = next++;
        await one(tokens[i]!, i);
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const betGroupsNote = betGroups();
  agent.destroy();
  const cashOuts = await cashOutStorm(server, roundId, manual);
  // The round runs and crashes: every bet is lost or cashed out (auto) before reconciling.
  while ((await getJson(server.port, '/api/crash/state')).data.round_id === roundId) {
    if (Date.now() > deadline + 300_000) throw new Error(`crash round ${roundId} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const report = await reconcile(server.database.db, { siteId: server.siteId });
  if (!report.ok)
    throw new Error(`ledger drift after the crash burst: ${JSON.stringify(report.drift.slice(0, 3))}`);
  latencies.sort((a, b) => a - b);
  const taken = latencies.length - [...refused.values()].reduce((a, b) => a + b, 0);
  return {
    what: `crash bets, ${server.database.kind}: ${tokens.length.toLocaleString('en')} players in one betting phase`,
    concurrency: CONNECTIONS,
    count: taken,
    perSecond: latencies.length / elapsedS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    note: `taken ${taken} of ${tokens.length} in ${fmt(elapsedS, 2)} s of the phase's ${fmt(leftAtStart / 1000, 1)} s; refused: ${refused.size === 0 ? 'none' : [...refused].map(([code, n]) => `${code} ${n}`).join(', ')}; ${betGroupsNote}; ${cashOuts}; reconcile: no drift`,
  };
}

/**
 * The crash promotion's players without an auto cash-out all press "cash out" at the same moment,
 * once the round runs past 1.05 ×, each on their own connection: how long the storm takes, what
 * each was paid (the tick of the moment the server took the request), and how many were refused
 * though sent before the round's crash instant (its start and crash point as stored).
 */
async function cashOutStorm(server: Started, roundId: string, tokens: string[]): Promise<string> {
  if (tokens.length === 0) return 'no cash-outs by hand';
  // Each player has the page open on their own keep-alive connection, as from their own phone.
  const agent = new http.Agent({ keepAlive: true, maxSockets: tokens.length });
  await Promise.all(tokens.map((token) => getJson(server.port, '/api/crash/state', token, agent)));
  let state = (await getJson(server.port, '/api/crash/state')).data;
  while (state.round_id === roundId && !(state.phase === 'running' && Number(state.multiplier) >= 1.05)) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    state = (await getJson(server.port, '/api/crash/state')).data;
  }
  if (state.round_id !== roundId || state.phase !== 'running')
    return `no cash-outs by hand: the round crashed at ${state.crash_point ?? '?'} × before 1.05 ×`;
  const pressGroups = groupsFrom('crash_cashouts', 'presses');
  const refused = new Map<string, number>();
  const paidAt: number[] = [];
  const latencies: number[] = [];
  const started = performance.now();
  const sentAt = Date.now();
  await Promise.all(
    tokens.map(async (token) => {
      const at = performance.now();
      const { code, data } = await postAsPlayer(server.port, agent, '/api/crash/cashout', token, {
        round_id: roundId,
      });
      latencies.push(performance.now() - at);
      if (code) refused.set(code, (refused.get(code) ?? 0) + 1);
      else paidAt.push(Number((data?.bet as { cashout_multiplier: string } | undefined)?.cashout_multiplier));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const round = await server.database.db.transaction((tx) => shareLockRoundSecret(tx, BigInt(roundId)));
  const crashPoint = round?.crashHundredths ?? 100;
  const instant = (round?.startedAt ?? 0) + crashInstant(crashPoint);
  latencies.sort((a, b) => a - b);
  paidAt.sort((a, b) => a - b);
  // Every press went out at `sentAt`: before the crash instant, each refusal lost a press in time.
  const refusedInTime = sentAt < instant ? [...refused.values()].reduce((a, b) => a + b, 0) : 0;
  return `${tokens.length} cash-outs by hand in ${fmt(seconds, 2)} s (p50 ${fmt(percentile(latencies, 50), 0)} ms, p99 ${fmt(percentile(latencies, 99), 0)} ms), paid ${paidAt.length} at ${paidAt.length ? `${paidAt[0]!.toFixed(2)}–${paidAt.at(-1)!.toFixed(2)} ×` : '-'}, refused: ${refused.size === 0 ? 'none' : [...refused].map(([code, n]) => `${code} ${n}`).join(', ')}; ${pressGroups()}; the round crashed at ${(crashPoint / 100).toFixed(2)} ×, ${fmt((instant - sentAt) / 1000, 2)} s after they were sent${refusedInTime > 0 ? `; ${refusedInTime} refused though sent before the crash` : ''}`;
}

/**
 * What the statements each pooled connection keeps prepared (ADR 024) cost in its backend, after the
 * scenarios: every idle connection of the pool is held at once, reads its prepared statements and its
 * memory (`pg_backend_memory_contexts`, PostgreSQL 14+), deallocates them all and reads its memory
 * again; the difference is what they held. The connections are closed afterwards (their statement
 * names would be stale), so this runs last on a pool.
 */
async function preparedStatementMemory(database: Database): Promise<string> {
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const clients = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
  const memory = `SELECT sum(total_bytes)::bigint AS bytes FROM pg_backend_memory_contexts`;
  try {
    const measured = await Promise.all(
      clients.map(async (client) => {
        const {
          rows: [before],
        } = await client.query<{
          bytes: string;
          prepared: string;
          characters: string;
          largest: string | null;
        }>(
          `SELECT (${memory}) AS bytes, (SELECT count(*) FROM pg_prepared_statements) AS prepared,
             (SELECT coalesce(sum(length(statement)), 0) FROM pg_prepared_statements) AS characters,
             (SELECT max(b) FROM (SELECT sum(total_bytes) AS b FROM pg_backend_memory_contexts
               WHERE name IN ('CachedPlanSource', 'CachedPlan')
                 AND left(ident, 200) IN (SELECT left(statement, 200) FROM pg_prepared_statements)
               GROUP BY left(ident, 200)) x) AS largest`,
        );
        await client.query('DEALLOCATE ALL');
        const {
          rows: [after],
        } = await client.query<{ bytes: string }>(memory);
        return {
          prepared: Number(before!.prepared),
          characters: Number(before!.characters),
          bytes: Number(before!.bytes) - Number(after!.bytes),
          largest: Number(before!.largest ?? 0),
        };
      }),
    );
    const statements = measured.reduce((sum, m) => sum + m.prepared, 0);
    const bytes = measured.reduce((sum, m) => sum + m.bytes, 0);
    const kb = (n: number) => fmt(n / 1024, 0);
    const prepared = measured.map((m) => m.prepared);
    const fullest = measured.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    return `prepared statements on PostgreSQL after the scenarios: ${clients.length} connections holding ${Math.min(...prepared)}–${Math.max(...prepared)} each (at most ${MAX_PREPARED_STATEMENTS} and ${kb(MAX_PREPARED_TEXT)} K characters), ${kb(fullest.bytes)} KB on the fullest (${fullest.prepared} statements, ${fullest.characters.toLocaleString('en')} characters), ${kb(bytes / Math.max(1, statements))} KB per statement on average; the largest plan ${kb(Math.max(...measured.map((m) => m.largest)))} KB`;
  } finally {
    for (const client of clients) client.release(true);
  }
}

/**
 * The targets of issue 16 against this run's rows: HTTP dice bets on PostgreSQL at least 0.5 × and
 * on PGlite at least 0.2 × the `pgbench -N` of the same run, p99 at most 50 ms on PostgreSQL, at
 * most 1 ms of node CPU per bet (the dice rows, and the football final's sportsbook bets on
 * PostgreSQL), no answer but 200 (every row reconciled, or the run stopped).
 */
function targets(
  pglite: TDiceRow | null,
  postgres: TDiceRow | null,
  pgbench: BenchRow | null,
  finals: { pglite: TDiceRow | null; postgres: TDiceRow | null },
): string[] {
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  const whole = (n: number) => Math.round(n).toLocaleString('en');
  const lines: string[] = [];
  const tps = pgbench && Number.isFinite(pgbench.perSecond) ? pgbench.perSecond : null;
  const ratio = (row: TDiceRow, floor: number, name: string) => {
    if (tps === null) return `${name}: ${whole(row.perSecond)} bets/s (no pgbench row to compare)`;
    const r = row.perSecond / tps;
    return `${name}: ${whole(row.perSecond)} bets/s = ${fmt(r, 3)} × pgbench -N (target ≥ ${floor} ×): ${verdict(r >= floor)}`;
  };
  if (tps !== null) lines.push(`pgbench -N -c ${CONNECTIONS}: ${whole(tps)} tps`);
  if (postgres) {
    lines.push(ratio(postgres, 0.5, 'HTTP dice on PostgreSQL'));
    if (tps !== null && postgres.postgresCpuMs !== null)
      lines.push(cpuBudget(postgres, postgres.postgresCpuMs, tps));
    lines.push(
      `HTTP dice on PostgreSQL, p99: ${fmt(postgres.p99Ms, 1)} ms (target ≤ 50 ms): ${verdict(postgres.p99Ms <= 50)}`,
    );
  }
  if (pglite) lines.push(ratio(pglite, 0.2, 'HTTP dice on PGlite'));
  const cpu = [postgres && ['PostgreSQL', postgres], pglite && ['PGlite, with the database', pglite]].filter(
    (entry): entry is [string, TDiceRow] => Boolean(entry),
  );
  if (cpu.length > 0) {
    lines.push(
      `node CPU per bet: ${cpu.map(([name, row]) => `${fmt(row.serverCpuMs, 2)} ms on ${name}`).join(', ')} (target ≤ 1 ms): ${verdict(cpu.every(([, row]) => row.serverCpuMs <= 1))}`,
    );
  }
  // The football final (sportsbook bets, grouped) against the same 1 ms of node CPU per bet.
  if (finals.postgres) {
    const pgliteNote = finals.pglite
      ? `; ${fmt(finals.pglite.serverCpuMs, 2)} ms on PGlite with the database, ${whole(finals.pglite.perSecond)} bets/s`
      : '';
    lines.push(
      `node CPU per sportsbook bet, one match: ${fmt(finals.postgres.serverCpuMs, 2)} ms on PostgreSQL, ${whole(finals.postgres.perSecond)} bets/s (target ≤ 1 ms): ${verdict(finals.postgres.serverCpuMs <= 1)}${pgliteNote}`,
    );
  }
  const answered = [...cpu.map(([, row]) => row), finals.postgres, finals.pglite].filter(
    (row): row is TDiceRow => row !== null,
  );
  if (answered.length > 0) {
    lines.push(
      `answers other than 200: ${answered.reduce((sum, row) => sum + row.failures, 0)}; every row reconciled without drift`,
    );
  }
  return lines;
}

/**
 * The bets/s this machine's cores could carry at the row's CPU per bet (the server's, PostgreSQL's
 * and the load generator's, which share them) with no core ever idle, against 0.5 × pgbench -N:
 * the ceiling no shorter wait in the bet's chain can pass, only less CPU per bet or more cores.
 */
function cpuBudget(row: TDiceRow, postgresCpuMs: number, tps: number): string {
  const cores = availableParallelism();
  const perBet = row.serverCpuMs + postgresCpuMs + row.loadCpuMs;
  const ceiling = (cores * 1000) / perBet;
  return (
    `  CPU budget: node ${fmt(row.serverCpuMs, 2)} + PostgreSQL ${fmt(postgresCpuMs, 2)} + load generator ` +
    `${fmt(row.loadCpuMs, 2)} = ${fmt(perBet, 2)} ms per bet; ${cores} cores carry at most ` +
    `${Math.round(ceiling).toLocaleString('en')} bets/s with none idle = ${fmt(ceiling / tps, 3)} × pgbench -N; ` +
    `0.5 × needs ≤ ${fmt((cores * 1000) / (0.5 * tps), 2)} ms per bet on these cores`
  );
}

/** One finished scenario, printed at once so a later failure never loses it. */
function progress(r: BenchRow): void {
  console.log(
    `done: ${r.what}: ${r.count} in ${fmt(r.perSecond, 0)}/s, p50 ${fmt(r.p50Ms, 2)} ms, p99 ${fmt(r.p99Ms, 2)} ms (${r.note})`,
  );
}

async function main(): Promise<void> {
  const rows: BenchRow[] = [];
  let pgliteDice: TDiceRow | null = null;
  let postgresDice: TDiceRow | null = null;
  const finals: { pglite: TDiceRow | null; postgres: TDiceRow | null } = { pglite: null, postgres: null };
  let pgbench: BenchRow | null = null;
  console.log(
    `bets benchmark: ${CONNECTIONS} connections, ${PLAYERS} players, ≤ ${SECONDS} s and ≤ ${MAX_BETS} bets per scenario; ${WS_CLIENTS} sockets for ${TICK_SECONDS} s${LOSS_LIMIT ? '; every player has a monthly loss limit' : ''}${BONUS ? '; every player holds a bonus grant' : ''}${PGLITE_ON_DISK ? '; PGlite on disk' : ''}${PGBOUNCER ? '; PostgreSQL through PgBouncer (transaction mode)' : ''}`,
  );

  if (ONLY.has('pglite') || ONLY.has('ticks') || ONLY.has('crash')) {
    const dataDir = PGLITE_ON_DISK ? mkdtempSync(join(tmpdir(), 'sorte-bench-pglite-')) : undefined;
    const lite = await startServer(await openDatabase({ kind: 'pglite', dataDir }));
    try {
      if (ONLY.has('pglite')) {
        const { tokens } = await makePlayers(lite);
        pgliteDice = await diceScenario(lite, inProcessServer(lite), tokens);
        rows.push(pgliteDice);
        progress(rows.at(-1)!);
        const final = await finalLoad(lite.port);
        finals.pglite = await diceScenario(lite, inProcessServer(lite), tokens, final);
        rows.push(finals.pglite);
        progress(rows.at(-1)!);
        rows.push(await finalWhistle(lite, final.eventId));
        progress(rows.at(-1)!);
      }
      if (ONLY.has('crash')) {
        rows.push(await crashBurstScenario(lite, (await makePlayers(lite, CRASH_PLAYERS)).tokens));
        progress(rows.at(-1)!);
      }
      if (ONLY.has('ticks')) {
        rows.push(await tickScenario(lite));
        progress(rows.at(-1)!);
      }
    } finally {
      await lite.close();
      await lite.database.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }

  if (!ONLY.has('postgres') && !ONLY.has('crash') && !ONLY.has('starts')) {
    // PostgreSQL scenarios left out on request.
  } else if (await postgresReachable(ADMIN_URL)) {
    const adminUrl = new URL(ADMIN_URL);
    await withThrowawayDatabase(adminUrl, 'sorte_bets', async (url, name) => {
      const opened = await openPostgres(url, POOL);
      const server = await startServer(opened.database, opened.overrides);
      try {
        const { tokens, memberIds } = await makePlayers(server);
        // Statistics as a database in service has them (autovacuum analyzes as tables grow): the
        // planner then picks index lookups for the players' rows, not scans sized for an empty table.
        await server.database.db.execute(sql`ANALYZE`);
        if (ONLY.has('crash')) {
          const crashTokens =
            CRASH_PLAYERS === PLAYERS ? tokens : (await makePlayers(server, CRASH_PLAYERS)).tokens;
          rows.push(await crashBurstScenario(server, crashTokens));
          progress(rows.at(-1)!);
        }
        if (ONLY.has('postgres')) {
          postgresDice = await diceScenario(server, inProcessServer(server), tokens);
          rows.push(postgresDice);
          progress(rows.at(-1)!);
          rows.push(await diceScenario(server, inProcessServer(server), tokens, FLOOR));
          progress(rows.at(-1)!);
          const final = await finalLoad(server.port);
          finals.postgres = await diceScenario(server, inProcessServer(server), tokens, final);
          rows.push(finals.postgres);
          progress(rows.at(-1)!);
          rows.push(await finalWhistle(server, final.eventId));
          progress(rows.at(-1)!);
          rows.push(await inProcessScenario(server, memberIds, true));
          progress(rows.at(-1)!);
          rows.push(await inProcessScenario(server, memberIds, false));
          progress(rows.at(-1)!);
        }
        if (ONLY.has('postgres') || ONLY.has('starts')) {
          rows.push(await inProcessScenario(server, memberIds, true, 'mines'));
          progress(rows.at(-1)!);
          rows.push(await inProcessScenario(server, memberIds, false, 'mines'));
          progress(rows.at(-1)!);
        }
        if (ONLY.has('postgres')) {
          console.log(
            await preparedStatementMemory(server.database).catch(
              (error: Error) => `prepared statements' memory not read: ${error.message}`,
            ),
          );
        }
      } finally {
        await server.close();
        await server.database.close();
      }
      // The production server, each worker count on a database of its own set up as the one above:
      // on the database the scenarios above had filled, a later scenario cost up to 1.4 × the CPU
      // per bet of the same server measured first (docs/bench-log/2026-11-28.md, 17:10), so rows of one database
      // are not comparable.
      for (const workers of ONLY.has('postgres') ? SERVE_WORKERS : []) {
        await withThrowawayDatabase(adminUrl, 'sorte_serve', async (serveUrl) => {
          const opened = await openPostgres(serveUrl, Math.min(CONNECTIONS, 32));
          const fresh = await startServer(opened.database, opened.overrides);
          let production: Awaited<ReturnType<typeof productionServer>> | null = null;
          let appOpen = true;
          try {
            const { tokens } = await makePlayers(fresh);
            await fresh.database.db.execute(sql`ANALYZE`);
            // The production server alone on its database: this process's app (its LISTEN
            // connections, its crash engine) is closed; its database handle stays for ANALYZE
            // and reconcile.
            await fresh.close();
            appOpen = false;
            production = await productionServer(serveUrl, workers, opened.overrides);
            rows.push(await diceScenario(fresh, production.served, tokens));
            progress(rows.at(-1)!);
          } finally {
            await production?.stop();
            if (appOpen) await fresh.close();
            await fresh.database.close();
          }
        });
      }
      if (ONLY.has('postgres') || ONLY.has('starts')) {
        pgbench = pgbenchRow(adminUrl, name, CONNECTIONS, PGBENCH_SECONDS);
        rows.push(pgbench);
        progress(rows.at(-1)!);
      }
    });
  } else {
    console.log(`PostgreSQL not reachable at ${ADMIN_URL}: PostgreSQL rows skipped`);
  }
  printTable(rows, { concurrency: 'conns', count: 'count', rate: 'per s' });
  const lines = targets(pgliteDice, postgresDice, pgbench, finals);
  if (lines.length > 0)
    console.log(`\nissue 16's targets in this run:\n${lines.map((line) => `  ${line}`).join('\n')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
