import { describe, expect, it } from 'vitest';
import { createTxid, PspClient, PspError, TXID_PATTERN } from './psp.client.ts';

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A scripted PSP: each request gets the next answer of its path's script. */
function fakePsp(script: Record<string, (() => Response | Promise<Response>)[]>) {
  const calls: Call[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const path = new URL(url).pathname;
    calls.push({
      method: init?.method ?? 'GET',
      url,
      headers: Object.fromEntries(Object.entries((init?.headers as Record<string, string>) ?? {})),
      body: init?.body as string | undefined,
    });
    const next = script[path]?.shift();
    if (!next) throw new Error(`unexpected request ${path}`);
    return next();
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const token =
  (value: string, expiresIn = 3600) =>
  () =>
    json(200, {
      access_token: value,
      token_type: 'Bearer',
      expires_in: expiresIn,
      scope: 'cob.write cob.read',
    });

const TXID = 'abcdefghijklmnopqrstuvwxyz012345';
const JSON_COB = {
  calendario: { criacao: '2026-11-23T12:00:00.000Z', expiracao: 900 },
  txid: 'abcdefghijklmnopqrstuvwxyz012345',
  revisao: 0,
  status: 'ATIVA',
  valor: { original: '123.45' },
  chave: 'key',
};
const cob =
  (status = 'ATIVA', extra: Record<string, unknown> = {}) =>
  () =>
    json(200, {
      calendario: { criacao: '2026-11-23T12:00:00.000Z', expiracao: 900 },
      txid: TXID,
      revisao: 0,
      loc: {
        id: 1,
        location: '127.0.0.1:4010/qr/v2/abc',
        tipoCob: 'cob',
        criacao: '2026-11-23T12:00:00.000Z',
      },
      location: '127.0.0.1:4010/qr/v2/abc',
      status,
      valor: { original: '123.45', modalidadeAlteracao: 0 },
      chave: 'key',
      pixCopiaECola: '000201...',
      ...extra,
    });

function client(fetch: typeof globalThis.fetch, now = () => Date.parse('2026-11-23T12:00:00Z')) {
  return new PspClient({
    baseUrl: 'http://psp.test/',
    clientId: 'client id',
    clientSecret: 's3cr:et',
    fetch,
    now,
    retryBaseDelayMs: 0,
    maxAttempts: 3,
  });
}

describe('createTxid', () => {
  it('makes 32-character alphanumeric txids that differ each time', () => {
    const ids = new Set(Array.from({ length: 200 }, () => createTxid()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(TXID_PATTERN);
    expect(createTxid(35)).toHaveLength(35);
    expect(() => createTxid(25)).toThrow(RangeError);
  });
});

describe('PspClient', () => {
  it('creates a charge with the API Pix body, Basic client credentials and a bearer token', async () => {
    const psp = fakePsp({ '/oauth/token': [token('T1')], [`/cob/${TXID}`]: [cob()] });
    const charge = await client(psp.fetch).createCharge({
      txid: TXID,
      amountMinor: 12345n,
      expiresInSeconds: 900,
      pixKey: 'key',
      debtor: { cpf: '52998224725', name: 'Maria' },
    });
    expect(charge).toMatchObject({
      txid: TXID,
      status: 'ATIVA',
      amountMinor: 12345n,
      location: '127.0.0.1:4010/qr/v2/abc',
    });
    expect(charge.expiresAt.toISOString()).toBe('2026-11-23T12:15:00.000Z');
    const [tokenCall, cobCall] = psp.calls;
    expect(tokenCall!.headers.authorization).toBe(
      `Basic ${Buffer.from('client%20id:s3cr%3Aet').toString('base64')}`,
    );
    expect(new URLSearchParams(tokenCall!.body).get('grant_type')).toBe('client_credentials');
    expect(cobCall!.method).toBe('PUT');
    expect(cobCall!.headers.authorization).toBe('Bearer T1');
    expect(JSON.parse(cobCall!.body!)).toEqual({
      calendario: { expiracao: 900 },
      devedor: { cpf: '52998224725', nome: 'Maria' },
      valor: { original: '123.45' },
      chave: 'key',
    });
  });

  it('reuses the cached token and renews it shortly before it expires', async () => {
    let now = Date.parse('2026-11-23T12:00:00Z');
    const psp = fakePsp({
      '/oauth/token': [token('T1', 600), token('T2', 600)],
      [`/cob/${TXID}`]: [cob(), cob(), cob()],
    });
    const pix = client(psp.fetch, () => now);
    await pix.getCharge(TXID);
    await pix.getCharge(TXID);
    now += 541_000;
    await pix.getCharge(TXID);
    const bearers = psp.calls.filter((c) => c.url.includes('/cob/')).map((c) => c.headers.authorization);
    expect(bearers).toEqual(['Bearer T1', 'Bearer T1', 'Bearer T2']);
  });

  it('shares one token request between concurrent calls', async () => {
    const psp = fakePsp({ '/oauth/token': [token('T1')], [`/cob/${TXID}`]: [cob(), cob(), cob()] });
    const pix = client(psp.fetch);
    await Promise.all([pix.getCharge(TXID), pix.getCharge(TXID), pix.getCharge(TXID)]);
    expect(psp.calls.filter((c) => c.url.endsWith('/oauth/token'))).toHaveLength(1);
  });

  it('fetches a new token once when the PSP answers 401, then repeats the call', async () => {
    const psp = fakePsp({
      '/oauth/token': [token('OLD'), token('NEW')],
      [`/cob/${TXID}`]: [() => json(401, { title: 'no' }), cob('CONCLUIDA')],
    });
    const charge = await client(psp.fetch).getCharge(TXID);
    expect(charge.status).toBe('CONCLUIDA');
    expect(psp.calls.map((c) => c.headers.authorization?.split(' ')[1])).toEqual([
      expect.any(String),
      'OLD',
      expect.any(String),
      'NEW',
    ]);
  });

  it('gives up with PSP_AUTH_FAILED when credentials are refused', async () => {
    const psp = fakePsp({ '/oauth/token': [() => json(401, { error: 'invalid_client' })] });
    await expect(client(psp.fetch).getCharge(TXID)).rejects.toMatchObject({ code: 'PSP_AUTH_FAILED' });
  });

  it('retries 5xx and network errors a bounded number of times, then reports PSP_UNAVAILABLE', async () => {
    const psp = fakePsp({
      '/oauth/token': [token('T1')],
      [`/cob/${TXID}`]: [
        () => json(503, {}),
        () => Promise.reject(new TypeError('fetch failed')),
        () => json(500, {}),
        cob(),
      ],
    });
    const error = await client(psp.fetch)
      .getCharge(TXID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PspError);
    expect((error as PspError).code).toBe('PSP_UNAVAILABLE');
    expect(psp.calls.filter((c) => c.url.includes('/cob/'))).toHaveLength(3);
  });

  it('succeeds when a retry gets through', async () => {
    const psp = fakePsp({ '/oauth/token': [token('T1')], [`/cob/${TXID}`]: [() => json(502, {}), cob()] });
    await expect(client(psp.fetch).getCharge(TXID)).resolves.toMatchObject({ status: 'ATIVA' });
  });

  it('does not retry a rejected request and surfaces the violations', async () => {
    const problem = {
      type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
      title: 'Cobrança inválida.',
      status: 400,
      detail: 'bad',
      violacoes: [{ razao: 'zero', propriedade: 'cob.valor.original' }],
    };
    const psp = fakePsp({
      '/oauth/token': [token('T1')],
      [`/cob/${TXID}`]: [() => json(400, problem), () => json(404, {})],
    });
    const error = (await client(psp.fetch)
      .createCharge({ txid: TXID, amountMinor: 1n, expiresInSeconds: 60, pixKey: 'key' })
      .catch((e: unknown) => e)) as PspError;
    expect(error.code).toBe('PSP_REJECTED');
    expect(error.violations).toEqual([{ razao: 'zero', propriedade: 'cob.valor.original' }]);
    // One PUT, then one GET to see whether the txid is an earlier charge of ours (it is not).
    expect(psp.calls.map((c) => c.method)).toEqual(['POST', 'PUT', 'GET']);
  });

  it('maps 404 to PSP_NOT_FOUND', async () => {
    const psp = fakePsp({ '/oauth/token': [token('T1')], [`/cob/${TXID}`]: [() => json(404, {})] });
    await expect(client(psp.fetch).getCharge(TXID)).rejects.toMatchObject({ code: 'PSP_NOT_FOUND' });
  });

  it('refuses a response that is not API Pix shaped', async () => {
    const psp = fakePsp({
      '/oauth/token': [token('T1')],
      [`/cob/${TXID}`]: [() => json(200, { txid: TXID, valor: { original: 12.5 } })],
    });
    await expect(client(psp.fetch).getCharge(TXID)).rejects.toMatchObject({ code: 'PSP_BAD_RESPONSE' });
  });

  it('validates input before calling: txid shape, amount range, expiry', async () => {
    const psp = fakePsp({});
    const pix = client(psp.fetch);
    await expect(pix.getCharge('short')).rejects.toThrow(RangeError);
    await expect(
      pix.createCharge({ txid: TXID, amountMinor: 0n, expiresInSeconds: 60, pixKey: 'k' }),
    ).rejects.toThrow(RangeError);
    await expect(
      pix.createCharge({ txid: TXID, amountMinor: -5n, expiresInSeconds: 60, pixKey: 'k' }),
    ).rejects.toThrow(RangeError);
    await expect(
      pix.createCharge({ txid: TXID, amountMinor: 1_000_000_000_000n, expiresInSeconds: 60, pixKey: 'k' }),
    ).rejects.toThrow(RangeError);
    await expect(
      pix.createCharge({ txid: TXID, amountMinor: 100n, expiresInSeconds: 0, pixKey: 'k' }),
    ).rejects.toThrow(RangeError);
    expect(psp.calls).toHaveLength(0);
  });

  it('asks the token from /oauth/token on the host of a versioned base URL, with the scopes, or from PSP_TOKEN_URL', async () => {
    for (const [options, expected] of [
      [{ baseUrl: 'https://pix.example.com/api/v2/' }, 'https://pix.example.com/oauth/token'],
      [
        { baseUrl: 'https://pix.example.com/api/v2', tokenUrl: 'https://auth.example.com/oauth2/token' },
        'https://auth.example.com/oauth2/token',
      ],
    ] as const) {
      const calls: { url: string; body: string }[] = [];
      const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
        calls.push({ url: String(input), body: String(init?.body ?? '') });
        return String(input).includes('token') ? token('T')() : cob()();
      }) as typeof globalThis.fetch;
      await new PspClient({ ...options, clientId: 'id', clientSecret: 's', fetch }).getCharge(TXID);
      expect(calls[0]!.url).toBe(expected);
      expect(new URLSearchParams(calls[0]!.body).get('scope')).toBe(
        'cob.write cob.read pix.read pix.write webhook.write webhook.read',
      );
      expect(calls[1]!.url).toBe(`https://pix.example.com/api/v2/cob/${TXID}`);
    }
  });

  it('accepts a charge without pixCopiaECola or location, both optional in the standard', async () => {
    const bare = () => {
      const body = JSON.parse(JSON.stringify({ ...JSON_COB }));
      delete body.pixCopiaECola;
      delete body.location;
      delete body.loc;
      return json(200, body);
    };
    const psp = fakePsp({ '/oauth/token': [token('T1')], [`/cob/${TXID}`]: [bare] });
    expect(await client(psp.fetch).getCharge(TXID)).toMatchObject({ location: null, pixCopiaECola: null });
  });

  it('reads GET /cob/{txid} when PUT says the txid exists: the same charge is ours, another one is a conflict', async () => {
    const taken = () => json(400, { title: 'Cobrança inválida.', detail: 'txid já utilizado' });
    const psp = fakePsp({
      '/oauth/token': [token('T1')],
      [`/cob/${TXID}`]: [taken, cob(), () => json(409, {}), cob()],
    });
    const pix = client(psp.fetch);
    const input = { txid: TXID, amountMinor: 12345n, expiresInSeconds: 900, pixKey: 'key' };
    await expect(pix.createCharge(input)).resolves.toMatchObject({ txid: TXID, amountMinor: 12345n });
    await expect(pix.createCharge({ ...input, amountMinor: 500n })).rejects.toMatchObject({
      code: 'PSP_CONFLICT',
    });
    expect(psp.calls.filter((c) => c.url.includes('/cob/')).map((c) => c.method)).toEqual([
      'PUT',
      'GET',
      'PUT',
      'GET',
    ]);
  });

  it('lists received Pix with the standard query names and reads each item on its own', async () => {
    const good = {
      endToEndId: 'E12345678202611231200abcdefghijk',
      txid: TXID,
      valor: '10.00',
      horario: '2026-11-23T12:00:00Z',
      pagador: { cpf: 12345 },
    };
    const page = {
      parametros: {
        inicio: '2026-11-23T11:00:00Z',
        fim: '2026-11-23T13:00:00Z',
        paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 3 },
      },
      pix: [
        good,
        { ...good, valor: 10 },
        { endToEndId: 'E12345678202611231200abcdefghijl', valor: '1.00', horario: '2026-11-23T12:00:00Z' },
      ],
    };
    const psp = fakePsp({ '/oauth/token': [token('T1')], '/pix': [() => json(200, page)] });
    const result = await client(psp.fetch).listPix({
      from: new Date('2026-11-23T11:00:00Z'),
      to: new Date('2026-11-23T13:00:00Z'),
      txid: TXID,
      payerCpf: '52998224725',
    });
    expect(result.skipped).toBe(1);
    expect(result.items.map((p) => [p.txid, p.amountMinor, p.payer])).toEqual([
      [TXID, 1000n, null],
      [null, 100n, null],
    ]);
    const query = new URL(psp.calls[1]!.url).searchParams;
    expect(Object.fromEntries(query)).toEqual({
      inicio: '2026-11-23T11:00:00.000Z',
      fim: '2026-11-23T13:00:00.000Z',
      txid: TXID,
      cpf: '52998224725',
      'paginacao.paginaAtual': '0',
      'paginacao.itensPorPagina': '100',
    });
  });
});
