/**
 * Exact decimal arithmetic for odds and returns. Odds arrive as the contract's decimal text
 * ("2.15") and stakes as money text ("10.50"); a float would turn 1.1 × 3 into 3.3000000000000003
 * and a return shown in the slip must be the cent the server pays, so both are read into integers
 * with a scale and multiplied as BigInt.
 */

interface TScaled {
  units: bigint;
  scale: number;
}

const DECIMAL_TEXT = /^\d{1,9}(?:\.\d{1,6})?$/;

function parse(text: string): TScaled | null {
  if (!DECIMAL_TEXT.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

/** Whether a text is decimal odds above evens' floor (1.00) as the contract writes them. */
export function isOddsText(text: string): boolean {
  const value = parse(text);
  return value !== null && value.units >= 10n ** BigInt(value.scale);
}

/** The product of the legs' odds, exact (scale grows with each leg). Null when any is unreadable. */
export function combinedOdds(odds: readonly string[]): TScaled | null {
  let product: TScaled = { units: 1n, scale: 0 };
  for (const text of odds) {
    const value = parse(text);
    if (!value) return null;
    product = { units: product.units * value.units, scale: product.scale + value.scale };
  }
  return product;
}

/** Scaled value as decimal text with `places` places, rounded down (a return is never rounded up). */
function toText(value: TScaled, places: number): string {
  let units = value.units;
  if (value.scale > places) units /= 10n ** BigInt(value.scale - places);
  else units *= 10n ** BigInt(places - value.scale);
  const digits = units.toString().padStart(places + 1, '0');
  return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** The accumulator's total odds as two-place decimal text ("4.30"), rounded down. */
export function combinedOddsText(odds: readonly string[]): string | null {
  const product = combinedOdds(odds);
  return product ? toText(product, 2) : null;
}

/**
 * Stake × the legs' odds, floored to the cent, as money text ("43.00"). Null when the stake or any
 * odds cannot be read.
 */
export function potentialReturn(stake: string, odds: readonly string[]): string | null {
  const amount = parse(stake);
  const product = combinedOdds(odds);
  if (!amount || !product || odds.length === 0) return null;
  return toText({ units: amount.units * product.units, scale: amount.scale + product.scale }, 2);
}

/** Sum of money texts ("10.00" + "2.50" = "12.50"), exact. */
export function sumMoney(values: readonly string[]): string {
  let cents = 0n;
  for (const text of values) {
    const value = parse(text);
    if (value) cents += BigInt(toText(value, 2).replace('.', ''));
  }
  return toText({ units: cents, scale: 2 }, 2);
}

/** -1, 0 or 1 as `a` is below, equal to or above `b` (both decimal text). */
export function compareDecimal(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return 0;
  const scale = Math.max(x.scale, y.scale);
  const left = x.units * 10n ** BigInt(scale - x.scale);
  const right = y.units * 10n ** BigInt(scale - y.scale);
  return left === right ? 0 : left > right ? 1 : -1;
}
