import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { fmt, percentile, postgresReachable } from '../support/report.ts';
import { ROOT, startServerProcess, waitFor } from './processes.ts';

/**
 * The production shape on one machine, measured: two server processes on one PostgreSQL behind
 * Caddy (deploy/Caddyfile, as in compose.yaml), players betting through Caddy, and one process
 * stopped with SIGTERM half-way (a rolling deploy). Prints the bets acknowledged, the failures
 * (there should be none), how many acknowledged bets are in the database (all of them), and the
 * latency. `npm run bench:failover` — needs PostgreSQL (DATABASE_URL or local postgres/postgres)
 * and `caddy` on the PATH (Debian: apt-get install caddy).
 */

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const PORTS = [3201, 3202];
const PROXY_PORT = 3200;
const CLIENTS = 8;
const SECONDS = 10;
const DRAIN_SECONDS = 4;

async function main(): Promise<void> {
  if (!(await postgresReachable(ADMIN_URL))) throw new Error(`PostgreSQL not reachable at ${ADMIN_URL}`);
  if (spawnSync('caddy', ['version']).status !== 0)
    throw new Error('caddy is not installed (apt-get install caddy)');
  const name = `sorte_failover_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const work = mkdtempSync(join(tmpdir(), 'sorte-failover-'));
  const children: ChildProcess[] = [];
  const start = (port: number) => {
    const child = startServerProcess({
      port,
      databaseUrl: url.toString(),
      dataDir: work,
      env: { SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS) },
    });
    children.push(child);
    return child;
  };
  try {
    // One at a time: the first migrates and seeds, the second finds it done.
    const first = start(PORTS[0]!);
    await waitFor(`http://127.0.0.1:${PORTS[0]}/readyz`, {}, 120);
    start(PORTS[1]!);
    await waitFor(`http://127.0.0.1:${PORTS[1]}/readyz`, {}, 120);
    const caddy = spawn('caddy', ['run', '--config', 'deploy/Caddyfile', '--adapter', 'caddyfile'], {
      cwd: ROOT,
      stdio: 'ignore',
      env: {
        ...process.env,
        SITE_ADDRESS: `:${PROXY_PORT}`,
        UPSTREAMS: PORTS.map((p) => `127.0.0.1:${p}`).join(' '),
        XDG_DATA_HOME: work,
        XDG_CONFIG_HOME: work,
      },
    });
    children.push(caddy);
    const base = `http://127.0.0.1:${PROXY_PORT}`;
    const headers = { host: 'localhost', 'content-type': 'application/json' };
    await waitFor(`${base}/readyz`, {}, 30);

    const session = (await (
      await fetch(`${base}/api/originals/demo/session`, { method: 'POST', headers, body: '{}' })
    ).json()) as { data: { demo_token: string } };
    const acknowledged: string[] = [];
    const failures = new Map<string, number>();
    const latencies: number[] = [];
    const stopAt = Date.now() + SECONDS * 1000;
    let n = 0;
    const client = async () => {
      while (Date.now() < stopAt) {
        const key = `failover-${process.pid}-${n++}`;
        const began = performance.now();
        try {
          const response = await fetch(`${base}/api/originals/dice/bet`, {
            method: 'POST',
            headers: { ...headers, 'x-demo-token': session.data.demo_token, 'idempotency-key': key },
            body: JSON.stringify({ amount: '1.00', direction: 'under', target: 4950, idempotency_key: key }),
          });
          const text = await response.text();
          if (response.status === 200) {
            acknowledged.push(key);
            latencies.push(performance.now() - began);
          } else {
            const what = `HTTP ${response.status} ${text.slice(0, 40)}`;
            failures.set(what, (failures.get(what) ?? 0) + 1);
          }
        } catch (error) {
          const what = String((error as { cause?: { code?: string } }).cause?.code ?? error);
          failures.set(what, (failures.get(what) ?? 0) + 1);
        }
      }
    };
    // Half-way, the first process is stopped the way an orchestrator stops it.
    const stopper = setTimeout(() => first.kill('SIGTERM'), (SECONDS * 1000) / 2 - DRAIN_SECONDS * 500);
    await Promise.all(Array.from({ length: CLIENTS }, client));
    clearTimeout(stopper);

    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    const stored = await db
      .query('SELECT count(*)::int AS n FROM game_rounds WHERE idempotency_key LIKE $1', [
        `failover-${process.pid}-%`,
      ])
      .finally(() => db.end());
    latencies.sort((a, b) => a - b);
    const failed = [...failures.values()].reduce((a, b) => a + b, 0);
    console.log(
      `failover: ${CLIENTS} clients for ${SECONDS} s through Caddy to 2 processes; process 1 stopped (SIGTERM, ${DRAIN_SECONDS} s drain) half-way`,
    );
    console.log(
      `| bets acknowledged | failed | acknowledged bets in the database | bets/s | p50 ms | p99 ms |`,
    );
    console.log(`|---|---|---|---|---|---|`);
    console.log(
      `| ${acknowledged.length} | ${failed} | ${stored.rows[0]!.n} | ${fmt(acknowledged.length / SECONDS, 0)} | ${fmt(percentile(latencies, 50), 1)} | ${fmt(percentile(latencies, 99), 1)} |`,
    );
    if (failed > 0) console.log('failures:', Object.fromEntries(failures));
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, (DRAIN_SECONDS + 2) * 1000));
    for (const child of children) child.kill('SIGKILL');
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
