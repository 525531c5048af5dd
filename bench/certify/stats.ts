import { gammaincc } from 'randomness/lib/utils/gamma.js';

/**
 * The statistics of the certification run. The special function (the regularised upper incomplete
 * gamma) comes from the same maintained NIST SP 800-22 package the bit tests use, so every p-value
 * in the report goes through one implementation.
 */

/** z for a two-sided 99.9 % interval. */
export const Z_999 = 3.290_526_731;

/** P(χ²_df ≥ statistic). */
export function chiSquarePValue(statistic: number, degreesOfFreedom: number): number {
  // Q(a, 0) = 1; the package's series returns 0 there.
  return statistic <= 0 ? 1 : gammaincc(degreesOfFreedom / 2, statistic / 2);
}

/** Two-sided P(|Z| ≥ |z|) for a standard normal, as erfc(|z|/√2) = Q(1/2, z²/2). */
export function normalTwoSidedP(z: number): number {
  return z === 0 ? 1 : gammaincc(0.5, (z * z) / 2);
}

export interface ChiSquare {
  statistic: number;
  degreesOfFreedom: number;
  pValue: number;
}

/** Pearson's χ² with adjacent bins merged until each expects at least 5 (the approximation's need). */
export function chiSquare(observed: readonly number[], probabilities: readonly number[]): ChiSquare {
  const total = observed.reduce((a, b) => a + b, 0);
  const bins: { o: number; e: number }[] = [];
  let pending = { o: 0, e: 0 };
  for (let i = 0; i < observed.length; i++) {
    pending.o += observed[i]!;
    pending.e += probabilities[i]! * total;
    if (pending.e >= 5) {
      bins.push(pending);
      pending = { o: 0, e: 0 };
    }
  }
  const last = bins.at(-1);
  if (last) {
    last.o += pending.o;
    last.e += pending.e;
  } else bins.push(pending);
  let statistic = 0;
  for (const bin of bins) if (bin.e > 0) statistic += (bin.o - bin.e) ** 2 / bin.e;
  const degreesOfFreedom = Math.max(1, bins.length - 1);
  return { statistic, degreesOfFreedom, pValue: chiSquarePValue(statistic, degreesOfFreedom) };
}

/**
 * What one pass over a game mode's rounds keeps: outcome counts, payout sums, and enough about the
 * win/loss sequence and the outcome sequence for a runs test and a lag-1 serial correlation. Chunks
 * run on different threads; `mergeTallies` joins them in round order, fixing up the boundaries.
 */
export interface Tally {
  n: number;
  counts: number[];
  sumPay: number;
  sumPay2: number;
  wins: number;
  runs: number;
  firstWin: boolean;
  lastWin: boolean;
  sumX: number;
  sumX2: number;
  sumXY: number;
  firstX: number;
  lastX: number;
}

export function emptyTally(bins: number): Tally {
  return {
    n: 0,
    counts: new Array<number>(bins).fill(0),
    sumPay: 0,
    sumPay2: 0,
    wins: 0,
    runs: 0,
    firstWin: false,
    lastWin: false,
    sumX: 0,
    sumX2: 0,
    sumXY: 0,
    firstX: 0,
    lastX: 0,
  };
}

/** Adds one round: its outcome bin and its payout as a multiple of the stake. */
export function addRound(t: Tally, bin: number, payout: number): void {
  // A "win" returns at least the stake: in plinko and bingo every round may pay something.
  const win = payout >= 1;
  if (t.n === 0) {
    t.firstWin = win;
    t.firstX = bin;
    t.runs = 1;
  } else {
    if (win !== t.lastWin) t.runs++;
    t.sumXY += t.lastX * bin;
  }
  t.n++;
  t.counts[bin]!++;
  t.sumPay += payout;
  t.sumPay2 += payout * payout;
  if (win) t.wins++;
  t.sumX += bin;
  t.sumX2 += bin * bin;
  t.lastWin = win;
  t.lastX = bin;
}

export function mergeTallies(a: Tally, b: Tally): Tally {
  if (a.n === 0) return b;
  if (b.n === 0) return a;
  return {
    n: a.n + b.n,
    counts: a.counts.map((c, i) => c + b.counts[i]!),
    sumPay: a.sumPay + b.sumPay,
    sumPay2: a.sumPay2 + b.sumPay2,
    wins: a.wins + b.wins,
    runs: a.runs + b.runs - (a.lastWin === b.firstWin ? 1 : 0),
    firstWin: a.firstWin,
    lastWin: b.lastWin,
    sumX: a.sumX + b.sumX,
    sumX2: a.sumX2 + b.sumX2,
    sumXY: a.sumXY + b.sumXY + a.lastX * b.firstX,
    firstX: a.firstX,
    lastX: b.lastX,
  };
}

/** Wald–Wolfowitz runs test on the win/loss sequence (two-sided p; 1 when every round had one result). */
export function runsTest(t: Tally): { runs: number; expected: number; z: number; pValue: number } {
  const n1 = t.wins;
  const n2 = t.n - t.wins;
  const n = t.n;
  const expected = (2 * n1 * n2) / n + 1;
  const variance = (2 * n1 * n2 * (2 * n1 * n2 - n)) / (n * n * (n - 1));
  if (!(variance > 0)) return { runs: t.runs, expected, z: 0, pValue: 1 };
  const z = (t.runs - expected) / Math.sqrt(variance);
  return { runs: t.runs, expected, z, pValue: normalTwoSidedP(z) };
}

/** Lag-1 serial correlation of the outcome sequence; under independence r·√n is standard normal. */
export function serialCorrelation(t: Tally): { r: number; z: number; pValue: number } {
  const mean = t.sumX / t.n;
  const variance = t.sumX2 / t.n - mean * mean;
  if (!(variance > 0) || t.n < 3) return { r: 0, z: 0, pValue: 1 };
  const r = (t.sumXY / (t.n - 1) - mean * mean) / variance;
  const z = r * Math.sqrt(t.n);
  return { r, z, pValue: normalTwoSidedP(z) };
}

/** Empirical RTP with its 99.9 % confidence interval (normal approximation of the mean payout). */
export function rtpInterval(t: Tally): { rtp: number; low: number; high: number } {
  const rtp = t.sumPay / t.n;
  const sd = Math.sqrt(Math.max(0, t.sumPay2 / t.n - rtp * rtp));
  const half = (Z_999 * sd) / Math.sqrt(t.n);
  return { rtp, low: rtp - half, high: rtp + half };
}
