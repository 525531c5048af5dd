import { formatMinor, parseMinor, type TWithdrawInfoResponse } from '@sorte/contract';

/**
 * Fee and actual receipt of a withdrawal, exactly as the server computes them, in integer
 * centavos: fee = max(fee_min, amount × fee_bps / 10 000 rounded down); actual = amount − fee.
 * `fee_rate` arrives as a percent with two places ("1.50" = 150 basis points).
 */
export type TWithdrawQuote =
  | { ok: true; amountMinor: bigint; fee: string; actual: string }
  | { ok: false; reason: 'invalid' | 'range' | 'funds' | 'fee' };

type TFeeRule = Pick<TWithdrawInfoResponse, 'fee_rate' | 'fee_min'>;
type TQuoteRule = TFeeRule & Pick<TWithdrawInfoResponse, 'min_money' | 'max_money' | 'withdrawable'>;

export function withdrawFeeMinor(amountMinor: bigint, rule: TFeeRule): bigint {
  const bps = parseMinor(rule.fee_rate) ?? 0n;
  const feeMin = parseMinor(rule.fee_min) ?? 0n;
  const proportional = (amountMinor * bps) / 10_000n;
  return proportional > feeMin ? proportional : feeMin;
}

/** The quote for a typed amount, or why it cannot be withdrawn. */
export function quoteWithdrawal(text: string, rule: TQuoteRule): TWithdrawQuote {
  const amountMinor = parseMinor(text.trim());
  if (amountMinor === null || amountMinor <= 0n) return { ok: false, reason: 'invalid' };
  const min = parseMinor(rule.min_money) ?? 0n;
  const max = parseMinor(rule.max_money) ?? 0n;
  if (amountMinor < min || amountMinor > max) return { ok: false, reason: 'range' };
  if (amountMinor > (parseMinor(rule.withdrawable) ?? 0n)) return { ok: false, reason: 'funds' };
  const fee = withdrawFeeMinor(amountMinor, rule);
  // A fee that eats the whole amount leaves nothing to pay out; the server refuses it too.
  if (fee >= amountMinor) return { ok: false, reason: 'fee' };
  return { ok: true, amountMinor, fee: formatMinor(fee), actual: formatMinor(amountMinor - fee) };
}
