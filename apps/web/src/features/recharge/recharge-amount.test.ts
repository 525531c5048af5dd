import { describe, expect, it } from 'vitest';
import { amountMinorOf, basisPoints, rechargeBreakdown, withinBounds } from './recharge-amount.ts';

describe('deposit amounts', () => {
  it('reads typed amounts as centavos and refuses anything else', () => {
    expect(amountMinorOf('100')).toBe(10000n);
    expect(amountMinorOf(' 12.5 ')).toBe(1250n);
    for (const text of ['', '0', '-1', '1.001', 'abc', '1e2']) expect(amountMinorOf(text)).toBeNull();
  });

  it('applies percent rates in basis points, rounded down', () => {
    expect(basisPoints('2.00')).toBe(200n);
    expect(rechargeBreakdown(10_001n, { fee_rate: '0.00', bonus_rate: '2.00' })).toEqual({
      fee: '0.00',
      bonus: '2.00',
      actual: '100.01',
    });
    expect(rechargeBreakdown(9_999n, { fee_rate: '1.00', bonus_rate: '0.00' })).toEqual({
      fee: '0.99',
      bonus: '0.00',
      actual: '99.00',
    });
  });

  it('keeps amounts within the channel bounds, both inclusive', () => {
    expect(withinBounds(1000n, '10.00', '50000.00')).toBe(true);
    expect(withinBounds(5_000_000n, '10.00', '50000.00')).toBe(true);
    expect(withinBounds(999n, '10.00', '50000.00')).toBe(false);
    expect(withinBounds(5_000_001n, '10.00', '50000.00')).toBe(false);
  });
});
