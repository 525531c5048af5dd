import { randomBytes } from 'node:crypto';
import { formatMinor } from '@sorte/contract';
import { Agent, fetch as undiciFetch } from 'undici';
import {
  END_TO_END_ID,
  type PixPayment,
  parsePix,
  parsePixList,
  REFUND_ID,
  type Refund,
  TXID_PATTERN,
  toRefund,
  ZCob,
  ZPixPage,
  ZProblem,
  ZRefund,
  ZToken,
} from './psp.schemas.ts';

export type { PixPayment, Refund, RefundStatus } from './psp.schemas.ts';
export { TXID_PATTERN } from './psp.schemas.ts';

/**
 * Client of a PIX PSP speaking the BACEN "API Pix" (v2): OAuth 2.0 client credentials over mutual
 * TLS, immediate charges (`PUT/GET/PATCH /cob/{txid}`), received Pix (`GET /pix`, `GET /pix/{e2eid}`),
 * refunds and webhook registration. Sending Pix is not in the standard: see payout-adapter.ts.
 *
 * `baseUrl` includes the API's version path (the standard's servers are `https://host/api/` plus
 * the version, e.g. `https://pix.example.com/api/v2`); the token URL is a separate setting whose
 * default, as in the document's OAuth2 scheme, is `/oauth/token` on the same host.
 *
 * Every call we make is idempotent by construction (PUT with an id we choose, or GET), so network
 * failures, timeouts, 429 and 5xx are retried a bounded number of times with backoff. A 401 means
 * the PSP forgot our token (restart, rotation): we fetch a fresh one once and repeat the call.
 * Amounts cross this boundary as bigint centavos and go on the wire as "123.45".
 */

/** Client certificate, key and the PSP's CA (PEM), or a PKCS#12 bundle. */
export interface PspTls {
  cert?: string | Buffer;
  key?: string | Buffer;
  ca?: string | Buffer;
  pfx?: Buffer;
  passphrase?: string;
}

/** The scopes our calls need, as the standard names them. */
export const PSP_SCOPES = ['cob.write', 'cob.read', 'pix.read', 'pix.write', 'webhook.write', 'webhook.read'];

