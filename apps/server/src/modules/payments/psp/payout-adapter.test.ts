import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { efiPayouts, sandboxPayouts } from './payout-adapter.ts';
import { createPayoutId, PspClient } from './psp.client.ts';

/**
 * A local fake of Efí's documented "Envio de Pix" endpoints (we cannot reach Efí from here):
 * `PUT /v3/gn/pix/{idEnvio}` and `GET /v2/gn/pix/enviados/id-envio/{idEnvio}` on the API Pix
 * host, next to the standard's `/v2/cob`; a key ending in `@refused` is answered 400.
 */
interface Sent {
  idEnvio: string;
  valor: string;
  status: string;
  chave: string;
}

let server: Server;
let base = '';
let scopes = '';
const requests: { method: string; url: string; body: unknown }[] = [];
const sent = new Map<string, Sent>();
let failNextPut = 0;

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      resolve(text && request.headers['content-type']?.includes('json') ? JSON.parse(text) : text);
    });
  });
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await readBody(request);
    const url = request.url ?? '';
    requests.push({ method: request.method ?? '', url, body });
    const reply = (status: number, json: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    if (url === '/oauth/token') {
      scopes = new URLSearchParams(String(body)).get('scope') ?? '';
      return reply(200, { access_token: 'efi-token', token_type: 'Bearer', expires_in: 3600 });
    }
    const put = /^\/v3\/gn\/pix\/([a-zA-Z0-9]{1,35})$/.exec(url);
    if (put && request.method === 'PUT') {
      if (failNextPut-- > 0) return reply(503, {});
      const payload = body as { valor: string; favorecido: { chave: string } };
      if (payload.favorecido.chave.endsWith('@refused'))
        return reply(400, { nome: 'chave_invalida', mensagem: 'Chave inválida' });
      const record = {
        idEnvio: put[1]!,
        valor: payload.valor,
        status: 'EM_PROCESSAMENTO',
        chave: payload.favorecido.chave,
      };
      sent.set(put[1]!, record);
      return reply(201, {
        idEnvio: record.idEnvio,
        e2eId: 'E09089356202611231200abcdefghijk',
        valor: record.valor,
        horario: { solicitacao: '2026-11-23T12:00:00Z' },
        status: record.status,
      });
    }
    const get = /^\/v2\/gn\/pix\/enviados\/id-envio\/([a-zA-Z0-9]{1,35})$/.exec(url);
    if (get && request.method === 'GET') {
      const record = sent.get(get[1]!);
      if (!record) return reply(404, { nome: 'envio_nao_encontrado' });
      return reply(200, {
        endToEndId: 'E09089356202611231200abcdefghijk',
        idEnvio: record.idEnvio,
        valor: record.valor,
        chave: record.chave,
        status: record.status,
        horario: {
          solicitacao: '2026-11-23T12:00:00Z',
          ...(record.status === 'REALIZADO' ? { liquidacao: '2026-11-23T12:00:05Z' } : {}),
        },
      });
    }
    return reply(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const input = (id: string, pixKey = 'maria@example.com') => ({
  id,
  amountMinor: 5000n,
  pixKey,
  pixKeyType: 'EMAIL' as const,
  recipient: { cpf: '52998224725', name: 'Maria' },
  description: 'Sorte W1',
});

function efi() {
  const client = new PspClient({
    baseUrl: `${base}/v2`,
    clientId: 'id',
    clientSecret: 'secret',
    scopes: ['cob.write', 'pix.send', 'gn.pix.send.read'],
    retryBaseDelayMs: 0,
    maxAttempts: 1,
  });
  return efiPayouts(client, 'our-key@sorte.example');
}

describe('Efí payout adapter (against a local fake of its documented endpoints)', () => {
  it('sends PUT /v3/gn/pix/{idEnvio} with valor, pagador.chave and favorecido { chave, cpf }, then reads the status by id', async () => {
    const id = createPayoutId();
    expect(await efi().send(input(id))).toMatchObject({ kind: 'accepted', status: 'EM_PROCESSAMENTO' });
    const put = requests.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe(`/v3/gn/pix/${id}`);
    expect(put.body).toEqual({
      valor: '50.00',
      pagador: { chave: 'our-key@sorte.example', infoPagador: 'Sorte W1' },
      favorecido: { chave: 'maria@example.com', cpf: '52998224725' },
    });
    expect(scopes).toContain('pix.send');
    sent.get(id)!.status = 'REALIZADO';
    expect(await efi().get(id)).toEqual({
      kind: 'accepted',
      status: 'REALIZADO',
      settledAt: new Date('2026-11-23T12:00:05Z'),
      endToEndId: 'E09089356202611231200abcdefghijk',
      failureReason: null,
    });
  });

  it('classifies a 400 as refused, a 5xx as unknown, and an id Efí does not have as not_found', async () => {
    expect(await efi().send(input(createPayoutId(), 'x@refused'))).toMatchObject({ kind: 'refused' });
    failNextPut = 1;
    expect(await efi().send(input(createPayoutId()))).toMatchObject({ kind: 'unknown' });
    expect(await efi().get(createPayoutId())).toEqual({ kind: 'not_found' });
  });
});

describe('sandbox payout adapter', () => {
  it('reads a 404 of the send (an endpoint a PSP does not have) as refused, never as "not sent yet"', async () => {
    const client = new PspClient({
      baseUrl: `${base}/nothing-here`,
      clientId: 'id',
      clientSecret: 's',
      maxAttempts: 1,
    });
    const adapter = sandboxPayouts(client);
    expect(await adapter.send(input(createPayoutId()))).toMatchObject({ kind: 'refused' });
    expect(await adapter.get(createPayoutId())).toEqual({ kind: 'not_found' });
  });
});
