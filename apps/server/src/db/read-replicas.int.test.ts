import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_TEXT, call, fundedPlayer, testRegistry } from '../../test/app.ts';
import { type ClusterNode, type DbCluster, startDbCluster } from '../../test/db-cluster.ts';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { seedDemoData } from '../seed/demo-data.ts';
import { type Database, openDatabase } from './client.ts';
import { migrate } from './migrate.ts';

/**
 * Read replicas (issue 40 §3, ADR 044) on a real pg_auto_failover cluster (db-cluster.ts: a
 * primary and its synchronous standby, from the Debian binaries .ci/run installs): with
 * DATABASE_READ_URL naming the standby, the records are read there; with the standby's replay
 * paused past the lag limit they are read on the primary, fresh; the money routes never use the
 * read pool. No timing is asserted: every wait is a bounded poll.
 */

const MAX_LAG_S = 1;

let cluster: DbCluster;
let standby: ClusterNode;
let database: Database;
let app: FastifyInstance;

async function rows<T extends pg.QueryResultRow>(url: string, text: string) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function poll<T>(what: string, probe: () => Promise<T | null | undefined | false>, tries = 200) {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const router = () => database.readRouter!;
const counts = () => ({ ...router().counts });

async function diceBet(token: string) {
  const bet = await call(app, {
    method: 'POST',
    url: '/api/originals/dice/bet',
    token,
    payload: { amount: '1.00', direction: 'under', target: 5000 },
  });
  expect(bet.status, JSON.stringify(bet.body)).toBe(200);
  return bet.body.data as { round: { id: string; payout: string } };
}

async function record(token: string) {
  const answer = await call(app, { method: 'POST', url: '/api/transaction/record', token, payload: {} });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.list as { kind: string; change: string }[];
}

/** Whether the standby's probe says it is current (within the limit). */
const standbyCurrent = () => {
  const [health] = router().health();
  return health?.standby === true && health.lagS <= MAX_LAG_S;
};

beforeAll(async () => {
  cluster = await startDbCluster();
  const primary = (await cluster.primary())!;
  standby = cluster.nodes.find((node) => node !== primary)!;
  database = await openDatabase({
    kind: 'postgres',
    url: cluster.url,
    poolMax: 6,
    readUrl: cluster.nodeUrl(standby),
    readMaxLagS: MAX_LAG_S,
  });
  await migrate(database);
  await seedDemoData(database.db);
  app = await buildApp({
    config: testConfig({ DATABASE_URL: cluster.url, DATABASE_READ_URL: cluster.nodeUrl(standby) }),
    database,
    captchaGenerator: () => ({ text: CAPTCHA_TEXT, svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
  });
  await app.ready();
  const { connection } = await testRegistry();
  app.registry.attach({ ...connection, close: async () => undefined });
}, 240_000);

afterAll(async () => {
  if (standby) await rows(cluster.nodeUrl(standby), 'SELECT pg_wal_replay_resume()').catch(() => undefined);
  await app?.close();
  await database?.close();
  await cluster?.stop();
}, 60_000);

describe('read replicas (DATABASE_READ_URL)', () => {
  it('serve the transaction and game records from the standby while it keeps up', async () => {
    const player = await fundedPlayer(app, 10_000n);
    for (let i = 0; i < 3; i++) await diceBet(player.token);
    await poll('the standby to be current', async () => standbyCurrent());

    // A statement on the read pool lands on a server in recovery: the standby.
    const seen = await database.readDb.execute(sql`SELECT pg_is_in_recovery() AS standby`);
    expect((seen as unknown as { rows: { standby: boolean }[] }).rows[0]!.standby).toBe(true);

    const before = counts();
    // Synchronous replication waits for the standby's disk, not its replay: poll until replayed.
    const list = await poll('the bets on the standby', async () => {
      const found = await record(player.token);
      return found.filter((row) => row.kind === 'bet').length === 3 ? found : null;
    });
    expect(list.filter((row) => row.kind === 'deposit')).toHaveLength(1);
    const games = await call(app, {
      method: 'POST',
      url: '/api/game/record',
      token: player.token,
      payload: {},
    });
    expect(games.status, JSON.stringify(games.body)).toBe(200);
    const after = counts();
    expect(after.replica).toBeGreaterThan(before.replica);
    expect(after.primary).toBe(before.primary);

    const reading = await rows<{ n: number }>(
      cluster.nodeUrl(standby),
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'sorte-read'`,
    );
    expect(reading[0]!.n).toBeGreaterThan(0);
  });

  it('reads on the primary, fresh, while the standby replays nothing past the lag limit', async () => {
    const player = await fundedPlayer(app, 10_000n);
    await poll('the standby to be current', async () => standbyCurrent());
    await rows(cluster.nodeUrl(standby), 'SELECT pg_wal_replay_pause()');
    try {
      await diceBet(player.token);
      await poll('the standby to fall behind', async () => {
        await router().checkAll();
        return !standbyCurrent();
      });
      // The standby really is behind: the bet is not there yet.
      const onStandby = await rows<{ n: number }>(
        cluster.nodeUrl(standby),
        `SELECT count(*)::int AS n FROM game_rounds WHERE member_id = ${player.memberId.toString()}`,
      );
      expect(onStandby[0]!.n).toBe(0);

      const before = counts();
      const list = await record(player.token);
      expect(list.map((row) => row.kind).sort()).toEqual(
        list.some((row) => row.kind === 'win') ? ['bet', 'deposit', 'win'] : ['bet', 'deposit'],
      );
      const after = counts();
      expect(after.primary).toBeGreaterThan(before.primary);
      expect(after.replica).toBe(before.replica);
    } finally {
      await rows(cluster.nodeUrl(standby), 'SELECT pg_wal_replay_resume()');
    }
    await poll('the standby to catch up', async () => {
      await router().checkAll();
      return standbyCurrent();
    });
  });

  it('keeps money, balances and a round just played off the read pool', async () => {
    const player = await fundedPlayer(app, 10_000n);
    await poll('the standby to be current', async () => standbyCurrent());
    const before = counts();
    const bet = await diceBet(player.token);
    const details = await call(app, {
      method: 'POST',
      url: '/api/game/record/details',
      token: player.token,
      payload: { id: bet.round.id },
    });
    expect(details.status, JSON.stringify(details.body)).toBe(200);
    const balance = await call(app, { method: 'GET', url: '/api/day7/getAllBalance', token: player.token });
    expect(balance.status, JSON.stringify(balance.body)).toBe(200);
    const payoutMinor = Math.round(Number(bet.round.payout) * 100);
    expect(Math.round(Number(balance.body.data.total_money) * 100)).toBe(10_000 - 100 + payoutMinor);
    expect(counts()).toEqual(before);
  });

  it('reads on the standby among the hosts of a multi-host read URL, and on a listed primary while it lags', async () => {
    const primary = cluster.nodes.find((node) => node !== standby)!;
    // The primary listed first: a current standby is still preferred to it.
    const readUrl = `postgres://postgres:postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/sorte?sslmode=disable`;
    const both = await openDatabase({
      kind: 'postgres',
      url: cluster.url,
      poolMax: 2,
      readUrl,
      readMaxLagS: MAX_LAG_S,
    });
    const inRecovery = async () =>
      (
        (await both.readDb.execute(sql`SELECT pg_is_in_recovery() AS standby`)) as unknown as {
          rows: { standby: boolean }[];
        }
      ).rows[0]!.standby;
    try {
      const hostsAnswered = () => both.readRouter!.health().every((h) => h.answeredAt > 0);
      await poll('both read hosts to answer', async () => {
        await both.readRouter!.checkAll();
        return hostsAnswered() && both.readRouter!.health()[1]!.lagS <= MAX_LAG_S;
      });
      expect(await inRecovery()).toBe(true);

      await rows(cluster.nodeUrl(standby), 'SELECT pg_wal_replay_pause()');
      try {
        await fundedPlayer(app, 1_000n);
        await poll('the standby to fall behind', async () => {
          await both.readRouter!.checkAll();
          return both.readRouter!.health()[1]!.lagS > MAX_LAG_S;
        });
        const before = { ...both.readRouter!.counts };
        expect(await inRecovery()).toBe(false);
        // Served by the listed primary's read pool, not by a fallback to the primary's own pool.
        expect(both.readRouter!.counts.replica).toBe(before.replica + 1);
      } finally {
        await rows(cluster.nodeUrl(standby), 'SELECT pg_wal_replay_resume()');
      }
    } finally {
      await both.close();
    }
  });
});