export interface PspClientOptions {
  baseUrl: string;
  /** Default: `/oauth/token` on the base URL's host. */
  tokenUrl?: string;
  clientId: string;
  clientSecret: string;
  /** Sent as the token request's `scope`; default PSP_SCOPES. */
  scopes?: readonly string[];
  /** Mutual TLS for every call (token included); required by real API Pix PSPs. */
  tls?: PspTls;
  /** Per HTTP attempt. */
  timeoutMs?: number;
  /** Attempts per call, the first one included. */
  maxAttempts?: number;
  /** Backoff before the first retry; doubles each time. */
  retryBaseDelayMs?: number;
  /** Renew the token this long before it expires, so a call never carries an expiring one. */
  tokenRefreshMarginMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

export type PspErrorCode =
  /** The PSP could not be reached or kept failing (network, timeout, 5xx, 429) after the retries. */
  | 'PSP_UNAVAILABLE'
  /** The PSP refused our credentials or the token's scopes (401 after a refresh, 403). */
  | 'PSP_AUTH_FAILED'
  /** The PSP rejected the request as invalid (400/422); `violations` says why. */
  | 'PSP_REJECTED'
  /** No such charge, Pix or payout, or no such endpoint (404). */
  | 'PSP_NOT_FOUND'
  /** The id is already used with a different request (409). */
  | 'PSP_CONFLICT'
  /** The PSP answered something that is not the API Pix shape. */
  | 'PSP_BAD_RESPONSE';

export class PspError extends Error {
  constructor(
    readonly code: PspErrorCode,
    message: string,
    readonly status: number | null = null,
    readonly violations: readonly { razao?: string; propriedade?: string }[] = [],
  ) {
    super(message);
    this.name = 'PspError';
  }
}

export type ChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'TELEFONE' | 'EVP';
export type Party = { cpf: string; name: string } | { cnpj: string; name: string };

export interface CreateChargeInput {
  /** From `createTxid()`; the idempotency key of the charge. */
  txid: string;
  amountMinor: bigint;
  expiresInSeconds: number;
  /** Our DICT key at the PSP. */
  pixKey: string;
  debtor?: Party;
  payerRequest?: string;
}

export interface Charge {
  txid: string;
  revision: number;
  status: ChargeStatus;
  amountMinor: bigint;
  pixKey: string;
  createdAt: Date;
  expiresAt: Date;
  /** Payload location, without scheme; optional in the standard. */
  location: string | null;
  /** The BR Code (copy-and-paste string); optional in the standard. */
  pixCopiaECola: string | null;
  payments: PixPayment[];
}

export interface RefundPixInput {
  /** The Pix to return money from. */
  endToEndId: string;
  /** Our id for this refund (1-35 [a-zA-Z0-9]); repeating it with the same amount is safe. */
  refundId: string;
  amountMinor: bigint;
  /** Shown to the payer (pacs.004 remittance information). */
  description?: string;
}

export interface ListPixInput {
  from: Date;
  to: Date;
  txid?: string;
  /** "Filtro pelo CPF do pagador": only Pix paid from this CPF. */
  payerCpf?: string;
  page?: number;
  perPage?: number;
}

export interface PixPage {
  items: PixPayment[];
  /** Items of the page that were not the standard's shape (logged, never fatal). */
  skipped: number;
  page: number;
  pages: number;
}

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** The largest amount the API Pix can express: 10 integer digits. */
const MAX_PIX_MINOR = 999_999_999_999n;
const MAX_RESPONSE_BYTES = 1024 * 1024;
const MAX_EXPIRES_IN_SECONDS = 2_147_483_647;

/**
 * A txid for `PUT /cob/{txid}`: 32 characters of [a-zA-Z0-9] (the API Pix wants 26-35).
 * 190 bits of randomness, so it also serves as an unguessable reference. Rejection sampling keeps
 * every character equally likely.
 */
export function createTxid(length = 32): string {
  if (length < 26 || length > 35) throw new RangeError('txid length must be 26..35');
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHANUMERIC[byte % 62];
    }
  }
  return out;
}

/** Payout ids follow the same rule as txids. */
export const createPayoutId = createTxid;

export function toValor(amountMinor: bigint): string {
  if (amountMinor <= 0n || amountMinor > MAX_PIX_MINOR)
    throw new RangeError('amount out of the API Pix range');
  return formatMinor(amountMinor);
}

function toCharge(body: unknown): Charge {
  const parsed = ZCob.safeParse(body);
  if (!parsed.success)
    throw new PspError('PSP_BAD_RESPONSE', 'PSP returned a charge that is not API Pix shaped');
  const cob = parsed.data;
  return {
    txid: cob.txid,
    revision: cob.revisao,
    status: cob.status,
    amountMinor: cob.valor.original,
    pixKey: cob.chave,
    createdAt: cob.calendario.criacao,
    expiresAt: new Date(cob.calendario.criacao.getTime() + cob.calendario.expiracao * 1000),
    location: cob.location ?? cob.loc?.location ?? null,
    pixCopiaECola: cob.pixCopiaECola ?? null,
    // A Pix inside a charge paid that charge, whether or not the item repeats the txid.
    payments: parsePixList(cob.pix).items.map((pix) => ({ ...pix, txid: pix.txid ?? cob.txid })),
  };
}

function parseRefund(body: unknown): Refund {
  const parsed = ZRefund.safeParse(body);
  if (!parsed.success) throw new PspError('PSP_BAD_RESPONSE', 'PSP returned a refund of an unknown shape');
  return toRefund(parsed.data);
}

