import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../test/databases.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { applyPixNotification, expireDeposits } from './deposits.service.ts';
import {
  balancesOf,
  call,
  HOSTS,
  type MoneyHarness,
  newPlayer,
  orderNumbersListed,
  paymentOf,
  payOnSandbox,
  pixCallback,
  randomCpf,
  redirectCallbacks,
  setMemberCpf,
  startMoneyHarness,
  waitFor,
} from './money.fixtures.ts';
import { reconcilePix } from './pix-settlement.ts';

const kinds = await databaseKinds();

describe.each(kinds)('PIX deposits through the sandbox PSP on %s', (kind) => {
  let h: MoneyHarness;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const channels = async (host: string = HOSTS.intl) =>
    (await call(h.app, { method: 'GET', url: '/api/payment/online/list?payment_type=pix', host })).body.data
      .list;

  const recharge = (token: string, payload: Record<string, unknown>, host: string = HOSTS.intl) =>
    call(h.app, { method: 'POST', url: '/api/recharge/online', host, token, payload });

  const detail = async (token: string, orderNo: string, host: string = HOSTS.intl) =>
    (await call(h.app, { method: 'GET', url: `/api/recharge/detail?order_no=${orderNo}`, host, token })).body
      .data;

  async function order(token: string, money = '100.00', host: string = HOSTS.intl) {
    const channel = (await channels(host))[0];
    const response = await recharge(token, { money, payment_id: channel.id, payment_type: 'pix' }, host);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data;
  }

  it('lists PIX as the payment method and its channels with bounds from server data', async () => {
    const methods = await call(h.app, { method: 'GET', url: '/api/payments/list?lang=en&domain=localhost' });
    expect(methods.body.data).toMatchObject({
      currency: 'BRL',
      list: [{ payment_type: 'pix', name: 'PIX' }],
    });
    const list = await channels();
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]).toMatchObject({ payment_type: 'pix', min_money: '10.00', max_money: '50000.00' });
  });

  it('creates an order with a charge, pays it on the payer page and credits the balance once', async () => {
    const player = await newPlayer(h.app);
    const created = await order(player.token, '123.45');
    expect(created).toMatchObject({ status: 'pending', amount: '123.45' });
    expect(created.order_no).toMatch(/^R\d{8}[A-Z0-9]{12}$/);
    expect(created.pix_copy_paste).toMatch(/^000201/);
    expect(created.pay_url).toBe(`${h.psp.sandboxUrl}/pay/${created.txid}`);
    expect(created.expires_in).toBeGreaterThan(0);

    await payOnSandbox(h.psp, created.txid, randomCpf());
    await waitFor(async () => (await detail(player.token, created.order_no)).status === 'paid', 'the credit');
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(12_345n);

    const records = await call(h.app, {
      method: 'POST',
      url: '/api/recharge/list',
      token: player.token,
      payload: {},
    });
    expect(records.body.data.list[0]).toMatchObject({
      order_no: created.order_no,
      status: 'paid',
      amount: '123.45',
    });
  });

  /** The callback body the standard sends for a Pix (endToEndId, txid, valor, horario, chave). */
  const callbackOf = (pix: { endToEndId: string; txid: string | null }, valor: string) => ({
    pix: [{ endToEndId: pix.endToEndId, txid: pix.txid, valor, horario: new Date().toISOString() }],
  });

  it('credits exactly once when the callback is replayed ten times, reordered and concurrent', async () => {
    const player = await newPlayer(h.app);
    const first = await order(player.token, '50.00');
    const second = await order(player.token, '70.00');
    await redirectCallbacks(h, 'nowhere');
    try {
      await payOnSandbox(h.psp, first.txid, randomCpf());
      await payOnSandbox(h.psp, second.txid, randomCpf());
      const pixA = await paymentOf(h, first.txid);
      const pixB = await paymentOf(h, second.txid);
      const deliveries = [
        ...Array.from({ length: 10 }, () => callbackOf(pixB, '70.00')),
        ...Array.from({ length: 10 }, () => callbackOf(pixA, '50.00')),
      ];
      const answers = await Promise.all(deliveries.map((body) => pixCallback(h.app, body)));
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
      const outcomes = answers.flatMap((a) => a.json().data.outcomes);
      expect(outcomes.filter((o: string) => o === 'credited')).toHaveLength(2);
      expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(12_000n);
      for (const body of deliveries.slice(0, 3)) await pixCallback(h.app, body);
      expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(12_000n);
      expect((await reconcile(h.db)).ok).toBe(true);
    } finally {
      await redirectCallbacks(h, 'app');
    }
  });

  it('credits nothing from a forged callback: the Pix is read back from the PSP, which does not know it', async () => {
    const player = await newPlayer(h.app);
    const created = await order(player.token, '40.00');
    const forged = callbackOf({ endToEndId: `E${Date.now()}`.padEnd(32, 'Z'), txid: created.txid }, '40.00');
    const answer = await pixCallback(h.app, forged);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.outcomes).toEqual(['unknown_pix']);
    expect((await detail(player.token, created.order_no)).status).toBe('pending');
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(0n);
    // Someone else's real Pix claimed for this order credits the order the PSP says it paid.
    const other = await newPlayer(h.app);
    const theirs = await order(other.token, '25.00');
    await redirectCallbacks(h, 'nowhere');
    try {
      await payOnSandbox(h.psp, theirs.txid, randomCpf());
      const pix = await paymentOf(h, theirs.txid);
      const claimed = await pixCallback(h.app, callbackOf({ ...pix, txid: created.txid }, '40.00'));
      expect(claimed.json().data.outcomes).toEqual(['credited']);
    } finally {
      await redirectCallbacks(h, 'app');
    }
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(0n);
    expect((await balancesOf(h.db, other.memberId)).cashMinor).toBe(2500n);
  });

  it('takes a callback on a host that is no site domain, and skips an odd item without refusing the batch', async () => {
    const player = await newPlayer(h.app);
    const created = await order(player.token, '15.00');
    await redirectCallbacks(h, 'nowhere');
    try {
      await payOnSandbox(h.psp, created.txid, randomCpf());
      const pix = await paymentOf(h, created.txid);
      const body = callbackOf(pix, '15.00');
      const odd = { endToEndId: 'short', pagador: { documento: 1 }, valor: 15 };
      const delivered = await pixCallback(h.app, { pix: [odd, ...body.pix] }, 'callbacks.psp.invalid');
      expect(delivered.statusCode).toBe(200);
      expect(delivered.json().data.outcomes).toEqual(['credited']);
    } finally {
      await redirectCallbacks(h, 'app');
    }
    expect((await detail(player.token, created.order_no)).status).toBe('paid');
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(1500n);
  });

  it('credits a Pix whose callback was lost through the reconciliation job, once per period across processes', async () => {
    const player = await newPlayer(h.app);
    const created = await order(player.token, '33.00');
    const deps = { db: h.db, psp: h.app.psp, realtime: h.app.realtime, log: h.app.log };
    const job = `test-${Math.random().toString(36).slice(2, 10)}`;
    await redirectCallbacks(h, 'nowhere');
    try {
      await payOnSandbox(h.psp, created.txid, randomCpf());
      const pix = await paymentOf(h, created.txid);
      const runs = await Promise.all([reconcilePix(deps, { job }), reconcilePix(deps, { job })]);
      expect(runs.filter((r) => r === null)).toHaveLength(1);
      expect((await detail(player.token, created.order_no)).status).toBe('paid');
      expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(3300n);
      // The late callback and a later period find it credited.
      expect((await pixCallback(h.app, callbackOf(pix, '33.00'))).json().data.outcomes).toEqual(['replayed']);
      expect(await reconcilePix(deps, { job, now: new Date(Date.now() + 10 * 60_000) })).toBe(0);
    } finally {
      await redirectCallbacks(h, 'app');
    }
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(3300n);
  });

  it('refunds a Pix of another amount than the order (defence: the PSP reported it, we do not credit it)', async () => {
    const player = await newPlayer(h.app);
    const created = await order(player.token, '30.00');
    const deps = { db: h.db, psp: h.app.psp, realtime: h.app.realtime, log: h.app.log };
    const outcome = await applyPixNotification(
      deps,
      {
        endToEndId: `E${Date.now()}`.padEnd(32, 'W'),
        txid: created.txid,
        amountMinor: 300n,
        paidAt: new Date(),
        payer: null,
        payerMessage: null,
        refunds: [],
      },
      null,
    );
    expect(outcome).toBe('refunded');
    expect((await detail(player.token, created.order_no)).status).toBe('refunded');
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(0n);
  });

  it('on a br site refunds a payment from another CPF and credits one from the member’s CPF', async () => {
    const player = await newPlayer(h.app, HOSTS.br);
    const own = randomCpf();
    await setMemberCpf(h.db, player.memberId, own);
    const foreign = await order(player.token, '60.00', HOSTS.br);
    await payOnSandbox(h.psp, foreign.txid, randomCpf());
    await waitFor(
      async () => (await detail(player.token, foreign.order_no, HOSTS.br)).status === 'refunded',
      'the refund',
    );
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(0n);

    const mine = await order(player.token, '60.00', HOSTS.br);
    await payOnSandbox(h.psp, mine.txid, own);
    await waitFor(
      async () => (await detail(player.token, mine.order_no, HOSTS.br)).status === 'paid',
      'the credit',
    );
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(6000n);
  });

  it('credits a recharge reward to bonus with a 5× turnover rule that blocks withdrawal', async () => {
    const player = await newPlayer(h.app);
    const bonusChannel = (await channels()).find((c: { code: string }) => c.code === 'pix_bonus');
    expect(bonusChannel).toMatchObject({ bonus_rate: '2.00', bonus_wagering_multiple: 5 });
    const created = (
      await recharge(player.token, { money: '100.00', payment_id: bonusChannel.id, payment_type: 'pix' })
    ).body.data;
    expect(created.bonus).toBe('2.00');
    await payOnSandbox(h.psp, created.txid, randomCpf());
    await waitFor(async () => (await detail(player.token, created.order_no)).status === 'paid', 'the credit');
    const balances = await balancesOf(h.db, player.memberId);
    expect(balances).toMatchObject({ cashMinor: 10_000n, bonusMinor: 200n, wageringRequiredMinor: 50_000n });
    expect(balances.withdrawableMinor).toBe(0n);
    const me = await call(h.app, { method: 'POST', url: '/api/auth/me', token: player.token });
    expect(me.body.data).toMatchObject({ money: '100.00', fs_money: '2.00', ml_money: '500.00' });
  });

  it('expires unpaid charges (job and lazily on read)', async () => {
    const player = await newPlayer(h.app);
    const created = await order(player.token, '20.00');
    await h.db.execute(
      (await import('drizzle-orm'))
        .sql`UPDATE deposit_orders SET expires_at = now() - interval '1 second', created_at = now() - interval '1 hour' WHERE order_no = ${created.order_no}`,
    );
    expect(await expireDeposits(h.db)).toBeGreaterThanOrEqual(1);
    const after = await detail(player.token, created.order_no);
    expect(after).toMatchObject({ status: 'expired', expires_in: 0 });
  });

  it('refuses bad input on every deposit endpoint and changes nothing', async () => {
    const player = await newPlayer(h.app);
    const other = await newPlayer(h.app);
    const channel = (await channels())[0];
    const bad = [
      '-10',
      '0',
      '0.00',
      '10.001',
      '99999999999999',
      'abc',
      '',
      '1e3',
      ' ',
      12.345,
      -5,
      null,
      true,
    ];
    for (const money of bad) {
      const response = await recharge(player.token, { money, payment_id: channel.id, payment_type: 'pix' });
      expect(response.status, `money ${JSON.stringify(money)}`).toBe(422);
      expect(response.body.status).toBe('fail');
    }
    const low = await recharge(player.token, { money: '9.99', payment_id: channel.id, payment_type: 'pix' });
    expect(low.body).toMatchObject({
      code: 'AMOUNT_OUT_OF_RANGE',
      message: 'The amount must be between 10.00 and 50000.00',
    });
    const high = await recharge(player.token, {
      money: '50000.01',
      payment_id: channel.id,
      payment_type: 'pix',
    });
    expect(high.body.code).toBe('AMOUNT_OUT_OF_RANGE');
    const unknownChannel = await recharge(player.token, {
      money: '20',
      payment_id: 999999,
      payment_type: 'pix',
    });
    expect(unknownChannel.body.code).toBe('PAYMENT_METHOD_UNAVAILABLE');
    const wrongMethod = await recharge(player.token, {
      money: '20',
      payment_id: channel.id,
      payment_type: 'card',
    });
    expect(wrongMethod.body.code).toBe('PAYMENT_METHOD_UNAVAILABLE');
    const guest = await recharge('', { money: '20', payment_id: channel.id, payment_type: 'pix' });
    expect(guest.status).toBe(401);

    const impostor = await recharge(player.token, {
      money: '20',
      payment_id: channel.id,
      payment_type: 'pix',
      member_id: other.memberId.toString(),
    });
    expect(impostor.status).toBe(403);
    expect(impostor.body.code).toBe('FORBIDDEN');
    const ownId = await recharge(player.token, {
      money: '20',
      payment_id: channel.id,
      payment_type: 'pix',
      member_id: Number(player.memberId),
    });
    expect(ownId.status).toBe(200);
    const theirsList = await call(h.app, {
      method: 'POST',
      url: '/api/recharge/list',
      token: player.token,
      payload: { member_id: other.memberId.toString() },
    });
    expect(theirsList.body.code).toBe('FORBIDDEN');
    const theirs = await order(other.token, '25.00');
    const peek = await call(h.app, {
      method: 'GET',
      url: `/api/recharge/detail?order_no=${theirs.order_no}`,
      token: player.token,
    });
    expect(peek.body.code).toBe('ORDER_NOT_FOUND');
    const list = await call(h.app, {
      method: 'POST',
      url: '/api/recharge/list',
      token: player.token,
      payload: {},
    });
    expect(list.body.data.list.map((o: { amount: string }) => o.amount)).toEqual(['20.00']);
    const badPage = await call(h.app, {
      method: 'POST',
      url: '/api/recharge/list',
      token: player.token,
      payload: { limit: 500 },
    });
    expect(badPage.status).toBe(422);
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(0n);
  });

  it('pages recharge records by keyset, newest first, stable under inserts', async () => {
    const player = await newPlayer(h.app);
    const made = [];
    for (let i = 0; i < 5; i += 1) made.push((await order(player.token, `${11 + i}.00`)).order_no);
    const page1 = (
      await call(h.app, {
        method: 'POST',
        url: '/api/recharge/list',
        token: player.token,
        payload: { limit: 2 },
      })
    ).body.data;
    expect(page1.list.map((o: { order_no: string }) => o.order_no)).toEqual([made[4], made[3]]);
    expect(page1.prev).toBeNull();
    await order(player.token, '99.00');
    const page2 = (
      await call(h.app, {
        method: 'POST',
        url: '/api/recharge/list',
        token: player.token,
        payload: { limit: 2, before: page1.next },
      })
    ).body.data;
    expect(page2.list.map((o: { order_no: string }) => o.order_no)).toEqual([made[2], made[1]]);
    const back = (
      await call(h.app, {
        method: 'POST',
        url: '/api/recharge/list',
        token: player.token,
        payload: { limit: 2, after: page2.prev },
      })
    ).body.data;
    expect(back.list.map((o: { order_no: string }) => o.order_no)).toEqual([made[4], made[3]]);
    expect(back.prev).not.toBeNull();
  });

  it('filters recharge records by period (today, last 3 days, last 7 days, all) and refuses another word', async () => {
    const player = await newPlayer(h.app);
    // Orders of today, two days ago, five days ago and ten days ago.
    const made: string[] = [];
    for (const [i, daysAgo] of [0, 2, 5, 10].entries()) {
      const { order_no } = await order(player.token, `${21 + i}.00`);
      await h.db.execute(
        sql`UPDATE deposit_orders SET created_at = now() - make_interval(days => ${daysAgo}) WHERE order_no = ${order_no}`,
      );
      made.push(order_no);
    }
    const listed = orderNumbersListed(h.app, '/api/recharge/list', player.token);
    expect(await listed({ period: 'today' })).toEqual(made.slice(0, 1));
    expect(await listed({ period: 'last_3_days' })).toEqual(made.slice(0, 2).sort());
    expect(await listed({ period: 'last_7_days' })).toEqual(made.slice(0, 3).sort());
    expect(await listed({ period: 'all' })).toEqual([...made].sort());
    expect(await listed({})).toEqual([...made].sort());
    const other = await call(h.app, {
      method: 'POST',
      url: '/api/recharge/list?lang=pt',
      token: player.token,
      payload: { period: 'yesterday' },
    });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED' });
    expect(other.body.errors?.period).toBe('Tipo errado');
  });
});
