import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_TEXT, call, fundedPlayer } from '../../test/app.ts';
import { postgresAdminUrl } from '../../test/databases.ts';
import { startPgBouncer, type TPgBouncer } from '../../test/pgbouncer.ts';
import { collect, openSocket } from '../../test/sockets.ts';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { getBalances } from '../modules/wallet/balances.ts';
import { seedDemoData } from '../seed/demo-data.ts';
import { type Database, openDatabase } from './client.ts';
import { migrate } from './migrate.ts';
import { rowsOf } from './sql.ts';

const admin = await postgresAdminUrl();

/**
 * The app through PgBouncer 1.18 in transaction mode (DATABASE_POOLER=pgbouncer): its pool's
 * statements go unnamed through the pooler, its LISTEN and advisory-lock connections go to
 * PostgreSQL itself (DATABASE_DIRECT_URL). PgBouncer holds fewer server connections than the app's
 * pool has clients, so one client's transactions run on several server connections.
 */
describe.skipIf(admin === null)('the app through PgBouncer in transaction mode', () => {
  const name = `sorte_pgb_${process.pid}_${randomBytes(3).toString('hex')}`;
  let directUrl: string;
  let pooledUrl: string;
  let bouncer: TPgBouncer;
  let database: Database;
  const apps: FastifyInstance[] = [];

  const build = async () => {
    const app = await buildApp({
      config: testConfig({
        DATABASE_URL: pooledUrl,
        DATABASE_POOLER: 'pgbouncer',
        DATABASE_DIRECT_URL: directUrl,
      }),
      database,
      captchaGenerator: () => ({ text: CAPTCHA_TEXT, svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
    });
    apps.push(app);
    await app.ready();
    return app;
  };

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: admin! });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin!);
    url.pathname = `/${name}`;
    directUrl = url.toString();
    bouncer = await startPgBouncer(directUrl, { poolSize: 3 });
    pooledUrl = bouncer.urlFor(directUrl);
    database = await openDatabase({
      kind: 'postgres',
      url: pooledUrl,
      poolMax: 12,
      pooler: 'pgbouncer',
      directUrl,
    });
    await migrate(database);
    await seedDemoData(database.db);
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.close();
    await bouncer?.stop();
    const client = new pg.Client({ connectionString: admin! });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });

  it('is a pooler that keeps no prepared statement across transactions (why the setting exists)', async () => {
    // Two clients of PgBouncer, one server connection between them at a time: a statement one
    // client prepared by name is on a server connection the other is handed next.
    const one = new pg.Client({ connectionString: pooledUrl });
    const other = new pg.Client({ connectionString: pooledUrl });
    await one.connect();
    await other.connect();
    try {
      const answers = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? one : other).query({
            name: 'named_probe',
            text: `SELECT $1::int + ${i % 2} AS n`,
            values: [i],
          }),
        ),
      );
      expect(answers.some((answer) => answer.status === 'rejected')).toBe(true);
    } finally {
      await one.end();
      await other.end();
    }
  });

  it('takes bets on every pooled connection at once, each once, the balances adding up', async () => {
    const app = await build();
    const players = await Promise.all(Array.from({ length: 6 }, () => fundedPlayer(app, 10_000n)));
    const bets = players.flatMap((player) =>
      Array.from({ length: 5 }, () =>
        call(app, {
          method: 'POST',
          url: '/api/originals/dice/bet',
          token: player.token,
          payload: { amount: '1.00', direction: 'under', target: 5000, idempotency_key: randomUUID() },
        }),
      ),
    );
    const answered = await Promise.all(bets);
    for (const { status, body } of answered) expect(status, JSON.stringify(body)).toBe(200);
    const [counted] = await rowsOf<{ rounds: string }>(
      database.db,
      sql`SELECT count(*)::text AS rounds FROM game_rounds
          WHERE member_id = ANY(${`{${players.map((p) => p.memberId).join(',')}}`}::bigint[])`,
    );
    expect(counted!.rounds).toBe('30');
    // Each player's cash is the funding less their stakes plus their payouts, as the answers say.
    const minor = (money: string) => BigInt(money.replace('.', ''));
    for (const [i, player] of players.entries()) {
      const rounds = answered.slice(i * 5, i * 5 + 5).map(({ body }) => body.data.round);
      const net = rounds.reduce((sum, round) => sum + minor(round.payout) - minor(round.stake), 0n);
      expect((await getBalances(app.services.db, player.memberId)).cashMinor).toBe(10_000n + net);
    }
    // A retried bet (same key) through the pooler: the same round, charged once.
    const key = randomUUID();
    const bet = { amount: '1.00', direction: 'under', target: 5000, idempotency_key: key };
    const first = await call(app, {
      method: 'POST',
      url: '/api/originals/dice/bet',
      token: players[0]!.token,
      payload: bet,
    });
    const again = await call(app, {
      method: 'POST',
      url: '/api/originals/dice/bet',
      token: players[0]!.token,
      payload: bet,
    });
    expect(again.body.data.round).toEqual(first.body.data.round);
  });

  it('delivers a balance push to a socket held by another app through LISTEN on the direct URL', async () => {
    const publisher = await build();
    const holder = await build();
    await holder.listen({ port: 0, host: '127.0.0.1' });
    const port = (holder.server.address() as { port: number }).port;
    const player = await fundedPlayer(publisher, 5_000n);
    const socket = await openSocket(`ws://127.0.0.1:${port}/ws`);
    try {
      const inbox = collect(socket);
      socket.send(JSON.stringify({ type: 'auth', token: player.token }));
      await inbox.next((m) => m.type === 'ready', 'ready');
      // A bet on the other app: its push travels by NOTIFY to the holder's LISTEN connection.
      const bet = await call(publisher, {
        method: 'POST',
        url: '/api/originals/dice/bet',
        token: player.token,
        payload: { amount: '1.00', direction: 'under', target: 5000, idempotency_key: randomUUID() },
      });
      expect(bet.status).toBe(200);
      const pushed = await inbox.next((m) => m.reason === 'game_round', 'the bet’s balance push');
      expect(pushed).toMatchObject({ type: 'balance', money: bet.body.data.balance });
    } finally {
      socket.close();
    }
    // The LISTEN connections are on PostgreSQL itself, not PgBouncer's server connections.
    const [listening] = await rowsOf<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND query ILIKE 'LISTEN %'`,
    );
    expect(listening!.n).toBeGreaterThan(0);
  });
});
