import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginOperator } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import {
  addCard,
  balancesOf,
  call,
  decidePayout,
  fund,
  HOSTS,
  type MoneyHarness,
  newPlayer,
  orderNumbersListed,
  randomCpf,
  setMemberCpf,
  siteIdOf,
  startMoneyHarness,
  waitFor,
} from '../deposits/money.fixtures.ts';
import { efiPayouts, type PayoutAdapter } from '../payments/psp/payout-adapter.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { syncPayouts } from './withdrawals.service.ts';

const kinds = await databaseKinds();
const SUBMITTED =
  'The withdrawal application has been submitted successfully. Please wait for the administrators review.';

describe.each(kinds)('withdrawals with review and PSP payouts on %s', (kind) => {
  let h: MoneyHarness;
  let operatorToken: string;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
    operatorToken = await loginOperator(h.app);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const withdraw = (player: { token: string; host: string }, payload: Record<string, unknown>) =>
    call(h.app, { method: 'POST', url: '/api/drawing', host: player.host, token: player.token, payload });

  async function fundedPlayer(cashMinor: bigint, host: string = HOSTS.intl) {
    const player = await newPlayer(h.app, host);
    if (cashMinor > 0n) await fund(h.db, player.memberId, cashMinor);
    const cpf = randomCpf();
    if (host === HOSTS.br) await setMemberCpf(h.db, player.memberId, cpf);
    const cardId = await addCard(h.db, player.memberId, { cpf });
    return { ...player, cardId: cardId.toString(), cpf };
  }

  const orderOf = async (player: { token: string; host: string }, orderNo: string) => {
    const list = await call(h.app, {
      method: 'POST',
      url: '/api/drawing/list',
      host: player.host,
      token: player.token,
      payload: {},
    });
    return list.body.data.list.find((o: { order_no: string }) => o.order_no === orderNo);
  };

  const admin = (url: string, payload?: Record<string, unknown>, token = operatorToken) =>
    call(h.app, { method: payload ? 'POST' : 'GET', url, token, ...(payload ? { payload } : {}) });

  it('shows the withdraw page: currency, bounds, no fee on PIX by default, receipt preview and rules', async () => {
    const player = await fundedPlayer(10_000n);
    const info = await call(h.app, {
      method: 'GET',
      url: '/api/drawing/info?money=100',
      token: player.token,
    });
    expect(info.body.data).toMatchObject({
      currency: 'BRL',
      balance: '100.00',
      withdrawable: '100.00',
      min_money: '20.00',
      max_money: '50000.00',
      channel: 'pix',
      fee_rate: '0.00',
      fee_min: '0.00',
      has_qk_pwd: true,
      own_cpf_only: false,
      preview: { amount: '100.00', fee: '0.00', actual: '100.00' },
    });
    expect(info.body.data.rules).toContain('Each withdrawal must be between R$20.00 and R$50,000.00');
    expect(info.body.data.rules).toContain('No fee on PIX withdrawals');
    const pt = await call(h.app, { method: 'GET', url: '/api/drawing/info?lang=pt', token: player.token });
    expect(pt.body.data.rules[0]).toBe('Cada saque deve estar entre R$\u00a020,00 e R$\u00a050.000,00');
    expect(pt.body.data.rules[1]).toBe('Sem taxa nos saques por PIX');
    // A 20.00 PIX withdrawal reaches the player whole.
    const small = await withdraw(player, {
      money: '20.00',
      member_bank_id: player.cardId,
      qk_pwd: player.qkPwd,
    });
    expect(small.body.data).toMatchObject({ amount: '20.00', fee: '0.00', actual: '20.00' });
  });

  it('filters withdrawal records by period (today, last 3 days, last 7 days, all) and refuses another word', async () => {
    const player = await fundedPlayer(100_000n);
    // Withdrawals of today, two days ago, five days ago and ten days ago.
    const made: string[] = [];
    for (const daysAgo of [0, 2, 5, 10]) {
      const order = await withdraw(player, {
        money: '20.00',
        member_bank_id: player.cardId,
        qk_pwd: player.qkPwd,
      });
      const orderNo = order.body.data.order_no as string;
      await h.db.execute(
        sql`UPDATE withdrawal_orders SET created_at = now() - make_interval(days => ${daysAgo}) WHERE order_no = ${orderNo}`,
      );
      made.push(orderNo);
    }
    const listed = orderNumbersListed(h.app, '/api/drawing/list', player.token);
    expect(await listed({ period: 'today' })).toEqual(made.slice(0, 1));
    expect(await listed({ period: 'last_3_days' })).toEqual(made.slice(0, 2).sort());
    expect(await listed({ period: 'last_7_days' })).toEqual(made.slice(0, 3).sort());
    expect(await listed({ period: 'all' })).toEqual([...made].sort());
    const other = await call(h.app, {
      method: 'POST',
      url: '/api/drawing/list?lang=pt',
      token: player.token,
      payload: { period: 'last_30_days' },
    });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED' });
    expect(other.body.errors?.period).toBe('Tipo errado');
  });

  it("states the recharge rewards' wagering only where the site gives recharge rewards, with their multiple", async () => {
    const intl = await fundedPlayer(0n);
    const br = await fundedPlayer(0n, HOSTS.br);
    const rules = async (player: { token: string; host: string }, lang: string) =>
      (
        await call(h.app, {
          method: 'GET',
          url: `/api/drawing/info?lang=${lang}`,
          host: player.host,
          token: player.token,
        })
      ).body.data.rules as string[];
    expect(await rules(intl, 'en')).toContain(
      'Recharge rewards must be wagered 5 times before they can be withdrawn',
    );
    expect(await rules(intl, 'pt')).toContain(
      'Os bônus de recarga precisam ser apostados 5 vezes antes do saque',
    );
    // br gives no recharge reward (its deposit-tied campaigns are off): no rule speaks of one.
    for (const lang of ['en', 'pt', 'cn']) {
      const brRules = await rules(br, lang);
      expect(brRules.length).toBeGreaterThan(3);
      expect(brRules.join('\n')).not.toMatch(/recharge|recarga|充值|wager|apostad|流水/i);
    }
  });

  it('charges the fee a site sets for its PIX channel, and only on that site', async () => {
    const player = await fundedPlayer(50_000n);
    const other = await fundedPlayer(50_000n, HOSTS.br);
    const siteId = await siteIdOf(h.db, player.memberId);
    await h.db.execute(sql`INSERT INTO withdrawal_channel_fees (site_id, channel, fee_bps, fee_min_minor)
        VALUES (${siteId.toString()}::bigint, 'pix', 150, 300)`);
    try {
      const info = await call(h.app, {
        method: 'GET',
        url: '/api/drawing/info?money=1000',
        token: player.token,
      });
      expect(info.body.data).toMatchObject({
        fee_rate: '1.50',
        fee_min: '3.00',
        preview: { amount: '1000.00', fee: '15.00', actual: '985.00' },
      });
      expect(info.body.data.rules).toContain('Fee on PIX: 1.5% of the amount, at least R$3.00');
      const order = await withdraw(player, {
        money: '100',
        member_bank_id: player.cardId,
        qk_pwd: player.qkPwd,
      });
      expect(order.body.data).toMatchObject({ amount: '100.00', fee: '3.00', actual: '97.00' });
      const elsewhere = await call(h.app, {
        method: 'GET',
        url: '/api/drawing/info?money=1000',
        host: other.host,
        token: other.token,
      });
      expect(elsewhere.body.data).toMatchObject({ fee_rate: '0.00', fee_min: '0.00' });
      expect((await reconcile(h.db)).ok).toBe(true);
    } finally {
      await h.db.execute(
        sql`DELETE FROM withdrawal_channel_fees WHERE site_id = ${siteId.toString()}::bigint`,
      );
    }
  });

  it('a player without a withdrawal password sets it with the first withdrawal, typed twice', async () => {
    const player = await fundedPlayer(50_000n);
    await h.db.execute(
      sql`UPDATE members SET qk_pwd_hash = NULL WHERE id = ${player.memberId.toString()}::bigint`,
    );
    const info = await call(h.app, { method: 'GET', url: '/api/drawing/info', token: player.token });
    expect(info.body.data.has_qk_pwd).toBe(false);
    const body = { money: '50', member_bank_id: player.cardId, qk_pwd: '246810' };

    const once = await withdraw(player, body);
    expect(once.body.code).toBe('WITHDRAW_PASSWORD_NOT_SET');
    const mismatch = await withdraw(player, { ...body, qk_pwd_confirmation: '246811' });
    expect(mismatch.body).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED' });
    expect(mismatch.body.errors?.qk_pwd_confirmation).toBeTruthy();
    // A first request refused for another reason sets nothing.
    const tooMuch = await withdraw(player, { ...body, money: '600', qk_pwd_confirmation: '246810' });
    expect(tooMuch.body.status).toBe('fail');
    expect(
      (await call(h.app, { method: 'GET', url: '/api/drawing/info', token: player.token })).body.data
        .has_qk_pwd,
    ).toBe(false);
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(50_000n);

    const first = await withdraw(player, { ...body, qk_pwd_confirmation: '246810' });
    expect(first.body.status).toBe('success');
    expect(
      (await call(h.app, { method: 'GET', url: '/api/drawing/info', token: player.token })).body.data
        .has_qk_pwd,
    ).toBe(true);
    // From now on the password is checked, and a confirmation does not change it.
    const wrong = await withdraw(player, { ...body, qk_pwd: '111111', qk_pwd_confirmation: '111111' });
    expect(wrong.body.code).toBe('WITHDRAW_PASSWORD_WRONG');
    const second = await withdraw(player, body);
    expect(second.body.status).toBe('success');
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(40_000n);
  });

  it('holds the money at once and answers with the exact success message in every language', async () => {
    const player = await fundedPlayer(50_000n);
    const response = await withdraw(player, {
      money: '100.00',
      member_bank_id: player.cardId,
      qk_pwd: player.qkPwd,
      member_remark: 'rent',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.message).toBe(SUBMITTED);
    expect(response.body.data).toMatchObject({
      status: 'pending_review',
      review_status: 'not_reviewed',
      amount: '100.00',
      fee: '0.00',
      actual: '100.00',
      member_remark: 'rent',
    });
    const balances = await balancesOf(h.db, player.memberId);
    expect(balances.cashMinor).toBe(40_000n);
    expect(balances.holdMinor).toBe(10_000n);
    const pt = await call(h.app, {
      method: 'POST',
      url: '/api/drawing?lang=pt',
      token: player.token,
      payload: { money: 30, member_bank_id: Number(player.cardId), qk_pwd: player.qkPwd },
    });
    expect(pt.body.message).toBe(
      'A solicitação de saque foi enviada com sucesso. Aguarde a análise dos administradores.',
    );
  });

  it('locks withdrawals after five wrong passwords and keeps the balance', async () => {
    const player = await fundedPlayer(50_000n);
    for (let i = 1; i <= 4; i += 1) {
      const wrong = await withdraw(player, { money: '50', member_bank_id: player.cardId, qk_pwd: '000000' });
      expect(wrong.body).toMatchObject({
        code: 'WITHDRAW_PASSWORD_WRONG',
        message: `Wrong withdrawal password. ${5 - i} attempt(s) left`,
      });
    }
    const fifth = await withdraw(player, { money: '50', member_bank_id: player.cardId, qk_pwd: '000000' });
    expect(fifth.body.code).toBe('WITHDRAW_LOCKED');
    expect(fifth.status).toBe(429);
    const right = await withdraw(player, {
      money: '50',
      member_bank_id: player.cardId,
      qk_pwd: player.qkPwd,
    });
    expect(right.body.code).toBe('WITHDRAW_LOCKED');
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(50_000n);
  });

  it('refuses amounts outside the bounds and malformed amounts, changing nothing', async () => {
    const player = await fundedPlayer(10_000_000n);
    for (const money of ['19.99', '50000.01']) {
      const response = await withdraw(player, { money, member_bank_id: player.cardId, qk_pwd: player.qkPwd });
      expect(response.body).toMatchObject({
        code: 'AMOUNT_OUT_OF_RANGE',
        message: 'The amount must be between 20.00 and 50000.00',
      });
    }
    for (const money of ['-50', '0', '0.00', '20.001', '1e4', 'abc', 99999999999999, null]) {
      const response = await withdraw(player, { money, member_bank_id: player.cardId, qk_pwd: player.qkPwd });
      expect(response.status, `money ${JSON.stringify(money)}`).toBe(422);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    const badPwd = await withdraw(player, { money: '50', member_bank_id: player.cardId, qk_pwd: '12ab' });
    expect(badPwd.body.code).toBe('VALIDATION_FAILED');
    const balances = await balancesOf(h.db, player.memberId);
    expect(balances.cashMinor).toBe(10_000_000n);
    expect(balances.holdMinor).toBe(0n);
  });

  it('refuses while wagering is outstanding, when funds are short, and to another player’s card', async () => {
    const player = await fundedPlayer(50_000n);
    const siteId = await siteIdOf(h.db, player.memberId);
    await transfer(h.db, {
      siteId,
      kind: 'bonus_grant',
      from: { system: 'promotions_expense' },
      to: { memberId: player.memberId, account: 'bonus' },
      amountMinor: 1_000n,
      idempotencyKey: `test-bonus:${player.memberId}`,
      wageringAddMinor: 5_000n,
    });
    const wagering = await withdraw(player, {
      money: '100',
      member_bank_id: player.cardId,
      qk_pwd: player.qkPwd,
    });
    expect(wagering.body).toMatchObject({
      code: 'WAGERING_NOT_MET',
      message: 'You need to bet 50.00 more before you can withdraw',
    });

    const poor = await fundedPlayer(5_000n);
    const short = await withdraw(poor, { money: '100', member_bank_id: poor.cardId, qk_pwd: poor.qkPwd });
    expect(short.body.code).toBe('INSUFFICIENT_FUNDS');

    const foreign = await withdraw(poor, { money: '20', member_bank_id: player.cardId, qk_pwd: poor.qkPwd });
    expect(foreign.body.code).toBe('BANK_CARD_NOT_FOUND');
    const impostor = await withdraw(poor, {
      money: '20',
      member_bank_id: poor.cardId,
      qk_pwd: poor.qkPwd,
      member_id: player.memberId.toString(),
    });
    expect(impostor.body.code).toBe('FORBIDDEN');
    const theirRecords = await call(h.app, {
      method: 'POST',
      url: '/api/drawing/list',
      token: poor.token,
      payload: { member_id: Number(player.memberId) },
    });
    expect(theirRecords.body.code).toBe('FORBIDDEN');
    const missing = await withdraw(poor, { money: '20', member_bank_id: '999999999', qk_pwd: poor.qkPwd });
    expect(missing.body.code).toBe('BANK_CARD_NOT_FOUND');
    expect((await balancesOf(h.db, poor.memberId)).cashMinor).toBe(5_000n);
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(50_000n);
  });

  it('on a br site pays out only to a PIX key in the member’s own CPF', async () => {
    const player = await fundedPlayer(50_000n, HOSTS.br);
    const otherCard = await addCard(h.db, player.memberId, { cpf: randomCpf() });
    const refused = await withdraw(player, {
      money: '50',
      member_bank_id: otherCard.toString(),
      qk_pwd: player.qkPwd,
    });
    expect(refused.body.code).toBe('CPF_MISMATCH');
    const accepted = await withdraw(player, {
      money: '50',
      member_bank_id: player.cardId,
      qk_pwd: player.qkPwd,
    });
    expect(accepted.body.status).toBe('success');
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(45_000n);
  });

  it('approve → payout at the PSP → paid: the held money leaves, the fee stays with the site', async () => {
    const player = await fundedPlayer(50_000n);
    const siteId = await siteIdOf(h.db, player.memberId);
    await h.db.execute(sql`INSERT INTO withdrawal_channel_fees (site_id, channel, fee_bps, fee_min_minor)
        VALUES (${siteId.toString()}::bigint, 'pix', 100, 200)`);
    const created = (
      await withdraw(player, { money: '200', member_bank_id: player.cardId, qk_pwd: player.qkPwd })
    ).body.data;
    const pending = await admin('/api/admin/withdrawals');
    expect(pending.body.data.list.map((o: { order_no: string }) => o.order_no)).toContain(created.order_no);

    const guest = await admin(
      `/api/admin/withdrawals/${created.order_no}/approve`,
      { remark: 'checked' },
      player.token,
    );
    expect(guest.status).toBe(401);
    const approved = await admin(`/api/admin/withdrawals/${created.order_no}/approve`, { remark: 'checked' });
    expect(approved.body.data).toMatchObject({ status: 'paying', review_status: 'reviewed' });
    const again = await admin(`/api/admin/withdrawals/${created.order_no}/approve`, { remark: 'checked' });
    expect(again.body.code).toBe('ORDER_STATE_CONFLICT');

    const payoutId = (await admin('/api/admin/withdrawals?status=paying')).body.data.list.find(
      (o: { order_no: string }) => o.order_no === created.order_no,
    ).payout_id;
    await decidePayout(h.psp, payoutId, 'succeed');
    await waitFor(async () => (await orderOf(player, created.order_no))?.status === 'paid', 'the payout');
    const balances = await balancesOf(h.db, player.memberId);
    expect(balances.cashMinor).toBe(30_000n);
    expect(balances.holdMinor).toBe(0n);
    expect((await orderOf(player, created.order_no))?.fee).toBe('2.00');
    expect((await reconcile(h.db)).ok).toBe(true);
    await h.db.execute(sql`DELETE FROM withdrawal_channel_fees WHERE site_id = ${siteId.toString()}::bigint`);
  });

  it('reject returns the money; a failed payout returns the money', async () => {
    const player = await fundedPlayer(50_000n);
    const first = (
      await withdraw(player, { money: '100', member_bank_id: player.cardId, qk_pwd: player.qkPwd })
    ).body.data;
    const noRemark = await admin(`/api/admin/withdrawals/${first.order_no}/reject`, {});
    expect(noRemark.status).toBe(422);
    const rejected = await admin(`/api/admin/withdrawals/${first.order_no}/reject`, {
      remark: 'card name differs',
    });
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      review_status: 'reviewed',
      remark: 'card name differs',
    });
    expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(50_000n);

    const second = (
      await withdraw(player, { money: '100', member_bank_id: player.cardId, qk_pwd: player.qkPwd })
    ).body.data;
    await admin(`/api/admin/withdrawals/${second.order_no}/approve`, { remark: 'checked' });
    const payoutId = (await admin('/api/admin/withdrawals?status=paying')).body.data.list.find(
      (o: { order_no: string }) => o.order_no === second.order_no,
    ).payout_id;
    await decidePayout(h.psp, payoutId, 'fail');
    await waitFor(async () => (await orderOf(player, second.order_no))?.status === 'failed', 'the failure');
    const balances = await balancesOf(h.db, player.memberId);
    expect(balances.cashMinor).toBe(50_000n);
    expect(balances.holdMinor).toBe(0n);
    expect((await reconcile(h.db)).ok).toBe(true);
  });

  it('settles a payout whose webhook was lost by asking the PSP (sync job)', async () => {
    const player = await fundedPlayer(50_000n);
    const created = (
      await withdraw(player, { money: '100', member_bank_id: player.cardId, qk_pwd: player.qkPwd })
    ).body.data;
    // Point the PSP's webhook nowhere, so the payout result never arrives by itself.
    await h.psp.client.registerWebhook(h.psp.pixKey, 'http://127.0.0.1:9/lost');
    try {
      await admin(`/api/admin/withdrawals/${created.order_no}/approve`, { remark: 'checked' });
      const payoutId = (await admin('/api/admin/withdrawals?status=paying')).body.data.list.find(
        (o: { order_no: string }) => o.order_no === created.order_no,
      ).payout_id;
      await decidePayout(h.psp, payoutId, 'succeed');
      const deps = {
        db: h.db,
        psp: h.app.psp,
        realtime: h.app.realtime,
        throttle: h.app.services.throttle,
        log: h.app.log,
      };
      await waitFor(async () => (await syncPayouts(deps, 0)) > 0, 'the sync to settle the payout');
      expect((await orderOf(player, created.order_no)).status).toBe('paid');
      expect(await syncPayouts(deps, 0)).toBe(0);
      expect((await balancesOf(h.db, player.memberId)).holdMinor).toBe(0n);
    } finally {
      await h.psp.client.registerWebhook(h.psp.pixKey, `${h.baseUrl}/api/psp/webhook`);
    }
  });

  describe('payouts through an adapter whose endpoints the PSP does not have (answers 404)', () => {
    const deps = () => ({
      db: h.db,
      psp: h.app.psp,
      realtime: h.app.realtime,
      throttle: h.app.services.throttle,
      log: h.app.log,
    });
    /** Swaps the connection's payout adapter for the test, then puts the real one back. */
    async function withAdapter(adapter: PayoutAdapter, body: () => Promise<void>) {
      const real = h.psp.payouts;
      h.psp.payouts = adapter;
      try {
        await body();
      } finally {
        h.psp.payouts = real;
      }
    }
    const approveNew = async (player: Awaited<ReturnType<typeof fundedPlayer>>) => {
      const created = (
        await withdraw(player, { money: '100', member_bank_id: player.cardId, qk_pwd: player.qkPwd })
      ).body.data;
      await admin(`/api/admin/withdrawals/${created.order_no}/approve`, { remark: 'checked' });
      return created.order_no as string;
    };

    it('a 404 to the send (Efí’s paths on a PSP without them) fails the order and returns the money at once', async () => {
      const player = await fundedPlayer(50_000n);
      await withAdapter(efiPayouts(h.psp.client, h.psp.pixKey), async () => {
        const orderNo = await approveNew(player);
        expect((await orderOf(player, orderNo)).status).toBe('failed');
        // The payouts' sync leaves a failed order alone (other tests' orders on this database may
        // still be syncing, so its count is not this order's to assert).
        await syncPayouts(deps(), 0);
        expect((await orderOf(player, orderNo)).status).toBe('failed');
      });
      const balances = await balancesOf(h.db, player.memberId);
      expect(balances.cashMinor).toBe(50_000n);
      expect(balances.holdMinor).toBe(0n);
      expect((await reconcile(h.db)).ok).toBe(true);
    });

    it('a payout the PSP does not have is sent again within the window, and failed with the money returned after it', async () => {
      const sandbox = h.psp.payouts;
      let sends = 0;
      // The send's answer is lost before the PSP got it; queries go to the real PSP.
      const lossy: PayoutAdapter = {
        ...sandbox,
        send: async (input) => {
          sends += 1;
          return sends === 1 ? { kind: 'unknown', reason: 'timeout' } : sandbox.send(input);
        },
        get: (id) => sandbox.get(id),
      };
      const resent = await fundedPlayer(50_000n);
      const expired = await fundedPlayer(50_000n);
      await withAdapter(lossy, async () => {
        const resentNo = await approveNew(resent);
        expect((await orderOf(resent, resentNo)).status).toBe('paying');
        await syncPayouts(deps(), 0);
        expect(sends).toBe(2);
        const payoutId = (await admin('/api/admin/withdrawals?status=paying')).body.data.list.find(
          (o: { order_no: string }) => o.order_no === resentNo,
        ).payout_id;
        await decidePayout(h.psp, payoutId, 'succeed');
        await waitFor(async () => (await orderOf(resent, resentNo)).status === 'paid', 'the payout');

        sends = 0;
        const expiredNo = await approveNew(expired);
        await h.db.execute(
          sql`UPDATE withdrawal_orders SET reviewed_at = now() - interval '1 hour' WHERE order_no = ${expiredNo}`,
        );
        await syncPayouts(deps(), 0);
        expect(sends).toBe(1);
        expect((await orderOf(expired, expiredNo)).status).toBe('failed');
      });
      expect((await balancesOf(h.db, resent.memberId)).holdMinor).toBe(0n);
      expect(await balancesOf(h.db, expired.memberId)).toMatchObject({ cashMinor: 50_000n, holdMinor: 0n });
      expect((await reconcile(h.db)).ok).toBe(true);
    });
  });

  it('an operator of another site cannot see or review the order', async () => {
    const player = await fundedPlayer(50_000n);
    const created = (
      await withdraw(player, { money: '100', member_bank_id: player.cardId, qk_pwd: player.qkPwd })
    ).body.data;
    const brToken = await loginOperator(h.app, 'owner', HOSTS.br);
    const response = await call(h.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${created.order_no}/reject`,
      host: HOSTS.br,
      token: brToken,
      payload: { remark: 'x' },
    });
    expect(response.body.code).toBe('ORDER_NOT_FOUND');
    expect((await balancesOf(h.db, player.memberId)).holdMinor).toBe(10_000n);
  });

  // PostgreSQL only: PGlite has one connection, so nothing there runs in parallel to race.
  if (kind !== 'postgres') return;
  it('200 parallel withdrawals against a balance covering 37: exactly 37 succeed, none negative, ledger clean', async () => {
    const player = await fundedPlayer(37n * 2_000n + 1_999n);
    const siteId = await siteIdOf(h.db, player.memberId);
    // The daily request limit would stop this test first; give the member's site room for it.
    await h.db.execute(sql`INSERT INTO withdrawal_settings (site_id, min_minor, max_minor, daily_count_max)
        VALUES (${siteId.toString()}::bigint, 2000, 5000000, 1000)
        ON CONFLICT (site_id) DO UPDATE SET daily_count_max = 1000`);
    try {
      const answers = await Promise.all(
        Array.from({ length: 200 }, () =>
          withdraw(player, { money: '20.00', member_bank_id: player.cardId, qk_pwd: player.qkPwd }),
        ),
      );
      const codes = answers.map((a) => (a.body.status === 'success' ? 'ok' : String(a.body.code)));
      expect(codes.filter((c) => c === 'ok')).toHaveLength(37);
      expect(new Set(codes.filter((c) => c !== 'ok'))).toEqual(new Set(['INSUFFICIENT_FUNDS']));
      const balances = await balancesOf(h.db, player.memberId);
      expect(balances.cashMinor).toBe(1_999n);
      expect(balances.holdMinor).toBe(37n * 2_000n);
      expect((await reconcile(h.db)).ok).toBe(true);
    } finally {
      await h.db.execute(sql`DELETE FROM withdrawal_settings WHERE site_id = ${siteId.toString()}::bigint`);
    }
  }, 120_000);

  describe('one order per Idempotency-Key', () => {
    const keyed = (player: { token: string; host: string }, key: string, payload: Record<string, unknown>) =>
      call(h.app, {
        method: 'POST',
        url: '/api/drawing',
        host: player.host,
        token: player.token,
        headers: { 'idempotency-key': key },
        payload,
      });

    it('10 concurrent copies of one keyed request make one order and answer it to all', async () => {
      const player = await fundedPlayer(50_000n);
      const body = { money: '100.00', member_bank_id: player.cardId, qk_pwd: player.qkPwd };
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => keyed(player, 'withdraw-key-0001', body)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(new Set(answers.map((a) => a.body.data.order_no)).size).toBe(1);
      const balances = await balancesOf(h.db, player.memberId);
      expect(balances.cashMinor).toBe(40_000n);
      expect(balances.holdMinor).toBe(10_000n);
      // Sent again later (a retry after a lost answer): still the first order, nothing more held.
      const later = await keyed(player, 'withdraw-key-0001', body);
      expect(later.body.data.order_no).toBe(answers[0]!.body.data.order_no);
      expect((await balancesOf(h.db, player.memberId)).holdMinor).toBe(10_000n);
      const list = await call(h.app, {
        method: 'POST',
        url: '/api/drawing/list',
        token: player.token,
        payload: {},
      });
      expect(list.body.data.list).toHaveLength(1);
    });

    it('the same key with another body is IDEMPOTENCY_CONFLICT and changes nothing', async () => {
      const player = await fundedPlayer(50_000n);
      const first = await keyed(player, 'withdraw-key-0002', {
        money: '100.00',
        member_bank_id: player.cardId,
        qk_pwd: player.qkPwd,
      });
      expect(first.status).toBe(200);
      const other = await keyed(player, 'withdraw-key-0002', {
        money: '150.00',
        member_bank_id: player.cardId,
        qk_pwd: player.qkPwd,
      });
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({
        code: 'IDEMPOTENCY_CONFLICT',
        message: 'This request was already made with different details',
      });
      expect((await balancesOf(h.db, player.memberId)).holdMinor).toBe(10_000n);
      // Keys belong to their player: another player's identical key is a separate order.
      const stranger = await fundedPlayer(50_000n);
      const theirs = await keyed(stranger, 'withdraw-key-0002', {
        money: '100.00',
        member_bank_id: stranger.cardId,
        qk_pwd: stranger.qkPwd,
      });
      expect(theirs.status).toBe(200);
      expect(theirs.body.data.order_no).not.toBe(first.body.data.order_no);
    });

    it('refuses a malformed key with a translated message', async () => {
      const player = await fundedPlayer(50_000n);
      const bad = await keyed(player, 'short', {
        money: '100.00',
        member_bank_id: player.cardId,
        qk_pwd: player.qkPwd,
      });
      expect(bad.status).toBe(422);
      expect(bad.body.status).toBe('fail');
      expect((await balancesOf(h.db, player.memberId)).holdMinor).toBe(0n);
    });
  });

  describe('a player cancels a withdrawal still under review', () => {
    const cancel = (player: { token: string; host: string }, orderNo: string, lang = 'en') =>
      call(h.app, {
        method: 'POST',
        url: `/api/drawing/cancel?lang=${lang}`,
        host: player.host,
        token: player.token,
        payload: { order_no: orderNo },
      });

    it('returns the money at once, records it, frees the daily count, and cannot be repeated', async () => {
      const player = await fundedPlayer(50_000n);
      const made = await withdraw(player, {
        money: '100.00',
        member_bank_id: player.cardId,
        qk_pwd: player.qkPwd,
      });
      const orderNo = made.body.data.order_no as string;
      const cancelled = await cancel(player, orderNo, 'pt');
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect(cancelled.body.message).toBe('O saque foi cancelado e o valor voltou ao seu saldo');
      expect(cancelled.body.data).toMatchObject({ status: 'cancelled', review_status: 'not_reviewed' });
      expect(cancelled.body.data.cancelled_at).toEqual(expect.any(String));
      const balances = await balancesOf(h.db, player.memberId);
      expect(balances.cashMinor).toBe(50_000n);
      expect(balances.holdMinor).toBe(0n);
      expect((await orderOf(player, orderNo)).status).toBe('cancelled');
      const records = await call(h.app, {
        method: 'POST',
        url: '/api/transaction/record',
        token: player.token,
        payload: {},
      });
      const kinds = (records.body.data?.list ?? []).map((row: { kind: string }) => row.kind);
      expect(kinds).toContain('withdrawal_release');
      const again = await cancel(player, orderNo);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('ORDER_STATE_CONFLICT');
      expect((await balancesOf(h.db, player.memberId)).cashMinor).toBe(50_000n);
      expect((await reconcile(h.db)).ok).toBe(true);
      // The operator no longer sees it to review, and cannot approve it.
      const approve = await admin(`/api/admin/withdrawals/${orderNo}/approve`, { remark: 'checked' });
      expect(approve.body.code).toBe('ORDER_STATE_CONFLICT');
    });

    it('cannot cancel another player’s order, an unknown one, or one already reviewed', async () => {
      const owner = await fundedPlayer(50_000n);
      const thief = await fundedPlayer(0n);
      const made = await withdraw(owner, {
        money: '100.00',
        member_bank_id: owner.cardId,
        qk_pwd: owner.qkPwd,
      });
      const orderNo = made.body.data.order_no as string;
      const stolen = await cancel(thief, orderNo);
      expect(stolen.status).toBe(404);
      expect(stolen.body.code).toBe('ORDER_NOT_FOUND');
      expect((await cancel(owner, 'W0000000000000')).body.code).toBe('ORDER_NOT_FOUND');
      expect((await cancel(owner, 'a\u0000b')).status).toBe(400);
      const rejected = await admin(`/api/admin/withdrawals/${orderNo}/reject`, { remark: 'docs' });
      expect(rejected.status).toBe(200);
      expect((await cancel(owner, orderNo)).body.code).toBe('ORDER_STATE_CONFLICT');
      expect((await balancesOf(h.db, owner.memberId)).cashMinor).toBe(50_000n);
    });

    it('concurrent cancel and approve: exactly one wins, the money moves once', async () => {
      const player = await fundedPlayer(50_000n);
      const made = await withdraw(player, {
        money: '100.00',
        member_bank_id: player.cardId,
        qk_pwd: player.qkPwd,
      });
      const orderNo = made.body.data.order_no as string;
      const [cancelled, rejected] = await Promise.all([
        cancel(player, orderNo),
        admin(`/api/admin/withdrawals/${orderNo}/reject`, { remark: 'race' }),
      ]);
      expect([cancelled.status, rejected.status].filter((s) => s === 200)).toHaveLength(1);
      const balances = await balancesOf(h.db, player.memberId);
      expect(balances.cashMinor).toBe(50_000n);
      expect(balances.holdMinor).toBe(0n);
      expect((await reconcile(h.db)).ok).toBe(true);
    });
  });
});
