import { describe, expect, it } from 'vitest';
import { formatMultiplier, toJson } from './originals.games.ts';

describe('round display helpers', () => {
  it('floors multipliers to four decimals', () => {
    expect(formatMultiplier({ num: 99n, den: 50n })).toBe('1.9800');
    expect(formatMultiplier({ num: 33n, den: 32n })).toBe('1.0312');
    expect(formatMultiplier({ num: 0n, den: 1n })).toBe('0.0000');
    expect(formatMultiplier({ num: 100_000_000n, den: 100n })).toBe('1000000.0000');
  });

  it('turns bigints into decimal strings at any depth', () => {
    expect(toJson({ a: 1n, b: [{ c: 2n }], d: 'x', e: null })).toEqual({
      a: '1',
      b: [{ c: '2' }],
      d: 'x',
      e: null,
    });
  });
});
