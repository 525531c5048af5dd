import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTS, solvedCaptcha } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { collect, openSocket } from '../../../test/sockets.ts';
import {
  call,
  type MoneyHarness,
  newPlayer,
  payOnSandbox,
  randomCpf,
  startMoneyHarness,
} from '../deposits/money.fixtures.ts';

const kinds = await databaseKinds();

describe.each(kinds)('information centre on %s', (kind) => {
  let h: MoneyHarness;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('tells a player their deposit was paid, live on the socket and in the list, once', async () => {
    const player = await newPlayer(h.app);
    const socket = await openSocket(`${h.baseUrl.replace('http', 'ws')}/ws`);
    const inbox = collect(socket);
    socket.send(JSON.stringify({ type: 'auth', token: player.token }));
    await inbox.next((m) => m.type === 'ready', 'ready');

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
    const pushed = await inbox.next((m) => m.type === 'notification', 'notification push');
    expect(pushed).toMatchObject({
      unread: 1,
      notification: {
        kind: 'deposit_paid',
        read: false,
        params: { amount: '25.00', order_no: order.order_no },
      },
    });
    socket.close();

    const list = await call(h.app, {
      method: 'GET',
      url: '/api/informationcenter/notification?site=sorte',
      token: player.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.unread).toBe(1);
    expect(list.body.data.data).toHaveLength(1);
    const unread = await call(h.app, {
      method: 'GET',
      url: '/api/informationcenter/notification/unread',
      token: player.token,
    });
    expect(unread.body.data).toEqual({ unread: 1 });

    const read = await call(h.app, {
      method: 'POST',
      url: '/api/informationcenter/notification/read',
      token: player.token,
      payload: { all: true },
    });
    expect(read.body.data).toEqual({ unread: 0 });
  });

  it('refuses the notification list to a guest with the envelope', async () => {
    const { status, body } = await call(h.app, { method: 'GET', url: '/api/informationcenter/notification' });
    expect(status).toBe(401);
    expect(body).toMatchObject({ status: 'fail', code: 'UNAUTHENTICATED' });
  });

  it('notifies a login from a browser the player never used, not the usual one', async () => {
    const player = await newPlayer(h.app);
    const login = async (userAgent: string) => {
      const body = { username: player.username, password: 'secret123', ...(await solvedCaptcha(h.app)) };
      const response = await call(h.app, {
        method: 'POST',
        url: '/api/auth/login2',
        payload: body,
        headers: { 'user-agent': userAgent },
      });
      expect(response.status).toBe(200);
    };
    const desktop =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
    const phone =
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
    await login(desktop);
    await login(desktop);
    await login(phone);
    const list = await call(h.app, {
      method: 'GET',
      url: '/api/informationcenter/notification',
      token: player.token,
    });
    const devices = list.body.data.data.filter((n: { kind: string }) => n.kind === 'login_new_device');
    expect(devices).toHaveLength(1);
    expect(devices[0].params.device).toBe('Chrome / Android');
  });

  it('serves the support channels and the announcements of each site in the reader’s language', async () => {
    const support = await call(h.app, { method: 'GET', url: '/api/informationcenter/support' });
    expect(support.body.data.telegramLink).toMatch(/^https:\/\/t\.me\//);
    expect(support.body.data.channels.map((c: { name: string }) => c.name)).toContain('telegram');
    expect(support.body.data.support_chat.room).toBe(true);

    const pt = await call(h.app, {
      method: 'GET',
      url: '/api/informationcenter/announcement?site=sorte&lang=pt',
    });
    expect(pt.body.data.data.length).toBeGreaterThanOrEqual(3);
    // (A terms-change announcement, when one is running, is pinned above the site's own.)
    const titles = (list: { title: string }[]) => list.map((a) => a.title);
    expect(titles(pt.body.data.data).some((t) => /^Bem-vindo ao /.test(t))).toBe(true);
    const br = await call(h.app, {
      method: 'GET',
      url: '/api/informationcenter/announcement?lang=en',
      host: HOSTS.br,
    });
    expect(titles(br.body.data.data).some((t) => /^Welcome to /.test(t))).toBe(true);
    expect(titles(br.body.data.data).some((t) => /^Bem-vindo/.test(t))).toBe(false);
  });
});
