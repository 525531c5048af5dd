import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe.each(kinds)('VIP level-up over the live socket on %s', (kind) => {
  let h: MoneyHarness;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('a reload that reaches Bronze (1,000 on intl) pushes the level-up once, after the balance', async () => {
    const player = await newPlayer(h.app);
    const socket = await openSocket(`${h.baseUrl.replace('http', 'ws')}/ws`);
    const inbox = collect(socket);
    socket.send(JSON.stringify({ type: 'auth', token: player.token }));
    await inbox.next((m) => m.type === 'ready', 'ready');
    await inbox.next((m) => m.type === 'balance', 'snapshot');

    const channel = (await call(h.app, { method: 'GET', url: '/api/payment/online/list?payment_type=pix' }))
      .body.data.list[0];
    const deposit = async (money: string) => {
      const order = (
        await call(h.app, {
          method: 'POST',
          url: '/api/recharge/online',
          token: player.token,
          payload: { money, payment_id: channel.id, payment_type: 'pix' },
        })
      ).body.data;
      await payOnSandbox(h.psp, order.txid, randomCpf());
      return order.order_no as string;
    };
    // 999.99 stays below Bronze: a balance push, no level-up.
    const below = await deposit('999.99');
    await inbox.next((m) => m.reason === 'deposit_paid' && m.order_no === below, 'first deposit push');
    expect(inbox.messages.some((m) => m.type === 'vip_level_up')).toBe(false);

    // 10.00 more passes 1,000.00 of reloads: Bronze, pushed right after the balance message.
    const crossing = await deposit('10.00');
    await inbox.next((m) => m.reason === 'deposit_paid' && m.order_no === crossing, 'second deposit push');
    const up = await inbox.next((m) => m.type === 'vip_level_up', 'level-up');
    expect(up).toMatchObject({ type: 'vip_level_up', track: 'vip', level: 1, level_name: 'Bronze' });
    const pushedAt = inbox.messages.indexOf(up);
    const balanceAt = inbox.messages.findIndex((m) => m.order_no === crossing);
    expect(pushedAt).toBeGreaterThan(balanceAt);

    // A later balance change does not repeat it (each level-up is handed out once).
    const again = await deposit('10.00');
    await inbox.next((m) => m.reason === 'deposit_paid' && m.order_no === again, 'third deposit push');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inbox.messages.filter((m) => m.type === 'vip_level_up')).toHaveLength(1);

    const info = await call(h.app, {
      method: 'POST',
      url: '/api/member/vip/info',
      token: player.token,
      payload: {},
    });
    expect(info.body.data.uservip).toMatchObject({ userviplvl: 1 });
    socket.close();
  });
});
