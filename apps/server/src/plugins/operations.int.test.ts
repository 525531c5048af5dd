import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, fundedPlayer } from '../../test/app.ts';
import { databaseKinds } from '../../test/databases.ts';
import { rowsOf } from '../db/sql.ts';
import { getBalances } from '../modules/wallet/balances.ts';
import { reconcile } from '../modules/wallet/wallet.reconcile.ts';

const kinds = await databaseKinds();

describe.each(kinds)('health, readiness, metrics and graceful shutdown on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind, { METRICS_TOKEN: 'scrape-token-0123456789' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('answers liveness and readiness on any host', async () => {
    const health = await app.inject({ method: 'GET', url: '/healthz', headers: { host: 'lb.internal' } });
    expect(health.statusCode).toBe(200);
    const ready = await app.inject({ method: 'GET', url: '/readyz', headers: { host: 'lb.internal' } });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('counts requests by route and status in Prometheus format, for loopback or the token only', async () => {
    await app.inject({ method: 'GET', url: '/api/games/listsv2', headers: { host: 'localhost' } });
    const metrics = await app.inject({ method: 'GET', url: '/metrics', headers: { host: 'localhost' } });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.body).toMatch(
      /sorte_http_requests_total\{method="GET",route="\/api\/games\/listsv2",status="200"\} [1-9]/,
    );
    expect(metrics.body).toContain('sorte_http_request_duration_seconds_bucket');
    expect(metrics.body).toContain('sorte_ready 1');
    expect(metrics.body).toContain('process_cpu_user_seconds_total');
    expect(metrics.body).toMatch(/sorte_transaction_conflict_retries_total \d+/);
    expect(metrics.body).toMatch(/sorte_transaction_conflicts_unresolved_total \d+/);

    const outsider = { host: 'localhost' };
    const remote = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: outsider,
      remoteAddress: '203.0.113.9',
    });
    expect(remote.statusCode).toBe(403);
    const wrong = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { ...outsider, authorization: 'Bearer scrape-token-9999999999' },
      remoteAddress: '203.0.113.9',
    });
    expect(wrong.statusCode).toBe(403);
    const scraper = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { ...outsider, authorization: 'Bearer scrape-token-0123456789' },
      remoteAddress: '203.0.113.9',
    });
    expect(scraper.statusCode).toBe(200);
  });

  it('reports the bet groups of the process: groups, bets and the largest group grow with bets placed', async () => {
    const metric = (body: string, name: string) =>
      Number(body.match(new RegExp(`^${name}\\{queue="bets"\\} (\\d+)$`, 'm'))?.[1] ?? 0);
    const scrape = async () =>
      (await app.inject({ method: 'GET', url: '/metrics', headers: { host: 'localhost' } })).body;
    const players = await Promise.all([fundedPlayer(app, 100_000n), fundedPlayer(app, 100_000n)]);
    const before = await scrape();
    const bets = players.flatMap((player) =>
      Array.from({ length: 3 }, () =>
        app.inject({
          method: 'POST',
          url: '/api/originals/dice/bet',
          headers: { host: 'localhost', authorization: `Bearer ${player.token}` },
          payload: { amount: '1.00', direction: 'under', target: 4950, idempotency_key: randomUUID() },
        }),
      ),
    );
    for (const answer of await Promise.all(bets)) expect(answer.statusCode).toBe(200);
    const after = await scrape();
    expect(
      metric(after, 'sorte_group_commit_items_total') - metric(before, 'sorte_group_commit_items_total'),
    ).toBe(6);
    const groups =
      metric(after, 'sorte_group_commit_groups_total') - metric(before, 'sorte_group_commit_groups_total');
    // One bet per member per group: at least three groups for three bets each of two players.
    expect(groups).toBeGreaterThanOrEqual(3);
    expect(groups).toBeLessThanOrEqual(6);
    expect(metric(after, 'sorte_group_commit_largest_group')).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/^sorte_group_commit_rolled_back_total\{queue="bets"\} \d+$/m);
    expect(after).toMatch(/^sorte_group_commit_deferred_total\{queue="bets"\} \d+$/m);
  });

  it('shuts down under load without losing an acknowledged bet, and without waiting for idle keep-alives', async () => {
    const busy = await buildTestApp(kind);
    await busy.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(busy.server.address() as { port: number }).port}`;
    const player = await fundedPlayer(busy, 100_000n);
    const siteId = (await busy.services.sites.byHost('localhost'))!.id;
    const keys = Array.from({ length: 60 }, () => `shutdown-${randomUUID()}`);
    const answers = keys.map(async (key, i) => {
      // Spread the bets so some arrive before, some during and some after the close starts.
      await new Promise((resolve) => setTimeout(resolve, i * 3));
      try {
        const response = await fetch(`${base}/api/originals/dice/bet`, {
          method: 'POST',
          headers: {
            host: 'localhost',
            authorization: `Bearer ${player.token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ amount: '1.00', direction: 'under', target: 4950, idempotency_key: key }),
        });
        return { key, status: response.status, body: (await response.json()) as { status: string } };
      } catch {
        return { key, status: 0, body: null };
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const closing = busy.close();
    const settled = await Promise.all(answers);
    // Every answer given while closing closes its connection, so the close does not wait for the
    // 72 s keep-alive timeout (longer than this test's own time limit).
    await closing;

    const acknowledged = settled.filter((a) => a.status === 200 && a.body?.status === 'success');
    expect(acknowledged.length).toBeGreaterThan(0);
    // Every bet the client was told about is in the ledger; nothing else is.
    const stored = await rowsOf<{ idempotency_key: string }>(
      app.services.db,
      sql`SELECT idempotency_key FROM game_rounds WHERE member_id = ${player.memberId.toString()}::bigint`,
    );
    const storedKeys = new Set(stored.map((r) => r.idempotency_key));
    for (const a of acknowledged) expect(storedKeys.has(a.key), a.key).toBe(true);
    // The others never reached a handler: their connection was refused or reset, nothing moved.
    for (const a of settled.filter((s) => s.status !== 200)) expect(a.status).toBe(0);
    expect(storedKeys.size).toBe(acknowledged.length);
    const balances = await getBalances(app.services.db, player.memberId, { siteId });
    expect(balances.cashMinor).toBeGreaterThanOrEqual(0n);
    expect((await reconcile(app.services.db)).ok).toBe(true);
  }, 60_000);
});
