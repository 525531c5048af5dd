import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginOperator } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import {
  addCard,
  call,
  decidePayout,
  fund,
  type MoneyHarness,
  newPlayer,
  randomCpf,
  startMoneyHarness,
  waitFor,
} from '../deposits/money.fixtures.ts';
import { withdrawalReview } from './withdrawal-review.ts';

const kinds = await databaseKinds();

describe.each(kinds)('withdrawal review queue and two-person approval on %s', (kind) => {
  let h: MoneyHarness;
  let owner: string;
  let finance: string;
  let support: string;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
    owner = await loginOperator(h.app);
    finance = await loginOperator(h.app, 'finance');
    support = await loginOperator(h.app, 'support');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  /** A player with cash and a PIX card who asks to withdraw `money` (BRL text). */
  async function requested(money: string, cashMinor = 1_000_000n) {
    const player = await newPlayer(h.app);
    await fund(h.db, player.memberId, cashMinor);
    const cpf = randomCpf();
    const cardId = await addCard(h.db, player.memberId, { cpf });
    const response = await call(h.app, {
      method: 'POST',
      url: '/api/drawing',
      token: player.token,
      payload: { money, member_bank_id: cardId.toString(), qk_pwd: player.qkPwd },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return { player, cpf, orderNo: response.body.data.order_no as string };
  }

  const approve = (orderNo: string, token: string, remark = 'documents checked') =>
    call(h.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${orderNo}/approve`,
      token,
      payload: { remark },
    });

  const auditOf = (orderNo: string) =>
    rowsOf<{ action: string; username: string; before: unknown; after: unknown }>(
      h.db,
      sql`SELECT a.action, o.username, a.before, a.after FROM operator_actions a
          JOIN operators o ON o.id = a.operator_id
          WHERE a.entity = 'withdrawal' AND a.entity_id = ${orderNo} ORDER BY a.id`,
    );

  it('lists pending requests paged with risk signals, the review detail, and a CSV export', async () => {
    const { player, orderNo } = await requested('100');
    const queue = await call(h.app, {
      method: 'GET',
      url: `/api/admin/withdrawals/queue?username=${player.username}&page_size=5`,
      token: support,
    });
    expect(queue.status).toBe(200);
    expect(queue.body.data).toMatchObject({ total: 1, page: 1, page_size: 5 });
    expect(queue.body.data.list[0]).toMatchObject({
      order_no: orderNo,
      amount: '100.00',
      status: 'pending_review',
      approvals: 0,
      approvals_needed: 1,
    });
    // A brand-new account.
    expect(queue.body.data.list[0].risks).toContain('new_account');

    const review = await call(h.app, {
      method: 'GET',
      url: `/api/admin/withdrawals/${orderNo}/review`,
      token: support,
    });
    expect(review.status).toBe(200);
    expect(review.body.data.player).toMatchObject({ username: player.username, cards: 1 });
    expect(review.body.data.second_approval_from).toBe('5000.00');

    const csv = await h.app.inject({
      method: 'GET',
      url: `/api/admin/withdrawals/queue?username=${player.username}&format=csv`,
      headers: { host: 'localhost', authorization: `Bearer ${support}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="withdrawals-/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^order_no,username,amount/);
    expect(lines[1]).toContain(orderNo);
  });

  it('flags a CPF shared with another account and many cards', async () => {
    const { player, cpf, orderNo } = await requested('50');
    // Another account whose CPF is the one the money would be paid to.
    const other = await newPlayer(h.app);
    await h.db.execute(sql`UPDATE members SET cpf = ${cpf} WHERE id = ${other.memberId.toString()}::bigint`);
    for (let i = 0; i < 2; i += 1) await addCard(h.db, player.memberId, { cpf: randomCpf() });
    const review = await call(h.app, {
      method: 'GET',
      url: `/api/admin/withdrawals/${orderNo}/review`,
      token: owner,
    });
    expect(review.body.data.order.risks).toEqual(expect.arrayContaining(['same_cpf', 'many_cards']));
    expect(review.body.data.player.other_accounts_same_cpf).toEqual([other.username]);
  });

  it('a reason is required to approve or reject (translated)', async () => {
    const { orderNo } = await requested('30');
    const missing = await call(h.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${orderNo}/approve?lang=pt`,
      token: owner,
      payload: {},
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ remark: 'Por favor, informe o motivo' });
    const reject = await call(h.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${orderNo}/reject`,
      token: owner,
      payload: { remark: ' ' },
    });
    expect(reject.status).toBe(422);
  });

  it('above the site amount: the first approval records, the same operator again is refused, a second operator pays', async () => {
    const { player, orderNo } = await requested('6000');
    const first = await approve(orderNo, finance);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'pending_review', review_status: 'not_reviewed' });
    expect(first.body.message).toBe('First approval recorded: a second operator must approve it to pay');

    const again = await call(h.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${orderNo}/approve?lang=pt`,
      token: finance,
      payload: { remark: 'me again' },
    });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('APPROVER_MUST_DIFFER');
    expect(again.body.message).toBe('Um segundo operador, diferente do primeiro, precisa aprovar este saque');

    const queued = await call(h.app, {
      method: 'GET',
      url: `/api/admin/withdrawals/queue?order_no=${orderNo}`,
      token: owner,
    });
    expect(queued.body.data.list[0]).toMatchObject({ approvals: 1, approvals_needed: 2 });

    const second = await approve(orderNo, owner, 'second look');
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ status: 'paying', review_status: 'reviewed' });

    const payoutId = await waitFor(async () => {
      const [row] = await rowsOf<{ payout_id: string | null }>(
        h.db,
        sql`SELECT payout_id FROM withdrawal_orders WHERE order_no = ${orderNo}`,
      );
      return row?.payout_id ?? null;
    }, 'the payout id');
    await decidePayout(h.psp, payoutId, 'succeed');
    await waitFor(async () => {
      const list = await call(h.app, {
        method: 'POST',
        url: '/api/drawing/list',
        token: player.token,
        payload: {},
      });
      const order = list.body.data.list.find((o: { order_no: string }) => o.order_no === orderNo);
      return order?.status === 'paid' ? order : null;
    }, 'the player sees it paid');

    const audit = await auditOf(orderNo);
    expect(audit.map((entry) => [entry.action, entry.username])).toEqual([
      ['withdrawal.first_approval', 'qa_finance'],
      ['withdrawal.approve', 'admin'],
    ]);
    expect(audit[1]).toMatchObject({
      before: { status: 'pending_review' },
      after: { status: 'paying', remark: 'second look' },
    });
  });

  it('below the amount one approval pays; a rejection returns the money; both are audited', async () => {
    const small = await requested('40');
    expect((await approve(small.orderNo, finance)).body.data.status).toBe('paying');
    const rejected = await requested('45');
    const response = await call(h.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${rejected.orderNo}/reject`,
      token: finance,
      payload: { remark: 'PIX key does not match the player' },
    });
    expect(response.body.data.status).toBe('rejected');
    expect((await auditOf(small.orderNo)).map((entry) => entry.action)).toEqual(['withdrawal.approve']);
    expect(await auditOf(rejected.orderNo)).toMatchObject([
      {
        action: 'withdrawal.reject',
        username: 'qa_finance',
        before: { status: 'pending_review' },
        after: { status: 'rejected', remark: 'PIX key does not match the player' },
      },
    ]);
  });

  it("shows the review's CPF and PIX key in full with players.pii, masked without it (ADR 022)", async () => {
    const { cpf, orderNo } = await requested('100');
    const full = await call(h.app, {
      method: 'GET',
      url: `/api/admin/withdrawals/${orderNo}/review`,
      token: finance,
    });
    expect(full.status).toBe(200);
    expect(full.body.data.order).toMatchObject({ pix_key: cpf, payee_cpf: cpf });
    // No role holds withdrawals.read without players.pii today; a role that did would see this.
    const site = await h.app.services.sites.byHost('localhost');
    if (!site) throw new Error('no site');
    const masked = await withdrawalReview(
      h.db,
      { operatorId: 0n, siteId: site.id, role: 'content', username: 'no_pii' },
      orderNo,
    );
    const hidden = `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;
    expect(masked.order).toMatchObject({ pix_key: hidden, payee_cpf: hidden });
    expect(JSON.stringify(masked)).not.toContain(cpf);
  });
});
