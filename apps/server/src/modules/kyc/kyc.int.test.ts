import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPlayer, solvedCaptcha } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { outboxOf } from '../aml/aml.fixtures.ts';
import { runScreening } from '../aml/aml.screening.ts';
import {
  addCard,
  call,
  fund,
  HOSTS,
  type MoneyHarness,
  startMoneyHarness,
} from '../deposits/money.fixtures.ts';
import { connectKyc } from './kyc.connection.ts';
import { findLatestSession } from './kyc.repo.ts';
import { KYC_SIGNATURE_HEADER } from './kyc.webhook.ts';

const kinds = await databaseKinds();

describe.each(kinds)('identity verification (KYC) through the sandbox provider on %s', (kind) => {
  let h: MoneyHarness;
  let kyc: Awaited<ReturnType<typeof connectKyc>>;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
    kyc = await connectKyc({}, { sandboxPort: 0 });
    h.app.kyc.attach(kyc, `${h.baseUrl}/api/kyc/webhook`);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await kyc?.close();
  });

  const sandbox = () => kyc.sandbox!;
  const get = (url: string, token: string, host: string) => call(h.app, { method: 'GET', url, token, host });
  const post = (url: string, token: string, host: string, payload: Record<string, unknown> = {}) =>
    call(h.app, { method: 'POST', url, token, host, payload });
  const status = async (token: string, host: string) => (await get('/api/kyc/status', token, host)).body.data;
  const deposit = async (token: string, host: string) => {
    const channels = await get('/api/payment/online/list?payment_type=pix&lang=en', token, host);
    return post('/api/recharge/online?lang=en', token, host, {
      money: '100.00',
      payment_id: channels.body.data.list[0].id,
      payment_type: 'pix',
    });
  };
  const bet = (token: string, host: string) =>
    post('/api/originals/dice/bet?lang=en', token, host, {
      amount: '1.00',
      direction: 'under',
      target: 5000,
    });

  async function unverified(host: string) {
    const registered = await registerPlayer(h.app, host, {}, { verified: false });
    return {
      token: registered.token,
      memberId: BigInt(registered.user.id),
      cpf: registered.input.cpf as string | undefined,
      qkPwd: registered.input.qk_pwd,
      username: registered.input.username as string,
      password: registered.input.password as string,
      host,
    };
  }

  /** The provider's id of the member's latest session. */
  async function providerSession(memberId: bigint): Promise<string> {
    const session = await findLatestSession(h.db, memberId);
    if (!session) throw new Error('no session');
    return session.providerSessionId;
  }

  /** Posts a webhook body to the app, signed as the provider would (or as told). */
  function deliver(body: string, options: { timestamp?: number; signature?: string | null } = {}) {
    const t = options.timestamp ?? Math.floor(Date.now() / 1000);
    const mac = createHmac('sha256', kyc.webhookSecret).update(`${t}.${body}`).digest('hex');
    const signature = options.signature === undefined ? `t=${t},v1=${mac}` : options.signature;
    return h.app.inject({
      method: 'POST',
      url: '/api/kyc/webhook',
      headers: {
        host: HOSTS.intl,
        'content-type': 'application/json',
        ...(signature === null ? {} : { [KYC_SIGNATURE_HEADER]: signature }),
      },
      payload: body,
    });
  }
  const event = (sessionId: string, sequence: number, status: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      event_id: randomUUID(),
      type: 'verification.updated',
      session_id: sessionId,
      sequence,
      status,
      reason: null,
      pep: false,
      occurred_at: new Date().toISOString(),
      ...extra,
    });

  it('keeps a br player from depositing and betting until the CPF check and the identity decision pass', async () => {
    const player = await unverified(HOSTS.br);
    const before = await status(player.token, HOSTS.br);
    expect(before.passed_checks).toEqual([]);
    expect(before.missing_checks).toEqual(['cpf', 'identity']);
    expect(
      before.requirements.find((rule: { action: string }) => rule.action === 'deposit').legal_basis,
    ).toContain('Portaria SPA/MF 722/2024');

    const refused = await deposit(player.token, HOSTS.br);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'KYC_REQUIRED',
      message: 'Verify your identity to deposit',
      kyc: { action: 'deposit', missing_checks: ['cpf', 'identity'] },
    });
    const noBet = await bet(player.token, HOSTS.br);
    expect(noBet.status).toBe(403);
    expect(noBet.body).toMatchObject({ code: 'KYC_REQUIRED', message: 'Verify your identity to place bets' });
    // Looking around and setting limits stay open.
    expect((await get('/api/responsible-gaming', player.token, HOSTS.br)).status).toBe(200);

    const started = await post('/api/kyc/verifications', player.token, HOSTS.br);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data.passed_checks).toEqual(['cpf']);
    expect(started.body.data.session).toMatchObject({ status: 'created' });
    expect(started.body.data.session.capture_url).toMatch(/\/capture\//);
    // Starting again while the capture waits reopens the same session.
    const again = await post('/api/kyc/verifications', player.token, HOSTS.br);
    expect(again.body.data.session.capture_url).toBe(started.body.data.session.capture_url);
    expect((await deposit(player.token, HOSTS.br)).body).toMatchObject({
      code: 'KYC_REQUIRED',
      kyc: { missing_checks: ['identity'] },
    });

    const id = await providerSession(player.memberId);
    await sandbox().submitCapture(id);
    expect((await status(player.token, HOSTS.br)).session.status).toBe('submitted');
    expect((await post('/api/kyc/verifications?lang=en', player.token, HOSTS.br)).body.code).toBe(
      'KYC_IN_REVIEW',
    );

    await sandbox().decide(id, 'approve');
    const after = await status(player.token, HOSTS.br);
    expect(after).toMatchObject({
      passed_checks: ['cpf', 'identity'],
      missing_checks: [],
      session: { status: 'approved' },
    });
    const paid = await deposit(player.token, HOSTS.br);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect((await post('/api/kyc/verifications', player.token, HOSTS.br)).body.code).toBe(
      'KYC_ALREADY_VERIFIED',
    );
  });

  it('seeds the demo player as verified on each demo site, so br.localhost stays playable', async () => {
    const rows = await rowsOf<{ code: string; passed: string[] | string }>(
      h.db,
      sql`SELECT s.code, k.passed_checks AS passed FROM members m
            JOIN sites s ON s.id = m.site_id JOIN member_kyc k ON k.member_id = m.id
           WHERE m.username_lower = 'demo01' AND s.code IN ('sorte', 'sorte-br') ORDER BY s.code`,
    );
    const checks = (value: string[] | string) =>
      Array.isArray(value) ? value : value.replace(/[{}]/g, '').split(',').filter(Boolean);
    expect(rows.map((row) => [row.code, checks(row.passed)])).toEqual([
      ['sorte', ['identity']],
      ['sorte-br', ['cpf', 'identity']],
    ]);
  });

  it('refuses an irregular, deceased or mismatching CPF with its reason, and records each attempt', async () => {
    const cases = [
      ['irregular', 'Your CPF is not regular at the Receita Federal. Please regularise it and try again'],
      ['deceased', 'This CPF is registered as belonging to a deceased person and cannot be verified'],
      ['name_mismatch', 'The name on your account does not match the one registered for your CPF'],
    ] as const;
    for (const [outcome, message] of cases) {
      const player = await unverified(HOSTS.br);
      sandbox().setCpfOutcome(player.cpf!, outcome);
      const answer = await post('/api/kyc/verifications?lang=en', player.token, HOSTS.br);
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ code: 'KYC_CPF_REJECTED', message });
      expect((await status(player.token, HOSTS.br)).passed_checks).toEqual([]);
      expect(await findLatestSession(h.db, player.memberId)).toBeNull();
      const checks = await rowsOf<{ outcome: string; reason: string }>(
        h.db,
        sql`SELECT outcome, reason FROM kyc_checks WHERE member_id = ${player.memberId.toString()}::bigint`,
      );
      expect(checks).toEqual([{ outcome: 'failed', reason: outcome }]);
    }
  });

  it('refuses a forged, unsigned, stale or malformed webhook, and a replayed or older decision changes nothing', async () => {
    const player = await unverified(HOSTS.br);
    await post('/api/kyc/verifications', player.token, HOSTS.br);
    const id = await providerSession(player.memberId);

    // The newer decision arrives first: approved (2) before submitted (1).
    const approved = event(id, 2, 'approved');
    const forged = approved.replace('"approved"', '"rejected"');
    const valid = createHmac('sha256', kyc.webhookSecret);
    const t = Math.floor(Date.now() / 1000);
    const signatureOfApproved = `t=${t},v1=${valid.update(`${t}.${approved}`).digest('hex')}`;
    expect((await deliver(forged, { signature: signatureOfApproved })).statusCode).toBe(401);
    expect((await deliver(approved, { signature: null })).statusCode).toBe(401);
    expect((await deliver(approved, { timestamp: t - 11 * 60 })).statusCode).toBe(401);
    expect((await deliver('{not json')).statusCode).toBe(400);
    expect((await status(player.token, HOSTS.br)).session.status).toBe('created');

    const applied = await deliver(approved);
    expect(applied.json().data.outcome).toBe('applied');
    expect((await deliver(approved)).json().data.outcome).toBe('replayed');
    expect((await deliver(event(id, 1, 'submitted'))).json().data.outcome).toBe('out_of_order');
    // The player's login is screened before any flag: no PEP alert from it.
    await runScreening(h.db);
    // A newer event cannot undo a final decision either; only its PEP flag is kept.
    const later = await deliver(event(id, 3, 'rejected', { reason: 'blurred', pep: true }));
    expect(later.json().data.outcome).toBe('applied');
    expect(await status(player.token, HOSTS.br)).toMatchObject({
      passed_checks: ['cpf', 'identity'],
      session: { status: 'approved', reason: null },
    });
    const pep = await rowsOf<{ pep: boolean }>(
      h.db,
      sql`SELECT pep FROM member_kyc WHERE member_id = ${player.memberId.toString()}::bigint`,
    );
    expect(pep).toEqual([{ pep: true }]);
    // Compliance hears of the flag in its transaction and alerts it at the next screening, before
    // the player moves any money; a repeated flag writes nothing more.
    await deliver(event(id, 4, 'rejected', { reason: 'blurred', pep: true }));
    const kycRows = (await outboxOf(h.db, player.memberId)).filter((row) => row.kind !== 'login');
    expect(kycRows).toEqual([
      expect.objectContaining({
        kind: 'kyc',
        amount_minor: '0',
        reference: expect.stringMatching(/^kyc:pep:\d+$/),
      }),
    ]);
    await runScreening(h.db);
    const peps = await rowsOf<{ dedupe_key: string; event: string }>(
      h.db,
      sql`SELECT dedupe_key, evidence->>'event' AS event FROM aml_alerts
          WHERE member_id = ${player.memberId.toString()}::bigint AND rule = 'pep'`,
    );
    expect(peps).toEqual([{ dedupe_key: `member:${player.memberId}`, event: 'kyc' }]);
    expect((await deliver(event('kys_nobody', 1, 'approved'))).json().data.outcome).toBe('unknown_session');
  });

  it('refuses a new verification after a rejection, with the provider reason kept', async () => {
    const player = await unverified(HOSTS.br);
    await post('/api/kyc/verifications', player.token, HOSTS.br);
    const id = await providerSession(player.memberId);
    await sandbox().submitCapture(id);
    await sandbox().decide(id, 'resubmit', 'the document is blurred');
    const asked = await status(player.token, HOSTS.br);
    expect(asked.session).toMatchObject({
      status: 'resubmission_requested',
      reason: 'the document is blurred',
    });
    expect(asked.session.capture_url).toMatch(/\/capture\//);
    await sandbox().submitCapture(id);
    await sandbox().decide(id, 'reject', 'the selfie is not the document holder');
    // The rejection ended the player's sessions (ADR 036 §8); they sign in again to read why.
    const ended = await get('/api/kyc/status', player.token, HOSTS.br);
    expect(ended.status).toBe(401);
    expect(ended.body.force_offline).toBe(true);
    const login = await call(h.app, {
      method: 'POST',
      url: '/api/auth/login2',
      host: HOSTS.br,
      payload: {
        username: player.username,
        password: player.password,
        ...(await solvedCaptcha(h.app, HOSTS.br)),
      },
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const token = login.body.data.token as string;
    expect((await status(token, HOSTS.br)).session).toMatchObject({
      status: 'rejected',
      capture_url: null,
    });
    const again = await post('/api/kyc/verifications?lang=en', token, HOSTS.br);
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('KYC_REJECTED');
    expect((await deposit(token, HOSTS.br)).body.code).toBe('KYC_REQUIRED');
  });

  it('lets an intl player deposit and bet at once, and asks for identity above R$ 2.000,00 or past R$ 10.000,00 withdrawn', async () => {
    const player = await unverified(HOSTS.intl);
    expect((await status(player.token, HOSTS.intl)).missing_checks).toEqual(['identity']);
    await fund(h.db, player.memberId, 2_000_000n);
    expect((await bet(player.token, HOSTS.intl)).status).toBe(200);
    const card = (await addCard(h.db, player.memberId)).toString();
    const withdraw = (money: string) =>
      post('/api/drawing?lang=en', player.token, HOSTS.intl, {
        money,
        member_bank_id: card,
        qk_pwd: player.qkPwd,
      });

    const above = await withdraw('2000.01');
    expect(above.status).toBe(403);
    expect(above.body).toMatchObject({
      code: 'KYC_REQUIRED',
      message: 'Verify your identity to withdraw this amount',
      kyc: { action: 'withdrawal', missing_checks: ['identity'] },
    });
    for (let i = 0; i < 5; i += 1) expect((await withdraw('2000.00')).status).toBe(200);
    // Those were an earlier day's (the daily count stops at five): the total is 10,000.00 now.
    await h.db.execute(
      sql`UPDATE withdrawal_orders SET created_at = created_at - interval '2 days'
           WHERE member_id = ${player.memberId.toString()}::bigint`,
    );
    expect((await withdraw('20.00')).body.code).toBe('KYC_REQUIRED');

    await post('/api/kyc/verifications', player.token, HOSTS.intl);
    const id = await providerSession(player.memberId);
    await sandbox().submitCapture(id);
    await sandbox().decide(id, 'approve');
    expect((await withdraw('20.00')).status).toBe(200);
    expect((await withdraw('2000.01')).status).toBe(200);
  });
});
