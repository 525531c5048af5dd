import { describe, expect, it } from 'vitest';
import {
  compare,
  fromDecimal,
  fromHundredths,
  isStakeAllowed,
  multiply,
  payoutMinor,
  ratio,
  toNumber,
} from './multiplier.ts';

describe('multipliers and payouts', () => {
  it('reduces fractions and keeps them exact', () => {
    expect(ratio(9900n, 5000n)).toEqual({ num: 99n, den: 50n });
    expect(fromHundredths(560)).toEqual({ num: 28n, den: 5n });
    expect(fromDecimal(0.3)).toEqual({ num: 3n, den: 10n });
    expect(multiply(ratio(13n, 7n), ratio(7n, 13n))).toEqual({ num: 1n, den: 1n });
    expect(toNumber(ratio(99n, 50n))).toBe(1.98);
    expect(compare(ratio(1n, 3n), ratio(2n, 6n))).toBe(0);
    expect(compare(ratio(1n, 3n), ratio(1n, 2n))).toBe(-1);
  });

  it('floors payouts to whole centavos and applies the max-win cap', () => {
    // 100 centavos × 9900/7 = 141,428.57… centavos: floored, never rounded up.
    expect(payoutMinor(100n, ratio(9900n, 7n), 10_000_000n)).toBe(141_428n);
    expect(payoutMinor(333n, ratio(99n, 50n), 10_000_000n)).toBe(659n);
    expect(payoutMinor(100_000n, ratio(1000n, 1n), 50_000_000n)).toBe(50_000_000n);
    expect(payoutMinor(100n, { num: 0n, den: 1n }, 1000n)).toBe(0n);
  });

  it('refuses negative stakes and malformed fractions', () => {
    expect(() => payoutMinor(-1n, ratio(2n, 1n), 100n)).toThrow();
    expect(() => ratio(1n, 0n)).toThrow();
    expect(() => fromHundredths(1.5)).toThrow();
  });

  it('checks stakes against the limits', () => {
    const limits = { minBetMinor: 10n, maxBetMinor: 1000n, maxWinMinor: 100_000n };
    expect(isStakeAllowed(10n, limits)).toBe(true);
    expect(isStakeAllowed(9n, limits)).toBe(false);
    expect(isStakeAllowed(1001n, limits)).toBe(false);
  });
});
