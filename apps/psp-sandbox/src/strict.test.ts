import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './sandbox.ts';
import { createTestPki, type TestPki } from './test-pki.ts';

/** The strict sandbox over real HTTPS: mTLS, the standard's paths, scopes and callbacks only. */
let pki: TestPki;
let sandbox: Sandbox;
let dir: string;
let receiver: Server;
const received: { url: string; headers: Record<string, unknown>; body: string }[] = [];
const TXID = 'strictTxid0123456789abcdefghijk';

const client = () => new Agent({ connect: { cert: pki.client.cert, key: pki.client.key, ca: pki.ca } });
const BASIC = `Basic ${Buffer.from('strict:secret').toString('base64')}`;

async function token(dispatcher: Agent, scope?: string) {
  return fetch(`${sandbox.url}/oauth/token`, {
    method: 'POST',
    dispatcher,
    headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials${scope ? `&scope=${encodeURIComponent(scope)}` : ''}`,
  });
}

beforeAll(async () => {
  pki = createTestPki();
  dir = mkdtempSync(join(tmpdir(), 'psp-strict-'));
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  sandbox = createSandbox({
    dataDir: dir,
    clientId: 'strict',
    clientSecret: 'secret',
    strict: true,
    tls: { ...pki.server, ca: pki.ca },
    webhookDelivery: { baseDelayMs: 10 },
  });
  await sandbox.listen();
});

afterAll(async () => {
  await sandbox.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
  pki.remove();
});

describe('strict sandbox', () => {
  it('serves HTTPS and refuses a client without a certificate or with a stranger’s', async () => {
    expect(sandbox.url.startsWith('https://')).toBe(true);
    await expect(token(new Agent({ connect: { ca: pki.ca } }))).rejects.toThrow();
    const stranger = new Agent({ connect: { cert: pki.stranger.cert, key: pki.stranger.key, ca: pki.ca } });
    await expect(token(stranger)).rejects.toThrow();
    expect((await token(client())).status).toBe(200);
  });

  it('grants only the standard’s scopes and serves the API under /api/v2', async () => {
    const dispatcher = client();
    const granted = (await (await token(dispatcher)).json()) as { scope: string; access_token: string };
    expect(granted.scope.split(' ').sort()).toEqual(
      ['cob.read', 'cob.write', 'pix.read', 'pix.write', 'webhook.read', 'webhook.write'].sort(),
    );
    expect((await (await token(dispatcher, 'payout.write')).json()) as object).toMatchObject({
      error: 'invalid_scope',
    });
    const auth = { authorization: `Bearer ${granted.access_token}` };
    expect((await fetch(`${sandbox.url}/cob/${TXID}`, { dispatcher, headers: auth })).status).toBe(404);
    expect(sandbox.apiUrl).toBe(`${sandbox.url}/api/v2`);
  });

  it('posts unsigned callbacks of the standard’s Pix shape, and lists Pix by payer CPF', async () => {
    const dispatcher = client();
    const { access_token } = (await (await token(dispatcher)).json()) as { access_token: string };
    const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
    const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const api = sandbox.apiUrl;
    const put = (path: string, body: unknown) =>
      fetch(`${api}${path}`, { method: 'PUT', dispatcher, headers, body: JSON.stringify(body) });
    expect((await put(`/webhook/${sandbox.pixKey}`, { webhookUrl })).status).toBe(200);
    const cob = { calendario: { expiracao: 600 }, valor: { original: '12.34' }, chave: sandbox.pixKey };
    expect((await put(`/cob/${TXID}`, cob)).status).toBe(201);
    const paid = await sandbox.app.inject({
      method: 'POST',
      url: `/pay/${TXID}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'nome=Maria&cpf=52998224725',
    });
    expect(paid.statusCode).toBe(303);
    for (let i = 0; i < 200 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const callback = received[0]!;
    expect(callback.url).toBe('/hook/pix');
    expect(callback.headers['x-sandbox-signature']).toBeUndefined();
    const item = JSON.parse(callback.body).pix[0];
    expect(item).toMatchObject({ txid: TXID, valor: '12.34', chave: sandbox.pixKey });
    expect(item.pagador).toBeUndefined();
    const window = `inicio=${new Date(Date.now() - 60_000).toISOString()}&fim=${new Date(Date.now() + 60_000).toISOString()}`;
    const list = async (filter: string) =>
      (await (await fetch(`${api}/pix?${window}&${filter}`, { dispatcher, headers })).json()) as {
        pix: { endToEndId: string }[];
        parametros: { paginacao: { quantidadeTotalDeItens: number } };
      };
    expect((await list('cpf=52998224725')).pix.map((p) => p.endToEndId)).toEqual([item.endToEndId]);
    expect((await list('cpf=11144477735')).pix).toEqual([]);
  });
});
