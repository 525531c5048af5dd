import { createHmac, timingSafeEqual } from 'node:crypto';
import { isValidCpf, parseMinor } from '@sorte/contract';
import { z } from 'zod';

/**
 * Incoming PSP notifications: `POST {webhookUrl}/pix` (API Pix callback, `{ pix: [...] }`) and
 * `POST {webhookUrl}/payout` (`{ payouts: [...] }`).
 *
 * The API Pix protects callbacks with mTLS. Our PSP link signs instead:
 *
 *   x-sandbox-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * We verify over the raw bytes exactly as received (never a re-serialised object), compare in
 * constant time, and refuse timestamps outside the tolerance so an old delivery cannot be replayed
 * later. Several v1 values may be present (secret rotation); any match is accepted.
 *
 * This module only authenticates and parses. Crediting (once per endToEndId) is the deposit
 * flow's job; a verified notification is a claim to act on, and duplicates are expected because
 * delivery is at-least-once.
 */
export const PSP_SIGNATURE_HEADER = 'x-sandbox-signature';
/** Five minutes either way, the usual allowance for clock skew plus retry latency. */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;
/** Larger bodies are refused before hashing; a PSP batches at most a few hundred Pix. */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;
const MAX_HEADER_LENGTH = 1024;
const MAX_SIGNATURES = 5;
const MAX_ITEMS = 200;

export type SignatureFailure = 'missing' | 'malformed' | 'stale' | 'mismatch' | 'too_large';

export interface VerifySignatureInput {
  rawBody: string | Buffer;
  /** The value of the `x-sandbox-signature` header. */
  header: string | string[] | undefined;
  secret: string;
  nowMs?: number;
  toleranceSeconds?: number;
}

export function verifyPspSignature(
  input: VerifySignatureInput,
): { ok: true } | { ok: false; reason: SignatureFailure } {
  const raw = typeof input.rawBody === 'string' ? Buffer.from(input.rawBody, 'utf8') : input.rawBody;
  if (raw.length > MAX_WEBHOOK_BODY_BYTES) return { ok: false, reason: 'too_large' };
  const header = Array.isArray(input.header) ? input.header[0] : input.header;
  if (!header) return { ok: false, reason: 'missing' };
  if (header.length > MAX_HEADER_LENGTH) return { ok: false, reason: 'malformed' };

  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value) && signatures.length < MAX_SIGNATURES) {
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === null || signatures.length === 0) return { ok: false, reason: 'malformed' };

  const tolerance = input.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((input.nowMs ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) return { ok: false, reason: 'stale' };

  const expected = createHmac('sha256', input.secret).update(`${timestamp}.`).update(raw).digest();
  // Compare against every candidate without an early exit, so timing reveals nothing either.
  let matched = false;
  for (const signature of signatures) matched = timingSafeEqual(signature, expected) || matched;
  return matched ? { ok: true } : { ok: false, reason: 'mismatch' };
}

const AMOUNT = /^\d{1,10}\.\d{2}$/;
const amountMinor = z
  .string()
  .regex(AMOUNT)
  .transform((text, context) => {
    const minor = parseMinor(text);
    if (minor === null || minor <= 0n) {
      context.addIssue({ code: 'custom', message: 'amount out of range' });
      return z.NEVER;
    }
    return minor;
  });
const instant = z
  .string()
  .max(40)
  .refine((text) => !Number.isNaN(Date.parse(text)), 'RFC 3339 date-time')
  .transform((text) => new Date(text));
const endToEndId = z.string().regex(/^[a-zA-Z0-9]{32}$/);
const name = z.string().trim().min(1).max(200);

const ZRefund = z.object({
  id: z.string().regex(/^[a-zA-Z0-9]{1,35}$/),
  rtrId: z.string().regex(/^[a-zA-Z0-9]{32}$/),
  valor: amountMinor,
  status: z.enum(['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO']),
  motivo: z.string().max(140).optional(),
});

const ZPix = z.object({
  endToEndId,
  txid: z.string().regex(/^[a-zA-Z0-9]{1,35}$/),
  valor: amountMinor,
  horario: instant,
  infoPagador: z.string().max(140).optional(),
  // Not part of the API Pix callback; our PSP adds the payer so br sites can check the CPF.
  pagador: z.object({ cpf: z.string().refine(isValidCpf), nome: name }).optional(),
  // The API Pix schema says array; its own example sends one object. Accept both.
  devolucoes: z
    .union([ZRefund, z.array(ZRefund).max(MAX_ITEMS)])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .optional(),
});

