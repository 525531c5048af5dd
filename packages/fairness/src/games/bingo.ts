import { type BetLimits, fromHundredths, type Multiplier, ZERO } from '../multiplier.ts';
import { type FloatSource, sampleWithoutReplacement } from '../seeds.ts';

/**
 * 75-ball bingo, single card, "first line" rules.
 *
 * - Card: 5×5, column B from 1–15, I 16–30, N 31–45, G 46–60, O 61–75; the centre is free. Each
 *   column's numbers are the first 5 (N: 4) steps of a Fisher–Yates shuffle of its 15 numbers, top
 *   to bottom; the card uses floats 0–23.
 * - Draw order: a full Fisher–Yates shuffle of the 75 balls from the next 75 floats.
 * - Balls are drawn until the card completes its first line (any of 5 rows, 5 columns, 2 diagonals,
 *   the free centre counting as marked). The payout depends on how many balls that took.
 *
 * RTP is exact: for a card and n balls, P(all numbers of a set of u cells drawn) = C(75−u, n−u)/C(75, n),
 * and inclusion–exclusion over the 2¹² sets of lines gives P(a line by ball n). The expected return is
 * 1365761453468654685453 / 1399926602137065455375 ≈ 97.5595%; the tests derive the same figure by
 * enumerating all 2²⁴ subsets of the card's numbers.
 */
export const BINGO_BALLS = 75;
export const BINGO_CARD_CELLS = 25;
export const BINGO_FREE_CELL = 12;
export const BINGO_RTP = 0.9755950428999236;
/**
 * The top prize is 100×, so at the max bet the max-win cap never binds. From R$ 0,20: at R$ 0,10 the
 * ×0.15 line would pay R$ 0,01 of 0.015 (stake-rules.ts).
 */
export const BINGO_LIMITS: BetLimits = { minBetMinor: 20n, maxBetMinor: 100_000n, maxWinMinor: 100_000_000n };

/** Paytable: a first line completed within `maxBalls` balls pays `hundredths`/100 × stake. */
export const BINGO_PAYTABLE: readonly { maxBalls: number; hundredths: number }[] = [
  { maxBalls: 12, hundredths: 10_000 },
  { maxBalls: 18, hundredths: 1_500 },
  { maxBalls: 24, hundredths: 500 },
  { maxBalls: 30, hundredths: 230 },
  { maxBalls: 36, hundredths: 100 },
  { maxBalls: 42, hundredths: 15 },
];

/** The 12 lines as lists of cell indexes (row-major 0–24), the free centre included. */
export const BINGO_LINES: readonly (readonly number[])[] = [
  ...Array.from({ length: 5 }, (_, r) => Array.from({ length: 5 }, (_, c) => r * 5 + c)),
  ...Array.from({ length: 5 }, (_, c) => Array.from({ length: 5 }, (_, r) => r * 5 + c)),
  Array.from({ length: 5 }, (_, i) => i * 5 + i),
  Array.from({ length: 5 }, (_, i) => i * 5 + 4 - i),
];

/** 25 cells row-major; null is the free centre. */
export type BingoCard = (number | null)[];

export function createBingoCard(next: FloatSource): BingoCard {
  const card: BingoCard = new Array(BINGO_CARD_CELLS).fill(null);
  for (let column = 0; column < 5; column++) {
    const rows = column === 2 ? [0, 1, 3, 4] : [0, 1, 2, 3, 4];
    const numbers = sampleWithoutReplacement(next, 15, rows.length);
    rows.forEach((row, i) => {
      card[row * 5 + column] = column * 15 + numbers[i]! + 1;
    });
  }
  return card;
}

/** All 75 balls (1–75) in draw order. */
export function drawBingoBalls(next: FloatSource): number[] {
  return sampleWithoutReplacement(next, BINGO_BALLS, BINGO_BALLS).map((i) => i + 1);
}

