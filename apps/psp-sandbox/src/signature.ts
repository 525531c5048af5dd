import { createHmac } from 'node:crypto';

/**
 * Webhook signature. The API Pix protects callbacks with mTLS, which a loopback sandbox cannot
 * offer; instead every delivery carries
 *
 *   x-sandbox-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * The timestamp is inside the MAC so a captured delivery cannot be replayed later than the
 * receiver's tolerance, and the raw body is signed byte for byte so re-serialising cannot hide
 * tampering. Each retry is signed afresh with its own timestamp.
 */
export const SIGNATURE_HEADER = 'x-sandbox-signature';

export function signWebhook(secret: string, rawBody: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
