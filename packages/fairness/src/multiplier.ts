/**
 * Payout multipliers as exact fractions. Game maths (99/chance, combinatorial mines odds) is rarely a
 * terminating decimal, and money must never go through a float, so a multiplier is a ratio of
 * bigints and a payout is floor(stake × num / den) in centavos, capped by the game's max win.
 */
export interface Multiplier {
  num: bigint;
  den: bigint;
}

export const ZERO: Multiplier = { num: 0n, den: 1n };

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function ratio(num: bigint, den: bigint): Multiplier {
  if (den <= 0n || num < 0n) throw new RangeError('A multiplier is a non-negative fraction.');
  const g = gcd(num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

/** Paytables are written with at most 2 decimals (e.g. 5.6 or 0.25); this makes them exact. */
export function fromHundredths(hundredths: number): Multiplier {
  if (!Number.isSafeInteger(hundredths) || hundredths < 0) throw new RangeError('Bad paytable entry.');
  return ratio(BigInt(hundredths), 100n);
}

export function fromDecimal(value: number): Multiplier {
  return fromHundredths(Math.round(value * 100));
}

export function multiply(a: Multiplier, b: Multiplier): Multiplier {
  return ratio(a.num * b.num, a.den * b.den);
}

/** For display only (never for money). */
export function toNumber(m: Multiplier): number {
  return Number(m.num) / Number(m.den);
}

export function compare(a: Multiplier, b: Multiplier): number {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** floor(stake × multiplier), then capped at the game's max win. Both in centavos. */
export function payoutMinor(stakeMinor: bigint, m: Multiplier, maxWinMinor: bigint): bigint {
  if (stakeMinor < 0n) throw new RangeError('A stake cannot be negative.');
  const raw = (stakeMinor * m.num) / m.den;
  return raw > maxWinMinor ? maxWinMinor : raw;
}

/** Bet limits and the max-win cap of one game, in centavos (BRL). */
export interface BetLimits {
  minBetMinor: bigint;
  maxBetMinor: bigint;
  maxWinMinor: bigint;
}

export function isStakeAllowed(stakeMinor: bigint, limits: BetLimits): boolean {
  return stakeMinor >= limits.minBetMinor && stakeMinor <= limits.maxBetMinor;
}
