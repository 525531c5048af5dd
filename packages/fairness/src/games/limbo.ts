import { type BetLimits, type Multiplier, ratio, ZERO } from '../multiplier.ts';
import { FairnessInputError, type FloatSource } from '../seeds.ts';

/**
 * Limbo: the player names a target multiplier; two floats give a 64-bit integer h (float × 2³² is an
 * exact integer), and the result is floor(99 · 2⁶⁴ / (2⁶⁴ − h)) hundredths, at least 1.00×. The bet wins
 * when result ≥ target, so P(win) = floor(99·2⁶⁴/T)/2⁶⁴ ≈ 0.99/target and RTP = 99% within 10⁻¹².
 */
export const LIMBO_HOUSE_EDGE = 0.01;
export const LIMBO_RTP = 0.99;
export const LIMBO_MIN_TARGET_HUNDREDTHS = 101;
export const LIMBO_MAX_TARGET_HUNDREDTHS = 100_000_000;
export const LIMBO_LIMITS: BetLimits = { minBetMinor: 10n, maxBetMinor: 500_000n, maxWinMinor: 50_000_000n };

const E = 1n << 64n;

export function assertLimboTarget(targetHundredths: number): void {
  if (
    !Number.isSafeInteger(targetHundredths) ||
    targetHundredths < LIMBO_MIN_TARGET_HUNDREDTHS ||
    targetHundredths > LIMBO_MAX_TARGET_HUNDREDTHS
  ) {
    throw new FairnessInputError('INVALID_BET', 'The limbo target must be between 1.01× and 1,000,000×.');
  }
}

/** The limbo result in hundredths. */
export function rollLimbo(next: FloatSource): number {
  const high = BigInt(Math.floor(next() * 4_294_967_296));
  const low = BigInt(Math.floor(next() * 4_294_967_296));
  const h = (high << 32n) | low;
  const raw = (99n * E) / (E - h);
  if (raw < 100n) return 100;
  return raw > BigInt(LIMBO_MAX_TARGET_HUNDREDTHS) ? LIMBO_MAX_TARGET_HUNDREDTHS : Number(raw);
}

/** Exact P(win) for a target, as a fraction of 2⁶⁴. */
export function limboWinProbability(targetHundredths: number): { num: bigint; den: bigint } {
  assertLimboTarget(targetHundredths);
  return { num: (99n * E) / BigInt(targetHundredths), den: E };
}

export interface LimboResult {
  resultHundredths: number;
  win: boolean;
  multiplier: Multiplier;
}

export function playLimbo(targetHundredths: number, next: FloatSource): LimboResult {
  assertLimboTarget(targetHundredths);
  const resultHundredths = rollLimbo(next);
  const win = resultHundredths >= targetHundredths;
  return { resultHundredths, win, multiplier: win ? ratio(BigInt(targetHundredths), 100n) : ZERO };
}
