import { createHmac } from 'node:crypto';

/**
 * Webhook signature of the sandbox's decisions. Every delivery carries
 *
 *   x-kyc-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * The timestamp is inside the MAC, so a captured delivery cannot be replayed after the receiver's
 * window (10 minutes at Sorte), and the raw body is signed byte for byte, so re-serialising cannot
 * hide tampering. Each retry is signed afresh with its own timestamp.
 */
export const KYC_SIGNATURE_HEADER = 'x-kyc-signature';

export function signKycWebhook(secret: string, rawBody: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
