import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, loginOperator, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { collect, openSocket } from '../../../test/sockets.ts';
import { rowsOf } from '../../db/sql.ts';
import { newSite } from '../agency/agency.fixtures.ts';
import { takeBetStake } from '../promotions/stake.ts';
import { getBalances } from '../wallet/balances.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { upsertMute } from './chat.repo.ts';
import { runRain } from './chat.service.ts';

const kinds = await databaseKinds();

describe.each(kinds)('chat and rain on %s', (kind) => {
  let app: FastifyInstance;
  let baseUrl: string;
  let operatorToken: string;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/ws`;
    operatorToken = await loginOperator(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const send = (token: string | undefined, text: string, host: string = HOSTS.intl) =>
    call(app, { method: 'POST', url: '/api/chat/send', host, token, payload: { text } });

  it('delivers text as text to every panel, guests included, and refuses guests, links and floods', async () => {
    const guest = await openSocket(baseUrl);
    const inbox = collect(guest);
    guest.send(JSON.stringify({ type: 'chat_join' }));
    await inbox.next((m) => m.type === 'chat_history', 'history');

    const player = await registerPlayer(app);
    const attack = '<img src=x onerror="alert(1)"> & <b>hi</b>';
    const posted = await send(player.token, attack);
    expect(posted.status).toBe(200);
    expect(posted.body.data.text).toBe(attack);
    const pushed = await inbox.next(
      (m) => m.type === 'chat_message' && (m.message as { id: number }).id === posted.body.data.id,
      'chat message',
    );
    expect((pushed.message as { text: string }).text).toBe(attack);

    expect((await send(undefined, 'hello')).status).toBe(401);
    const link = await send(player.token, 'join me at www.example.com');
    expect(link.status).toBe(422);
    expect(link.body).toMatchObject({ status: 'fail', code: 'CHAT_LINK_BLOCKED' });
    expect((await send(player.token, 'see t.me/somewhere')).body.code).toBe('CHAT_LINK_BLOCKED');
    const long = await send(player.token, 'a'.repeat(161));
    expect(long.body).toMatchObject({ code: 'VALIDATION_FAILED' });

    // 3 messages per 10 s on the intl profile: the attack was one.
    expect((await send(player.token, 'two')).status).toBe(200);
    expect((await send(player.token, 'three')).status).toBe(200);
    const flood = await send(player.token, 'four');
    expect(flood.status).toBe(429);
    expect(flood.body.code).toBe('RATE_LIMITED');
    expect(flood.body.message).toMatch(/10/);

    const room = await call(app, { method: 'GET', url: '/api/chat/room' });
    expect(room.body.data.messages.map((m: { text: string }) => m.text)).toEqual(
      expect.arrayContaining([attack, 'two', 'three']),
    );
    expect(room.body.data.messages.map((m: { text: string }) => m.text)).not.toContain('four');
    guest.close();
  });

  it('lets an operator mute a player and delete a message, live', async () => {
    const player = await registerPlayer(app);
    const watcher = await openSocket(baseUrl);
    const inbox = collect(watcher);
    watcher.send(JSON.stringify({ type: 'chat_join' }));
    await inbox.next((m) => m.type === 'chat_history', 'history');
    const posted = await send(player.token, 'something rude');
    const removed = await call(app, {
      method: 'POST',
      url: `/api/admin/chat/messages/${posted.body.data.id}/delete`,
      token: operatorToken,
    });
    expect(removed.body.data).toEqual({ id: posted.body.data.id, deleted: true });
    await inbox.next((m) => m.type === 'chat_delete' && m.id === posted.body.data.id, 'delete push');
    const byPlayer = await call(app, {
      method: 'POST',
      url: `/api/admin/chat/messages/${posted.body.data.id}/delete`,
      token: player.token,
    });
    expect(byPlayer.status).toBe(401);

    const muted = await call(app, {
      method: 'POST',
      url: '/api/admin/chat/mute',
      token: operatorToken,
      payload: { username: player.user.name, minutes: 30, reason: 'spam' },
    });
    expect(muted.body.data).toMatchObject({ muted: true });
    const refused = await send(player.token, 'let me talk');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('CHAT_MUTED');
    const room = await call(app, { method: 'GET', url: '/api/chat/room', token: player.token });
    expect(room.body.data.muted).toBe(true);
    await call(app, {
      method: 'POST',
      url: '/api/admin/chat/unmute',
      token: operatorToken,
      payload: { username: player.user.name },
    });
    expect((await send(player.token, 'sorry')).status).toBe(200);
    watcher.close();
  });

  /** The member stakes `minor` of cash (deposited for it) on a slot: the house keeps it. */
  async function wager(siteId: bigint, memberId: bigint, minor: bigint) {
    const key = `chat-test-${memberId}-${Date.now()}`;
    await transfer(app.services.db, {
      siteId,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId, account: 'cash' },
      amountMinor: minor,
      idempotencyKey: `${key}:deposit`,
    });
    await app.services.db.transaction((tx) =>
      takeBetStake(tx, {
        siteId,
        memberId,
        amountMinor: minor,
        idempotencyKey: `${key}:bet`,
        gameCode: 'slot',
      }),
    );
  }

  it('a rain pays each recent, unmuted poster who bet enough an equal share exactly once, across a restart half way', async () => {
    const { site, host } = await newSite(app, 'intl');
    const players = await Promise.all([1, 2, 3, 4, 5].map(() => registerPlayer(app, host)));
    for (const player of players) expect((await send(player.token, 'gl all', host)).status).toBe(200);
    // The site's rule (profile default): R$ 10,00 staked in the last 7 days. The fourth player is
    // muted below; the fifth chatted but bet a centavo too little (an account opened for the rain).
    for (const player of players.slice(0, 3)) await wager(site.id, BigInt(player.user.id), 1_000n);
    await wager(site.id, BigInt(players[3]!.user.id), 1_000n);
    await wager(site.id, BigInt(players[4]!.user.id), 999n);
    const [operator] = await rowsOf<{ id: string }>(
      app.services.db,
      sql`SELECT id::text FROM operators LIMIT 1`,
    );
    await upsertMute(app.services.db, {
      siteId: site.id,
      memberId: BigInt(players[3]!.user.id),
      minutes: 60,
      reason: 'spam',
      operatorId: BigInt(operator!.id),
    });
    const slot = new Date(Date.now() + 1000);

    await expect(
      runRain(app.services.db, site, slot, {
        afterPayout: () => {
          throw new Error('process killed');
        },
      }),
    ).rejects.toThrow('process killed');
    const paidSoFar = await Promise.all(
      players.map(
        async (p) => (await getBalances(app.services.db, BigInt(p.user.id), { siteId: site.id })).cashMinor,
      ),
    );
    expect(paidSoFar.filter((cash) => cash > 0n)).toHaveLength(1);

    // The restarted process (and then a second one) finish the same rain.
    const finished = await runRain(app.services.db, site, slot);
    const again = await runRain(app.services.db, site, slot);
    expect(finished).toMatchObject({ paid: 2, eligible: 3, shareMinor: 3_333n });
    expect(again.paid).toBe(0);
    const cash = await Promise.all(
      players.map(
        async (p) => (await getBalances(app.services.db, BigInt(p.user.id), { siteId: site.id })).cashMinor,
      ),
    );
    expect(cash).toEqual([3_333n, 3_333n, 3_333n, 0n, 0n]);
    const [rain] = await rowsOf<{ status: string; remainder_minor: string }>(
      app.services.db,
      sql`SELECT status, remainder_minor::text FROM chat_rains WHERE site_id = ${site.id}`,
    );
    expect(rain).toEqual({ status: 'done', remainder_minor: '1' });
    const record = await call(app, {
      method: 'POST',
      url: '/api/transaction/record',
      host,
      token: players[0]!.token,
      payload: {},
    });
    expect(record.body.data.list.filter((row: { kind: string }) => row.kind === 'chat_rain')).toHaveLength(1);
  });

  it('has no rain on br unless the site enables it', async () => {
    const { site } = await newSite(app, 'br');
    expect(await runRain(app.services.db, site, new Date())).toMatchObject({ rainId: null, paid: 0 });
    const room = await call(app, { method: 'GET', url: '/api/chat/room?lang=en', host: HOSTS.br });
    expect(room.body.data.rain).toMatchObject({ enabled: false, next_at: null });
    expect(room.body.data.rain.off_reason).toMatch(/Lei 5.768/);
    expect(room.body.data.enabled).toBe(true);
  });
});
