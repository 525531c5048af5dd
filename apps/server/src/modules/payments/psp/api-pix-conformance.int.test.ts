import { API_BASE_PATH, type Exchange } from '@sorte/psp-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPixValidator } from '../../../../test/api-pix.ts';
import { databaseKinds } from '../../../../test/databases.ts';
import {
  balancesOf,
  call,
  HOSTS,
  type MoneyHarness,
  newPlayer,
  payOnSandbox,
  randomCpf,
  setMemberCpf,
  startMoneyHarness,
  waitFor,
} from '../../deposits/money.fixtures.ts';
import { reconcilePix } from '../../deposits/pix-settlement.ts';

/**
 * Every exchange between the server and the sandbox in strict mode (mTLS, the standard only),
 * captured by the sandbox and checked against the BCB "API Pix" 2.9.0 document (test/api-pix.ts):
 * our requests (bodies, query and path parameters), the PSP's responses (by documented status),
 * the `{webhookUrl}/pix` callbacks and our answers to them, and the token's scopes. The sandbox's
 * payout API is its own (sending Pix is not in the standard) and is counted apart.
 */
const validator = new ApiPixValidator();
const CALLBACK_SCHEMA = '#/components/requestBodies/WebhookPixBody/content/application~1json/schema';

interface Finding {
  exchange: string;
  errors: string[];
}

