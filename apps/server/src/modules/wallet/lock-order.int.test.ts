import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fundedPlayer, registration } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import {
  addCard,
  type MoneyHarness,
  paymentOf,
  payOnSandbox,
  pixCallback,
  randomCpf,
  redirectCallbacks,
  startMoneyHarness,
} from '../deposits/money.fixtures.ts';
import { getBalances } from './balances.ts';
import { reconcile } from './wallet.reconcile.ts';

const kinds = await databaseKinds();
const minor = (text: string) => BigInt(text.replace('.', ''));

/**
 * The lock order of the money paths (docs/decisions/029-one-lock-order.md), tried the way a player
 * can: one member's withdrawals and bets at the same moment. A withdrawal holds the member row and
 * then the accounts; a bet group holds the accounts and then inserts transfers, whose foreign key
 * to `members` takes FOR KEY SHARE on the same row. With the member row held FOR UPDATE the two
 * waited on each other and PostgreSQL broke the cycle with `deadlock detected`: a 500.
 */
describe.each(kinds)('one lock order for every money path on %s', (kind) => {
  let h: MoneyHarness;
  let app: MoneyHarness['app'];
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
    app = h.app;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const withdraw = (token: string, cardId: string) =>
    call(app, {
      method: 'POST',
      url: '/api/drawing',
      token,
      payload: { money: '20.00', member_bank_id: cardId, qk_pwd: registration().qk_pwd },
    });
  const dice = (token: string) =>
    call(app, {
      method: 'POST',
      url: '/api/originals/dice/bet',
      token,
      payload: { amount: '1.00', direction: 'under', target: 5000 },
    });
  const paidOf = (bets: { body: { status: string; data: { round: { payout: string } } } }[]) =>
    bets
      .filter((bet) => bet.body.status === 'success')
      .reduce((sum, bet) => sum + minor(bet.body.data.round.payout), 0n);

  it('answers 40 withdrawals and 80 dice bets of one member sent at once without a 5xx, the money exact', async () => {
    const player = await fundedPlayer(app, 10_000n);
    const cardId = (await addCard(app.services.db, player.memberId)).toString();
    const withdrawals = Array.from({ length: 40 }, () => withdraw(player.token, cardId));
    const bets = Array.from({ length: 80 }, () => dice(player.token));
    const answers = await Promise.all([...withdrawals, ...bets]);
    expect(answers.filter((answer) => answer.status >= 500).map((answer) => answer.body.code)).toEqual([]);

    const held = answers.slice(0, 40).filter((answer) => answer.body.status === 'success').length;
    const placed = answers.slice(40).filter((answer) => answer.body.status === 'success');
    const paidMinor = paidOf(placed);
    expect(held).toBeGreaterThan(0);
    expect(placed.length).toBeGreaterThan(0);
    const balances = await getBalances(app.services.db, player.memberId);
    expect(balances.holdMinor).toBe(BigInt(held) * 2_000n);
    expect(balances.cashMinor).toBe(
      10_000n - BigInt(held) * 2_000n - BigInt(placed.length) * 100n + paidMinor,
    );
    expect((await reconcile(app.services.db)).ok).toBe(true);
  }, 120_000);

  it('credits a member’s PIX deposits arriving while the member withdraws and bets, without a 5xx, the money exact', async () => {
    const player = await fundedPlayer(app, 10_000n);
    const cardId = (await addCard(app.services.db, player.memberId)).toString();
    const channel = (await call(app, { method: 'GET', url: '/api/payment/online/list?payment_type=pix' }))
      .body.data.list[0];
    const orders = [];
    for (let i = 0; i < 3; i++) {
      const created = await call(app, {
        method: 'POST',
        url: '/api/recharge/online',
        token: player.token,
        payload: { money: '30.00', payment_id: channel.id, payment_type: 'pix' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      orders.push(created.body.data as { txid: string });
    }
    // The payments reach the PSP first with their callbacks lost; the test then sends the
    // callbacks itself, at the same moment as the withdrawals and bets (each is read back).
    await redirectCallbacks(h, 'nowhere');
    const payments = [];
    try {
      for (const order of orders) {
        await payOnSandbox(h.psp, order.txid, randomCpf());
        payments.push(await paymentOf(h, order.txid));
      }
    } finally {
      await redirectCallbacks(h, 'app');
    }
    const notifications = payments.map((pix) =>
      pixCallback(app, {
        pix: [
          { endToEndId: pix.endToEndId, txid: pix.txid, valor: '30.00', horario: new Date().toISOString() },
        ],
      }),
    );
    const withdrawals = Array.from({ length: 20 }, () => withdraw(player.token, cardId));
    const bets = Array.from({ length: 40 }, () => dice(player.token));
    const [credited, held, placed] = await Promise.all([
      Promise.all(notifications),
      Promise.all(withdrawals),
      Promise.all(bets),
    ]);
    expect(credited.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect([...held, ...placed].filter((answer) => answer.status >= 500).map((a) => a.body.code)).toEqual([]);

    const heldMinor = BigInt(held.filter((answer) => answer.body.status === 'success').length) * 2_000n;
    const stakedMinor = BigInt(placed.filter((answer) => answer.body.status === 'success').length) * 100n;
    const balances = await getBalances(app.services.db, player.memberId);
    expect(balances.holdMinor).toBe(heldMinor);
    expect(balances.cashMinor).toBe(10_000n + 9_000n - heldMinor - stakedMinor + paidOf(placed));
    expect((await reconcile(app.services.db)).ok).toBe(true);
  }, 120_000);
});