export function bingoMultiplier(ballsDrawn: number): Multiplier {
  const row = BINGO_PAYTABLE.find((entry) => ballsDrawn <= entry.maxBalls);
  return row ? fromHundredths(row.hundredths) : ZERO;
}

export interface BingoResult {
  card: BingoCard;
  /** The balls drawn, up to and including the one that completed the first line. */
  balls: number[];
  /** The lines (indexes into BINGO_LINES) completed by the last ball. */
  completedLines: number[];
  multiplier: Multiplier;
}

export function playBingo(next: FloatSource): BingoResult {
  const card = createBingoCard(next);
  const order = drawBingoBalls(next);
  const cellOf = new Map<number, number>();
  card.forEach((value, cell) => {
    if (value !== null) cellOf.set(value, cell);
  });
  const marked = new Array<boolean>(BINGO_CARD_CELLS).fill(false);
  marked[BINGO_FREE_CELL] = true;
  for (let i = 0; i < order.length; i++) {
    const cell = cellOf.get(order[i]!);
    if (cell === undefined) continue;
    marked[cell] = true;
    const completedLines = BINGO_LINES.flatMap((line, index) =>
      line.includes(cell) && line.every((c) => marked[c]) ? [index] : [],
    );
    if (completedLines.length > 0) {
      const balls = order.slice(0, i + 1);
      return { card, balls, completedLines, multiplier: bingoMultiplier(balls.length) };
    }
  }
  // Unreachable: once all 75 balls are out every line is complete. Asserted rather than assumed.
  throw new Error('Bingo draw ended without a line.');
}

function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 0; i < Math.min(k, n - k); i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

/**
 * Σ over non-empty sets of lines whose union has u numbered cells of (−1)^(|set|+1), for each u: the
 * inclusion–exclusion coefficients of "some line complete". The same for every card, since only which
 * cells are marked matters.
 */
let lineCoefficients: ReadonlyMap<number, number> | null = null;
function firstLineCoefficients(): ReadonlyMap<number, number> {
  if (lineCoefficients) return lineCoefficients;
  const numbered = BINGO_LINES.map((line) => line.filter((cell) => cell !== BINGO_FREE_CELL));
  const coefficient = new Map<number, number>();
  for (let mask = 1; mask < 1 << numbered.length; mask++) {
    const union = new Set<number>();
    let size = 0;
    numbered.forEach((line, i) => {
      if ((mask >> i) & 1) {
        size++;
        for (const cell of line) union.add(cell);
      }
    });
    coefficient.set(union.size, (coefficient.get(union.size) ?? 0) + (size % 2 === 1 ? 1 : -1));
  }
  lineCoefficients = coefficient;
  return coefficient;
}

/** Exact P(the card has a complete line once `balls` balls are drawn), as a fraction. */
export function bingoLineWithinBalls(balls: number): { num: bigint; den: bigint } {
  let numerator = 0n;
  for (const [u, coef] of firstLineCoefficients())
    numerator += BigInt(coef) * binomial(BINGO_BALLS - u, balls - u);
  return { num: numerator, den: binomial(BINGO_BALLS, balls) };
}

/** P(the first line completes exactly at ball n) for n = 0 … 75. */
export function bingoFirstLineDistribution(): number[] {
  const byBall: number[] = [];
  for (let n = 0; n <= BINGO_BALLS; n++) {
    const { num, den } = bingoLineWithinBalls(n);
    // Scale before dividing so the ratio keeps full double precision.
    byBall.push(Number((num * 10n ** 18n) / den) / 1e18);
  }
  return byBall.map((p, n) => (n === 0 ? p : p - byBall[n - 1]!));
}

/** The exact expected return of the paytable under the first-line distribution. */
export function bingoTheoreticalRtp(): number {
  const distribution = bingoFirstLineDistribution();
  let rtp = 0;
  distribution.forEach((p, n) => {
    const m = bingoMultiplier(n);
    rtp += (p * Number(m.num)) / Number(m.den);
  });
  return rtp;
}
