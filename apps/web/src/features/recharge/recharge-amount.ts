import { formatMinor, parseMinor } from '@sorte/contract';

/**
 * The amounts a deposit form shows, in integer centavos. Rates arrive as percent strings with two
 * places ("1.50" = 1.5 % = 150 basis points) and are applied the way the server applies them:
 * amount × bps / 10 000, rounded down to the centavo.
 */

/** A percent string ("1.50") as basis points (150); anything else as 0. */
export function basisPoints(rate: string): bigint {
  return parseMinor(rate) ?? 0n;
}

export function percentOf(amountMinor: bigint, rate: string): bigint {
  return (amountMinor * basisPoints(rate)) / 10_000n;
}

export interface TRechargeBreakdown {
  fee: string;
  bonus: string;
  /** What reaches the balance: amount − fee. */
  actual: string;
}

export function rechargeBreakdown(
  amountMinor: bigint,
  channel: { fee_rate: string; bonus_rate: string },
): TRechargeBreakdown {
  const fee = percentOf(amountMinor, channel.fee_rate);
  return {
    fee: formatMinor(fee),
    bonus: formatMinor(percentOf(amountMinor, channel.bonus_rate)),
    actual: formatMinor(amountMinor - fee),
  };
}

/** The typed amount in centavos when it is a valid positive amount, else null. */
export function amountMinorOf(text: string): bigint | null {
  const minor = parseMinor(text.trim());
  return minor !== null && minor > 0n ? minor : null;
}

/** True when `minor` lies within the channel's bounds (both inclusive). */
export function withinBounds(minor: bigint, min: string, max: string): boolean {
  const low = parseMinor(min);
  const high = parseMinor(max);
  return low !== null && high !== null && minor >= low && minor <= high;
}
