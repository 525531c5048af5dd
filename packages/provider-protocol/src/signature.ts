import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Both directions between the operator and the aggregator are signed the same way: the header
 * `x-aggregator-signature` carries the hex HMAC-SHA256 of the RAW request body under the shared
 * secret. The raw bytes are signed so that re-serialising JSON can neither break a valid signature
 * nor hide a change. Replays are harmless by design: every money call carries a transaction id
 * that the operator executes at most once.
 */
export function signBody(secret: string, rawBody: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}

/** Constant-time check of a signature header against the raw body; false for anything malformed. */
export function verifyBody(secret: string, rawBody: string, header: unknown): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{64}$/.test(header)) return false;
  const expected = Buffer.from(signBody(secret, rawBody), 'hex');
  const given = Buffer.from(header, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