const ZPixWebhook = z.object({ pix: z.array(ZPix).min(1).max(MAX_ITEMS) });

const ZPayout = z.object({
  id: z.string().regex(/^[a-zA-Z0-9]{26,35}$/),
  status: z.enum(['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO']),
  valor: amountMinor,
  endToEndId: endToEndId.optional(),
  motivo: z.string().max(140).optional(),
  horario: z.object({ solicitacao: instant, liquidacao: instant.optional() }),
});

const ZPayoutWebhook = z.object({ payouts: z.array(ZPayout).min(1).max(MAX_ITEMS) });

/** One Pix received against one of our charges. */
export interface PixNotification {
  endToEndId: string;
  txid: string;
  amountMinor: bigint;
  paidAt: Date;
  /** The payer as the PSP reports it; null when the PSP does not say. */
  payer: { cpf: string; name: string } | null;
  payerMessage: string | null;
  /**
   * Refunds of this Pix. The PSP calls the same webhook again when a refund reaches a final
   * status, so a notification for an endToEndId already seen may only carry refund news.
   */
  refunds: PixRefundNotification[];
}

export interface PixRefundNotification {
  id: string;
  returnId: string;
  amountMinor: bigint;
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  reason: string | null;
}

export interface PayoutNotification {
  id: string;
  status: 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';
  amountMinor: bigint;
  requestedAt: Date;
  settledAt: Date | null;
  endToEndId: string | null;
  failureReason: string | null;
}

export type WebhookResult<T> =
  | { ok: true; notifications: T[] }
  | { ok: false; reason: SignatureFailure | 'invalid_json' | 'invalid_body' };

function parseJson(raw: string | Buffer): unknown {
  try {
    return JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Parses an already verified `{ pix: [...] }` body. */
export function parsePixWebhook(rawBody: string | Buffer): WebhookResult<PixNotification> {
  const json = parseJson(rawBody);
  if (json === undefined) return { ok: false, reason: 'invalid_json' };
  const parsed = ZPixWebhook.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'invalid_body' };
  return {
    ok: true,
    notifications: parsed.data.pix.map((pix) => ({
      endToEndId: pix.endToEndId,
      txid: pix.txid,
      amountMinor: pix.valor,
      paidAt: pix.horario,
      payer: pix.pagador ? { cpf: pix.pagador.cpf, name: pix.pagador.nome } : null,
      payerMessage: pix.infoPagador ?? null,
      refunds: (pix.devolucoes ?? []).map((refund) => ({
        id: refund.id,
        returnId: refund.rtrId,
        amountMinor: refund.valor,
        status: refund.status,
        reason: refund.motivo ?? null,
      })),
    })),
  };
}

/** Parses an already verified `{ payouts: [...] }` body. */
export function parsePayoutWebhook(rawBody: string | Buffer): WebhookResult<PayoutNotification> {
  const json = parseJson(rawBody);
  if (json === undefined) return { ok: false, reason: 'invalid_json' };
  const parsed = ZPayoutWebhook.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'invalid_body' };
  return {
    ok: true,
    notifications: parsed.data.payouts.map((payout) => ({
      id: payout.id,
      status: payout.status,
      amountMinor: payout.valor,
      requestedAt: payout.horario.solicitacao,
      settledAt: payout.horario.liquidacao ?? null,
      endToEndId: payout.endToEndId ?? null,
      failureReason: payout.motivo ?? null,
    })),
  };
}

export interface WebhookRequest {
  rawBody: string | Buffer;
  headers: Record<string, string | string[] | undefined>;
  secret: string;
  nowMs?: number;
  toleranceSeconds?: number;
}

function verify(request: WebhookRequest) {
  return verifyPspSignature({
    rawBody: request.rawBody,
    header: request.headers[PSP_SIGNATURE_HEADER],
    secret: request.secret,
    ...(request.nowMs !== undefined ? { nowMs: request.nowMs } : {}),
    ...(request.toleranceSeconds !== undefined ? { toleranceSeconds: request.toleranceSeconds } : {}),
  });
}

/** Verifies the signature, then parses the Pix notifications. Nothing is parsed from an unsigned body. */
export function readPixWebhook(request: WebhookRequest): WebhookResult<PixNotification> {
  const verdict = verify(request);
  return verdict.ok ? parsePixWebhook(request.rawBody) : verdict;
}

/** Verifies the signature, then parses the payout notifications. */
export function readPayoutWebhook(request: WebhookRequest): WebhookResult<PayoutNotification> {
  const verdict = verify(request);
  return verdict.ok ? parsePayoutWebhook(request.rawBody) : verdict;
}