/** `/api/v2/cob/:txid` → `/cob/{txid}`, and the path values of the request. */
function standardPath(exchange: Extract<Exchange, { kind: 'api' }>) {
  const template = exchange.route.slice(API_BASE_PATH.length);
  const path = template.replace(/:([a-zA-Z0-9]+)/g, '{$1}');
  const names = [...template.matchAll(/:([a-zA-Z0-9]+)/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${template.replace(/:([a-zA-Z0-9]+)/g, '([^/?]+)')}(?:\\?|$)`);
  const match = pattern.exec(exchange.url.slice(API_BASE_PATH.length));
  const values = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match?.[i + 1] ?? '')]));
  return { path, values };
}

function checkApi(exchange: Extract<Exchange, { kind: 'api' }>): Finding {
  const label = `${exchange.method} ${exchange.url.split('?')[0]} → ${exchange.status}`;
  const { path, values } = standardPath(exchange);
  const errors: string[] = [];
  const request = validator.requestSchema(path, exchange.method);
  if (request) errors.push(...validator.check(request, exchange.requestBody).map((e) => `request ${e}`));
  else if (exchange.requestBody !== undefined && exchange.requestBody !== null)
    errors.push('request: a body where the standard takes none');
  errors.push(...validator.checkPath(path, exchange.method, values));
  errors.push(
    ...validator.checkQuery(path, exchange.method, new URL(exchange.url, 'https://x').searchParams),
  );
  const response = validator.responseSchema(path, exchange.method, exchange.status);
  if (response === undefined) errors.push(`response: status ${exchange.status} not documented`);
  else if (response !== null)
    errors.push(...validator.check(response, JSON.parse(exchange.responseBody)).map((e) => `response ${e}`));
  return { exchange: label, errors };
}

describe.each(await databaseKinds())(
  'API Pix conformance of the server ⇄ strict sandbox traffic on %s',
  (kind) => {
    let h: MoneyHarness;
    beforeAll(async () => {
      h = await startMoneyHarness(kind);
    }, 60_000);
    afterAll(async () => {
      await h?.close();
    });

    const channelId = async (host: string) =>
      (await call(h.app, { method: 'GET', url: '/api/payment/online/list?payment_type=pix', host })).body.data
        .list[0].id;
    const deposit = async (player: { token: string }, host: string, money: string) => {
      const payload = { money, payment_id: await channelId(host), payment_type: 'pix' };
      const answer = await call(h.app, {
        method: 'POST',
        url: '/api/recharge/online',
        host,
        token: player.token,
        payload,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data as { txid: string; order_no: string };
    };
    const statusOf = async (player: { token: string }, host: string, orderNo: string) =>
      (
        await call(h.app, {
          method: 'GET',
          url: `/api/recharge/detail?order_no=${orderNo}`,
          host,
          token: player.token,
        })
      ).body.data.status;

    it('validates every request, response and callback of the deposit flows against the document', async () => {
      // intl: any payer; br: the Pix must be listed under the member's CPF (GET /pix?cpf=), else refunded.
      const intl = await newPlayer(h.app);
      const a = await deposit(intl, HOSTS.intl, '21.50');
      await payOnSandbox(h.psp, a.txid, randomCpf());
      const br = await newPlayer(h.app, HOSTS.br);
      const cpf = randomCpf();
      await setMemberCpf(h.db, br.memberId, cpf);
      const foreign = await deposit(br, HOSTS.br, '30.00');
      await payOnSandbox(h.psp, foreign.txid, randomCpf());
      const own = await deposit(br, HOSTS.br, '40.00');
      await payOnSandbox(h.psp, own.txid, cpf);
      await waitFor(async () => (await statusOf(intl, HOSTS.intl, a.order_no)) === 'paid', 'intl credit');
      await waitFor(async () => (await statusOf(br, HOSTS.br, own.order_no)) === 'paid', 'br credit');
      await waitFor(async () => (await statusOf(br, HOSTS.br, foreign.order_no)) === 'refunded', 'br refund');
      // The refund's final status comes back by callback, with devolucoes.
      await waitFor(
        async () => h.traffic.some((x) => x.kind === 'callback' && x.body.includes('DEVOLVIDO')),
        'the refund callback',
      );
      expect((await balancesOf(h.db, br.memberId)).cashMinor).toBe(4000n);
      // A repeated PUT /cob (standard: 400) is read back with GET /cob.
      const again = await h.psp.client.createCharge({
        txid: a.txid,
        amountMinor: 2150n,
        expiresInSeconds: 900,
        pixKey: h.psp.pixKey,
      });
      expect(again.txid).toBe(a.txid);
      const deps = { db: h.db, psp: h.app.psp, realtime: h.app.realtime, log: h.app.log };
      expect(await reconcilePix(deps, { job: `conformance-${Math.random()}` })).toBe(0);

      const findings: Finding[] = [];
      const outside: string[] = [];
      let scopes: string[] = [];
      for (const exchange of h.traffic) {
        if (exchange.kind === 'callback') {
          if (!exchange.url.endsWith('/pix')) {
            outside.push(`callback ${new URL(exchange.url).pathname}`);
            continue;
          }
          const errors = validator.check(CALLBACK_SCHEMA, JSON.parse(exchange.body));
          if (exchange.status !== 200) errors.push(`our answer ${exchange.status}, the standard's is 200`);
          findings.push({ exchange: `callback ${new URL(exchange.url).pathname}`, errors });
        } else if (exchange.route === '/oauth/token') {
          scopes = (JSON.parse(exchange.responseBody) as { scope: string }).scope.split(' ');
          const asked = new URLSearchParams(String(exchange.requestBody)).get('scope')?.split(' ') ?? [];
          findings.push({
            exchange: 'POST /oauth/token',
            errors: [...asked, ...scopes]
              .filter((s) => !validator.scopes().includes(s))
              .map((s) => `scope ${s}`),
          });
        } else if (exchange.route.startsWith(`${API_BASE_PATH}/payouts`)) {
          outside.push(`${exchange.method} ${exchange.route}`);
        } else {
          findings.push(checkApi(exchange));
        }
      }
      const seen = new Set(
        findings.map((f) => f.exchange.replace(/\/[A-Za-z0-9]{26,35}(?=\/|\s)/g, '/{id}')),
      );
      expect(findings.filter((f) => f.errors.length > 0)).toEqual([]);
      expect(outside).toEqual([]);
      expect(scopes.sort()).toEqual([
        'cob.read',
        'cob.write',
        'pix.read',
        'pix.write',
        'webhook.read',
        'webhook.write',
      ]);
      // Every kind of exchange the deposit flows use took part.
      for (const kind of [
        'PUT /api/v2/webhook/',
        'PUT /api/v2/cob/{id} → 201',
        'PUT /api/v2/cob/{id} → 400',
        'GET /api/v2/cob/{id} → 200',
        'GET /api/v2/pix/{id} → 200',
        'GET /api/v2/pix → 200',
        'PUT /api/v2/pix/{id}/devolucao/',
        'callback /api/psp/webhook/pix',
      ])
        expect(
          [...seen].some((s) => s.startsWith(kind)),
          kind,
        ).toBe(true);
      expect(findings.length).toBeGreaterThan(10);
    });

    it('flags what does not conform (the checker is not vacuous)', () => {
      const item = {
        endToEndId: 'E12345678202611231200abcdefghijk',
        valor: '10.00',
        horario: '2026-11-23T12:00:00Z',
      };
      expect(validator.check(CALLBACK_SCHEMA, { pix: [item] })).toEqual([]);
      expect(validator.check(CALLBACK_SCHEMA, { pix: [{ ...item, valor: 10 }] })).not.toEqual([]);
      const cob = validator.responseSchema('/cob/{txid}', 'PUT', 201)!;
      expect(validator.check(cob, { status: 'ATIVA', valor: { original: '1.00' } })).not.toEqual([]);
      expect(validator.responseSchema('/cob/{txid}', 'PUT', 200)).toBeUndefined();
      expect(
        validator.checkQuery(
          '/pix',
          'GET',
          new URLSearchParams({ inicio: '2026-11-23T00:00:00Z', cpf: '1' }),
        ),
      ).toHaveLength(2);
      // The errata (test/api-pix.ts): the regex-literal patterns, read without their slashes, match.
      expect(validator.errata.regexLiterals.length).toBeGreaterThan(0);
      expect(
        validator.checkQuery(
          '/pix',
          'GET',
          new URLSearchParams({
            inicio: '2026-11-23T00:00:00Z',
            fim: '2026-11-24T00:00:00Z',
            cpf: '52998224725',
          }),
        ),
      ).toEqual([]);
    });
  },
);
