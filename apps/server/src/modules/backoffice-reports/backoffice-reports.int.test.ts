import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  call,
  HOSTS,
  loginOperator,
  randomCpf,
  registerPlayer,
  solvedCaptcha,
} from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { newSite } from '../agency/agency.fixtures.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { localDay } from '../promotions/days.ts';
import { getBalances } from '../wallet/balances.ts';
import { hold, settleHold } from '../wallet/holds.ts';
import { transfer } from '../wallet/wallet.service.ts';

const kinds = await databaseKinds();

describe.each(kinds)('back-office reports on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string, token: string | undefined, host: string = HOSTS.intl) =>
    call(app, { method: 'GET', url, token, host });
  const post = (url: string, token: string | undefined, payload: object = {}, host: string = HOSTS.intl) =>
    call(app, { method: 'POST', url, token, host, payload });

  /** Money into a member's cash as a paid PIX deposit is credited. */
  async function deposit(siteId: bigint, memberId: bigint, amountMinor: bigint) {
    await transfer(app.services.db, {
      siteId,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId, account: 'cash' },
      amountMinor,
      idempotencyKey: `bo-test-deposit:${randomUUID()}`,
    });
  }

  async function bet(siteId: bigint, memberId: bigint, stakeMinor: bigint, winMinor: bigint) {
    await transfer(app.services.db, {
      siteId,
      kind: 'bet',
      from: { memberId, account: 'cash' },
      to: { system: 'house' },
      amountMinor: stakeMinor,
      idempotencyKey: `bo-test-bet:${randomUUID()}`,
    });
    if (winMinor > 0n) {
      await transfer(app.services.db, {
        siteId,
        kind: 'win',
        from: { system: 'house' },
        to: { memberId, account: 'cash' },
        amountMinor: winMinor,
        idempotencyKey: `bo-test-win:${randomUUID()}`,
      });
    }
  }

  async function login(username: string, host: string) {
    return call(app, {
      method: 'POST',
      url: '/api/auth/login2',
      host,
      payload: { username, password: 'secret123', ...(await solvedCaptcha(app, host)) },
    });
  }

  it('dashboard: deposits, withdrawals, bets, wins, GGR, bonus cost and players equal the known activity', async () => {
    const { site, host } = await newSite(app, 'intl');
    const owner = await loginOperator(app, 'owner', host, 'qa_dash_owner');
    const a = await registerPlayer(app, host);
    const b = await registerPlayer(app, host);
    const aId = BigInt(a.user.id);
    const bId = BigInt(b.user.id);

    await deposit(site.id, aId, 100_00n);
    await deposit(site.id, bId, 50_00n);
    await bet(site.id, aId, 30_00n, 10_00n);
    await bet(site.id, bId, 20_00n, 0n);
    // A rebate: 5.00 out of the promotions expense account.
    await transfer(app.services.db, {
      siteId: site.id,
      kind: 'rebate',
      from: { system: 'promotions_expense' },
      to: { memberId: aId, account: 'cash' },
      amountMinor: 5_00n,
      idempotencyKey: `bo-test-rebate:${randomUUID()}`,
    });
    // A withdrawal of 10.00 paid out with a 1.00 fee.
    const held = await hold(app.services.db, {
      siteId: site.id,
      memberId: bId,
      amountMinor: 10_00n,
      idempotencyKey: `bo-test-hold:${randomUUID()}`,
      enforceWagering: false,
    });
    await settleHold(app.services.db, {
      siteId: site.id,
      holdTransferId: held.transferId,
      idempotencyKey: `bo-test-payout:${randomUUID()}`,
      feeMinor: 1_00n,
    });
    // A manual correction of +2.00 through the back office.
    const adjusted = await post(
      `/api/admin/players/${aId}/adjust-balance`,
      owner,
      { direction: 'credit', amount: '2.00', reason: 'goodwill', idempotency_key: `dash-${randomUUID()}` },
      host,
    );
    expect(adjusted.status).toBe(200);

    const expected = {
      deposits: '150.00',
      deposits_count: 2,
      withdrawals: '10.00',
      withdrawals_count: 1,
      bets: '50.00',
      bets_bonus: '0.00',
      bets_count: 2,
      wins: '10.00',
      refunds: '0.00',
      ggr: '40.00',
      bonus_cost: '5.00',
      ngr: '35.00',
      corrections: '2.00',
      active_players: 2,
      new_players: 2,
      depositors: 2,
    };
    const today = localDay(new Date(), 'UTC');
    const { status, body } = await get('/api/admin/dashboard?preset=today', owner, host);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ site: site.code, time_zone: 'UTC', from: today, to: today });
    expect(body.data.totals).toEqual(expected);
    expect(body.data.daily).toEqual([{ date: today, ...expected }]);

    // 7 days: the same totals, one point per day, the earlier days empty.
    const week = await get('/api/admin/dashboard?preset=7d', owner, host);
    expect(week.body.data.totals).toEqual(expected);
    expect(week.body.data.daily).toHaveLength(7);
    expect(week.body.data.daily.slice(0, 6).every((d: { bets: string }) => d.bets === '0.00')).toBe(true);

    // A period without activity.
    const past = await get('/api/admin/dashboard?from=2025-01-01&to=2025-01-31', owner, host);
    expect(past.body.data.totals).toMatchObject({
      deposits: '0.00',
      bets: '0.00',
      new_players: 0,
      active_players: 0,
    });
    expect(past.body.data.daily).toHaveLength(31);

    // to before from: refused, translated.
    const backwards = await get('/api/admin/dashboard?from=2025-02-01&to=2025-01-01&lang=pt', owner, host);
    expect(backwards.status).toBe(422);
    expect(backwards.body.code).toBe('VALIDATION_FAILED');

    // CSV: the daily series, header first.
    const csv = await app.inject({
      method: 'GET',
      url: '/api/admin/dashboard?preset=today&format=csv',
      headers: { host, authorization: `Bearer ${owner}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('attachment');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'date,deposits,deposits_count,withdrawals,withdrawals_count,bets,bets_bonus,bets_count,wins,refunds,ggr,bonus_cost,ngr,corrections,active_players,new_players,depositors',
    );
    expect(lines[1]).toBe(`${today},150.00,2,10.00,1,50.00,0.00,2,10.00,0.00,40.00,5.00,35.00,2.00,2,2,2`);

    // The site's ledger still reconciles.
    const recon = await get('/api/admin/reconciliation', owner, host);
    expect(recon.status).toBe(200);
    expect(recon.body.data).toMatchObject({ ok: true, balance_sum: '0.00', drift: [] });
    // a: 100 − 30 + 10 + 5 + 2; b: 50 − 20 − 10.
    expect(recon.body.data.player_balances.cash).toBe('107.00');
    expect(recon.body.data.system_balances.suspense).toBe('-2.00');
  });

  it('finds a player by username, name, CPF, phone, email and address (partial, any case), paged', async () => {
    const player = await registerPlayer(app, HOSTS.intl);
    const id = BigInt(player.user.id);
    const username = player.input.username as string;
    const cpf = randomCpf();
    const phone = `+55 (21) 9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const email = `${username}@Mail-Test.example`;
    const ip = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    await app.services.db.execute(
      sql`UPDATE members SET cpf = ${cpf}, phone = ${phone}, email = ${email}, register_ip = ${ip},
          realname = ${`Zuleica ${username}`} WHERE id = ${id.toString()}::bigint`,
    );
    const support = await loginOperator(app, 'support');
    const search = (query: string) => get(`/api/admin/players?${query}`, support);
    const ids = (body: { data: { list: { id: number }[] } }) => body.data.list.map((p) => p.id);

    const cases: [string, string][] = [
      ['username', username.slice(2, 12).toUpperCase()],
      ['name', `zuleica ${username}`.toUpperCase()],
      ['cpf', `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`],
      ['phone', phone.replace(/\D/g, '').slice(-9)],
      ['email', email.toLowerCase().slice(3)],
      ['address', ip],
      ['any', email.toUpperCase()],
    ];
    for (const [field, q] of cases) {
      const { status, body } = await search(`field=${field}&q=${encodeURIComponent(q)}`);
      expect(status, field).toBe(200);
      expect(ids(body), field).toContain(Number(id));
      expect(body.data.list.find((p: { id: number }) => p.id === Number(id))).toMatchObject({
        username,
        cpf,
        email,
        status: 'active',
        cash: '0.00',
      });
    }
    // A CPF search does not match by another field's digits.
    const other = await search(`field=cpf&q=${encodeURIComponent('00000000000')}`);
    expect(ids(other.body)).not.toContain(Number(id));
    // Pattern characters are literal.
    const percent = await search('field=username&q=%25');
    expect(percent.body.data.total).toBe(0);

    // Paging: one per page, the total counts them all.
    const first = await search('page_size=1&page=1');
    const second = await search('page_size=1&page=2');
    expect(first.body.data).toMatchObject({ page: 1, page_size: 1 });
    expect(first.body.data.total).toBeGreaterThan(1);
    expect(first.body.data.list).toHaveLength(1);
    expect(ids(second.body)[0]).not.toBe(ids(first.body)[0]);

    // CSV of the search.
    const csv = await app.inject({
      method: 'GET',
      url: `/api/admin/players?field=username&q=${username}&format=csv`,
      headers: { host: HOSTS.intl, authorization: `Bearer ${support}` },
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'id,username,realname,cpf,phone,email,register_ip,status,cash,bonus,created_at,last_login_at',
    );
    expect(lines).toHaveLength(2);
    // A cell a spreadsheet would run as a formula (the phone's leading +) starts with an apostrophe.
    expect(lines[1]).toContain(
      `${id},${username},Zuleica ${username},${cpf},'${phone},${email},${ip},active,0.00,0.00,`,
    );

    // The players of another site are not found from this one.
    const br = await loginOperator(app, 'support', HOSTS.br);
    const fromBr = await get(`/api/admin/players?field=username&q=${username}`, br, HOSTS.br);
    expect(fromBr.body.data.total).toBe(0);
    expect((await get(`/api/admin/players/${id}`, br, HOSTS.br)).status).toBe(404);

    // A player token is not an operator token.
    expect((await get('/api/admin/players', player.token)).status).toBe(401);
  });

  it('adjusts a balance with a correcting transfer: reason and permission required, idempotent, reconciles', async () => {
    const player = await registerPlayer(app, HOSTS.intl);
    const id = BigInt(player.user.id);
    const site = (await app.services.sites.byHost(HOSTS.intl))!;
    await deposit(site.id, id, 40_00n);
    const owner = await loginOperator(app, 'owner');
    const support = await loginOperator(app, 'support');
    const finance = await loginOperator(app, 'finance');
    const url = `/api/admin/players/${id}/adjust-balance`;
    const key = `adj-${randomUUID()}`;
    const body = {
      direction: 'credit',
      amount: '25.00',
      reason: 'Lost round refund (ticket 42)',
      idempotency_key: key,
    };
    const audit = async () => (await get(`/api/admin/players/${id}/audit`, owner)).body.data;

    // Refused: without a reason, without the permission, with a player token. Nothing changes.
    const noReason = await post(url, owner, { ...body, reason: '  ' });
    expect(noReason.status).toBe(422);
    expect(noReason.body.code).toBe('VALIDATION_FAILED');
    expect(noReason.body.errors?.reason).toBeDefined();
    const ptReason = await post(`${url}?lang=pt`, owner, {
      direction: 'credit',
      amount: '1',
      idempotency_key: key,
    });
    expect(ptReason.body.errors?.reason).toBe('Por favor, informe o motivo');
    expect((await post(url, support, body)).status).toBe(403);
    expect((await post(url, player.token, body)).status).toBe(401);
    expect((await post(url, undefined, body)).status).toBe(401);
    expect((await getBalances(app.services.db, id)).cashMinor).toBe(40_00n);
    expect((await audit()).total).toBe(0);

    // Credit 25.00: suspense → cash, audited with before and after.
    const credited = await post(url, owner, body);
    expect(credited.status).toBe(200);
    expect(credited.body.data).toMatchObject({
      direction: 'credit',
      amount: '25.00',
      cash_after: '65.00',
      replayed: false,
    });
    expect((await getBalances(app.services.db, id)).cashMinor).toBe(65_00n);
    // The same click again: the same transfer, no second movement, no second audit entry.
    const replay = await post(url, owner, body);
    expect(replay.body.data).toMatchObject({ transfer_id: credited.body.data.transfer_id, replayed: true });
    expect((await getBalances(app.services.db, id)).cashMinor).toBe(65_00n);
    // The same key for another amount: a conflict, nothing moves.
    const conflict = await post(url, owner, { ...body, amount: '30.00' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');

    // Debit beyond the cash: refused, the balance never goes negative.
    const tooMuch = await post(url, finance, {
      direction: 'debit',
      amount: '65.01',
      reason: 'duplicate credit',
      idempotency_key: `adj-${randomUUID()}`,
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.code).toBe('INSUFFICIENT_FUNDS');
    // Finance may adjust: debit 5.00.
    const debited = await post(url, finance, {
      direction: 'debit',
      amount: '5.00',
      reason: 'duplicate credit',
      idempotency_key: `adj-${randomUUID()}`,
    });
    expect(debited.status).toBe(200);
    expect(debited.body.data.cash_after).toBe('60.00');

    // In the player's ledger as corrections against the suspense account.
    const ledger = await get(`/api/admin/players/${id}/transfers?kind=correction`, owner);
    expect(ledger.body.data.total).toBe(2);
    expect(ledger.body.data.list.map((t: { change: string }) => t.change)).toEqual(['-5.00', '+25.00']);
    expect(ledger.body.data.list[0]).toMatchObject({
      kind: 'correction',
      account: 'cash',
      counterparty: 'suspense',
    });

    // Two audit entries, each with before and after.
    const entries = await audit();
    expect(entries.total).toBe(2);
    expect(entries.list[1]).toMatchObject({
      operator: 'admin',
      action: 'member.balance_adjust',
      before: { cash: '40.00' },
      after: { cash: '65.00', direction: 'credit', amount: '25.00', reason: 'Lost round refund (ticket 42)' },
    });
    expect(entries.list[0]).toMatchObject({
      operator: 'qa_finance',
      before: { cash: '65.00' },
      after: { cash: '60.00' },
    });

    // The ledger has no drift.
    const recon = await get('/api/admin/reconciliation', owner);
    expect(recon.body.data).toMatchObject({ ok: true, balance_sum: '0.00', drift: [] });
    // Support cannot read the money reports.
    expect((await get('/api/admin/reconciliation', support)).status).toBe(403);
  });

  it('freezes an account (login and play refused, sessions ended), unfreezes it, and audits every action', async () => {
    const player = await registerPlayer(app, HOSTS.intl);
    const id = player.user.id as number;
    const username = player.input.username as string;
    const support = await loginOperator(app, 'support');
    const content = await loginOperator(app, 'content');
    const owner = await loginOperator(app, 'owner');

    expect((await post(`/api/admin/players/${id}/freeze`, content, { reason: 'x' })).status).toBe(403);
    const noReason = await post(`/api/admin/players/${id}/freeze`, support, {});
    expect(noReason.status).toBe(422);
    expect((await call(app, { method: 'POST', url: '/api/auth/me', token: player.token })).status).toBe(200);

    const frozen = await post(`/api/admin/players/${id}/freeze`, support, {
      reason: 'chargeback investigation',
    });
    expect(frozen.status).toBe(200);
    expect(frozen.body.data).toEqual({ id, status: 'frozen', sessions_ended: 1 });
    // The open session is over, a new login is refused.
    const me = await call(app, { method: 'POST', url: '/api/auth/me', token: player.token });
    expect(me.status).toBe(401);
    const refused = await login(username, HOSTS.intl);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ACCOUNT_DISABLED');
    const detail = await get(`/api/admin/players/${id}`, support);
    expect(detail.body.data.profile.status).toBe('frozen');
    expect(detail.body.data.online_sessions).toBe(0);

    const unfrozen = await post(`/api/admin/players/${id}/unfreeze`, support, { reason: 'cleared' });
    expect(unfrozen.body.data).toEqual({ id, status: 'active', sessions_ended: 0 });
    const again = await login(username, HOSTS.intl);
    expect(again.status).toBe(200);

    // Force offline and a note.
    const offline = await post(`/api/admin/players/${id}/force-offline`, support);
    expect(offline.body.data).toEqual({ member_id: id, sessions_ended: 1 });
    const noted = await post(`/api/admin/players/${id}/notes`, support, {
      body: 'Called the player: all good',
    });
    expect(noted.status).toBe(200);
    expect(noted.body.data).toMatchObject({ operator: 'qa_support', body: 'Called the player: all good' });
    expect((await post(`/api/admin/players/${id}/notes`, support, { body: '' })).status).toBe(422);
    const notes = await get(`/api/admin/players/${id}/notes`, owner);
    expect(notes.body.data.list.map((n: { body: string }) => n.body)).toEqual([
      'Called the player: all good',
    ]);

    // Every action has its audit entry: who, what, before and after.
    const audit = await get(`/api/admin/players/${id}/audit`, owner);
    const byAction = audit.body.data.list.map((e: { action: string }) => e.action);
    expect(byAction).toEqual(['member.note_add', 'member.force_offline', 'member.unfreeze', 'member.freeze']);
    expect(audit.body.data.list[3]).toMatchObject({
      operator: 'qa_support',
      before: { status: 'active' },
      after: { status: 'frozen', reason: 'chargeback investigation', sessions_ended: 1 },
    });
    expect(audit.body.data.list[2]).toMatchObject({
      before: { status: 'frozen' },
      after: { status: 'active' },
    });
    expect(audit.body.data.list[1]).toMatchObject({
      before: { active_sessions: 1 },
      after: { sessions_ended: 1 },
    });
    // The audit log as CSV.
    const csv = await app.inject({
      method: 'GET',
      url: `/api/admin/players/${id}/audit?format=csv`,
      headers: { host: HOSTS.intl, authorization: `Bearer ${owner}` },
    });
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id,created_at,operator,action,entity,entity_id,before,after');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toContain(',qa_support,member.freeze,member,');
    expect(lines[4]).toContain('"{""status"":""active""}"');

    // Sessions show the two logins and how they ended.
    const sessions = await get(`/api/admin/players/${id}/sessions`, owner);
    expect(sessions.body.data.total).toBe(2);
    expect(sessions.body.data.list.map((s: { end_reason: string }) => s.end_reason)).toEqual([
      'force_offline',
      'force_offline',
    ]);
  });

  it("shows a player's detail, rounds and ledger; reads crash chains and the mail outbox with codes masked", async () => {
    const player = await registerPlayer(app, HOSTS.intl);
    const id = BigInt(player.user.id);
    const site = (await app.services.sites.byHost(HOSTS.intl))!;
    await deposit(site.id, id, 20_00n);
    const dice = await call(app, {
      method: 'POST',
      url: '/api/originals/dice/bet',
      token: player.token,
      payload: { amount: '1.00', target: 5000, direction: 'under', idempotency_key: `dice-${randomUUID()}` },
    });
    expect(dice.status).toBe(200);
    const support = await loginOperator(app, 'support');

    const detail = await get(`/api/admin/players/${id}`, support);
    expect(detail.status).toBe(200);
    expect(detail.body.data.profile).toMatchObject({ id: Number(id), status: 'active' });
    expect(detail.body.data.totals.deposits).toBe('20.00');
    expect(detail.body.data.rg).toEqual({ limits: [], exclusions: [] });

    const rounds = await get(`/api/admin/players/${id}/rounds`, support);
    expect(rounds.status).toBe(200);
    expect(rounds.body.data.total).toBe(1);
    expect(rounds.body.data.list[0]).toMatchObject({ source: 'originals', game: 'dice', stake: '1.00' });
    const ledger = await get(`/api/admin/players/${id}/transfers?page_size=1`, support);
    expect(ledger.body.data.list).toHaveLength(1);
    // The deposit, the stake and the win when there was one.
    expect(ledger.body.data.total).toBe(rounds.body.data.list[0].payout === '0.00' ? 2 : 3);
    expect((await get('/api/admin/players/999999999', support)).status).toBe(404);

    // A chain committed and waiting for its salt (fixed by its first round's bets, ADR 008).
    const hex = () => randomUUID().replace(/-/g, '').repeat(2);
    const terminating = hex();
    await app.services.db.execute(
      sql`INSERT INTO crash_chains (terminal_seed, terminating_hash, public_salt, length, salt_source)
          VALUES (${hex()}, ${terminating}, NULL, 10, 'bets')`,
    );
    const chains = await get('/api/admin/crash/chains?page_size=200', support);
    expect(chains.status).toBe(200);
    expect(
      chains.body.data.list.find((c: { terminating_hash: string }) => c.terminating_hash === terminating),
    ).toMatchObject({
      public_salt: null,
      salt_fixed_at: null,
      salt_source: 'bets',
      position: 0,
      length: 10,
    });
    expect(chains.status).toBe(200);
    for (const chain of chains.body.data.list) {
      expect(chain.terminating_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(chain).not.toHaveProperty('terminal_seed');
    }
    if (chains.body.data.list.length > 0) {
      const chainRounds = await get(`/api/admin/crash/chains/${chains.body.data.list[0].id}/rounds`, support);
      expect(chainRounds.status).toBe(200);
      for (const round of chainRounds.body.data.list) {
        if (round.state !== 'crashed') expect(round.round_hash).toBeNull();
      }
    }
    expect((await get('/api/admin/crash/chains/999999999/rounds', support)).status).toBe(404);
    // Its hashes do not come from its seed: a crash engine of a later file on this process's
    // database must not deal rounds from it.
    await app.services.db.execute(sql`DELETE FROM crash_chains WHERE terminating_hash = ${terminating}`);

    const to = `${randomUUID().slice(0, 8)}@outbox.example`;
    await enqueueMail(app.services.db, {
      siteId: site.id,
      memberId: id,
      to,
      subject: 'Your code',
      text: 'Your confirmation code is 482913. It expires in 10 minutes.',
    });
    const mail = await get(`/api/admin/mail-outbox?q=${encodeURIComponent(to)}`, support);
    expect(mail.status).toBe(200);
    expect(mail.body.data.total).toBe(1);
    expect(mail.body.data.list[0]).toMatchObject({
      to_address: to,
      username: player.input.username,
      subject: 'Your code',
      body: 'Your confirmation code is ••••••. It expires in 10 minutes.',
    });
    // Finance has no mail permission; content reads players without their personal data (ADR 022).
    const finance = await loginOperator(app, 'finance');
    expect((await get('/api/admin/mail-outbox', finance)).status).toBe(403);
    const content = await loginOperator(app, 'content');
    expect((await get('/api/admin/mail-outbox', content)).status).toBe(403);
    const masked = await get(`/api/admin/players/${id}`, content);
    expect(masked.status).toBe(200);
    expect(masked.body.data.profile.phone).toMatch(/\*{4}/);
    expect((await get('/api/admin/dashboard', content)).status).toBe(200);
  });
});
