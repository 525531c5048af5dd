import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isValidBrCode } from '@sorte/pix-br-code';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './sandbox.ts';

const BASIC = `Basic ${Buffer.from('client:secret').toString('base64')}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const TXID = 'abcdefghijklmnopqrstuvwxyz0123';

const opened: { sandbox: Sandbox; dir: string }[] = [];
let nowMs = Date.parse('2026-11-23T12:00:00Z');

function open(dir = mkdtempSync(join(tmpdir(), 'psp-sandbox-test-'))) {
  const sandbox = createSandbox({
    dataDir: dir,
    publicUrl: 'http://127.0.0.1:4010',
    clientId: 'client',
    clientSecret: 'secret',
    webhookSecret: 'unit-test-webhook-secret',
    now: () => nowMs,
  });
  opened.push({ sandbox, dir });
  return { sandbox, dir, app: sandbox.app };
}

afterEach(async () => {
  for (const { sandbox, dir } of opened.splice(0)) {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function bearer(app: Sandbox['app'], scope?: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { authorization: BASIC, ...FORM },
    payload: `grant_type=client_credentials${scope ? `&scope=${encodeURIComponent(scope)}` : ''}`,
  });
  expect(response.statusCode).toBe(200);
  return `Bearer ${response.json().access_token}`;
}

function cob(sandbox: Sandbox, overrides: Record<string, unknown> = {}) {
  return {
    calendario: { expiracao: 3600 },
    valor: { original: '10.00' },
    chave: sandbox.pixKey,
    ...overrides,
  };
}

describe('POST /oauth/token', () => {
  it('issues a bearer token with the granted scopes and lifetime', async () => {
    const { app } = open();
    const response = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { authorization: BASIC, ...FORM },
      payload: 'grant_type=client_credentials&scope=cob.read%20cob.write',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'cob.read cob.write',
    });
  });

  it('accepts client credentials in the form body too', async () => {
    const { app } = open();
    const response = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: FORM,
      payload: 'grant_type=client_credentials&client_id=client&client_secret=secret',
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses missing or wrong credentials, other grants and unknown scopes', async () => {
    const { app } = open();
    const post = (headers: Record<string, string>, payload: string) =>
      app.inject({ method: 'POST', url: '/oauth/token', headers: { ...FORM, ...headers }, payload });
    const wrong = `Basic ${Buffer.from('client:nope').toString('base64')}`;
    expect((await post({}, 'grant_type=client_credentials')).json().error).toBe('invalid_client');
    expect((await post({ authorization: wrong }, 'grant_type=client_credentials')).statusCode).toBe(401);
    expect((await post({ authorization: BASIC }, 'grant_type=password')).json().error).toBe(
      'unsupported_grant_type',
    );
    expect(
      (await post({ authorization: BASIC }, 'grant_type=client_credentials&scope=admin')).json().error,
    ).toBe('invalid_scope');
  });
});

describe('authorisation of the API', () => {
  it('answers 401 without a token, 403 without the scope, 401 after expiry', async () => {
    const { app, sandbox } = open();
    const noToken = await app.inject({ method: 'GET', url: `/cob/${TXID}` });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.headers['www-authenticate']).toContain('Bearer');

    const readOnly = await bearer(app, 'cob.read');
    const forbidden = await app.inject({
      method: 'PUT',
      url: `/cob/${TXID}`,
      headers: { authorization: readOnly },
      payload: cob(sandbox),
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().type).toBe('https://pix.bcb.gov.br/api/v2/error/AcessoNegado');

    nowMs += 3_601_000;
    expect(
      (await app.inject({ method: 'GET', url: `/cob/${TXID}`, headers: { authorization: readOnly } }))
        .statusCode,
    ).toBe(401);
  });
});

describe('PUT /cob/{txid}', () => {
  it('creates an ATIVA charge with location, revisao 0 and a valid BR Code', async () => {
    const { app, sandbox } = open();
    const auth = await bearer(app);
    const response = await app.inject({
      method: 'PUT',
      url: `/cob/${TXID}`,
      headers: { authorization: auth },
      payload: cob(sandbox, {
        devedor: { cpf: '52998224725', nome: 'Maria' },
        solicitacaoPagador: 'Depósito',
      }),
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      txid: TXID,
      revisao: 0,
      status: 'ATIVA',
      valor: { original: '10.00', modalidadeAlteracao: 0 },
      calendario: { expiracao: 3600, criacao: new Date(nowMs).toISOString() },
      loc: { id: 1, tipoCob: 'cob' },
      devedor: { cpf: '52998224725', nome: 'Maria' },
    });
    expect(body.location).toMatch(/^127\.0\.0\.1:4010\/qr\/v2\/[0-9a-f]{32}$/);
    expect(body.location.length).toBeLessThanOrEqual(77);
    expect(isValidBrCode(body.pixCopiaECola)).toBe(true);
    expect(body.pixCopiaECola).toContain(body.location);
  });

  it('defaults calendario.expiracao to 86400 seconds', async () => {
    const { app, sandbox } = open();
    const response = await app.inject({
      method: 'PUT',
      url: `/cob/${TXID}`,
      headers: { authorization: await bearer(app) },
      payload: cob(sandbox, { calendario: {} }),
    });
    expect(response.json().calendario.expiracao).toBe(86_400);
  });

  it('answers a repeated PUT of a txid with 400, as the standard does, and keeps the charge as it was', async () => {
    const { app, sandbox } = open();
    const auth = await bearer(app);
    const put = (payload: object) =>
      app.inject({ method: 'PUT', url: `/cob/${TXID}`, headers: { authorization: auth }, payload });
    const created = await put(cob(sandbox));
    expect(created.statusCode).toBe(201);
    expect(created.json().loc).toMatchObject({ txid: TXID, tipoCob: 'cob' });
    for (const again of [cob(sandbox), cob(sandbox, { valor: { original: '11.00' } })]) {
      const answer = await put(again);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().type).toBe('https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
    }
    const read = await app.inject({ method: 'GET', url: `/cob/${TXID}`, headers: { authorization: auth } });
    expect(read.json()).toMatchObject({ revisao: 0, valor: { original: '10.00' }, loc: { txid: TXID } });
  });

  it('lists every violation of a bad body in API Pix problem form', async () => {
    const { app } = open();
    const response = await app.inject({
      method: 'PUT',
      url: `/cob/${TXID}`,
      headers: { authorization: await bearer(app) },
      payload: {
        calendario: { expiracao: 0 },
        valor: { original: '0.00' },
        devedor: { cpf: '11111111111', nome: 'X' },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    const body = response.json();
    expect(body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
    expect(body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toEqual(
      expect.arrayContaining([
        'cob.calendario.expiracao',
        'cob.valor.original',
        'cob.chave',
        'cob.devedor.cpf',
      ]),
    );
  });

  it('refuses malformed amounts, a changeable amount, both cpf and cnpj, foreign keys and bad txids', async () => {
    const { app, sandbox } = open();
    const auth = await bearer(app);
    const put = (payload: object, txid = TXID) =>
      app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: { authorization: auth }, payload });
    for (const original of ['10', '10.0', '-1.00', '1e3', '10000000.01', 10]) {
      expect((await put(cob(sandbox, { valor: { original } }))).statusCode, String(original)).toBe(400);
    }
    expect(
      (await put(cob(sandbox, { valor: { original: '1.00', modalidadeAlteracao: 1 } }))).statusCode,
    ).toBe(400);
    expect(
      (await put(cob(sandbox, { devedor: { cpf: '52998224725', cnpj: '11222333000181', nome: 'X' } })))
        .statusCode,
    ).toBe(400);
    expect((await put(cob(sandbox, { chave: 'someone-else@example.com' }))).statusCode).toBe(400);
    expect((await put(cob(sandbox), 'short')).statusCode).toBe(400);
    expect((await put(cob(sandbox), 'a'.repeat(36))).statusCode).toBe(400);
    expect(
      (await put(cob(sandbox, { devedor: { cnpj: '12ABC34501DE35', nome: 'Empresa' } }))).statusCode,
    ).toBe(201);
  });
});

describe('GET and PATCH /cob/{txid}', () => {
  it('answers 404 for an unknown charge and removes an ATIVA charge on request', async () => {
    const { app, sandbox } = open();
    const auth = await bearer(app);
    expect(
      (await app.inject({ method: 'GET', url: `/cob/${TXID}`, headers: { authorization: auth } })).statusCode,
    ).toBe(404);
    await app.inject({
      method: 'PUT',
      url: `/cob/${TXID}`,
      headers: { authorization: auth },
      payload: cob(sandbox),
    });
    const removed = await app.inject({
      method: 'PATCH',
      url: `/cob/${TXID}`,
      headers: { authorization: auth },
      payload: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    });
    expect(removed.json()).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    const change = await app.inject({
      method: 'PUT',
      url: `/cob/${TXID}`,
      headers: { authorization: auth },
      payload: cob(sandbox, { valor: { original: '99.00' } }),
    });
    expect(change.statusCode).toBe(400);
    const pay = await app.inject({
      method: 'POST',
      url: `/pay/${TXID}`,
      headers: FORM,
      payload: 'nome=Maria&cpf=52998224725',
    });
    expect(pay.statusCode).toBe(409);
  });
});

describe('payload location', () => {
  it('sends a browser to the payer page and gives an app the charge payload', async () => {
    const { app, sandbox } = open();
    const created = await app.inject({
      method: 'PUT',
      url: `/cob/${TXID}`,
      headers: { authorization: await bearer(app) },
      payload: cob(sandbox),
    });
    const path = created.json().location.replace('127.0.0.1:4010', '');
    const browser = await app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
    expect(browser.statusCode).toBe(303);
    expect(browser.headers.location).toBe(`/pay/${TXID}`);
    const payload = await app.inject({ method: 'GET', url: path, headers: { accept: 'application/json' } });
    expect(payload.json()).toMatchObject({ txid: TXID, status: 'ATIVA', valor: { original: '10.00' } });
    expect((await app.inject({ method: 'GET', url: `/qr/v2/${'0'.repeat(32)}` })).statusCode).toBe(404);
  });
});

describe('webhook registration', () => {
  it('registers, reads and deletes a webhook on the receiver key', async () => {
    const { app, sandbox } = open();
    const auth = await bearer(app);
    const url = `/webhook/${sandbox.pixKey}`;
    const put = await app.inject({
      method: 'PUT',
      url,
      headers: { authorization: auth },
      payload: { webhookUrl: 'http://127.0.0.1:3000/api/psp/webhook' },
    });
    expect(put.statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url, headers: { authorization: auth } })).json().webhookUrl,
    ).toBe('http://127.0.0.1:3000/api/psp/webhook');
    expect((await app.inject({ method: 'DELETE', url, headers: { authorization: auth } })).statusCode).toBe(
      204,
    );
    expect((await app.inject({ method: 'GET', url, headers: { authorization: auth } })).statusCode).toBe(404);
  });

  it('refuses non-http URLs, URLs with credentials and keys of someone else', async () => {
    const { app, sandbox } = open();
    const auth = await bearer(app);
    for (const webhookUrl of [
      'ftp://x/y',
      'not a url',
      'http://user:pw@host/x',
      `http://h/${'a'.repeat(600)}`,
    ]) {
      const response = await app.inject({
        method: 'PUT',
        url: `/webhook/${sandbox.pixKey}`,
        headers: { authorization: auth },
        payload: { webhookUrl },
      });
      expect(response.statusCode, webhookUrl.slice(0, 20)).toBe(400);
    }
    const foreign = await app.inject({
      method: 'PUT',
      url: '/webhook/other@example.com',
      headers: { authorization: auth },
      payload: { webhookUrl: 'http://127.0.0.1/x' },
    });
    expect(foreign.statusCode).toBe(400);
  });
});

