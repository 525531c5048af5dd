import { randomBytes } from 'node:crypto';
import { formatMinor, parseMinor } from '@sorte/contract';
import { z } from 'zod';

/**
 * Client of a PIX PSP speaking the BACEN "API Pix" (v2): OAuth 2.0 client credentials, immediate
 * charges (`PUT/GET /cob/{txid}`), webhook registration (`PUT /webhook/{chave}`), plus the payout
 * API of our PSP link (`PUT/GET /payouts/{id}`, see apps/psp-sandbox/README.md).
 *
 * Every call we make is idempotent by construction (PUT with an id we choose, or GET), so network
 * failures, timeouts, 429 and 5xx are retried a bounded number of times with backoff. A 401 means
 * the PSP forgot our token (restart, rotation): we fetch a fresh one once and repeat the call.
 * Amounts cross this boundary as bigint centavos and go on the wire as "123.45".
 */

export interface PspClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
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
  /** No such charge or payout (404). */
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
export type PayoutStatus = 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';
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

export interface PixPayment {
  endToEndId: string;
  txid: string;
  amountMinor: bigint;
  paidAt: Date;
  payer: { cpf: string; name: string } | null;
}

export interface Charge {
  txid: string;
  revision: number;
  status: ChargeStatus;
  amountMinor: bigint;
  createdAt: Date;
  expiresAt: Date;
  /** Payload location, without scheme, as the API Pix returns it. */
  location: string;
  /** The BR Code (copy-and-paste string) to show and render as a QR. */
  pixCopiaECola: string;
  payments: PixPayment[];
}

export interface CreatePayoutInput {
  /** From `createPayoutId()`; the idempotency key of the payout. */
  id: string;
  amountMinor: bigint;
  pixKey: string;
  pixKeyType: PixKeyType;
  recipient: Party;
  description?: string;
}

export interface Payout {
  id: string;
  status: PayoutStatus;
  amountMinor: bigint;
  pixKey: string;
  pixKeyType: PixKeyType;
  requestedAt: Date;
  settledAt: Date | null;
  endToEndId: string | null;
  failureReason: string | null;
}

export type RefundStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

export interface RefundPixInput {
  /** The Pix to return money from. */
  endToEndId: string;
  /** Our id for this refund (1-35 [a-zA-Z0-9]); repeating it with the same amount is safe. */
  refundId: string;
  amountMinor: bigint;
  /** Shown to the payer (pacs.004 remittance information). */
  description?: string;
}

export interface Refund {
  id: string;
  returnId: string;
  amountMinor: bigint;
  status: RefundStatus;
  requestedAt: Date;
  settledAt: Date | null;
  reason: string | null;
}

export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;
const END_TO_END_ID = /^[a-zA-Z0-9]{32}$/;
const REFUND_ID = /^[a-zA-Z0-9]{1,35}$/;
const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** The largest amount the API Pix can express: 10 integer digits. */
const MAX_PIX_MINOR = 999_999_999_999n;
const MAX_RESPONSE_BYTES = 256 * 1024;
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

function toValor(amountMinor: bigint): string {
  if (amountMinor <= 0n || amountMinor > MAX_PIX_MINOR)
    throw new RangeError('amount out of the API Pix range');
  return formatMinor(amountMinor);
}

const valor = z
  .string()
  .regex(/^\d{1,10}\.\d{2}$/)
  .transform((text) => parseMinor(text) ?? -1n)
  .refine((minor) => minor >= 0n);
const instant = z
  .string()
  .refine((text) => !Number.isNaN(Date.parse(text)))
  .transform((text) => new Date(text));

const ZCob = z.object({
  txid: z.string().regex(TXID_PATTERN),
  revisao: z.number().int().min(0),
  status: z.enum(['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP']),
  calendario: z.object({ criacao: instant, expiracao: z.number().int().min(1) }),
  valor: z.object({ original: valor }),
  location: z.string().max(77).optional(),
  loc: z.object({ location: z.string().max(77) }).optional(),
  pixCopiaECola: z.string().max(512),
  pix: z
    .array(
      z.object({
        endToEndId: z.string().regex(END_TO_END_ID),
        txid: z.string().max(35).optional(),
        valor,
        horario: instant,
        pagador: z.object({ cpf: z.string(), nome: z.string() }).optional(),
      }),
    )
    .max(100)
    .optional(),
});

