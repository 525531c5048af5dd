import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { freePort } from '../src/http/free-port.ts';
import { databaseKinds, postgresAdminUrl } from './databases.ts';

/**
 * The real server as separate processes (node --import tsx src/server.ts), under load from dice
 * bets with their own idempotency keys (fun money of a demo session: the same bet path, rounds and
 * keys as members' bets):
 * - graceful shutdown (both databases): SIGTERM while bets stream in; every bet that was answered
 *   200 is in the database afterwards;
 * - a second process (PostgreSQL: PGlite is one process's embedded database) started during the
 *   load takes bets at once, and both processes show the same crash round.
 * No timing is asserted: waits are bounded polls.
 */

const ROOT = join(import.meta.dirname, '..', '..', '..');
const ENTRY = join(ROOT, 'apps', 'server', 'src', 'server.ts');
const kinds = await databaseKinds();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

type Process = { port: number; child: ChildProcess; exited: Promise<void>; output: string[] };

async function startProcess(
  database: { url?: string; dataDir: string },
  logLevel: 'warn' | 'info' = 'warn',
): Promise<Process> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: database.dataDir,
    CAPTCHA: 'off',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SHUTDOWN_DRAIN_SECONDS: '1',
    PSP_SANDBOX_PORT: '0',
    MAIL_CATCHER_PORT: '0',
    REGISTRY_SANDBOX_PORT: '0',
    KYC_SANDBOX_PORT: '0',
    LOG_LEVEL: logLevel,
  };
  if (database.url) env.DATABASE_URL = database.url;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], { cwd: ROOT, env, stdio: 'pipe' });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || i > 600) throw new Error(`server did not start:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { port, child, exited, output };
}

const HEADERS = { host: 'localhost', 'content-type': 'application/json' };

async function post(port: number, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
}

/** The current crash round of the process on `port`; null while its state cannot be read. */
async function crashRound(port: number): Promise<bigint | null> {
  const answer = await fetch(`http://127.0.0.1:${port}/api/crash/state`, { headers: HEADERS });
  if (!answer.ok) return null;
  return BigInt(((await answer.json()) as { data: { round_id: string } }).data.round_id);
}

/**
 * The first bet of a new crash chain, which waits for one to fix its salt (ADR 008). The engine
 * starts once the server listens: until its first round is open a bet is refused (GAME_UNAVAILABLE),
 * and a chain without its bet never runs a round.
 */
