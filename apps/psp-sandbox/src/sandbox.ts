import Fastify, { type FastifyInstance } from 'fastify';
import { registerApi } from './api.ts';
import { DEFAULT_DELIVERY_OPTIONS, type DeliveryOptions, WebhookDeliverer } from './delivery.ts';
import { TokenIssuer } from './oauth.ts';
import { registerPages } from './pages.ts';
import { Psp } from './psp.ts';
import { type PayoutMode, StateStore } from './state.ts';

export interface SandboxOptions {
  /** Where state.json lives; created when missing. */
  dataDir: string;
  /** Loopback by default: the sandbox has unauthenticated tester pages. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Base URL put into charge locations; defaults to http://<host>:<port> once listening. */
  publicUrl?: string;
  clientId: string;
  clientSecret: string;
  /** HMAC key of the sandbox's own callback signature, shared with the receiver; not in strict mode. */
  webhookSecret?: string;
  /**
   * Behave as the API Pix standard says and nothing more: HTTPS that requires a client certificate
   * signed by `tls.ca` (mTLS), the API under `/api/v2`, unsigned callbacks, and Pix without the
   * payer extension. Needs `tls`.
   */
  strict?: boolean;
  /** The sandbox's server certificate and key, and the CA its clients' certificates must chain to. */
  tls?: { cert: string | Buffer; key: string | Buffer; ca: string | Buffer };
  merchantName?: string;
  merchantCity?: string;
  /** The receiver's DICT keys (charges use one; webhooks are registered per key). */
  pixKeys?: readonly string[];
  /** Initial payout mode when the state file has none yet. */
  payoutMode?: PayoutMode;
  payoutDecisionDelayMs?: number;
  tokenTtlSeconds?: number;
  webhookDelivery?: Partial<DeliveryOptions>;
  /** Sees every API exchange and callback attempt (a traffic log; tests check it against the standard). */
  onExchange?: (exchange: Exchange) => void;
  /** Injectable clock (ms since epoch) so tests can move time. */
  now?: () => number;
  logger?: boolean;
}

/** One request to the sandbox's API and its answer, or one callback it made and the receiver's answer. */
export type Exchange =
  | {
      kind: 'api';
      method: string;
      /** The route as registered, e.g. `/api/v2/cob/:txid`. */
      route: string;
      url: string;
      requestBody: unknown;
      status: number;
      contentType: string;
      responseBody: string;
    }
  | { kind: 'callback'; url: string; body: string; status: number | null };

export interface Sandbox {
  /** Starts listening; resolves to the base URL. */
  listen(): Promise<string>;
  /** Stops listening, stops retries and waits for the last state write. */
  close(): Promise<void>;
  /** The base URL (the host; token at /oauth/token); only defined once listening. */
  readonly url: string;
  /** Where cob, pix, webhook and payouts live: `url` plus `/api/v2` in strict mode. */
  readonly apiUrl: string;
  /** The receiver's first PIX key, the one to put in `cob.chave` and `PUT /webhook/{chave}`. */
  readonly pixKey: string;
  /** The Fastify instance, for `inject` in tests. */
  readonly app: FastifyInstance;
}

/** The API's base path in strict mode (a standard PSP's servers are https://host/api/ + version). */
export const API_BASE_PATH = '/api/v2';
export const DEFAULT_PIX_KEY = '2f3c6a6e-5d0b-4f7e-9a51-8c4d2b7e1f90';
const MAX_BODY_BYTES = 64 * 1024;

export function createSandbox(options: SandboxOptions): Sandbox {
  const strict = options.strict === true;
  if (!options.clientId || !options.clientSecret)
    throw new Error('PSP sandbox needs clientId and clientSecret');
  if (!strict && (options.webhookSecret ?? '').length < 16)
    throw new Error('PSP sandbox needs a webhookSecret of at least 16 characters (or strict mode)');
  if (strict && !options.tls) throw new Error('the strict PSP sandbox needs tls (mutual TLS)');
  const now = options.now ?? Date.now;
  const host = options.host ?? '127.0.0.1';
  let url: string | null = options.publicUrl?.replace(/\/+$/, '') ?? null;
  const pixKeys = options.pixKeys && options.pixKeys.length > 0 ? options.pixKeys : [DEFAULT_PIX_KEY];

  const store = new StateStore(options.dataDir, options.payoutMode ?? 'manual');
  const deliverer = new WebhookDeliverer(
    store,
    strict ? null : (options.webhookSecret ?? null),
    { ...DEFAULT_DELIVERY_OPTIONS, ...options.webhookDelivery },
    now,
    options.onExchange
      ? (url, body, status) => options.onExchange!({ kind: 'callback', url, body, status })
      : undefined,
  );
  const psp = new Psp(
    store,
    deliverer,
    {
      merchantName: options.merchantName ?? 'Sorte Jogos Ltda',
      merchantCity: options.merchantCity ?? 'Sao Paulo',
      pixKeys,
      payoutDecisionDelayMs: options.payoutDecisionDelayMs ?? 500,
      payerExtension: !strict,
    },
    now,
    () => {
      if (!url) throw new Error('the PSP sandbox is not listening yet');
      return url;
    },
  );
  const tokens = new TokenIssuer(
    options.clientId,
    options.clientSecret,
    options.tokenTtlSeconds ?? 3600,
    now,
  );

  const app = Fastify({
    ...(options.tls
      ? {
          https: {
            cert: options.tls.cert,
            key: options.tls.key,
            ca: options.tls.ca,
            // mTLS: no handshake without a client certificate signed by our CA.
            requestCert: true,
            rejectUnauthorized: true,
          },
        }
      : {}),
    logger: options.logger ?? false,
    bodyLimit: MAX_BODY_BYTES,
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
  });
  // The token endpoint and the HTML forms post application/x-www-form-urlencoded; keep it raw
  // and let each handler read it with URLSearchParams.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );
  app.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    const type = status === 500 ? 'ErroInternoDoServidor' : 'RequisicaoInvalida';
    reply
      .code(status)
      .type('application/problem+json')
      .send({
        type: `https://pix.bcb.gov.br/api/v2/error/${type}`,
        title: status === 500 ? 'Erro interno do servidor' : 'Requisição inválida',
        status,
      });
  });
  if (options.onExchange) recordExchanges(app, options.onExchange);
  registerApi(app, psp, tokens, strict ? API_BASE_PATH : '');
  registerPages(app, psp);

  let closed = false;
  return {
    app,
    pixKey: pixKeys[0]!,
    get url() {
      if (!url) throw new Error('the PSP sandbox is not listening yet');
      return url;
    },
    get apiUrl() {
      if (!url) throw new Error('the PSP sandbox is not listening yet');
      return `${url}${strict ? API_BASE_PATH : ''}`;
    },
    async listen() {
      const address = await app.listen({ host, port: options.port ?? 0 });
      if (!url) url = address.replace('[::1]', 'localhost');
      psp.resume();
      deliverer.kick();
      return url;
    },
    async close() {
      if (closed) return;
      closed = true;
      psp.close();
      await deliverer.close();
      await app.close();
      await store.flushed();
    },
  };
}

function recordExchanges(app: FastifyInstance, onExchange: (exchange: Exchange) => void): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url ?? request.url;
    if (route.startsWith('/pay') || route.startsWith('/admin') || route === '/') return payload;
    onExchange({
      kind: 'api',
      method: request.method,
      route,
      url: request.url,
      requestBody: request.body,
      status: reply.statusCode,
      contentType: String(reply.getHeader('content-type') ?? ''),
      responseBody: typeof payload === 'string' ? payload : '',
    });
    return payload;
  });
}