const ZPayout = z.object({
  id: z.string().regex(TXID_PATTERN),
  status: z.enum(['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO']),
  valor,
  chave: z.string().max(77),
  tipoChave: z.enum(['CPF', 'CNPJ', 'EMAIL', 'TELEFONE', 'EVP']),
  horario: z.object({ solicitacao: instant, liquidacao: instant.optional() }),
  endToEndId: z.string().optional(),
  motivo: z.string().max(140).optional(),
});

const ZRefund = z.object({
  id: z.string().regex(REFUND_ID),
  rtrId: z.string().regex(END_TO_END_ID),
  valor,
  status: z.enum(['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO']),
  horario: z.object({ solicitacao: instant, liquidacao: instant.optional() }),
  motivo: z.string().max(140).optional(),
});

function toRefund(body: unknown): Refund {
  const parsed = ZRefund.safeParse(body);
  if (!parsed.success) throw new PspError('PSP_BAD_RESPONSE', 'PSP returned a refund of an unknown shape');
  const refund = parsed.data;
  return {
    id: refund.id,
    returnId: refund.rtrId,
    amountMinor: refund.valor,
    status: refund.status,
    requestedAt: refund.horario.solicitacao,
    settledAt: refund.horario.liquidacao ?? null,
    reason: refund.motivo ?? null,
  };
}

const ZToken = z.object({
  access_token: z.string().min(1).max(4096),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z
    .number()
    .int()
    .min(1)
    .max(86_400 * 30),
});

const ZProblem = z.object({
  title: z.string().max(500).optional(),
  detail: z.string().max(2000).optional(),
  violacoes: z
    .array(z.object({ razao: z.string().optional(), propriedade: z.string().optional() }))
    .max(50)
    .optional(),
});

function toCharge(body: unknown): Charge {
  const parsed = ZCob.safeParse(body);
  if (!parsed.success)
    throw new PspError('PSP_BAD_RESPONSE', 'PSP returned a charge that is not API Pix shaped');
  const cob = parsed.data;
  const location = cob.location ?? cob.loc?.location;
  if (!location) throw new PspError('PSP_BAD_RESPONSE', 'PSP returned a charge without a location');
  return {
    txid: cob.txid,
    revision: cob.revisao,
    status: cob.status,
    amountMinor: cob.valor.original,
    createdAt: cob.calendario.criacao,
    expiresAt: new Date(cob.calendario.criacao.getTime() + cob.calendario.expiracao * 1000),
    location,
    pixCopiaECola: cob.pixCopiaECola,
    payments: (cob.pix ?? []).map((pix) => ({
      endToEndId: pix.endToEndId,
      txid: pix.txid ?? cob.txid,
      amountMinor: pix.valor,
      paidAt: pix.horario,
      payer: pix.pagador ? { cpf: pix.pagador.cpf, name: pix.pagador.nome } : null,
    })),
  };
}

function toPayout(body: unknown): Payout {
  const parsed = ZPayout.safeParse(body);
  if (!parsed.success) throw new PspError('PSP_BAD_RESPONSE', 'PSP returned a payout of an unknown shape');
  const payout = parsed.data;
  return {
    id: payout.id,
    status: payout.status,
    amountMinor: payout.valor,
    pixKey: payout.chave,
    pixKeyType: payout.tipoChave,
    requestedAt: payout.horario.solicitacao,
    settledAt: payout.horario.liquidacao ?? null,
    endToEndId: payout.endToEndId ?? null,
    failureReason: payout.motivo ?? null,
  };
}

