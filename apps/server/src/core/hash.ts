import { createHash } from 'node:crypto';

/** SHA-256 of a text, as 64 lowercase hex digits: how tokens, codes and requests are stored. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The hash of an idempotent request: SHA-256 of the JSON of the fields the caller chose, in the
 * order it wrote them. A stored hash is compared when the key is used again, so a caller never
 * reorders or renames its fields (a client's retry after an upgrade must hash as before).
 */
export function sha256OfJson(fields: unknown): string {
  return sha256Hex(JSON.stringify(fields));
}
