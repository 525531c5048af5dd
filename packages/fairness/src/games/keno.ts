import { type BetLimits, fromHundredths, type Multiplier } from '../multiplier.ts';
import { FairnessInputError, type FloatSource, sampleWithoutReplacement } from '../seeds.ts';

/**
 * Keno: numbers 1–40, the draw is 10 of them (the first 10 steps of a Fisher–Yates shuffle driven by
 * the bet's floats). The player picks 1–10 numbers; the payout depends on picks and hits, with
 * P(h hits | p picks) = C(p, h)·C(40 − p, 10 − h) / C(40, 10) (hypergeometric). `rtp` is the exact
 * expected return of each table, proven by enumeration in the tests (97.3%–97.7%).
 */
export const KENO_NUMBERS = 40;
export const KENO_DRAWN = 10;
export const KENO_MAX_PICKS = 10;
/** The top prize is 10,000×; at the max bet the max-win cap never binds. */
export const KENO_LIMITS: BetLimits = { minBetMinor: 10n, maxBetMinor: 10_000n, maxWinMinor: 100_000_000n };

export interface KenoPaytable {
  /** Multiplier in hundredths for 0, 1, … picks hits. */
  hundredths: readonly number[];
  rtp: number;
}

export const KENO_PAYTABLES: Readonly<Record<number, KenoPaytable>> = {
  1: { hundredths: [0, 390], rtp: 0.975 },
  2: { hundredths: [0, 158, 634], rtp: 0.9734615384615385 },
  3: { hundredths: [0, 0, 417, 3340], rtp: 0.9754554655870445 },
  4: { hundredths: [0, 0, 156, 1310, 5490], rtp: 0.9763212605317868 },
  5: { hundredths: [0, 0, 0, 539, 4850, 21800], rtp: 0.9754349491191596 },
  6: { hundredths: [0, 0, 0, 226, 2040, 9160, 41200], rtp: 0.9753145858409016 },
  7: { hundredths: [0, 0, 0, 101, 967, 4640, 22300, 106900], rtp: 0.9754400983503151 },
  8: { hundredths: [0, 0, 0, 0, 349, 3490, 17400, 87100, 435700], rtp: 0.9754747386326333 },
  9: { hundredths: [0, 0, 0, 0, 162, 1680, 8760, 45600, 236900, 1000000], rtp: 0.9738609929941199 },
  10: { hundredths: [0, 0, 0, 0, 77, 851, 4680, 25700, 141500, 778300, 1000000], rtp: 0.9746952020632486 },
};

export function assertKenoPicks(picks: readonly number[]): void {
  const unique = new Set(picks);
  if (
    picks.length < 1 ||
    picks.length > KENO_MAX_PICKS ||
    unique.size !== picks.length ||
    picks.some((n) => !Number.isInteger(n) || n < 1 || n > KENO_NUMBERS)
  ) {
    throw new FairnessInputError('INVALID_BET', 'Pick 1 to 10 different numbers from 1 to 40.');
  }
}

/** The 10 drawn numbers (1–40) in draw order. */
export function drawKeno(next: FloatSource): number[] {
  return sampleWithoutReplacement(next, KENO_NUMBERS, KENO_DRAWN).map((i) => i + 1);
}

export function kenoMultiplier(picks: number, hits: number): Multiplier {
  const table = KENO_PAYTABLES[picks];
  const hundredths = table?.hundredths[hits];
  if (hundredths === undefined) throw new FairnessInputError('INVALID_BET', 'No such keno outcome.');
  return fromHundredths(hundredths);
}

export interface KenoResult {
  drawn: number[];
  hits: number[];
  multiplier: Multiplier;
}

export function playKeno(picks: readonly number[], next: FloatSource): KenoResult {
  assertKenoPicks(picks);
  const drawn = drawKeno(next);
  const drawnSet = new Set(drawn);
  const hits = picks.filter((n) => drawnSet.has(n));
  return { drawn, hits, multiplier: kenoMultiplier(picks.length, hits.length) };
}
