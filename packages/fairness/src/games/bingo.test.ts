import { describe, expect, it } from 'vitest';
import { chiSquareTest } from '../chi-square.ts';
import { testFloats } from '../test-support.ts';
import {
  BINGO_FREE_CELL,
  BINGO_LINES,
  BINGO_RTP,
  bingoFirstLineDistribution,
  bingoMultiplier,
  bingoTheoreticalRtp,
  createBingoCard,
  drawBingoBalls,
  playBingo,
} from './bingo.ts';

function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return result;
}

describe('75-ball bingo', () => {
  it('has the documented exact RTP, in [96%, 99%]', () => {
    const rtp = bingoTheoreticalRtp();
    expect(Math.abs(rtp - BINGO_RTP)).toBeLessThan(1e-9);
    expect(rtp).toBeGreaterThanOrEqual(0.96);
    expect(rtp).toBeLessThanOrEqual(0.99);
  });

  it('matches an independent enumeration of all 2^24 sets of marked numbers', () => {
    // Map the 24 numbered cells to bits and each line to a mask over them.
    const numberedCells = Array.from({ length: 25 }, (_, c) => c).filter((c) => c !== BINGO_FREE_CELL);
    const bit = new Map(numberedCells.map((cell, i) => [cell, i]));
    const lineMasks = BINGO_LINES.map((line) =>
      line.reduce((mask, cell) => (cell === BINGO_FREE_CELL ? mask : mask | (1 << bit.get(cell)!)), 0),
    );
    // withLine[k] = number of k-element marked sets that contain a complete line.
    const withLine = new Array(25).fill(0);
    for (let marked = 0; marked < 1 << 24; marked++) {
      for (const mask of lineMasks) {
        if ((marked & mask) === mask) {
          let k = 0;
          for (let x = marked; x; x &= x - 1) k++;
          withLine[k]++;
          break;
        }
      }
    }
    // After n balls, a given k-subset of the card is exactly the marked set with prob C(51, n−k)/C(75, n).
    const byBall = Array.from({ length: 76 }, (_, n) =>
      withLine.reduce((sum, count, k) => sum + (count * binomial(51, n - k)) / binomial(75, n), 0),
    );
    const distribution = bingoFirstLineDistribution();
    let rtp = 0;
    for (let n = 1; n <= 75; n++) {
      const first = byBall[n]! - byBall[n - 1]!;
      expect(Math.abs(first - distribution[n]!)).toBeLessThan(1e-12);
      const m = bingoMultiplier(n);
      rtp += (first * Number(m.num)) / Number(m.den);
    }
    expect(Math.abs(byBall[75]! - 1)).toBeLessThan(1e-12);
    expect(Math.abs(rtp - BINGO_RTP)).toBeLessThan(1e-9);
  }, 60_000);

  it('builds cards with each column from its own range and a free centre', () => {
    for (let nonce = 0; nonce < 200; nonce++) {
      const card = createBingoCard(testFloats(nonce, 'bingo-card'));
      expect(card[BINGO_FREE_CELL]).toBeNull();
      const numbers = card.filter((n): n is number => n !== null);
      expect(new Set(numbers).size).toBe(24);
      card.forEach((n, cell) => {
        if (n === null) return;
        const column = cell % 5;
        expect(n >= column * 15 + 1 && n <= column * 15 + 15).toBe(true);
      });
    }
  });

  it('stops at the first completed line and pays by the number of balls', () => {
    for (let nonce = 0; nonce < 200; nonce++) {
      const result = playBingo(testFloats(nonce, 'bingo-play'));
      const drawn = new Set(result.balls);
      const marked = (cell: number) => cell === BINGO_FREE_CELL || drawn.has(result.card[cell]!);
      const complete = (line: readonly number[]) => line.every(marked);
      expect(result.completedLines.length).toBeGreaterThan(0);
      for (const index of result.completedLines) expect(complete(BINGO_LINES[index]!)).toBe(true);
      // One ball earlier no line was complete.
      drawn.delete(result.balls.at(-1)!);
      expect(BINGO_LINES.some(complete)).toBe(false);
      expect(result.multiplier).toEqual(bingoMultiplier(result.balls.length));
    }
  });

  it('draws every ball first equally often (chi-square 99%, 20,000 draws)', () => {
    const counts = new Array(75).fill(0);
    for (let nonce = 0; nonce < 20_000; nonce++)
      counts[drawBingoBalls(testFloats(nonce, 'bingo-draw'))[0]! - 1]++;
    const result = chiSquareTest(counts, new Array(75).fill(1 / 75));
    expect(result.statistic).toBeLessThan(result.critical);
  }, 30_000);

  it('needs as many balls for a line as the exact distribution says (chi-square 99%, 20,000 games)', () => {
    const distribution = bingoFirstLineDistribution();
    const counts = new Array(76).fill(0);
    for (let nonce = 0; nonce < 20_000; nonce++)
      counts[playBingo(testFloats(nonce, 'bingo-lines')).balls.length]++;
    const result = chiSquareTest(counts, distribution);
    expect(result.statistic).toBeLessThan(result.critical);
  }, 30_000);
});
