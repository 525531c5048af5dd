import { type BetLimits, fromHundredths, type Multiplier } from '../multiplier.ts';
import { FairnessInputError, type FloatSource } from '../seeds.ts';

/**
 * Plinko: a ball falls through `rows` rows of pegs; at each row one float sends it left (< 0.5) or
 * right (≥ 0.5). The slot is the number of rights (0 … rows), so P(slot k) = C(rows, k) / 2^rows.
 * Paytables below (multipliers in hundredths, symmetric) were chosen so every (rows, risk) pair has
 * an RTP between 98.4% and 98.9%; `rtp` is the exact value Σ C(n,k)·m_k / 2ⁿ, proven by the tests.
 */
export const PLINKO_MIN_ROWS = 8;
export const PLINKO_MAX_ROWS = 16;
export const PLINKO_RISKS = ['low', 'medium', 'high'] as const;
export type PlinkoRisk = (typeof PLINKO_RISKS)[number];
/** The biggest multiplier is 1000× (16 rows, high), so at the max bet the max-win cap never binds. */
export const PLINKO_LIMITS: BetLimits = {
  minBetMinor: 10n,
  maxBetMinor: 100_000n,
  maxWinMinor: 100_000_000n,
};

export interface PlinkoPaytable {
  hundredths: readonly number[];
  rtp: number;
}

export const PLINKO_PAYTABLES: Readonly<Record<PlinkoRisk, Readonly<Record<number, PlinkoPaytable>>>> = {
  low: {
    8: { hundredths: [560, 310, 140, 70, 50, 70, 140, 310, 560], rtp: 0.98671875 },
    9: { hundredths: [690, 390, 200, 90, 50, 50, 90, 200, 390, 690], rtp: 0.98671875 },
    10: { hundredths: [820, 480, 260, 120, 60, 50, 60, 120, 260, 480, 820], rtp: 0.988671875 },
    11: { hundredths: [950, 580, 320, 160, 80, 50, 50, 80, 160, 320, 580, 950], rtp: 0.98466796875 },
    12: { hundredths: [1080, 680, 400, 210, 100, 60, 50, 60, 100, 210, 400, 680, 1080], rtp: 0.9861328125 },
    13: {
      hundredths: [1210, 790, 480, 280, 140, 70, 50, 50, 70, 140, 280, 480, 790, 1210],
      rtp: 0.9887451171875,
    },
    14: {
      hundredths: [1340, 900, 570, 320, 180, 90, 60, 50, 60, 90, 180, 320, 570, 900, 1340],
      rtp: 0.98709716796875,
    },
    15: {
      hundredths: [1470, 1010, 660, 400, 230, 120, 70, 50, 50, 70, 120, 230, 400, 660, 1010, 1470],
      rtp: 0.985308837890625,
    },
    16: {
      hundredths: [1600, 1130, 760, 480, 300, 160, 90, 50, 50, 50, 90, 160, 300, 480, 760, 1130, 1600],
      rtp: 0.9884735107421875,
    },
  },
  medium: {
    8: { hundredths: [1200, 450, 130, 50, 40, 50, 130, 450, 1200], rtp: 0.9875 },
    9: { hundredths: [1700, 660, 210, 60, 40, 40, 60, 210, 660, 1700], rtp: 0.9875 },
    10: { hundredths: [2320, 920, 300, 100, 40, 40, 40, 100, 300, 920, 2320], rtp: 0.985546875 },
    11: { hundredths: [2900, 1360, 460, 140, 50, 40, 40, 50, 140, 460, 1360, 2900], rtp: 0.988671875 },
    12: { hundredths: [3780, 1720, 670, 220, 70, 40, 40, 40, 70, 220, 670, 1720, 3780], rtp: 0.985595703125 },
    13: {
      hundredths: [4940, 2320, 950, 320, 100, 50, 40, 40, 50, 100, 320, 950, 2320, 4940],
      rtp: 0.9892822265625,
    },
    14: {
      hundredths: [6450, 3120, 1330, 490, 150, 60, 40, 40, 40, 60, 150, 490, 1330, 3120, 6450],
      rtp: 0.98699951171875,
    },
    15: {
      hundredths: [8420, 4180, 1850, 710, 240, 80, 40, 40, 40, 40, 80, 240, 710, 1850, 4180, 8420],
      rtp: 0.98502197265625,
    },
    16: {
      hundredths: [11000, 5570, 2550, 1030, 360, 110, 50, 40, 40, 40, 50, 110, 360, 1030, 2550, 5570, 11000],
      rtp: 0.9869384765625,
    },
  },
  high: {
    8: { hundredths: [2900, 640, 100, 20, 20, 20, 100, 640, 2900], rtp: 0.9875 },
    9: { hundredths: [4410, 1080, 170, 30, 20, 20, 30, 170, 1080, 4410], rtp: 0.987890625 },
    10: { hundredths: [7030, 1760, 320, 40, 20, 20, 20, 40, 320, 1760, 7030], rtp: 0.9873046875 },
    11: { hundredths: [10900, 2850, 540, 80, 20, 20, 20, 20, 80, 540, 2850, 10900], rtp: 0.98623046875 },
    12: {
      hundredths: [17000, 4600, 930, 130, 30, 20, 20, 20, 30, 130, 930, 4600, 17000],
      rtp: 0.986865234375,
    },
    13: {
      hundredths: [26500, 7360, 1590, 240, 40, 20, 20, 20, 20, 40, 240, 1590, 7360, 26500],
      rtp: 0.985107421875,
    },
    14: {
      hundredths: [41300, 11700, 2660, 460, 60, 20, 20, 20, 20, 20, 60, 460, 2660, 11700, 41300],
      rtp: 0.987646484375,
    },
    15: {
      hundredths: [64200, 18600, 4400, 790, 120, 20, 20, 20, 20, 20, 20, 120, 790, 4400, 18600, 64200],
      rtp: 0.987127685546875,
    },
    16: {
      hundredths: [
        100000, 29500, 7320, 1380, 200, 30, 20, 20, 20, 20, 20, 30, 200, 1380, 7320, 29500, 100000,
      ],
      rtp: 0.987518310546875,
    },
  },
};

export function getPlinkoPaytable(rows: number, risk: PlinkoRisk): PlinkoPaytable {
  const table = PLINKO_PAYTABLES[risk]?.[rows];
  if (!table || !Number.isInteger(rows)) {
    throw new FairnessInputError('INVALID_BET', 'Plinko has 8 to 16 rows and low, medium or high risk.');
  }
  return table;
}

export interface PlinkoResult {
  /** 'L' or 'R' for each row, top to bottom. */
  path: ('L' | 'R')[];
  slot: number;
  multiplier: Multiplier;
}

export function dropPlinko(rows: number, risk: PlinkoRisk, next: FloatSource): PlinkoResult {
  const table = getPlinkoPaytable(rows, risk);
  const path: ('L' | 'R')[] = [];
  let slot = 0;
  for (let row = 0; row < rows; row++) {
    const right = next() >= 0.5;
    path.push(right ? 'R' : 'L');
    if (right) slot++;
  }
  return { path, slot, multiplier: fromHundredths(table.hundredths[slot]!) };
}
