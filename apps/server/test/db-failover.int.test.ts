import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../../../bench/deploy/processes.ts';
import { freePort } from '../src/http/free-port.ts';
import { ENGINE_LOCK_KEY } from '../src/modules/crash/crash.engine.ts';
import { type DbCluster, startDbCluster } from './db-cluster.ts';

/**
 * A server process keeps its promises through one database failover (issue 40): on a
 * pg_auto_failover cluster (a primary and a synchronous standby, db-cluster.ts; the
 * Debian package postgresql-15-auto-failover, which .ci/run installs) the server runs on the
 * formation's multi-host URL while dice bets stream in; the primary's machine is killed (SIGKILL
 * to its pg_autoctl and postgres). Afterwards every bet that was answered 200 is on the new
 * primary, every other answer was a 503 with Retry-After, and the server's LISTEN connections and
 * the crash leader's advisory lock are on the new primary. No timing is asserted: waits are
 * bounded polls.
 */

const HEADERS = { host: 'localhost', 'content-type': 'application/json' };
const BETTORS = 4;

let cluster: DbCluster;
let server: ReturnType<typeof startServerProcess>;
let base = '';
const output: string[] = [];
const work = mkdtempSync(join(tmpdir(), 'sorte-db-failover-'));

async function rows<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function poll<T>(what: string, probe: () => Promise<T | null | undefined | false>, tries = 200) {
  let last: unknown = null;
  for (let i = 0; i < tries; i++) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}\n${output.join('')}`);
}

/** What the server process holds on a node: its LISTEN channels and whether it leads crash. */
async function heldOn(url: string) {
  const listens = await rows<{ query: string }>(
    url,
    `SELECT DISTINCT query FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'`,
  );
  const locks = await rows<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`,
    [ENGINE_LOCK_KEY],
  );
  return { listens: listens.map((r) => r.query).sort(), crashLeader: locks[0]!.n === 1 };
}

beforeAll(async () => {
  cluster = await startDbCluster();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = startServerProcess({ port, databaseUrl: cluster.url, dataDir: work, stdio: 'pipe' });
  server.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  server.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  await poll(
    'the server on the cluster',
    async () => server.exitCode === null && (await fetch(`${base}/readyz`)).ok,
    800,
  );
}, 180_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGKILL');
    await exited;
  }
  await cluster?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('database failover under load (pg_auto_failover, synchronous standby)', () => {
  it('keeps every acknowledged bet, answers 503 with Retry-After meanwhile, and moves LISTEN and the crash lock to the new primary', async () => {
    const before = (await cluster.primary())!;
    expect(before).not.toBeNull();
    const held = await poll('the LISTEN connections and the crash lock', async () => {
      const now = await heldOn(cluster.nodeUrl(before));
      return now.crashLeader && now.listens.length > 0 ? now : null;
    });
    expect(held.listens).toContain('LISTEN sorte_balance');

    const session = (await (
      await fetch(`${base}/api/originals/demo/session`, { method: 'POST', headers: HEADERS, body: '{}' })
    ).json()) as { data: { demo_token: string } };
    const acknowledged: { key: string; sentAt: number }[] = [];
    const others = new Map<string, number>();
    let killedAt = Number.POSITIVE_INFINITY;
    let stop = false;
    const bettor = async () => {
      while (!stop) {
        const key = `dbfo-${randomUUID()}`;
        const sentAt = Date.now();
        const response = await fetch(`${base}/api/originals/dice/bet`, {
          method: 'POST',
          headers: { ...HEADERS, 'x-demo-token': session.data.demo_token, 'idempotency-key': key },
          body: JSON.stringify({ amount: '1.00', direction: 'under', target: 4950, idempotency_key: key }),
        });
        await response.text();
        if (response.status === 200) acknowledged.push({ key, sentAt });
        else {
          const what = `${response.status} retry-after=${response.headers.get('retry-after') !== null}`;
          others.set(what, (others.get(what) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    const load = Promise.all(Array.from({ length: BETTORS }, bettor));
    await poll('bets before the kill', async () => acknowledged.length >= 50);
    killedAt = Date.now();
    await cluster.kill(before);
    // Bets come back on the new primary: 50 acknowledged bets sent after the kill.
    await poll(
      'bets accepted after the failover',
      async () => {
        return acknowledged.filter((b) => b.sentAt > killedAt).length >= 50;
      },
      400,
    );
    stop = true;
    await load;

    const after = (await cluster.primary())!;
    expect(after).not.toBeNull();
    expect(after.name).not.toBe(before.name);
    // Every answer that was not a 200 was a 503 that says when to try again.
    expect([...others.keys()].filter((what) => what !== '503 retry-after=true')).toEqual([]);
    const keys = acknowledged.map((b) => b.key);
    const stored = await rows<{ n: number }>(
      cluster.nodeUrl(after),
      'SELECT count(*)::int AS n FROM game_rounds WHERE idempotency_key = ANY($1::text[])',
      [keys],
    );
    expect(stored[0]!.n).toBe(keys.length);

    // The LISTEN connections and the crash leader's lock followed the primary.
    const moved = await poll('LISTEN and the crash lock on the new primary', async () => {
      const now = await heldOn(cluster.nodeUrl(after));
      return now.crashLeader && now.listens.length === held.listens.length ? now : null;
    });
    expect(moved.listens).toEqual(held.listens);
  }, 120_000);
});