export function party(value: Party) {
  return 'cpf' in value ? { cpf: value.cpf, nome: value.name } : { cnpj: value.cnpj, nome: value.name };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface CachedToken {
  value: string;
  /** When we stop using it: shortly before the PSP's expiry, never later than half its lifetime. */
  renewAt: number;
}

/** A fetch that presents our client certificate (undici's Agent carries the TLS settings). */
function mutualTlsFetch(tls: PspTls): typeof fetch {
  const dispatcher = new Agent({
    connect: {
      ...(tls.cert ? { cert: tls.cert } : {}),
      ...(tls.key ? { key: tls.key } : {}),
      ...(tls.ca ? { ca: tls.ca } : {}),
      ...(tls.pfx ? { pfx: tls.pfx } : {}),
      ...(tls.passphrase ? { passphrase: tls.passphrase } : {}),
    },
  });
  return ((input: string, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;
}

export class PspClient {
  private readonly baseUrl: string;
  private readonly tokenUrl: string;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly retryBaseDelayMs: number;
  private readonly refreshMarginMs: number;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private token: CachedToken | null = null;
  private pendingToken: Promise<CachedToken> | null = null;

  constructor(private readonly options: PspClientOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error('PSP base URL must be http(s)');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.tokenUrl = options.tokenUrl ?? new URL('/oauth/token', url).toString();
    this.timeoutMs = Math.min(Math.max(options.timeoutMs ?? 10_000, 100), 60_000);
    this.maxAttempts = Math.min(Math.max(options.maxAttempts ?? 3, 1), 5);
    this.retryBaseDelayMs = Math.min(Math.max(options.retryBaseDelayMs ?? 200, 0), 5_000);
    this.refreshMarginMs = options.tokenRefreshMarginMs ?? 60_000;
    this.fetch = options.fetch ?? (options.tls ? mutualTlsFetch(options.tls) : globalThis.fetch);
    this.now = options.now ?? Date.now;
  }

  /**
   * `PUT /cob/{txid}`: creates the charge. The standard answers a txid already in use with an
   * error (400/409), also when our own earlier attempt did create it and only its answer was lost,
   * so such an answer is followed by `GET /cob/{txid}`: the same charge (amount and key) is ours.
   */
  async createCharge(input: CreateChargeInput): Promise<Charge> {
    if (!TXID_PATTERN.test(input.txid)) throw new RangeError('txid must match [a-zA-Z0-9]{26,35}');
    if (
      !Number.isInteger(input.expiresInSeconds) ||
      input.expiresInSeconds < 1 ||
      input.expiresInSeconds > MAX_EXPIRES_IN_SECONDS
    ) {
      throw new RangeError('expiresInSeconds out of range');
    }
    const body = {
      calendario: { expiracao: input.expiresInSeconds },
      ...(input.debtor ? { devedor: party(input.debtor) } : {}),
      valor: { original: toValor(input.amountMinor) },
      chave: input.pixKey,
      ...(input.payerRequest ? { solicitacaoPagador: input.payerRequest.slice(0, 140) } : {}),
    };
    try {
      return toCharge(await this.request('PUT', `/cob/${input.txid}`, body));
    } catch (error) {
      if (!(error instanceof PspError) || (error.code !== 'PSP_CONFLICT' && error.code !== 'PSP_REJECTED'))
        throw error;
      const existing = await this.getCharge(input.txid).catch(() => null);
      if (existing && existing.amountMinor === input.amountMinor && existing.pixKey === input.pixKey)
        return existing;
      throw error;
    }
  }

  /** `GET /cob/{txid}`: the charge with its status and the Pix received for it. */
  async getCharge(txid: string): Promise<Charge> {
    if (!TXID_PATTERN.test(txid)) throw new RangeError('txid must match [a-zA-Z0-9]{26,35}');
    return toCharge(await this.request('GET', `/cob/${txid}`));
  }

  /** `PATCH /cob/{txid}` with status REMOVIDA_PELO_USUARIO_RECEBEDOR: withdraws an unpaid charge. */
  async removeCharge(txid: string): Promise<Charge> {
    if (!TXID_PATTERN.test(txid)) throw new RangeError('txid must match [a-zA-Z0-9]{26,35}');
    return toCharge(
      await this.request('PATCH', `/cob/${txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }),
    );
  }

  /** `GET /pix/{e2eid}`: one received Pix as the PSP records it (what a deposit is credited from). */
  async getPix(endToEndId: string): Promise<PixPayment> {
    if (!END_TO_END_ID.test(endToEndId)) throw new RangeError('endToEndId must be 32 [a-zA-Z0-9]');
    const pix = parsePix(await this.request('GET', `/pix/${endToEndId}`));
    if (!pix) throw new PspError('PSP_BAD_RESPONSE', 'PSP returned a Pix that is not API Pix shaped');
    return pix;
  }

  /** `GET /pix?inicio&fim[&txid][&cpf]&paginacao.*`: one page of received Pix. */
  async listPix(input: ListPixInput): Promise<PixPage> {
    if (!(input.from < input.to)) throw new RangeError('from must be before to');
    if (input.txid !== undefined && !REFUND_ID.test(input.txid)) throw new RangeError('malformed txid');
    if (input.payerCpf !== undefined && !/^\d{11}$/.test(input.payerCpf))
      throw new RangeError('cpf must be 11 digits');
    const query = new URLSearchParams({ inicio: input.from.toISOString(), fim: input.to.toISOString() });
    if (input.txid) query.set('txid', input.txid);
    if (input.payerCpf) query.set('cpf', input.payerCpf);
    query.set('paginacao.paginaAtual', String(input.page ?? 0));
    query.set('paginacao.itensPorPagina', String(input.perPage ?? 100));
    const parsed = ZPixPage.safeParse(await this.request('GET', `/pix?${query}`));
    if (!parsed.success)
      throw new PspError('PSP_BAD_RESPONSE', 'PSP returned a Pix list of an unknown shape');
    const { items, skipped } = parsePixList(parsed.data.pix);
    const { paginaAtual, quantidadeDePaginas } = parsed.data.parametros.paginacao;
    return { items, skipped, page: paginaAtual, pages: quantidadeDePaginas };
  }

  /**
   * `PUT /webhook/{chave}`: Pix received on this key are posted to `{webhookUrl}/pix`.
   */
  async registerWebhook(pixKey: string, webhookUrl: string): Promise<void> {
    if (pixKey.length === 0 || pixKey.length > 77) throw new RangeError('pixKey must have 1..77 characters');
    await this.request('PUT', `/webhook/${encodeURIComponent(pixKey)}`, { webhookUrl });
  }

  /**
   * `PUT /pix/{e2eid}/devolucao/{id}`: returns money of a received Pix to its payer (for example a
   * deposit from a CPF that is not the player's). The final status arrives through the Pix webhook.
   */
  async refundPix(input: RefundPixInput): Promise<Refund> {
    if (!END_TO_END_ID.test(input.endToEndId)) throw new RangeError('endToEndId must be 32 [a-zA-Z0-9]');
    if (!REFUND_ID.test(input.refundId)) throw new RangeError('refundId must be 1..35 [a-zA-Z0-9]');
    const body = {
      valor: toValor(input.amountMinor),
      ...(input.description ? { descricao: input.description.slice(0, 140) } : {}),
    };
    return parseRefund(
      await this.request('PUT', `/pix/${input.endToEndId}/devolucao/${input.refundId}`, body),
    );
  }

  /** `GET /pix/{e2eid}/devolucao/{id}`. */
  async getRefund(endToEndId: string, refundId: string): Promise<Refund> {
    if (!END_TO_END_ID.test(endToEndId) || !REFUND_ID.test(refundId))
      throw new RangeError('malformed refund reference');
    return parseRefund(await this.request('GET', `/pix/${endToEndId}/devolucao/${refundId}`));
  }

  /**
   * One authenticated call under the base URL, with the retries above; the JSON answer of a 2xx, or
   * a PspError. Payout adapters use it for their PSP's own endpoints.
   */
  async request(
    method: 'GET' | 'PUT' | 'PATCH' | 'POST',
    path: string,
    body?: unknown,
    /** The path is on the base URL's host rather than under its version path (a PSP's own API). */
    options: { fromOrigin?: boolean } = {},
  ): Promise<unknown> {
    const url = options.fromOrigin ? new URL(path, this.baseUrl).toString() : `${this.baseUrl}${path}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    let refreshed = false;
    let lastFailure = 'no attempt made';
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      if (attempt > 1) await sleep(this.retryBaseDelayMs * 2 ** (attempt - 2));
      let response: Response;
      try {
        const token = await this.accessToken();
        response = await this.send(url, {
          method,
          headers: {
            authorization: `Bearer ${token.value}`,
            accept: 'application/json',
            ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(payload !== undefined ? { body: payload } : {}),
        });
      } catch (error) {
        if (error instanceof PspError && error.code !== 'PSP_UNAVAILABLE') throw error;
        lastFailure = error instanceof Error ? error.message : String(error);
        continue;
      }
      if (response.status === 401 && !refreshed) {
        // The PSP no longer knows our token; one fresh token, and this retry is free.
        await response.body?.cancel();
        this.token = null;
        refreshed = true;
        attempt -= 1;
        continue;
      }
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel();
        lastFailure = `HTTP ${response.status}`;
        continue;
      }
      const json = await this.readJson(response);
      if (response.ok) return json;
      throw this.failure(response.status, json);
    }
    throw new PspError(
      'PSP_UNAVAILABLE',
      `PSP ${method} ${path} failed after ${this.maxAttempts} attempts: ${lastFailure}`,
    );
  }

  private failure(status: number, json: unknown): PspError {
    const problem = ZProblem.safeParse(json);
    const detail = problem.success ? (problem.data.detail ?? problem.data.title ?? '') : '';
    const violations = problem.success ? (problem.data.violacoes ?? []) : [];
    const message = `PSP answered ${status}${detail ? `: ${detail}` : ''}`;
    if (status === 401 || status === 403) return new PspError('PSP_AUTH_FAILED', message, status);
    if (status === 404) return new PspError('PSP_NOT_FOUND', message, status);
    if (status === 409) return new PspError('PSP_CONFLICT', message, status, violations);
    return new PspError('PSP_REJECTED', message, status, violations);
  }

  /** One HTTP exchange with a deadline; network errors and timeouts become PSP_UNAVAILABLE. */
  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetch(url, {
        ...init,
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new PspError('PSP_UNAVAILABLE', `PSP request failed: ${reason}`);
    }
  }

  private async readJson(response: Response): Promise<unknown> {
    const text = await response.text();
    if (text.length > MAX_RESPONSE_BYTES) throw new PspError('PSP_BAD_RESPONSE', 'PSP response too large');
    if (text.length === 0) return null;
    try {
      return JSON.parse(text);
    } catch {
      if (!response.ok) return null;
      throw new PspError('PSP_BAD_RESPONSE', 'PSP response is not JSON');
    }
  }

  /** A cached token, renewed shortly before expiry; concurrent callers share one token request. */
  private async accessToken(): Promise<CachedToken> {
    if (this.token && this.token.renewAt > this.now()) return this.token;
    if (!this.pendingToken) {
      this.pendingToken = this.requestToken().finally(() => {
        this.pendingToken = null;
      });
    }
    return this.pendingToken;
  }

  private async requestToken(): Promise<CachedToken> {
    // RFC 6749 §2.3.1: id and secret are form-urlencoded before the Basic encoding.
    const basic = Buffer.from(
      `${encodeURIComponent(this.options.clientId)}:${encodeURIComponent(this.options.clientSecret)}`,
    ).toString('base64');
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    const scopes = this.options.scopes ?? PSP_SCOPES;
    if (scopes.length > 0) form.set('scope', scopes.join(' '));
    const response = await this.send(this.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
    });
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel();
      throw new PspError('PSP_UNAVAILABLE', `PSP token endpoint answered ${response.status}`);
    }
    const json = await this.readJson(response);
    if (!response.ok)
      throw new PspError(
        'PSP_AUTH_FAILED',
        `PSP token endpoint answered ${response.status}`,
        response.status,
      );
    const parsed = ZToken.safeParse(json);
    if (!parsed.success) throw new PspError('PSP_BAD_RESPONSE', 'PSP token response is not OAuth 2.0 shaped');
    const lifetimeMs = parsed.data.expires_in * 1000;
    const token = {
      value: parsed.data.access_token,
      renewAt: this.now() + Math.max(lifetimeMs - this.refreshMarginMs, lifetimeMs / 2),
    };
    this.token = token;
    return token;
  }
}
