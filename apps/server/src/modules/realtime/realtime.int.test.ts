import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase } from '../../../test/app.ts';
import { databaseKinds, postgresAdminUrl } from '../../../test/databases.ts';
import { collect, openSocket } from '../../../test/sockets.ts';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { rowsOf } from '../../db/sql.ts';
import {
  call,
  type MoneyHarness,
  newPlayer,
  payOnSandbox,
  randomCpf,
  startMoneyHarness,
} from '../deposits/money.fixtures.ts';
import { BALANCE_CHANNEL } from './realtime.hub.ts';

const kinds = await databaseKinds();

describe.each(kinds)('realtime balance pushes on %s', (kind) => {
  let h: MoneyHarness;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('pushes the new balance to the member’s socket when a deposit is credited', async () => {
    const player = await newPlayer(h.app);
    const socket = await openSocket(`${h.baseUrl.replace('http', 'ws')}/ws`);
    const inbox = collect(socket);
    socket.send(JSON.stringify({ type: 'auth', token: player.token }));
    await inbox.next((m) => m.type === 'ready', 'ready');
    expect(await inbox.next((m) => m.type === 'balance', 'snapshot')).toMatchObject({
      reason: 'snapshot',
      money: '0.00',
    });

    const channel = (await call(h.app, { method: 'GET', url: '/api/payment/online/list' })).body.data.list[0];
    const order = (
      await call(h.app, {
        method: 'POST',
        url: '/api/recharge/online',
        token: player.token,
        payload: { money: '25.00', payment_id: channel.id, payment_type: 'pix' },
      })
    ).body.data;
    await payOnSandbox(h.psp, order.txid, randomCpf());
    const pushed = await inbox.next((m) => m.reason === 'deposit_paid', 'deposit push');
    expect(pushed).toMatchObject({
      type: 'balance',
      money: '25.00',
      total_money: '25.00',
      order_no: order.order_no,
    });
    socket.close();
  });

  it('refuses a socket with a bad token', async () => {
    const socket = await openSocket(`${h.baseUrl.replace('http', 'ws')}/ws`);
    const inbox = collect(socket);
    const closed = new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)));
    socket.send(JSON.stringify({ type: 'auth', token: 'not-a-session' }));
    expect(await inbox.next((m) => m.type === 'error', 'error')).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'Unauthenticated.',
    });
    expect(await closed).toBe(4401);
  });

  if (kind !== 'postgres') return;
  it('reaches a socket held by another server process through LISTEN/NOTIFY', async () => {
    const admin = new URL((await postgresAdminUrl())!);
    const [row] = await rowsOf<{ name: string }>(h.db, sql`SELECT current_database() AS name`);
    admin.pathname = `/${row!.name}`;
    const database = await seededDatabase('postgres');
    const build = () => buildApp({ config: testConfig(), database, realtimeListenUrl: admin.toString() });
    const apps: FastifyInstance[] = [await build(), await build()];
    try {
      const [publisher, holder] = apps as [FastifyInstance, FastifyInstance];
      const player = await newPlayer(h.app);
      await holder.listen({ port: 0, host: '127.0.0.1' });
      const port = (holder.server.address() as { port: number }).port;
      const socket = await openSocket(`ws://127.0.0.1:${port}/ws`);
      const inbox = collect(socket);
      socket.send(JSON.stringify({ type: 'auth', token: player.token }));
      await inbox.next((m) => m.type === 'ready', 'ready');
      const siteId = BigInt(
        (
          await rowsOf<{ site_id: unknown }>(
            h.db,
            sql`SELECT site_id FROM members WHERE id = ${player.memberId.toString()}::bigint`,
          )
        )[0]!.site_id as string,
      );
      await publisher.realtime.publishBalance(siteId, player.memberId, 'cross_process', 'R1');
      expect(await inbox.next((m) => m.reason === 'cross_process', 'cross-process push')).toMatchObject({
        type: 'balance',
      });
      // A group of bets answering together: 400 changes in one turn travel as a few batched
      // notifications (each under PostgreSQL's 8,000 bytes), and none is lost, the last included.
      const others = Array.from({ length: 398 }, (_, i) =>
        publisher.realtime.publishBalance(siteId, 10_000_000n + BigInt(i), 'bet', null),
      );
      await Promise.all([
        publisher.realtime.publishBalance(siteId, player.memberId, 'first_of_group', null),
        ...others,
        publisher.realtime.publishBalance(siteId, player.memberId, 'last_of_group', null),
      ]);
      await inbox.next((m) => m.reason === 'first_of_group', 'first change of the batch');
      await inbox.next((m) => m.reason === 'last_of_group', 'last change of the batch');
      // A process of the release before sends each change alone (an object, not an array).
      const single = JSON.stringify({
        siteId: String(siteId),
        memberId: String(player.memberId),
        reason: 'single',
        orderNo: null,
      });
      await h.db.execute(sql`SELECT pg_notify(${BALANCE_CHANNEL}, ${single})`);
      await inbox.next((m) => m.reason === 'single', 'a change sent alone');
      socket.close();
    } finally {
      for (const app of apps) await app.close();
    }
  });
});
