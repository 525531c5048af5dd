import { formatMinor, parseMinor } from '@sorte/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteWithdrawal, withdrawFeeMinor } from './withdraw-fee.ts';

/** The seeded default rule: 20.00–50000.00, 1 % fee, at least 2.00. */
const RULE = {
  min_money: '20.00',
  max_money: '50000.00',
  fee_rate: '1.00',
  fee_min: '2.00',
  withdrawable: '1000.00',
};

describe('withdrawal fee and actual receipt', () => {
  it('charges the minimum fee on small amounts and the rate on large ones', () => {
    expect(quoteWithdrawal('50', RULE)).toEqual({
      ok: true,
      amountMinor: 5000n,
      fee: '2.00',
      actual: '48.00',
    });
    expect(quoteWithdrawal('1000.00', RULE)).toEqual({
      ok: true,
      amountMinor: 100000n,
      fee: '10.00',
      actual: '990.00',
    });
  });

  it('rounds a fractional-centavo fee down, as the server does', () => {
    const rule = { ...RULE, fee_rate: '1.50', withdrawable: '50000.00' };
    // 333.33 × 1.5 % = 4.99995 → 4.99
    expect(quoteWithdrawal('333.33', rule)).toMatchObject({ ok: true, fee: '4.99', actual: '328.34' });
  });

  it('refuses what is not an amount, outside the bounds, above the withdrawable money or eaten by the fee', () => {
    for (const text of ['', 'abc', '-5', '0', '50.001', '1e3', '50,00'])
      expect(quoteWithdrawal(text, RULE)).toEqual({ ok: false, reason: 'invalid' });
    expect(quoteWithdrawal('19.99', RULE)).toEqual({ ok: false, reason: 'range' });
    expect(quoteWithdrawal('50000.01', RULE)).toEqual({ ok: false, reason: 'range' });
    expect(quoteWithdrawal('1000.01', RULE)).toEqual({ ok: false, reason: 'funds' });
    expect(quoteWithdrawal('20', { ...RULE, fee_min: '20.00' })).toEqual({ ok: false, reason: 'fee' });
  });

  it('always splits the amount exactly into fee and actual receipt, never below the minimum fee', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 2000n, max: 5_000_000n }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.bigInt({ min: 0n, max: 1999n }),
        (amountMinor, feeBps, feeMinMinor) => {
          const rule = {
            ...RULE,
            fee_rate: formatMinor(BigInt(feeBps)),
            fee_min: formatMinor(feeMinMinor),
            withdrawable: '50000.00',
          };
          const fee = withdrawFeeMinor(amountMinor, rule);
          expect(fee).toBe(
            (amountMinor * BigInt(feeBps)) / 10_000n > feeMinMinor
              ? (amountMinor * BigInt(feeBps)) / 10_000n
              : feeMinMinor,
          );
          const quote = quoteWithdrawal(formatMinor(amountMinor), rule);
          if (fee >= amountMinor) {
            expect(quote).toEqual({ ok: false, reason: 'fee' });
            return;
          }
          if (!quote.ok) throw new Error(`expected a quote for ${formatMinor(amountMinor)}`);
          expect(parseMinor(quote.fee)! + parseMinor(quote.actual)!).toBe(amountMinor);
          expect(parseMinor(quote.fee)! >= feeMinMinor).toBe(true);
        },
      ),
    );
  });
});
