import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Incoming PSP callbacks: `POST {webhookUrl}/pix` (API Pix, `{ pix: [...] }`) and
 * `POST {webhookUrl}/payout` (the sandbox's payout API, `{ payouts: [...] }`).
 *
 * The standard's callbacks carry no signature (the PSP authenticates with mTLS at our TLS edge),
 * so a callback is only a notification: we take the ids from it and credit or settle nothing but
 * what our own authenticated client then reads back from the PSP (`GET /pix/{e2eid}`, the payout
 * adapter's query). A forged callback makes us ask the PSP about an id it does not know.
 *
 * The sandbox can also sign (`x-sandbox-signature: t=<unix s>,v1=<hex HMAC-SHA256(secret,
 * "<t>.<raw body>")>`); when a secret is configured that signature is checked as an extra, over
 * the raw bytes, in constant time, within a timestamp tolerance.
 */
export const PSP_SIGNATURE_HEADER = 'x-sandbox-signature';
/** Five minutes either way, the usual allowance for clock skew plus retry latency. */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;
/** Larger bodies are refused before hashing; a PSP batches at most a few hundred Pix. */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;
const MAX_HEADER_LENGTH = 1024;
const MAX_SIGNATURES = 5;
const MAX_ITEMS = 1000;

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

const END_TO_END_ID = /^[a-zA-Z0-9]{32}$/;
const TXID = /^[a-zA-Z0-9]{1,35}$/;
const PAYOUT_ID = /^[a-zA-Z0-9]{1,35}$/;

/** What a callback item tells: which Pix to read back (its txid only as a log hint). */
export interface PixHint {
  endToEndId: string;
  txid: string | null;
}

export type CallbackResult<T> =
  | { ok: true; items: T[]; skipped: number }
  | { ok: false; reason: SignatureFailure | 'invalid_json' | 'invalid_body' };

function parseJson(raw: string | Buffer): unknown {
  try {
    return JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The list under `key`, each item read on its own: an odd item is skipped, never fatal. */
function itemsOf<T>(
  rawBody: string | Buffer,
  key: string,
  read: (item: Record<string, unknown>) => T | null,
): CallbackResult<T> {
  const json = parseJson(rawBody);
  if (json === undefined) return { ok: false, reason: 'invalid_json' };
  const list = (json as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(list) || list.length > MAX_ITEMS) return { ok: false, reason: 'invalid_body' };
  const items: T[] = [];
  for (const item of list) {
    const value = typeof item === 'object' && item !== null ? read(item as Record<string, unknown>) : null;
    if (value) items.push(value);
  }
  return { ok: true, items, skipped: list.length - items.length };
}

/** `{ pix: [...] }`: the endToEndIds to read back (txid is optional in the standard). */
export function parsePixCallback(rawBody: string | Buffer): CallbackResult<PixHint> {
  return itemsOf(rawBody, 'pix', (item) => {
    const { endToEndId, txid } = item;
    if (typeof endToEndId !== 'string' || !END_TO_END_ID.test(endToEndId)) return null;
    return { endToEndId, txid: typeof txid === 'string' && TXID.test(txid) ? txid : null };
  });
}

/** `{ payouts: [...] }`: the payout ids to query. */
export function parsePayoutCallback(rawBody: string | Buffer): CallbackResult<string> {
  return itemsOf(rawBody, 'payouts', (item) =>
    typeof item.id === 'string' && PAYOUT_ID.test(item.id) ? item.id : null,
  );
}

export interface WebhookRequest {
  rawBody: string | Buffer;
  headers: Record<string, string | string[] | undefined>;
  /** Null: callbacks are unsigned (the standard); else the signature must verify. */
  secret: string | null;
  nowMs?: number;
  toleranceSeconds?: number;
}

function verify(request: WebhookRequest): { ok: true } | { ok: false; reason: SignatureFailure } {
  const raw = typeof request.rawBody === 'string' ? Buffer.from(request.rawBody) : request.rawBody;
  if (raw.length > MAX_WEBHOOK_BODY_BYTES) return { ok: false, reason: 'too_large' };
  if (request.secret === null) return { ok: true };
  return verifyPspSignature({
    rawBody: request.rawBody,
    header: request.headers[PSP_SIGNATURE_HEADER],
    secret: request.secret,
    ...(request.nowMs !== undefined ? { nowMs: request.nowMs } : {}),
    ...(request.toleranceSeconds !== undefined ? { toleranceSeconds: request.toleranceSeconds } : {}),
  });
}

/** The optional signature, then the Pix hints. */
export function readPixCallback(request: WebhookRequest): CallbackResult<PixHint> {
  const verdict = verify(request);
  return verdict.ok ? parsePixCallback(request.rawBody) : verdict;
}

/** The optional signature, then the payout ids. */
export function readPayoutCallback(request: WebhookRequest): CallbackResult<string> {
  const verdict = verify(request);
  return verdict.ok ? parsePayoutCallback(request.rawBody) : verdict;
}