describe('PUT /payouts/{id}', () => {
  it('validates the key against its type and the recipient document', async () => {
    const { app } = open();
    const auth = await bearer(app);
    const put = (payload: object) =>
      app.inject({ method: 'PUT', url: `/payouts/${TXID}`, headers: { authorization: auth }, payload });
    const base = { valor: '10.00', favorecido: { cpf: '52998224725', nome: 'Maria' } };
    const bad = [
      { ...base, chave: '52998224724', tipoChave: 'CPF' },
      { ...base, chave: 'maria@', tipoChave: 'EMAIL' },
      { ...base, chave: '11987654321', tipoChave: 'TELEFONE' },
      { ...base, chave: 'not-a-uuid', tipoChave: 'EVP' },
      { ...base, chave: 'a@b.co', tipoChave: 'PIX' },
      { ...base, chave: 'a@b.co', tipoChave: 'EMAIL', valor: '0.00' },
      { ...base, chave: 'a@b.co', tipoChave: 'EMAIL', favorecido: { cpf: '123', nome: 'X' } },
    ];
    for (const payload of bad) expect((await put(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    const good = await put({ ...base, chave: '123e4567-e89b-12d3-a456-426614174000', tipoChave: 'EVP' });
    expect(good.statusCode).toBe(201);
    expect(good.json()).toMatchObject({ id: TXID, status: 'EM_PROCESSAMENTO', valor: '10.00' });
  });
});

describe('state file', () => {
  it('is written atomically and read back by a new sandbox on the same directory', async () => {
    const first = open();
    const auth = await bearer(first.app);
    await first.app.inject({
      method: 'PUT',
      url: `/cob/${TXID}`,
      headers: { authorization: auth },
      payload: cob(first.sandbox),
    });
    await first.app.inject({
      method: 'POST',
      url: `/pay/${TXID}`,
      headers: FORM,
      payload: 'nome=Ana&cpf=52998224725',
    });
    await first.sandbox.close();
    expect(readdirSync(first.dir)).toEqual(['state.json']);

    const second = createSandbox({
      dataDir: first.dir,
      publicUrl: 'http://127.0.0.1:4010',
      clientId: 'client',
      clientSecret: 'secret',
      webhookSecret: 'unit-test-webhook-secret',
      now: () => nowMs,
    });
    opened.push({ sandbox: second, dir: mkdtempSync(join(tmpdir(), 'psp-sandbox-unused-')) });
    const fetched = await second.app.inject({
      method: 'GET',
      url: `/cob/${TXID}`,
      headers: { authorization: await bearer(second.app) },
    });
    expect(fetched.json()).toMatchObject({
      status: 'CONCLUIDA',
      pix: [{ txid: TXID, pagador: { nome: 'Ana' } }],
    });
  });
});

describe('pages', () => {
  it('answers 404 for unknown charges and 413 for oversized bodies', async () => {
    const { app } = open();
    expect((await app.inject({ method: 'GET', url: `/pay/${TXID}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/pay/<script>' })).statusCode).toBe(404);
    const huge = await app.inject({
      method: 'POST',
      url: `/pay/${TXID}`,
      headers: FORM,
      payload: `nome=${'a'.repeat(70_000)}`,
    });
    expect(huge.statusCode).toBe(413);
  });

  it('escapes what the receiver wrote into the charge', async () => {
    const { app, sandbox } = open();
    await app.inject({
      method: 'PUT',
      url: `/cob/${TXID}`,
      headers: { authorization: await bearer(app) },
      payload: cob(sandbox, { solicitacaoPagador: '<img src=x onerror=alert(1)>' }),
    });
    const page = await app.inject({ method: 'GET', url: `/pay/${TXID}` });
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    const overview = await app.inject({ method: 'GET', url: '/' });
    expect(overview.statusCode).toBe(200);
    expect(overview.body).toContain(TXID);
  });
});
