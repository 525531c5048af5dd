import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, loginOperator, solvedCaptcha } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { addCard, fund, newPlayer, randomCpf } from '../deposits/money.fixtures.ts';
import { outboxEvent } from './aml.fixtures.ts';
import { runScreening } from './aml.screening.ts';

const kinds = await databaseKinds();

describe.each(kinds)('compliance back office: cases, hold, COAF file on %s', (kind) => {
  let app: FastifyInstance;
  let db: Db;
  let siteId: bigint;
  let compliance: string;
  let support: string;
  let finance: string;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    db = app.services.db;
    siteId = (await app.services.sites.byHost(HOSTS.intl))!.id;
    compliance = await loginOperator(app, 'compliance');
    support = await loginOperator(app, 'support');
    finance = await loginOperator(app, 'finance');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const admin = (token: string, url: string, payload?: Record<string, unknown>, host: string = HOSTS.intl) =>
    call(app, { method: payload ? 'POST' : 'GET', url, token, host, ...(payload ? { payload } : {}) });

  /** A player with cash, a PIX card and one withdrawal waiting for review. */
  async function withdrawing() {
    const player = await newPlayer(app);
    await fund(db, player.memberId, 1_000_000n);
    const cardId = await addCard(db, player.memberId, { cpf: randomCpf() });
    const response = await call(app, {
      method: 'POST',
      url: '/api/drawing',
      token: player.token,
      payload: { money: '100.00', member_bank_id: cardId.toString(), qk_pwd: player.qkPwd },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return { ...player, orderNo: response.body.data.order_no as string };
  }

  /** A case for the player: a large deposit screened. */
  async function caseOf(memberId: bigint): Promise<number> {
    await outboxEvent(db, { siteId, memberId, kind: 'deposit', amountMinor: 500_000n });
    await runScreening(db);
    const cases = await admin(compliance, '/api/admin/compliance/cases?status=open&limit=200');
    const found = cases.body.data.list.find((c: { member_id: number }) => c.member_id === Number(memberId));
    expect(found, 'a case for the player').toBeTruthy();
    return found.id as number;
  }

  const playerList = async (token: string) =>
    call(app, { method: 'POST', url: '/api/drawing/list', token, payload: {} });

  async function relogin(username: string) {
    const login = await call(app, {
      method: 'POST',
      url: '/api/auth/login2',
      payload: { username, password: 'secret123', ...(await solvedCaptcha(app)) },
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    return login.body.data.token as string;
  }

  it('refuses a role without the permission (403), bad input (422 VALIDATION_FAILED, translated), another site (404)', async () => {
    const player = await newPlayer(app);
    const caseId = await caseOf(player.memberId);
    expect((await admin(support, '/api/admin/compliance/cases')).status).toBe(403);
    expect((await admin(finance, `/api/admin/compliance/cases/${caseId}`)).status).toBe(403);
    expect((await admin(support, `/api/admin/compliance/cases/${caseId}/hold`, {})).status).toBe(403);
    const blank = await admin(compliance, `/api/admin/compliance/cases/${caseId}/decide?lang=pt`, {
      decision: 'report',
      reason: '  ',
    });
    // The platform's answer to input that does not match a route's schema (packages/contract errors.ts).
    expect(blank.status).toBe(422);
    expect(blank.body.code).toBe('VALIDATION_FAILED');
    expect(blank.body.message).toBe('Por favor, informe o motivo');
    const wrong = await admin(compliance, `/api/admin/compliance/cases/${caseId}/decide`, {
      decision: 'ignore',
      reason: 'x',
    });
    expect(wrong.status).toBe(422);
    expect((await admin(compliance, '/api/admin/compliance/cases/abc')).status).toBe(422);
    expect(
      (await admin(compliance, '/api/admin/compliance/exports', { kind: 'annual', year: 1900 })).status,
    ).toBe(422);
    const open = await rowsOf<{ status: string }>(db, sql`SELECT status FROM aml_cases WHERE id = ${caseId}`);
    expect(open).toEqual([{ status: 'open' }]);
    // The same case seen from the br site's compliance operator does not exist.
    const brCompliance = await loginOperator(app, 'compliance', HOSTS.br);
    expect(
      (await admin(brCompliance, `/api/admin/compliance/cases/${caseId}`, undefined, HOSTS.br)).status,
    ).toBe(404);
    const brList = await admin(brCompliance, '/api/admin/compliance/cases?limit=200', undefined, HOSTS.br);
    expect(brList.body.data.list.some((c: { id: number }) => c.id === caseId)).toBe(false);
  });

  it('a hold keeps the withdrawal in the ordinary review: the player sees exactly what they saw, sessions end', async () => {
    const held = await withdrawing();
    const ordinary = await withdrawing();
    const before = await playerList(held.token);
    const caseId = await caseOf(held.memberId);
    const hold = await admin(compliance, `/api/admin/compliance/cases/${caseId}/hold`, {});
    expect(hold.status, JSON.stringify(hold.body)).toBe(200);
    // Every session of the player ended (force offline, as an operator's would).
    const ended = await playerList(held.token);
    expect(ended.status).toBe(401);
    const token = await relogin(held.username);
    const after = await playerList(token);
    expect(after.body).toEqual(before.body);
    const order = after.body.data.list[0];
    const control = (await playerList(ordinary.token)).body.data.list[0];
    expect(Object.keys(order).sort()).toEqual(Object.keys(control).sort());
    expect(order.status).toBe(control.status);
    expect(JSON.stringify(after.body)).not.toMatch(/hold|compliance|aml|coaf/i);
    // Finance cannot pay it out while it is held; the order stays in review.
    const approve = await admin(finance, `/api/admin/withdrawals/${held.orderNo}/approve`, {
      remark: 'checked',
    });
    expect(approve.status).toBe(409);
    expect(approve.body.code).toBe('COMPLIANCE_HOLD');
    const status = await rowsOf<{ status: string }>(
      db,
      sql`SELECT status FROM withdrawal_orders WHERE order_no = ${held.orderNo}`,
    );
    expect(status).toEqual([{ status: 'pending_review' }]);
    // A new request stays in review and looks like any other.
    const card = await addCard(db, held.memberId, { cpf: randomCpf() });
    const second = await call(app, {
      method: 'POST',
      url: '/api/drawing',
      token,
      payload: { money: '50.00', member_bank_id: card.toString(), qk_pwd: held.qkPwd },
    });
    expect(second.status).toBe(200);
    const newest = (await playerList(token)).body.data.list.find(
      (o: { order_no: string }) => o.order_no === second.body.data.order_no,
    );
    expect(Object.keys(newest).sort()).toEqual(Object.keys(control).sort());
    expect(newest.status).toBe(control.status);
  });

  it('report: the COAF file names who, what, why and the narrative; it is stored, downloadable and audited', async () => {
    const player = await withdrawing();
    const caseId = await caseOf(player.memberId);
    await admin(compliance, `/api/admin/compliance/cases/${caseId}/notes`, {
      note: 'deposits do not match income',
    });
    const detail = await admin(compliance, `/api/admin/compliance/cases/${caseId}`);
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.data.alerts.map((a: { rule: string }) => a.rule)).toContain('large_amount');
    expect(detail.body.data.notes).toMatchObject([{ note: 'deposits do not match income' }]);
    expect(detail.body.data.timeline.map((t: { kind: string }) => t.kind)).toEqual(
      expect.arrayContaining(['withdrawal', 'login']),
    );
    const decided = await admin(compliance, `/api/admin/compliance/cases/${caseId}/decide`, {
      decision: 'report',
      reason: 'Deposits far above the declared income, withdrawn with little play.',
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const reportId = decided.body.data.report_id as number;
    const download = await app.inject({
      method: 'GET',
      url: `/api/admin/compliance/reports/${reportId}/file`,
      headers: { host: HOSTS.intl, authorization: `Bearer ${compliance}` },
    });
    expect(download.statusCode).toBe(200);
    const file = download.json();
    expect(file).toMatchObject({
      kind: 'suspicious_operation_communication',
      reporting_entity: { jurisdiction: 'intl' },
      subject: { member_id: String(player.memberId), username: player.username },
      narrative: 'Deposits far above the declared income, withdrawn with little play.',
    });
    expect(file.reasons[0]).toMatchObject({ rule: 'large_amount', amount_minor: '500000' });
    expect(file.reasons[0].legal_basis).toMatch(/FATF/);
    expect(file.operations).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'withdrawal', amount_minor: '10000' })]),
    );
    const holds = await rowsOf<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM aml_holds WHERE member_id = ${player.memberId.toString()}::bigint`,
    );
    expect(holds[0]!.n).toBe(1);
    const again = await admin(compliance, `/api/admin/compliance/cases/${caseId}/decide`, {
      decision: 'close',
      reason: 'x',
    });
    expect(again.body.code).toBe('COMPLIANCE_CASE_DECIDED');
    const audit = await rowsOf<{ action: string }>(
      db,
      sql`SELECT action FROM operator_actions WHERE entity = 'aml_case' AND entity_id = ${String(caseId)} ORDER BY id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['compliance.note', 'compliance.hold', 'compliance.report']);
    // A report this year: no non-occurrence to declare for it; another year has one; the annual report exports.
    const year = new Date().getUTCFullYear();
    const refused = await admin(compliance, '/api/admin/compliance/exports', {
      kind: 'non_occurrence',
      year,
    });
    expect(refused.body.code).toBe('COMPLIANCE_REPORTED_THIS_YEAR');
    expect(
      (await admin(compliance, '/api/admin/compliance/exports', { kind: 'non_occurrence', year: 2020 }))
        .status,
    ).toBe(200);
    const annual = await admin(compliance, '/api/admin/compliance/exports', { kind: 'annual', year });
    expect(annual.status).toBe(200);
    const list = await admin(compliance, '/api/admin/compliance/reports');
    expect(list.body.data.list.map((r: { kind: string }) => r.kind)).toEqual(
      expect.arrayContaining(['coaf', 'non_occurrence', 'annual']),
    );
  });

  it('closing a case with a reason lifts its hold', async () => {
    const player = await newPlayer(app);
    const caseId = await caseOf(player.memberId);
    await admin(compliance, `/api/admin/compliance/cases/${caseId}/hold`, {});
    const closed = await admin(compliance, `/api/admin/compliance/cases/${caseId}/decide`, {
      decision: 'close',
      reason: 'Inheritance documented',
    });
    expect(closed.status).toBe(200);
    const holds = await rowsOf<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM aml_holds WHERE member_id = ${player.memberId.toString()}::bigint`,
    );
    expect(holds[0]!.n).toBe(0);
  });

  it('closing a later case does not lift the hold of a case reported to COAF', async () => {
    const player = await newPlayer(app);
    const reported = await caseOf(player.memberId);
    const decided = await admin(compliance, `/api/admin/compliance/cases/${reported}/decide`, {
      decision: 'report',
      reason: 'Structured deposits',
    });
    expect(decided.status).toBe(200);
    const later = await caseOf(player.memberId);
    expect(later).not.toBe(reported);
    await admin(compliance, `/api/admin/compliance/cases/${later}/decide`, {
      decision: 'close',
      reason: 'Salary',
    });
    const holds = await rowsOf<{ case_id: string }>(
      db,
      sql`SELECT case_id::text AS case_id FROM aml_holds WHERE member_id = ${player.memberId.toString()}::bigint`,
    );
    expect(holds).toEqual([{ case_id: String(reported) }]);
  });
});
