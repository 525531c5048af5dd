import { createHmac, timingSafeEqual } from 'node:crypto';
import { KYC_SESSION_STATUSES } from '@sorte/contract';
import { z } from 'zod';

/**
 * The KYC provider's webhook: `x-kyc-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
 * "<t>.<raw body>")>` over the bytes exactly as received. A timestamp more than 10 minutes away
 * from our clock is refused, so a captured delivery cannot be replayed after that; within the
 * window the event id is remembered (kyc_webhook_events), so a replay changes nothing either.
 */
export const KYC_SIGNATURE_HEADER = 'x-kyc-signature';
export const KYC_REPLAY_WINDOW_MS = 10 * 60_000;
export const MAX_KYC_WEBHOOK_BYTES = 16 * 1024;

const ZEvent = z.object({
  event_id: z.string().min(1).max(100),
  type: z.literal('verification.updated'),
  session_id: z.string().min(1).max(100),
  sequence: z.number().int().min(1).max(1_000_000),
  status: z.enum(KYC_SESSION_STATUSES),
  reason: z.string().max(500).nullable(),
  pep: z.boolean(),
  occurred_at: z.string().max(40),
});

export type TKycEvent = {
  eventId: string;
  sessionId: string;
  sequence: number;
  status: (typeof KYC_SESSION_STATUSES)[number];
  reason: string | null;
  pep: boolean;
};

export type TKycWebhookResult =
  | { ok: true; event: TKycEvent }
  | { ok: false; reason: 'missing_signature' | 'bad_signature' | 'stale_timestamp' | 'invalid_body' };

export function readKycWebhook(input: {
  rawBody: Buffer;
  signature: string | string[] | undefined;
  secret: string;
  nowMs: number;
}): TKycWebhookResult {
  const header = Array.isArray(input.signature) ? input.signature[0] : input.signature;
  const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return { ok: false, reason: 'missing_signature' };
  const timestamp = match[1]!;
  const expected = createHmac('sha256', input.secret).update(`${timestamp}.`).update(input.rawBody).digest();
  const given = Buffer.from(match[2]!, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'bad_signature' };
  if (Math.abs(input.nowMs - Number(timestamp) * 1000) > KYC_REPLAY_WINDOW_MS)
    return { ok: false, reason: 'stale_timestamp' };
  let json: unknown;
  try {
    json = JSON.parse(input.rawBody.toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid_body' };
  }
  const parsed = ZEvent.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'invalid_body' };
  const event = parsed.data;
  return {
    ok: true,
    event: {
      eventId: event.event_id,
      sessionId: event.session_id,
      sequence: event.sequence,
      status: event.status,
      reason: event.reason,
      pep: event.pep,
    },
  };
}
