import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareTransfer, type TransferInput } from './posting/request.ts';
import { WalletError } from './wallet.errors.ts';

/**
 * A transfer's request hash is stored with it and compared when its key is used again: a client's
 * retry after an upgrade must hash as before. These values were computed by the code before the
 * metadata's canonical JSON was made once per posting (issue 16) and must never change.
 */
describe('the request hash of a transfer', () => {
  const cases: [TransferInput, string][] = [
    [
      {
        siteId: 1n,
        kind: 'bet',
        from: { memberId: 7n, account: 'cash' },
        to: { system: 'house' },
        amountMinor: 1000n,
        idempotencyKey: 'round:1:bet',
        reference: 'round:1',
        metadata: { game: 'dice', roundId: '1', nested: { b: [1, 'x', null, true], a: '😀é' } },
      },
      '3657b850cc4e4d7f3cf17770d922234b4b6a831029c099bd12de7181e37ef4d5',
    ],
    [
      {
        siteId: 2n,
        kind: 'deposit',
        from: { system: 'psp_clearing' },
        to: { memberId: 9n, account: 'cash' },
        amountMinor: 5n,
        idempotencyKey: 'dep-123456',
      },
      '11d810c90e923ffca53b93b73cfea269eaf4efb38bcb21d8d532da6b2be78160',
    ],
    [
      {
        siteId: 3n,
        kind: 'bonus_grant',
        from: { system: 'promotions_expense' },
        to: { memberId: 9n, account: 'bonus' },
        amountMinor: 77n,
        idempotencyKey: 'g-1',
        wageringAddMinor: 770n,
        metadata: { z: 1.5, y: { x: [] }, ü: '\u2028' },
      },
      '9bfe32ad9c572d0d66d2a80f317d69794bbc9a815388ededafb1122c2a05f87e',
    ],
  ];

  it.each(cases)('stays what it was (%#)', (input, hash) => {
    expect(prepareTransfer(input).hash).toBe(hash);
  });

  it('is the SHA-256 of the posting as JSON with every key sorted, for any JSON metadata', () => {
    // An independent writer of sorted-key JSON (integer-like keys too: a plain object would put
    // them first, in numeric order).
    const sorted = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(sorted).join(',')}]`;
      if (value !== null && typeof value === 'object') {
        const object = value as Record<string, unknown>;
        const keys = Object.keys(object)
          .filter((k) => object[k] !== undefined)
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        return `{${keys.map((k) => `${JSON.stringify(k)}:${sorted(object[k])}`).join(',')}}`;
      }
      return JSON.stringify(value);
    };
    const [base] = cases[0]!;
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
        fc.bigInt({ min: 1n, max: 9_999_999_999_999n }),
        (metadata, amountMinor) => {
          const { hash } = prepareTransfer({ ...base, amountMinor, metadata: metadata as never });
          const body = sorted({
            kind: 'bet',
            from: 'member:7:cash',
            to: 'system:house',
            amountMinor: amountMinor.toString(),
            reference: 'round:1',
            metadata,
            wageringAddMinor: '0',
            holdTransferId: null,
          });
          expect(hash).toBe(createHash('sha256').update(body).digest('hex'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order of the metadata keys', () => {
    const [input] = cases[0]!;
    const reordered = {
      ...input,
      metadata: { nested: { a: '😀é', b: [1, 'x', null, true] }, roundId: '1', game: 'dice' },
    };
    expect(prepareTransfer(reordered).hash).toBe(cases[0]![1]);
  });

  it('refuses metadata text PostgreSQL cannot store, paired surrogates pass', () => {
    const [input] = cases[0]!;
    for (const text of ['\uD800', 'a\uDC00b', 'nul\u0000']) {
      expect(() => prepareTransfer({ ...input, metadata: { text } })).toThrow(WalletError);
    }
    expect(() => prepareTransfer({ ...input, metadata: { text: '\uD83D\uDE00' } })).not.toThrow();
  });
});
