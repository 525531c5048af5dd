import { AppError } from '../../errors.ts';

/**
 * Keyset cursors of the transaction record: the (created_at, id) of the row a page ends at, and
 * which way to go from it. Opaque to clients (base64url of a small JSON); the timestamp keeps
 * PostgreSQL's microseconds so no row is skipped between two rows of the same millisecond.
 */
export type TCursor = {
  /** "2026-11-23T02:03:31.123456Z" */
  createdAt: string;
  id: bigint;
  /** next = older rows than this one, prev = newer rows. */
  direction: 'next' | 'prev';
};

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ID = /^[1-9]\d{0,18}$/;

export function encodeCursor(cursor: TCursor): string {
  const json = JSON.stringify({
    t: cursor.createdAt,
    i: cursor.id.toString(),
    d: cursor.direction === 'next' ? 'n' : 'p',
  });
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** The cursor, or VALIDATION_FAILED on `cursor` for anything we did not issue. */
export function decodeCursor(text: string): TCursor {
  const invalid = () =>
    new AppError('VALIDATION_FAILED', {
      messageKey: 'validation.cursor_invalid',
      fieldErrors: { cursor: 'validation.cursor_invalid' },
    });
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { t, i, d } = (value ?? {}) as { t?: unknown; i?: unknown; d?: unknown };
  if (typeof t !== 'string' || !TIMESTAMP.test(t) || Number.isNaN(Date.parse(t))) throw invalid();
  if (typeof i !== 'string' || !ID.test(i) || BigInt(i) > 9_223_372_036_854_775_807n) throw invalid();
  if (d !== 'n' && d !== 'p') throw invalid();
  return { createdAt: t, id: BigInt(i), direction: d === 'n' ? 'next' : 'prev' };
}
