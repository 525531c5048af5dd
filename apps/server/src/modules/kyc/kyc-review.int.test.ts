import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { TKycDocumentKind } from '@sorte/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, loginOperator, randomCpf, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { connectKyc, type KycConnection, MAX_KYC_DOCUMENT_BYTES, readAtMost } from './kyc.connection.ts';
import { findLatestSession } from './kyc.repo.ts';
import { kycDocuments } from './kyc.schema.ts';
import { documentAad, KycVault } from './kyc.vault.ts';
import { KYC_SIGNATURE_HEADER } from './kyc.webhook.ts';
import { resealDocument } from './kyc-documents.repo.ts';
import { fetchPendingDocuments, purgeExpiredDocuments, rekeyDocuments } from './kyc-documents.ts';

const kinds = await databaseKinds();

/** Real-looking files: the magic bytes of each type and a body no other test file has. */
const jpeg = (label: string) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`JFIF document of ${label}`)]);
const pdf = (label: string) => Buffer.from(`%PDF-1.7\n% back side of ${label}\n%%EOF`);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00 not a document', 'latin1');

describe.each(kinds)('KYC manual review, documents at rest and the back office on %s', (kind) => {
  let app: FastifyInstance;
  let kyc: Awaited<ReturnType<typeof connectKyc>>;
  let callbackUrl: string;
  let owner: string;
  let support: string;
  let content: string;
  let intlOwner: string;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    await app.listen({ port: 0, host: '127.0.0.1' });
    callbackUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/kyc/webhook`;
    kyc = await connectKyc({}, { sandboxPort: 0 });
    app.kyc.attach(kyc, callbackUrl);
    owner = await loginOperator(app, 'owner', HOSTS.br, 'qa_kyc_owner_br');
    support = await loginOperator(app, 'support', HOSTS.br, 'qa_kyc_support_br');
    content = await loginOperator(app, 'content', HOSTS.br, 'qa_kyc_content_br');
    intlOwner = await loginOperator(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await kyc?.close();
  });

  const sandbox = () => kyc.sandbox!;
  const deps = () => ({ db: app.services.db, kyc: app.kyc, vault: app.kycVault });
  const admin = (method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) =>
    call(app, { method, url, token, host: HOSTS.br, ...(payload ? { payload } : {}) });
  const queue = async (token: string) => (await admin('GET', '/api/admin/kyc/reviews?lang=en', token)).body;
  const me = (token: string) => call(app, { method: 'POST', url: '/api/auth/me', token, host: HOSTS.br });

  /** A br player who passed the CPF check and sent documents the provider sent to our review. */
  async function inReview(files: { front?: Buffer; back?: Buffer; selfie?: Buffer } = {}) {
    const registered = await registerPlayer(app, HOSTS.br, {}, { verified: false });
    const memberId = BigInt(registered.user.id);
    const started = await call(app, {
      method: 'POST',
      url: '/api/kyc/verifications',
      token: registered.token,
      host: HOSTS.br,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const session = (await findLatestSession(app.services.db, memberId))!;
    const label = registered.input.username as string;
    const sent = {
      document_front: files.front ?? jpeg(label),
      document_back: files.back ?? pdf(label),
      selfie: files.selfie ?? jpeg(`${label} selfie`),
    };
    await sandbox().submitCapture(session.providerSessionId, sent);
    await sandbox().decide(session.providerSessionId, 'review');
    const review = (await queue(owner)).data.list.find(
      (row: { member_id: number }) => row.member_id === Number(memberId),
    );
    return { ...registered, memberId, session, sent, review, label };
  }

  const documentRows = (sessionId: bigint) =>
    rowsOf<{ kind: string; content_type: string; size_bytes: number; ciphertext: unknown; iv: unknown }>(
      app.services.db,
      sql`SELECT kind, content_type, size_bytes, ciphertext, iv FROM kyc_documents
           WHERE session_id = ${sessionId.toString()}::bigint ORDER BY kind`,
    );
  const auditOf = (memberId: bigint) =>
    rowsOf<{ action: string; entity_id: string | null }>(
      app.services.db,
      sql`SELECT action, entity_id FROM operator_actions
           WHERE member_id = ${memberId.toString()}::bigint ORDER BY id`,
    );

  it('takes the files of a session sent to manual review from the provider and keeps them encrypted, never as plaintext', async () => {
    const player = await inReview();
    expect(player.review).toMatchObject({
      status: 'manual_review',
      username: player.input.username,
      cpf: player.input.cpf,
      documents_error: null,
      passed_checks: ['cpf'],
    });
    expect(player.review.documents.map((d: { kind: string }) => d.kind).sort()).toEqual([
      'document_back',
      'document_front',
      'selfie',
    ]);
    const rows = await documentRows(player.session.id);
    expect(rows.map((row) => [row.kind, row.content_type])).toEqual([
      ['document_back', 'application/pdf'],
      ['document_front', 'image/jpeg'],
      ['selfie', 'image/jpeg'],
    ]);
    for (const row of rows) {
      const stored = Buffer.from(row.ciphertext as Uint8Array);
      const plain = player.sent[row.kind as keyof typeof player.sent];
      expect(row.size_bytes).toBe(plain.length);
      expect(stored.equals(plain)).toBe(false);
      expect(stored.includes(Buffer.from(player.label))).toBe(false);
      expect(stored.includes(Buffer.from('%PDF-'))).toBe(false);
    }
    // The player's card says a review is under way; starting again is refused meanwhile.
    const status = await call(app, {
      method: 'GET',
      url: '/api/kyc/status',
      token: player.token,
      host: HOSTS.br,
    });
    expect(status.body.data.session.status).toBe('manual_review');
    const again = await call(app, {
      method: 'POST',
      url: '/api/kyc/verifications?lang=en',
      token: player.token,
      host: HOSTS.br,
    });
    expect(again.body.code).toBe('KYC_IN_REVIEW');
    // The job finds nothing left to take for it (stored once).
    await fetchPendingDocuments(deps());
    expect(await documentRows(player.session.id)).toHaveLength(3);
  });

  it('shows the documents only with kyc.documents, each opening in the audit log; others see the queue with PII masked', async () => {
    const player = await inReview();
    const front = player.review.documents.find((d: { kind: string }) => d.kind === 'document_front');
    const opened = await app.inject({
      method: 'GET',
      url: `/api/admin/kyc/documents/${front.id}`,
      headers: { host: HOSTS.br, authorization: `Bearer ${support}` },
    });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('image/jpeg');
    expect(opened.headers['cache-control']).toBe('no-store');
    expect(opened.rawPayload.equals(player.sent.document_front)).toBe(true);
    expect(await auditOf(player.memberId)).toEqual([{ action: 'kyc.document_view', entity_id: front.id }]);

    const refused = await admin('GET', `/api/admin/kyc/documents/${front.id}?lang=en`, content);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const masked = (await queue(content)).data.list.find(
      (row: { member_id: number }) => row.member_id === Number(player.memberId),
    );
    expect(masked.cpf).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    expect(masked.cpf).not.toBe(player.input.cpf);
    expect(masked.birth_date).toMatch(/^\d{4}-\*\*-\*\*$/);
    const noDecision = await admin(
      'POST',
      `/api/admin/kyc/reviews/${player.session.id}/decision?lang=en`,
      content,
      {
        decision: 'approve',
        reason: 'looks fine',
      },
    );
    expect(noDecision.status).toBe(403);
    // Another site's operator finds neither the session nor its documents.
    const elsewhere = await call(app, {
      method: 'GET',
      url: `/api/admin/kyc/documents/${front.id}?lang=en`,
      token: intlOwner,
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe('KYC_DOCUMENT_NOT_FOUND');
    const otherSite = await call(app, {
      method: 'POST',
      url: `/api/admin/kyc/reviews/${player.session.id}/decision?lang=en`,
      token: intlOwner,
      payload: { decision: 'approve', reason: 'not mine' },
    });
    expect(otherSite.status).toBe(404);
    expect(otherSite.body.code).toBe('KYC_REVIEW_NOT_FOUND');
    expect((await findLatestSession(app.services.db, player.memberId))!.status).toBe('manual_review');
    expect(await auditOf(player.memberId)).toHaveLength(1);
  });

  it('approves with a reason: the identity check passes and the decision is in the audit log', async () => {
    const player = await inReview();
    const missingReason = await admin(
      'POST',
      `/api/admin/kyc/reviews/${player.session.id}/decision?lang=en`,
      owner,
      {
        decision: 'approve',
        reason: '  ',
      },
    );
    expect(missingReason.status).toBe(422);
    const approved = await admin(
      'POST',
      `/api/admin/kyc/reviews/${player.session.id}/decision?lang=en`,
      owner,
      {
        decision: 'approve',
        reason: 'document and selfie match',
      },
    );
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved', sessions_ended: 0 });
    const status = await call(app, {
      method: 'GET',
      url: '/api/kyc/status',
      token: player.token,
      host: HOSTS.br,
    });
    expect(status.body.data).toMatchObject({
      passed_checks: ['cpf', 'identity'],
      missing_checks: [],
      session: { status: 'approved', reason: null },
    });
    const checks = await rowsOf<{ outcome: string; source: string; reason: string }>(
      app.services.db,
      sql`SELECT outcome, source, reason FROM kyc_checks WHERE member_id = ${player.memberId.toString()}::bigint
           AND check_kind = 'identity'`,
    );
    expect(checks).toEqual([{ outcome: 'passed', source: 'operator', reason: 'document and selfie match' }]);
    expect((await auditOf(player.memberId)).map((row) => row.action)).toEqual(['kyc.approve']);
    // In the site's hash chain, which still verifies.
    const chained = await rowsOf<{ hash: string | null }>(
      app.services.db,
      sql`SELECT hash FROM operator_actions WHERE member_id = ${player.memberId.toString()}::bigint`,
    );
    expect(chained[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    const verified = await admin('POST', '/api/admin/audit/verify?lang=en', owner);
    expect(verified.body.data).toMatchObject({ intact: true, broken: null });
    const twice = await admin('POST', `/api/admin/kyc/reviews/${player.session.id}/decision?lang=en`, owner, {
      decision: 'reject',
      reason: 'changed my mind',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('KYC_REVIEW_CLOSED');
    expect(
      (await queue(owner)).data.list.some(
        (row: { member_id: number }) => row.member_id === Number(player.memberId),
      ),
    ).toBe(false);
  });

  // Ended through forceOffline: this process forgets the session at once, and the sessions'
  // trigger (migration 0042) tells every other process at commit (session-cache.int.test.ts).
  it('rejects with a reason and ends every session of the player', async () => {
    const player = await inReview();
    expect((await me(player.token)).status).toBe(200);
    const rejected = await admin(
      'POST',
      `/api/admin/kyc/reviews/${player.session.id}/decision?lang=en`,
      owner,
      {
        decision: 'reject',
        reason: 'the selfie is not the document holder',
      },
    );
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'rejected', sessions_ended: 1 });
    const refused = await me(player.token);
    expect(refused.status).toBe(401);
    expect(refused.body.force_offline).toBe(true);
    const open = await rowsOf<{ n: string }>(
      app.services.db,
      sql`SELECT count(*)::text AS n FROM member_sessions
           WHERE member_id = ${player.memberId.toString()}::bigint AND ended_at IS NULL`,
    );
    expect(open).toEqual([{ n: '0' }]);
    expect((await auditOf(player.memberId)).map((row) => row.action)).toEqual(['kyc.reject']);
    expect(await findLatestSession(app.services.db, player.memberId)).toMatchObject({
      status: 'rejected',
      reason: 'the selfie is not the document holder',
    });
    expect(
      (await queue(owner)).data.list.some(
        (row: { member_id: number }) => row.member_id === Number(player.memberId),
      ),
    ).toBe(false);
  });

  it('ends the sessions of a player whose verification the provider rejects by webhook', async () => {
    const registered = await registerPlayer(app, HOSTS.br, {}, { verified: false });
    const memberId = BigInt(registered.user.id);
    await call(app, {
      method: 'POST',
      url: '/api/kyc/verifications',
      token: registered.token,
      host: HOSTS.br,
    });
    const session = (await findLatestSession(app.services.db, memberId))!;
    await sandbox().submitCapture(session.providerSessionId);
    expect((await me(registered.token)).status).toBe(200);
    await sandbox().decide(session.providerSessionId, 'reject', 'document expired');
    const refused = await me(registered.token);
    expect(refused.status).toBe(401);
    expect(refused.body.force_offline).toBe(true);
  });

  it('refuses a forged manual-review webhook: nothing fetched, nothing changed', async () => {
    const registered = await registerPlayer(app, HOSTS.br, {}, { verified: false });
    const memberId = BigInt(registered.user.id);
    await call(app, {
      method: 'POST',
      url: '/api/kyc/verifications',
      token: registered.token,
      host: HOSTS.br,
    });
    const session = (await findLatestSession(app.services.db, memberId))!;
    await sandbox().submitCapture(session.providerSessionId);
    const body = JSON.stringify({
      event_id: randomUUID(),
      type: 'verification.updated',
      session_id: session.providerSessionId,
      sequence: 9,
      status: 'manual_review',
      reason: null,
      pep: false,
      occurred_at: new Date().toISOString(),
    });
    const t = Math.floor(Date.now() / 1000);
    const forged = createHmac('sha256', 'not-the-providers-secret-at-all-0123456789')
      .update(`${t}.${body}`)
      .digest('hex');
    const answer = await app.inject({
      method: 'POST',
      url: '/api/kyc/webhook',
      headers: {
        host: HOSTS.br,
        'content-type': 'application/json',
        [KYC_SIGNATURE_HEADER]: `t=${t},v1=${forged}`,
      },
      payload: body,
    });
    expect(answer.statusCode).toBe(401);
    expect((await findLatestSession(app.services.db, memberId))!.status).toBe('submitted');
    expect(await documentRows(session.id)).toHaveLength(0);
  });

  it("applies a webhook to its session's own member, whatever member id the body names", async () => {
    const target = await registerPlayer(app, HOSTS.br, {}, { verified: false });
    const bystander = await registerPlayer(app, HOSTS.br, {}, { verified: false });
    await call(app, { method: 'POST', url: '/api/kyc/verifications', token: target.token, host: HOSTS.br });
    const session = (await findLatestSession(app.services.db, BigInt(target.user.id)))!;
    const body = JSON.stringify({
      event_id: randomUUID(),
      type: 'verification.updated',
      session_id: session.providerSessionId,
      reference: String(bystander.user.id),
      member_id: bystander.user.id,
      sequence: 5,
      status: 'rejected',
      reason: 'document expired',
      pep: false,
      occurred_at: new Date().toISOString(),
    });
    const t = Math.floor(Date.now() / 1000);
    const mac = createHmac('sha256', kyc.webhookSecret).update(`${t}.${body}`).digest('hex');
    const answer = await app.inject({
      method: 'POST',
      url: '/api/kyc/webhook',
      headers: {
        host: HOSTS.br,
        'content-type': 'application/json',
        [KYC_SIGNATURE_HEADER]: `t=${t},v1=${mac}`,
      },
      payload: body,
    });
    expect(answer.json().data.outcome).toBe('applied');
    expect((await me(target.token)).status).toBe(401);
    expect((await me(bystander.token)).status).toBe(200);
    expect(await findLatestSession(app.services.db, BigInt(bystander.user.id))).toBeNull();
  });

  it('refuses a file that is not JPEG, PNG or PDF by its content, and one above 8 MB, storing nothing of the session', async () => {
    // The provider claims image/jpeg for what is a GIF: the bytes decide.
    const lying: KycConnection = {
      ...kyc,
      listDocuments: async () => [
        { kind: 'document_front', contentType: 'image/jpeg', size: 10 },
        { kind: 'document_back', contentType: 'image/jpeg', size: 10 },
        { kind: 'selfie', contentType: 'image/jpeg', size: 10 },
      ],
      fetchDocument: async (_id, kindOf) => (kindOf === 'document_back' ? GIF : jpeg('ok')),
    };
    app.kyc.attach(lying, callbackUrl);
    try {
      const player = await inReview();
      expect(player.review).toMatchObject({ documents_error: 'unsupported_type', documents: [] });
      expect(await documentRows(player.session.id)).toHaveLength(0);

      const pdfSelfie: KycConnection = {
        ...lying,
        fetchDocument: async (_id, kindOf) => (kindOf === 'selfie' ? pdf('selfie') : jpeg('ok')),
      };
      app.kyc.attach(pdfSelfie, callbackUrl);
      const second = await inReview();
      expect(second.review.documents_error).toBe('unsupported_type');

      // Through the HTTP adapter: the sandbox answers a 9 MB body, cut off while read.
      const big = Buffer.concat([jpeg('big'), Buffer.alloc(9 * 1024 * 1024)]);
      const huge: KycConnection = {
        ...kyc,
        fetchDocument: async (id, kindOf) => {
          const response = new Response(kindOf === 'selfie' ? new Uint8Array(big) : new Uint8Array(jpeg(id)));
          return readAtMost(response, MAX_KYC_DOCUMENT_BYTES);
        },
      };
      app.kyc.attach(huge, callbackUrl);
      const third = await inReview();
      expect(third.review).toMatchObject({ documents_error: 'too_large', documents: [] });
      expect(await documentRows(third.session.id)).toHaveLength(0);
      // A refused file is not asked for again: the job leaves the session alone.
      app.kyc.attach(kyc, callbackUrl);
      await fetchPendingDocuments(deps());
      expect(await documentRows(third.session.id)).toHaveLength(0);
    } finally {
      app.kyc.attach(kyc, callbackUrl);
    }
  });

  it('takes the files on a later tick of the job when the provider was unreachable at the webhook', async () => {
    const down: KycConnection = {
      ...kyc,
      listDocuments: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    };
    app.kyc.attach(down, callbackUrl);
    let player: Awaited<ReturnType<typeof inReview>>;
    try {
      player = await inReview();
    } finally {
      app.kyc.attach(kyc, callbackUrl);
    }
    expect(player.review).toMatchObject({ documents_error: 'provider_unavailable', documents: [] });
    expect(await documentRows(player.session.id)).toHaveLength(0);
    await fetchPendingDocuments(deps());
    expect((await documentRows(player.session.id)).map((row) => row.kind)).toEqual([
      'document_back',
      'document_front',
      'selfie',
    ]);
    const after = (await queue(owner)).data.list.find(
      (row: { member_id: number }) => row.member_id === Number(player.memberId),
    );
    expect(after.documents_error).toBeNull();
  });

  it('seals documents under a retired key again under the current key, each once; a row that does not open is left and counted', async () => {
    const player = await inReview();
    // The player's files as a vault of an earlier key sealed them (the selfie bound to the wrong
    // data: it does not open under any key).
    const retiredKey = randomBytes(32);
    const earlier = new KycVault(retiredKey);
    const stored = await app.services.db
      .select()
      .from(kycDocuments)
      .where(eq(kycDocuments.sessionId, player.session.id));
    const sent: Record<string, Buffer> = player.sent;
    for (const row of stored) {
      const aad =
        row.kind === 'selfie' ? 'elsewhere' : documentAad(row.sessionId, row.kind as TKycDocumentKind);
      expect(await resealDocument(app.services.db, row, earlier.seal(sent[row.kind]!, aad))).toBe(true);
    }
    const rotated = new KycVault(randomBytes(32), [retiredKey]);
    expect(rotated.retiredKeyIds).toEqual([earlier.keyId]);
    expect(await rekeyDocuments(app.services.db, rotated, { batch: 1 })).toEqual({ resealed: 2, left: 1 });
    const after = await app.services.db
      .select()
      .from(kycDocuments)
      .where(eq(kycDocuments.sessionId, player.session.id))
      .orderBy(kycDocuments.kind);
    expect(after.map((row) => [row.kind, row.keyId])).toEqual([
      ['document_back', rotated.keyId],
      ['document_front', rotated.keyId],
      ['selfie', earlier.keyId],
    ]);
    for (const row of after.filter((r) => r.kind !== 'selfie')) {
      const opened = new KycVault(randomBytes(32), []);
      expect(() => opened.open(row, documentAad(row.sessionId, row.kind as TKycDocumentKind))).toThrow(
        /unknown key/,
      );
      expect(
        rotated.open(row, documentAad(row.sessionId, row.kind as TKycDocumentKind)).equals(sent[row.kind]!),
      ).toBe(true);
    }
    // A second run finds only the row that does not open.
    expect(await rekeyDocuments(app.services.db, rotated)).toEqual({ resealed: 0, left: 1 });
  });

  it('keeps documents for the profile retention after the later of the decision and the account closure, then purges them', async () => {
    const player = await inReview();
    await admin('POST', `/api/admin/kyc/reviews/${player.session.id}/decision?lang=en`, owner, {
      decision: 'approve',
      reason: 'ok',
    });
    const id = player.session.id.toString();
    const member = player.memberId.toString();
    const age = async (decidedYearsAgo: number, closedYearsAgo: number | null) => {
      await app.services.db.execute(
        sql`UPDATE kyc_sessions SET decided_at = now() - make_interval(years => ${decidedYearsAgo}) WHERE id = ${id}::bigint`,
      );
      await app.services.db.execute(
        closedYearsAgo === null
          ? sql`UPDATE members SET deleted_at = NULL WHERE id = ${member}::bigint`
          : sql`UPDATE members SET deleted_at = now() - make_interval(years => ${closedYearsAgo}) WHERE id = ${member}::bigint`,
      );
      await purgeExpiredDocuments(app.services.db);
      return (await documentRows(player.session.id)).length;
    };
    // An open account keeps them however old the decision.
    expect(await age(7, null)).toBe(3);
    // Closed four years ago: br keeps five years from the closure.
    expect(await age(7, 4)).toBe(3);
    // Closed six years ago, decided seven: past five years from both.
    expect(await age(7, 6)).toBe(0);
  });

  it('prefills br sign-up with the name and birth date of a regular CPF only, and limits the lookups', async () => {
    const lookup = (cpf: string, host: string = HOSTS.br) =>
      call(app, { method: 'POST', url: '/api/kyc/cpf-lookup?lang=en', host, payload: { cpf } });
    const cpf = randomCpf();
    sandbox().setCpfPerson(cpf, { name: 'Maria da Silva Prado', birthDate: '1991-04-12' });
    const found = await lookup(cpf);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.data).toEqual({
      found: true,
      realname: 'Maria da Silva Prado',
      birth_date: '1991-04-12',
    });

    const irregular = randomCpf();
    sandbox().setCpfOutcome(irregular, 'irregular');
    expect((await lookup(irregular)).body.data).toEqual({ found: false });
    // A CPF with an account here answers the same "not found", revealing nothing.
    const member = await registerPlayer(app, HOSTS.br);
    expect((await lookup(member.input.cpf as string)).body.data).toEqual({ found: false });
    expect((await lookup('123.456.789-00')).status).toBe(422);
    const off = await lookup(randomCpf(), HOSTS.intl);
    expect(off.status).toBe(404);
    expect(off.body.code).toBe('KYC_CPF_LOOKUP_OFF');

    // Three lookups of one CPF an hour (from any address), ten per address.
    expect((await lookup(cpf)).status).toBe(200);
    expect((await lookup(cpf)).status).toBe(200);
    const fourth = await lookup(cpf);
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('RATE_LIMITED');
    for (let i = 0; i < 5; i += 1) expect((await lookup(randomCpf())).status).toBe(200);
    const eleventh = await lookup(randomCpf());
    expect(eleventh.status).toBe(429);
    const kept = await rowsOf<{ cpf_digest: string }>(
      app.services.db,
      sql`SELECT cpf_digest FROM kyc_cpf_lookups`,
    );
    expect(kept.some((row) => row.cpf_digest.includes(cpf))).toBe(false);
  });

  it('shows a pt player the legal basis of each rule in Portuguese', async () => {
    const registered = await registerPlayer(app, HOSTS.br, {}, { verified: false });
    const status = await call(app, {
      method: 'GET',
      url: '/api/kyc/status?lang=pt',
      token: registered.token,
      host: HOSTS.br,
    });
    const deposit = status.body.data.requirements.find(
      (rule: { action: string }) => rule.action === 'deposit',
    );
    expect(deposit.legal_basis_key).toBe('br_deposit');
    expect(deposit.legal_basis).toContain('reconhecimento facial');
    const en = await call(app, {
      method: 'GET',
      url: '/api/kyc/status?lang=en',
      token: registered.token,
      host: HOSTS.br,
    });
    expect(en.body.data.requirements[0].legal_basis).toContain('facial recognition');
  });
});