async function saltBet(port: number, clientSeed: string): Promise<void> {
  for (let i = 0; i < 200 && (await crashRound(port)) === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const placed = await post(
    port,
    '/api/crash/bet',
    { amount: '1.00', client_seed: clientSeed },
    { 'x-demo-token': await demoToken(port) },
  );
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
}

async function demoToken(port: number): Promise<string> {
  return String((await post(port, '/api/originals/demo/session', {})).body.data.demo_token);
}

/** Bets until `running()` says stop; answers the keys acknowledged (200) and what else came back. */
function betLoad(targets: () => { port: number; token: string }[], tag: string, running: () => boolean) {
  const acknowledged: string[] = [];
  const other = new Map<string, number>();
  let n = 0;
  const client = async (c: number) => {
    while (running()) {
      const list = targets();
      const target = list[c % list.length]!;
      const key = `${tag}-${c}-p${target.port}-${n++}`;
      try {
        const answer = await post(
          target.port,
          '/api/originals/dice/bet',
          { amount: '0.10', direction: 'under', target: 4950, idempotency_key: key },
          { 'x-demo-token': target.token },
        );
        if (answer.status === 200) acknowledged.push(key);
        else other.set(`HTTP ${answer.status}`, (other.get(`HTTP ${answer.status}`) ?? 0) + 1);
      } catch (error) {
        // A connection refused or closed by a stopped process: not acknowledged, so not owed.
        const code = String((error as { cause?: { code?: string } }).cause?.code ?? error);
        other.set(code, (other.get(code) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  return {
    acknowledged,
    other,
    done: (clients: number) => Promise.all(Array.from({ length: clients }, (_, c) => client(c))),
  };
}

async function freshPostgres(): Promise<string> {
  const admin = await postgresAdminUrl();
  if (!admin) throw new Error('no PostgreSQL');
  const name = `sorte_processes_${process.pid}_${randomBytes(3).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  cleanups.push(async () => {
    const dropper = new pg.Client({ connectionString: admin });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await dropper.end();
  });
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Ends every connection to the database at `url` but its own, `times` times 100 ms apart, as a
 * restart or failover of PostgreSQL does; answers how many it ended.
 */
async function cutConnections(url: string, times: number): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  let cut = 0;
  try {
    for (let i = 0; i < times; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      const result = await admin.query(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      cut += (result.rows[0] as { n: number }).n;
    }
  } finally {
    await admin.end();
  }
  return cut;
}

function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `sorte-${name}-`));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The keys among `keys` that have a round in the database. */
async function storedKeys(
  kind: 'pglite' | 'postgres',
  where: { url?: string; dataDir: string },
  prefix: string,
) {
  const database =
    kind === 'postgres'
      ? await openDatabase({ kind: 'postgres', url: where.url!, poolMax: 1 })
      : await openDatabase({ kind: 'pglite', dataDir: where.dataDir });
  try {
    const result = (await database.db.execute(
      `SELECT idempotency_key FROM game_rounds WHERE idempotency_key LIKE '${prefix}-%'` as never,
    )) as unknown as { rows: { idempotency_key: string }[] };
    return new Set(result.rows.map((row) => row.idempotency_key));
  } finally {
    await database.close();
  }
}

describe.each(kinds)('server processes on %s', (kind) => {
  it('graceful shutdown under load loses no acknowledged bet', { timeout: 300_000 }, async () => {
    const where = { url: kind === 'postgres' ? await freshPostgres() : undefined, dataDir: tempDir('drain') };
    // Logging at info, as in service: the access log is checked below.
    const server = await startProcess(where, 'info');
    const token = await demoToken(server.port);
    let running = true;
    const load = betLoad(
      () => [{ port: server.port, token }],
      'drain',
      () => running,
    );
    const clients = load.done(4);
    // Some bets before the signal, then SIGTERM while they keep coming.
    while (load.acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 50));
    const beforeSignal = load.acknowledged.length;
    server.child.kill('SIGTERM');
    await server.exited;
    running = false;
    await clients;
    expect(server.child.exitCode).toBe(0);
    // Bets were answered while the process drained too, and every answered one is stored.
    expect(load.acknowledged.length).toBeGreaterThan(beforeSignal);
    const stored = await storedKeys(kind, where, 'drain');
    expect(load.acknowledged.filter((key) => !stored.has(key))).toEqual([]);
    // Nothing but 200 or a refused/closed connection (no 5xx while draining).
    expect([...load.other.keys()].filter((what) => what.startsWith('HTTP'))).toEqual([]);

    // The access log: one JSON line per answered request, none for the readiness probes.
    const lines = server.output
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map(
        (line) =>
          JSON.parse(line) as {
            msg?: string;
            reqId?: unknown;
            responseTime?: unknown;
            req?: { method?: string; url?: string };
            res?: { statusCode?: number };
          },
      );
    const access = lines.filter((line) => line.msg === 'request completed');
    const bets = access.filter(
      (line) => line.req?.url === '/api/originals/dice/bet' && line.res?.statusCode === 200,
    );
    expect(bets.length).toBeGreaterThanOrEqual(beforeSignal);
    expect(bets.length).toBeLessThanOrEqual(load.acknowledged.length);
    for (const line of bets) {
      expect(line.req?.method).toBe('POST');
      expect(typeof line.responseTime).toBe('number');
      expect(typeof line.reqId).toBe('string');
    }
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
    expect(access.filter((line) => String(line.req?.url).startsWith('/readyz'))).toEqual([]);
  });
});

if (kinds.includes('postgres')) {
  describe('several server processes on one PostgreSQL', () => {
    it('a second process started during load takes bets and sees the same crash round', {
      timeout: 300_000,
    }, async () => {
      const url = await freshPostgres();
      const first = await startProcess({ url, dataDir: tempDir('first') });
      const targets = [{ port: first.port, token: await demoToken(first.port) }];
      await saltBet(first.port, 'processes');
      let running = true;
      const load = betLoad(
        () => targets,
        'multi',
        () => running,
      );
      const clients = load.done(4);
      while (load.acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 50));

      const second = await startProcess({ url, dataDir: tempDir('second') });
      targets.push({ port: second.port, token: await demoToken(second.port) });
      const onSecond = () => load.acknowledged.filter((key) => key.includes(`-p${second.port}-`)).length;
      while (onSecond() < 20) await new Promise((resolve) => setTimeout(resolve, 50));

      // The same crash round on both (its phase may move on between the two reads: poll).
      let same = false;
      for (let i = 0; i < 100 && !same; i++) {
        const round = await crashRound(first.port);
        same = round !== null && round === (await crashRound(second.port));
        if (!same) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(same).toBe(true);

      running = false;
      await clients;
      expect([...load.other.keys()]).toEqual([]);
      const stored = await storedKeys('postgres', { url, dataDir: '' }, 'multi');
      expect(load.acknowledged.filter((key) => !stored.has(key))).toEqual([]);
    });

    it('a process whose database connections are all cut keeps running crash rounds', {
      timeout: 600_000,
    }, async () => {
      const url = await freshPostgres();
      const server = await startProcess({ url, dataDir: tempDir('crash-cut') });
      await saltBet(server.port, 'crash-cut');
      /** The current round; null while the state cannot be read (503 right after the cut). */
      const roundOf = () => crashRound(server.port);
      /** Waits for a round above `round`, or any readable one (a round runs at most 240 s, then a pause). */
      const nextAfter = async (round: bigint | null) => {
        for (let i = 0; i < 1_200; i++) {
          const now = await roundOf();
          if (now !== null && (round === null || now > round)) return now;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        throw new Error(`no crash round after ${round}:\n${server.output.join('').slice(-20000)}`);
      };
      const before = await nextAfter(null);

      expect(await cutConnections(url, 1)).toBeGreaterThan(0);
      // The rounds go on: the engine writes them on new connections (and takes its lock again).
      // A request meeting a cut connection answers 503 until the pool connects again.
      expect(await nextAfter(await nextAfter(null))).toBeGreaterThan(before);
      expect(server.child.exitCode).toBeNull();
    });

    it('a process whose database connections are all cut under load keeps running and takes bets again', {
      timeout: 300_000,
    }, async () => {
      const url = await freshPostgres();
      const server = await startProcess({ url, dataDir: tempDir('cut') });
      const targets = [{ port: server.port, token: await demoToken(server.port) }];
      let running = true;
      const load = betLoad(
        () => targets,
        'cut',
        () => running,
      );
      const clients = load.done(8);
      while (load.acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 50));

      // Every connection of the process to its database, pooled ones in the middle of a bet's
      // statements among them (and its LISTEN connections), ended by the server three times.
      expect(await cutConnections(url, 3)).toBeGreaterThan(0);
      const afterCut = load.acknowledged.length;
      for (let i = 0; i < 600 && load.acknowledged.length < afterCut + 40; i++) {
        if (server.child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      running = false;
      await clients;

      // Alive, betting again on new connections, and every bet it acknowledged is stored. A bet
      // caught by the cut was answered 503 (try again), never 500.
      expect(server.child.exitCode, server.output.join('').slice(-2000)).toBeNull();
      expect([...load.other.keys()].filter((what) => what !== 'HTTP 503')).toEqual([]);
      expect(load.acknowledged.length).toBeGreaterThanOrEqual(afterCut + 40);
      const stored = await storedKeys('postgres', { url, dataDir: '' }, 'cut');
      expect(load.acknowledged.filter((key) => !stored.has(key))).toEqual([]);
    });
  });
}
