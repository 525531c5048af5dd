import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import type { TSite } from '../../core/site.ts';
import { hold, settleHold } from '../wallet/holds.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { getOrderCenterDetails, getOrderCenterFees, listTransactions } from './records.service.ts';

const kinds = await databaseKinds();

type TPlayer = Awaited<ReturnType<typeof registerPlayer>>;
type TRow = { id: number; kind: string; amount: string; change: string; reference: string };

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(kinds)('records and order center on %s', (kind) => {
  let app: FastifyInstance;
  let intl: TSite;
  let br: TSite;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    intl = (await app.services.sites.byCode('sorte'))!;
    br = (await app.services.sites.byCode('sorte-br'))!;
  });
  afterAll(async () => {
    await app.close();
  });

  const key = () => `t-${randomBytes(8).toString('hex')}`;
  const memberId = (player: TPlayer) => BigInt(player.user.id);
  const deposit = (site: TSite, player: TPlayer, amountMinor: bigint, reference = '') =>
    transfer(app.services.db, {
      siteId: site.id,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId: memberId(player), account: 'cash' },
      amountMinor,
      idempotencyKey: key(),
      reference,
    });
  const record = (player: TPlayer, payload: unknown, host: string = HOSTS.intl) =>
    call(app, {
      method: 'POST',
      url: '/api/transaction/record',
      token: player.token,
      host,
      payload: payload as Record<string, unknown>,
    });
  const get = (player: TPlayer, url: string, host: string = HOSTS.intl) =>
    call(app, { method: 'GET', url, token: player.token, host });
  const orderNo = () => `T${randomBytes(8).toString('hex').toUpperCase()}`;

  it('needs a session on every route', async () => {
    for (const [method, url] of [
      ['POST', '/api/transaction/record'],
      ['GET', '/api/ordercenter/details'],
      ['GET', '/api/ordercenter/fee'],
      ['GET', '/api/ordercenter/association'],
      ['GET', '/api/day7/getAllBalance?currency=BRL'],
    ] as const) {
      const response = await call(app, { method, url });
      expect(response.status, url).toBe(401);
      expect(response.body.message).toBe('Unauthenticated.');
    }
  });

  it('publishes the bank card, record, order center and balance routes in OpenAPI', async () => {
    const response = await call(app, { method: 'GET', url: '/api/docs/json' });
    expect(response.status).toBe(200);
    const { paths } = response.body as unknown as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { properties: object } }> } }>
      >;
    };
    for (const [path, method] of [
      ['/api/member/bank', 'get'],
      ['/api/member/bank/add', 'post'],
      ['/api/member/bank/delete', 'post'],
      ['/api/transaction/record', 'post'],
      ['/api/ordercenter/details', 'get'],
      ['/api/ordercenter/fee', 'get'],
      ['/api/ordercenter/association', 'get'],
      ['/api/day7/getAllBalance', 'get'],
    ] as const) {
      expect(paths[path]?.[method], path).toBeDefined();
    }
    const add =
      paths['/api/member/bank/add']!.post!.requestBody!.content['application/json']!.schema.properties;
    expect(Object.keys(add)).toEqual(
      expect.arrayContaining([
        'bank_name',
        'account_type',
        'name',
        'account',
        'cpf_id',
        'account_no',
        'is_default',
      ]),
    );
  });

  it('lists movements newest first from the player side, with an empty first page for a new player', async () => {
    const player = await registerPlayer(app);
    const empty = await record(player, undefined);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({
      list: [],
      next_cursor: null,
      prev_cursor: null,
      period: 'all',
      page_size: 20,
      time_zone: 'UTC',
    });
    await deposit(intl, player, 10_000n, 'order:A1');
    await transfer(app.services.db, {
      siteId: intl.id,
      kind: 'bet',
      from: { memberId: memberId(player), account: 'cash' },
      to: { system: 'house' },
      amountMinor: 2_550n,
      idempotencyKey: key(),
    });
    const held = await hold(app.services.db, {
      siteId: intl.id,
      memberId: memberId(player),
      amountMinor: 5_000n,
      idempotencyKey: key(),
    });
    await settleHold(app.services.db, {
      siteId: intl.id,
      holdTransferId: held.transferId,
      idempotencyKey: key(),
      feeMinor: 100n,
    });
    const { body } = await record(player, {});
    expect(body.data.list.map((r: TRow) => [r.kind, r.change])).toEqual([
      ['withdrawal_payout', '0.00'],
      ['withdrawal_hold', '-50.00'],
      ['bet', '-25.50'],
      ['deposit', '+100.00'],
    ]);
    expect(body.data.list[3]).toMatchObject({
      amount: '100.00',
      direction: 'in',
      account: 'cash',
      balance_after: '100.00',
      reference: 'order:A1',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });
    expect(body.data.list[1]).toMatchObject({ account: 'cash', balance_after: '24.50' });
    expect(body.data.list[0]).toMatchObject({
      account: 'withdrawal_hold',
      balance_after: '0.00',
      direction: 'none',
    });
  });

  it('pages with previous / next without skipping or repeating rows while new movements arrive', async () => {
    const player = await registerPlayer(app);
    for (let i = 1; i <= 12; i++) await deposit(intl, player, BigInt(i * 100), `d${i}`);
    const refs = (page: { body: { data: { list: TRow[] } } }) => page.body.data.list.map((r) => r.reference);

    const page1 = await record(player, { page_size: 5 });
    expect(refs(page1)).toEqual(['d12', 'd11', 'd10', 'd9', 'd8']);
    expect(page1.body.data.prev_cursor).toBeNull();

    // Two deposits land while the player reads page 1.
    await deposit(intl, player, 1_300n, 'n1');
    await deposit(intl, player, 1_400n, 'n2');

    const page2 = await record(player, { page_size: 5, cursor: page1.body.data.next_cursor });
    expect(refs(page2)).toEqual(['d7', 'd6', 'd5', 'd4', 'd3']);
    const page3 = await record(player, { page_size: 5, cursor: page2.body.data.next_cursor });
    expect(refs(page3)).toEqual(['d2', 'd1']);
    expect(page3.body.data.next_cursor).toBeNull();

    // Going back returns exactly the pages seen before; the newest page then shows what arrived.
    const back2 = await record(player, { page_size: 5, cursor: page3.body.data.prev_cursor });
    expect(refs(back2)).toEqual(refs(page2));
    const back1 = await record(player, { page_size: 5, cursor: back2.body.data.prev_cursor });
    expect(refs(back1)).toEqual(refs(page1));
    expect(back1.body.data.prev_cursor).not.toBeNull();
    const newest = await record(player, { page_size: 5, cursor: back1.body.data.prev_cursor });
    expect(refs(newest)).toEqual(['n2', 'n1']);
    expect(newest.body.data.prev_cursor).toBeNull();
    expect(refs(await record(player, { page_size: 5, cursor: newest.body.data.next_cursor }))).toEqual(
      refs(page1),
    );

    // Walking forward from the start visits every row once, in order.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await record(player, { page_size: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...refs(page));
      cursor = page.body.data.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['n2', 'n1', ...Array.from({ length: 12 }, (_, i) => `d${12 - i}`)]);
  });

  it('pages rows that share one timestamp by their id, both ways', async () => {
    const player = await registerPlayer(app);
    // One database transaction: every transfer gets the same created_at (its start time).
    await app.services.db.transaction(async (tx) => {
      for (let i = 1; i <= 7; i++) {
        await transfer(tx, {
          siteId: intl.id,
          kind: 'deposit',
          from: { system: 'psp_clearing' },
          to: { memberId: memberId(player), account: 'cash' },
          amountMinor: BigInt(i),
          idempotencyKey: key(),
          reference: `s${i}`,
        });
      }
    });
    const refs = (page: { body: { data: { list: TRow[] } } }) => page.body.data.list.map((r) => r.reference);
    const first = await record(player, { page_size: 3 });
    expect(new Set(first.body.data.list.map((r: { created_at: string }) => r.created_at)).size).toBe(1);
    expect(refs(first)).toEqual(['s7', 's6', 's5']);
    const second = await record(player, { page_size: 3, cursor: first.body.data.next_cursor });
    expect(refs(second)).toEqual(['s4', 's3', 's2']);
    const third = await record(player, { page_size: 3, cursor: second.body.data.next_cursor });
    expect(refs(third)).toEqual(['s1']);
    expect(refs(await record(player, { page_size: 3, cursor: third.body.data.prev_cursor }))).toEqual(
      refs(second),
    );
  });

  it('filters by today / last 3 days / last 7 days / all in the site time zone', async () => {
    const player = await registerPlayer(app);
    await deposit(intl, player, 700n, 'now');
    const owner = { site: intl, memberId: memberId(player) };
    const count = async (period: 'today' | 'last_3_days' | 'last_7_days' | 'all', now: Date) =>
      (
        await listTransactions(
          app.services.db,
          { ...owner, now },
          { period, cursor: undefined, page_size: 50 },
        )
      ).list.length;
    const now = new Date();
    // Seen from two days later, the deposit is not "today" but within the last 3 and 7 days.
    const later = new Date(now.getTime() + 2 * DAY_MS);
    expect(await count('today', later)).toBe(0);
    expect(await count('last_3_days', later)).toBe(1);
    expect(await count('last_7_days', later)).toBe(1);
    // Seen from a week later only "all" (reset) shows it.
    const weekLater = new Date(now.getTime() + 7 * DAY_MS);
    expect(await count('last_7_days', weekLater)).toBe(0);
    expect(await count('all', weekLater)).toBe(1);
    // Over HTTP the filters answer with their name and the site's zone.
    const week = await record(player, { period: 'last_7_days' });
    expect(week.body.data).toMatchObject({ period: 'last_7_days', time_zone: 'UTC' });
    expect(week.body.data.list).toHaveLength(1);
    const brPlayer = await registerPlayer(app, HOSTS.br);
    const brWeek = await record(brPlayer, { period: 'last_7_days' }, HOSTS.br);
    expect(brWeek.body.data.time_zone).toBe('America/Sao_Paulo');
  });

  it('refuses bad paging and filter input with a translated error', async () => {
    const player = await registerPlayer(app);
    await deposit(intl, player, 100n);
    const other = await registerPlayer(app);
    await deposit(intl, other, 100n);
    const otherCursor = (await record(other, { page_size: 1 })).body.data;
    const forged = Buffer.from(JSON.stringify({ t: '2026-01-01T00:00:00.000000Z', i: '1', d: 'x' })).toString(
      'base64url',
    );
    const cases: [unknown, string, string][] = [
      [{ page_size: 0 }, 'page_size', 'Wrong type'],
      [{ page_size: 51 }, 'page_size', 'Wrong type'],
      [{ page_size: 2.5 }, 'page_size', 'Wrong type'],
      [{ page_size: '10' }, 'page_size', 'Wrong type'],
      [{ period: 'yesterday' }, 'period', 'Wrong type'],
      [{ cursor: 'not a cursor!' }, 'cursor', 'This page is no longer available. Please reload the list'],
      [{ cursor: 'x'.repeat(500) }, 'cursor', 'This page is no longer available. Please reload the list'],
      [{ cursor: forged }, 'cursor', 'This page is no longer available. Please reload the list'],
      [{ cursor: 42 }, 'cursor', 'Wrong type'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await record(player, payload);
      expect(response.status, JSON.stringify(payload).slice(0, 60)).toBe(422);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.errors?.[field]).toBe(message);
    }
    const pt = await call(app, {
      method: 'POST',
      url: '/api/transaction/record?lang=pt',
      token: player.token,
      payload: { cursor: 'bad!' },
    });
    expect(pt.body.message).toBe('Esta página não está mais disponível. Recarregue a lista');
    // Another member's cursor only positions the caller's own list: it never shows their rows.
    const mine = await record(player, {
      cursor: otherCursor.next_cursor ?? otherCursor.prev_cursor ?? undefined,
    });
    expect(mine.status).toBe(200);
    for (const row of mine.body.data.list as TRow[]) expect(row.amount).toBe('1.00');
  });

  it('shows only the caller’s own movements on the caller’s own site', async () => {
    const a = await registerPlayer(app);
    const b = await registerPlayer(app);
    const brPlayer = await registerPlayer(app, HOSTS.br);
    await deposit(intl, a, 111n, 'mine');
    await deposit(intl, b, 222n, 'theirs');
    await deposit(br, brPlayer, 333n, 'br');
    expect((await record(a, {})).body.data.list.map((r: TRow) => r.reference)).toEqual(['mine']);
    expect((await record(brPlayer, {}, HOSTS.br)).body.data.list.map((r: TRow) => r.reference)).toEqual([
      'br',
    ]);
    expect((await record(brPlayer, {}, HOSTS.intl)).status).toBe(401);
  });

  it('totals paid recharges, paid withdrawals, bonuses and fees in the order center', async () => {
    const player = await registerPlayer(app);
    const other = await registerPlayer(app);
    const member = memberId(player);
    const db = app.services.db;
    const insertDeposit = (owner: TPlayer, amountMinor: number, status: string, ageDays = 0) =>
      db.execute(sql`
        INSERT INTO deposit_orders (site_id, member_id, order_no, amount_minor, status, payment_method, channel,
          txid, pix_copy_paste, created_at, expires_at, paid_at)
        VALUES (${intl.id.toString()}::bigint, ${owner.user.id}::bigint, ${orderNo()}, ${amountMinor}, ${status},
          'pix', 'pix_express', ${key()}, 'copy-paste',
          now() - make_interval(days => ${ageDays}), now() - make_interval(days => ${ageDays}) + interval '15 minutes',
          ${status === 'paid' ? sql`now() - make_interval(days => ${ageDays})` : sql`NULL`})`);
    await insertDeposit(player, 10_000, 'paid');
    await insertDeposit(player, 5_050, 'paid');
    await insertDeposit(player, 7_000, 'pending');
    await insertDeposit(player, 9_900, 'expired');
    await insertDeposit(player, 20_000, 'paid', 10);
    await insertDeposit(other, 99_900, 'paid');

    // The ledger side: cash to withdraw, bonuses of three kinds, a bet that is no bonus.
    await deposit(intl, player, 15_050n);
    for (const [kindOf, amount] of [
      ['bonus_grant', 1_000n],
      ['rebate', 500n],
      ['commission', 100n],
    ] as const) {
      await transfer(db, {
        siteId: intl.id,
        kind: kindOf,
        from: { system: 'promotions_expense' },
        to: { memberId: member, account: kindOf === 'bonus_grant' ? 'bonus' : 'cash' },
        amountMinor: amount,
        idempotencyKey: key(),
      });
    }
    await transfer(db, {
      siteId: intl.id,
      kind: 'bet',
      from: { memberId: member, account: 'cash' },
      to: { system: 'house' },
      amountMinor: 50n,
      idempotencyKey: key(),
    });
    // One withdrawal paid out with a 2.00 fee, one still waiting for review.
    const paidNo = orderNo();
    const paidHold = await hold(db, {
      siteId: intl.id,
      memberId: member,
      amountMinor: 3_000n,
      idempotencyKey: key(),
    });
    await settleHold(db, {
      siteId: intl.id,
      holdTransferId: paidHold.transferId,
      idempotencyKey: key(),
      feeMinor: 200n,
    });
    const pendingHold = await hold(db, {
      siteId: intl.id,
      memberId: member,
      amountMinor: 1_000n,
      idempotencyKey: key(),
    });
    const card = (
      await call(app, {
        method: 'POST',
        url: '/api/member/bank/add',
        token: player.token,
        payload: {
          account_type: 'EVP',
          name: 'Maria Silva',
          account: crypto.randomUUID(),
          cpf_id: '529.982.247-25',
        },
      })
    ).body.data;
    const insertWithdrawal = (no: string, amount: number, fee: number, status: string, holdId: bigint) =>
      db.execute(sql`
        INSERT INTO withdrawal_orders (site_id, member_id, order_no, amount_minor, fee_minor, actual_minor, status,
          review_status, bank_card_id, payment_type, pix_key, pix_key_type, payee_name, hold_transfer_id, paid_at)
        VALUES (${intl.id.toString()}::bigint, ${player.user.id}::bigint, ${no}, ${amount}, ${fee}, ${amount - fee},
          ${status}, ${status === 'pending_review' ? 'not_reviewed' : 'reviewed'}, ${card.id}::bigint, 'pix',
          ${card.account}, 'EVP', 'Maria Silva', ${holdId.toString()}::bigint,
          ${status === 'paid' ? sql`now()` : sql`NULL`})`);
    await insertWithdrawal(paidNo, 3_000, 200, 'paid', paidHold.transferId);
    await insertWithdrawal(orderNo(), 1_000, 200, 'pending_review', pendingHold.transferId);

    const details = await get(player, '/api/ordercenter/details');
    expect(details.status).toBe(200);
    expect(details.body.data).toMatchObject({
      total_recharge_amount: '350.50',
      total_withdraw_amount: '30.00',
      total_bonus_amount: '16.00',
      total_fee_amount: '2.00',
      has_more: false,
      period: 'all',
      time_zone: 'UTC',
    });
    expect(details.body.data.details).toHaveLength(7);
    expect(details.body.data.details).toContainEqual({
      type: 'withdraw',
      order_no: paidNo,
      amount: '30.00',
      fee: '2.00',
      actual_amount: '28.00',
      status: 'paid',
      created_at: expect.any(String),
    });
    expect(details.body.data.details.filter((d: { type: string }) => d.type === 'recharge')).toHaveLength(5);

    const week = await get(player, '/api/ordercenter/details?period=last_7_days');
    expect(week.body.data).toMatchObject({ total_recharge_amount: '150.50', total_withdraw_amount: '30.00' });
    expect(week.body.data.details).toHaveLength(6);

    const fee = await get(player, '/api/ordercenter/fee');
    expect(fee.body.data).toMatchObject({ total_fee_amount: '2.00', has_more: false });
    expect(fee.body.data.fee).toEqual([
      {
        id: expect.any(Number),
        order_no: paidNo,
        withdraw_amount: '30.00',
        fee: '2.00',
        created_at: expect.any(String),
      },
    ]);

    // Filters by date through the service with a shifted clock: ten days on, nothing is in "last 7 days".
    const owner = { site: intl, memberId: member, now: new Date(Date.now() + 10 * DAY_MS) };
    const later = await getOrderCenterDetails(db, owner, 'last_7_days');
    expect(later).toMatchObject({
      details: [],
      total_recharge_amount: '0.00',
      total_withdraw_amount: '0.00',
      total_bonus_amount: '0.00',
      total_fee_amount: '0.00',
    });
    expect((await getOrderCenterFees(db, owner, 'last_7_days')).fee).toEqual([]);

    // The other member's orders never count for this one, and the other sees only their own.
    const theirs = await get(other, '/api/ordercenter/details');
    expect(theirs.body.data).toMatchObject({ total_recharge_amount: '999.00', total_fee_amount: '0.00' });
    expect(theirs.body.data.details).toHaveLength(1);

    for (const url of ['/api/ordercenter/details?period=week', '/api/ordercenter/fee?period=1']) {
      const bad = await get(player, url);
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toEqual({ period: 'Wrong type' });
    }
  });

  it('lists direct and indirect invitees with their paid recharges in the association', async () => {
    const agent = await registerPlayer(app);
    const direct = await registerPlayer(app, HOSTS.intl, { invite_code: agent.user.invite_code });
    const indirect = await registerPlayer(app, HOSTS.intl, { invite_code: direct.user.invite_code });
    const stranger = await registerPlayer(app);
    for (const [owner, amount, status] of [
      [direct, 12_345, 'paid'],
      [direct, 1_000, 'pending'],
      [indirect, 5_000, 'paid'],
      [stranger, 7_777, 'paid'],
    ] as const) {
      await app.services.db.execute(sql`
        INSERT INTO deposit_orders (site_id, member_id, order_no, amount_minor, status, payment_method, channel,
          txid, pix_copy_paste, expires_at, paid_at)
        VALUES (${intl.id.toString()}::bigint, ${owner.user.id}::bigint, ${orderNo()}, ${amount}, ${status}, 'pix',
          'pix_express', ${key()}, 'copy-paste', now() + interval '15 minutes',
          ${status === 'paid' ? sql`now()` : sql`NULL`})`);
    }
    const association = await get(agent, '/api/ordercenter/association');
    expect(association.status).toBe(200);
    expect(association.body.data).toEqual({
      association: [
        {
          id: indirect.user.id,
          name: expect.stringContaining('***'),
          relation: 'indirect',
          created_at: expect.any(String),
          total_recharge_amount: '50.00',
        },
        {
          id: direct.user.id,
          name: `${direct.user.name.slice(0, 2)}***${direct.user.name.slice(-2)}`,
          relation: 'direct',
          created_at: expect.any(String),
          total_recharge_amount: '123.45',
        },
      ],
      total: 2,
      total_recharge_amount: '173.45',
      has_more: false,
    });
    // The direct invitee sees the one they invited; the stranger sees nobody.
    const middle = (await get(direct, '/api/ordercenter/association')).body.data;
    expect(middle.association.map((a: { id: number; relation: string }) => [a.id, a.relation])).toEqual([
      [indirect.user.id, 'direct'],
    ]);
    expect((await get(stranger, '/api/ordercenter/association')).body.data).toMatchObject({
      association: [],
      total: 0,
      total_recharge_amount: '0.00',
    });
  });

  it('answers the BRL balance of the in-house wallet and refuses other currencies or platforms', async () => {
    const player = await registerPlayer(app);
    const empty = await get(player, '/api/day7/getAllBalance?currency=BRL&platType=');
    expect(empty.body.data).toEqual({
      currency: 'BRL',
      list: [
        {
          plat_type: 'sorte',
          name: intl.name,
          money: '0.00',
          fs_money: '0.00',
          hold_money: '0.00',
          total_money: '0.00',
        },
      ],
      total_money: '0.00',
    });
    await deposit(intl, player, 12_345n);
    await transfer(app.services.db, {
      siteId: intl.id,
      kind: 'bonus_grant',
      from: { system: 'promotions_expense' },
      to: { memberId: memberId(player), account: 'bonus' },
      amountMinor: 655n,
      idempotencyKey: key(),
    });
    await hold(app.services.db, {
      siteId: intl.id,
      memberId: memberId(player),
      amountMinor: 2_345n,
      idempotencyKey: key(),
    });
    const balance = await get(player, '/api/day7/getAllBalance?currency=BRL&platType=sorte');
    expect(balance.status).toBe(200);
    expect(balance.body.data).toEqual({
      currency: 'BRL',
      list: [
        {
          plat_type: 'sorte',
          name: intl.name,
          money: '100.00',
          fs_money: '6.55',
          hold_money: '23.45',
          total_money: '106.55',
        },
      ],
      total_money: '106.55',
    });
    expect((await get(player, '/api/day7/getAllBalance')).body.data.total_money).toBe('106.55');

    const usd = await get(player, '/api/day7/getAllBalance?currency=USD&lang=pt');
    expect(usd.status).toBe(422);
    expect(usd.body).toMatchObject({
      code: 'CURRENCY_UNSUPPORTED',
      message: 'Apenas saldos em BRL estão disponíveis',
    });
    const platform = await get(player, '/api/day7/getAllBalance?currency=BRL&platType=pg');
    expect(platform.status).toBe(422);
    expect(platform.body.errors).toEqual({ platType: 'Unknown game platform' });
    const huge = await get(player, `/api/day7/getAllBalance?currency=${'B'.repeat(100)}`);
    expect(huge.status).toBe(422);
  });
});
