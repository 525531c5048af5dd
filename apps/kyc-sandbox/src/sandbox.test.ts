import { createHmac } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKycSandbox, type KycSandbox } from './sandbox.ts';
import { KYC_SIGNATURE_HEADER } from './signature.ts';

const SECRET = 'w'.repeat(32);
const auth = `Basic ${Buffer.from('client:secret').toString('base64')}`;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

describe('the KYC sandbox', () => {
  let sandbox: KycSandbox;
  const received: { body: string; signature: string }[] = [];
  const receiver = Fastify();
  let callbackUrl = '';

  beforeAll(async () => {
    receiver.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    receiver.post('/hook', async (request) => {
      received.push({ body: String(request.body), signature: String(request.headers[KYC_SIGNATURE_HEADER]) });
      return { ok: true };
    });
    callbackUrl = `${await receiver.listen({ host: '127.0.0.1', port: 0 })}/hook`;
    sandbox = createKycSandbox({
      clientId: 'client',
      clientSecret: 'secret',
      webhookSecret: SECRET,
      retryDelayMs: 10,
    });
    await sandbox.listen();
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });

  async function createSession() {
    const response = await sandbox.app.inject({
      method: 'POST',
      url: '/v1/sessions',
      headers: { authorization: auth },
      payload: {
        reference: '42',
        callback_url: callbackUrl,
        return_url: 'http://br.localhost:3000/security-center',
      },
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: string; capture_url: string; status: string };
  }

  it('refuses the API without the right credentials', async () => {
    const response = await sandbox.app.inject({
      method: 'POST',
      url: '/v1/sessions',
      headers: { authorization: `Basic ${Buffer.from('client:wrong').toString('base64')}` },
      payload: { reference: '42', callback_url: callbackUrl },
    });
    expect(response.statusCode).toBe(401);
  });

  it('answers a CPF lookup as the tester set it, regular and matching otherwise', async () => {
    const lookup = (cpf: string) =>
      sandbox.app.inject({
        method: 'POST',
        url: '/v1/cpf/validate',
        headers: { authorization: auth },
        payload: { cpf, name: 'Maria Silva', birth_date: '1990-05-17' },
      });
    expect((await lookup('52998224725')).json()).toMatchObject({ situacao: 'Regular', name_matches: true });
    sandbox.setCpfOutcome('52998224725', 'deceased');
    expect((await lookup('52998224725')).json()).toMatchObject({ situacao: 'Titular Falecido' });
    sandbox.setCpfOutcome('52998224725', 'name_mismatch');
    expect((await lookup('52998224725')).json()).toMatchObject({ situacao: 'Regular', name_matches: false });
    expect((await lookup('12345678900')).statusCode).toBe(400);
  });

  it('takes captures by their content only, then sends each decision signed over the raw body', async () => {
    const session = await createSession();
    const path = new URL(session.capture_url).pathname;
    expect((await sandbox.app.inject({ method: 'GET', url: path })).body).toContain('Verify your identity');
    const notAnImage = await sandbox.app.inject({
      method: 'POST',
      url: path,
      payload: {
        document_front: dataUrl('image/png', Buffer.from('GIF89a not a png')),
        document_back: dataUrl('image/png', PNG),
        selfie: dataUrl('image/png', PNG),
      },
    });
    expect(notAnImage.statusCode).toBe(415);
    const selfiePdf = await sandbox.app.inject({
      method: 'POST',
      url: path,
      payload: {
        document_front: dataUrl('image/png', PNG),
        document_back: dataUrl('image/png', PNG),
        selfie: dataUrl('application/pdf', Buffer.from('%PDF-1.7 ...')),
      },
    });
    expect(selfiePdf.statusCode).toBe(415);
    await expect(sandbox.decide(session.id, 'approve')).rejects.toThrow(/submitted/);

    const sent = await sandbox.app.inject({
      method: 'POST',
      url: path,
      payload: {
        document_front: dataUrl('image/png', PNG),
        document_back: dataUrl('application/pdf', Buffer.from('%PDF-1.7 ...')),
        selfie: dataUrl('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])),
      },
    });
    expect(sent.statusCode).toBe(200);
    const done = await sandbox.app.inject({ method: 'GET', url: path });
    expect(done.body).toContain('href="http://br.localhost:3000/security-center"');
    await expect(sandbox.decide(session.id, 'reject')).rejects.toThrow(/reason/);
    await sandbox.decide(session.id, 'approve');

    const events = received.map((delivery) => ({ ...delivery, event: JSON.parse(delivery.body) }));
    const mine = events.filter((delivery) => delivery.event.session_id === session.id);
    expect(mine.map((delivery) => [delivery.event.sequence, delivery.event.status])).toEqual([
      [1, 'submitted'],
      [2, 'approved'],
    ]);
    for (const delivery of mine) {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(delivery.signature) ?? [];
      expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.${delivery.body}`).digest('hex'));
    }
    await expect(sandbox.decide(session.id, 'reject', 'blurred')).rejects.toThrow(/submitted/);
  });

  it('flags a politically exposed person whatever the status, and shows it on the tester page', async () => {
    const session = await createSession();
    await sandbox.decide(session.id, 'flag_pep');
    const page = await sandbox.app.inject({ method: 'GET', url: '/' });
    expect(page.body).toContain(session.id);
    expect(page.body).toContain('PEP');
    const last = JSON.parse(sandbox.deliveries().at(-1)!.body);
    expect(last).toMatchObject({ session_id: session.id, pep: true, status: 'created', sequence: 1 });
  });

  it("sends a session to the operator's manual review and hands its files over only on the authenticated API", async () => {
    const session = await createSession();
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('front')]);
    await sandbox.submitCapture(session.id, { document_front: jpeg });
    await sandbox.decide(session.id, 'review');
    const last = JSON.parse(received.at(-1)!.body) as { status: string; session_id: string };
    expect(last).toMatchObject({ status: 'manual_review', session_id: session.id });

    const anonymous = await sandbox.app.inject({
      method: 'GET',
      url: `/v1/sessions/${session.id}/documents`,
    });
    expect(anonymous.statusCode).toBe(401);
    const listed = await sandbox.app.inject({
      method: 'GET',
      url: `/v1/sessions/${session.id}/documents`,
      headers: { authorization: auth },
    });
    expect(listed.json().documents).toEqual([
      { kind: 'document_front', content_type: 'image/jpeg', size: jpeg.length },
      { kind: 'document_back', content_type: 'image/png', size: PNG.length },
      { kind: 'selfie', content_type: 'image/png', size: PNG.length },
    ]);
    const front = await sandbox.app.inject({
      method: 'GET',
      url: `/v1/sessions/${session.id}/documents/document_front`,
      headers: { authorization: auth },
    });
    expect(front.rawPayload.equals(jpeg)).toBe(true);
    const noKind = await sandbox.app.inject({
      method: 'GET',
      url: `/v1/sessions/${session.id}/documents/passport`,
      headers: { authorization: auth },
    });
    expect(noKind.statusCode).toBe(404);
    // In review at the operator: the tester can no longer decide it.
    await expect(sandbox.decide(session.id, 'approve')).rejects.toThrow(/only a submitted session/);
  });

  it('answers a CPF lookup with the person a tester set, and compares name and birth date on validation', async () => {
    const lookup = (cpf: string) =>
      sandbox.app.inject({
        method: 'POST',
        url: '/v1/cpf/lookup',
        headers: { authorization: auth },
        payload: { cpf },
      });
    sandbox.setCpfPerson('39053344705', { name: 'Maria da Silva', birthDate: '1990-05-17' });
    expect((await lookup('390.533.447-05')).json()).toMatchObject({
      cpf: '39053344705',
      situacao: 'Regular',
      nome: 'Maria da Silva',
      data_nascimento: '1990-05-17',
    });
    // Another CPF: a made-up person, the same every time.
    const first = (await lookup('11144477735')).json();
    expect(first.nome).toMatch(/^\S+ \S+ \S+$/);
    expect((await lookup('11144477735')).json().nome).toBe(first.nome);
    expect((await lookup('11144477736')).statusCode).toBe(400);
    const validate = (name: string, birth: string) =>
      sandbox.app.inject({
        method: 'POST',
        url: '/v1/cpf/validate',
        headers: { authorization: auth },
        payload: { cpf: '39053344705', name, birth_date: birth },
      });
    expect((await validate('MARIA DA SILVA', '1990-05-17')).json()).toMatchObject({
      name_matches: true,
      birth_date_matches: true,
    });
    expect((await validate('Maria Souza', '1990-05-18')).json()).toMatchObject({
      name_matches: false,
      birth_date_matches: false,
    });
  });
});