function party(value: Party) {
  return 'cpf' in value ? { cpf: value.cpf, nome: value.name } : { cnpj: value.cnpj, nome: value.name };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface CachedToken {
  value: string;
  /** When we stop using it: shortly before the PSP's expiry, never later than half its lifetime. */
  renewAt: number;
}

export class PspClient {
  private readonly baseUrl: string;
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
    this.timeoutMs = Math.min(Math.max(options.timeoutMs ?? 10_000, 100), 60_000);
    this.maxAttempts = Math.min(Math.max(options.maxAttempts ?? 3, 1), 5);
    this.retryBaseDelayMs = Math.min(Math.max(options.retryBaseDelayMs ?? 200, 0), 5_000);
    this.refreshMarginMs = options.tokenRefreshMarginMs ?? 60_000;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.now = options.now ?? Date.now;
  }

  /** `PUT /cob/{txid}`: creates the charge (or returns it unchanged when the same request is repeated). */
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
    return toCharge(await this.call('PUT', `/cob/${input.txid}`, body));
  }

  /** `GET /cob/{txid}`: the charge with its status and the Pix received for it. */
  async getCharge(txid: string): Promise<Charge> {
    if (!TXID_PATTERN.test(txid)) throw new RangeError('txid must match [a-zA-Z0-9]{26,35}');
    return toCharge(await this.call('GET', `/cob/${txid}`));
  }

  /** `PATCH /cob/{txid}` with status REMOVIDA_PELO_USUARIO_RECEBEDOR: withdraws an unpaid charge. */
  async removeCharge(txid: string): Promise<Charge> {
    if (!TXID_PATTERN.test(txid)) throw new RangeError('txid must match [a-zA-Z0-9]{26,35}');
    return toCharge(await this.call('PATCH', `/cob/${txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }));
  }

  /**
   * `PUT /webhook/{chave}`: Pix received on this key are posted to `{webhookUrl}/pix`; payout
   * results to `{webhookUrl}/payout`.
   */
  async registerWebhook(pixKey: string, webhookUrl: string): Promise<void> {
    if (pixKey.length === 0 || pixKey.length > 77) throw new RangeError('pixKey must have 1..77 characters');
    await this.call('PUT', `/webhook/${encodeURIComponent(pixKey)}`, { webhookUrl });
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
    return toRefund(await this.call('PUT', `/pix/${input.endToEndId}/devolucao/${input.refundId}`, body));
  }

  /** `GET /pix/{e2eid}/devolucao/{id}`. */
  async getRefund(endToEndId: string, refundId: string): Promise<Refund> {
    if (!END_TO_END_ID.test(endToEndId) || !REFUND_ID.test(refundId))
      throw new RangeError('malformed refund reference');
    return toRefund(await this.call('GET', `/pix/${endToEndId}/devolucao/${refundId}`));
  }

  /** `PUT /payouts/{id}`: asks the PSP to send money; the result arrives by webhook (or `getPayout`). */
  async createPayout(input: CreatePayoutInput): Promise<Payout> {
    if (!TXID_PATTERN.test(input.id)) throw new RangeError('payout id must match [a-zA-Z0-9]{26,35}');
    const body = {
      valor: toValor(input.amountMinor),
      chave: input.pixKey,
      tipoChave: input.pixKeyType,
      favorecido: party(input.recipient),
      ...(input.description ? { descricao: input.description.slice(0, 140) } : {}),
    };
    return toPayout(await this.call('PUT', `/payouts/${input.id}`, body));
  }

  /** `GET /payouts/{id}`. */
  async getPayout(id: string): Promise<Payout> {
    if (!TXID_PATTERN.test(id)) throw new RangeError('payout id must match [a-zA-Z0-9]{26,35}');
    return toPayout(await this.call('GET', `/payouts/${id}`));
  }

  private async call(method: 'GET' | 'PUT' | 'PATCH', path: string, body?: unknown): Promise<unknown> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    let refreshed = false;
    let lastFailure = 'no attempt made';
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      if (attempt > 1) await sleep(this.retryBaseDelayMs * 2 ** (attempt - 2));
      let response: Response;
      try {
        const token = await this.accessToken();
        response = await this.send(`${this.baseUrl}${path}`, {
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
    const response = await this.send(`${this.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
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
