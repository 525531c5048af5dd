import { describe, expect, it } from 'vitest';
import { chiSquareTest } from '../chi-square.ts';
import { ratio, toNumber } from '../multiplier.ts';
import { ExactSum, fixedFloats, testFloats } from '../test-support.ts';
import { MINES_RTP, MINES_TILES, minesMultiplier, placeMines, settleMines } from './mines.ts';

/** All k-subsets of 0..n-1, for brute-force checks on small cases. */
function* subsets(n: number, k: number, start = 0, prefix: number[] = []): Generator<number[]> {
  if (prefix.length === k) {
    yield prefix;
    return;
  }
  for (let i = start; i <= n - (k - prefix.length); i++) yield* subsets(n, k, i + 1, [...prefix, i]);
}

describe('mines', () => {
  it('has RTP exactly 99% for every mine count and every number of safe picks', () => {
    for (let mines = 1; mines <= 24; mines++) {
      for (let k = 1; k <= MINES_TILES - mines; k++) {
        // P(k safe picks) = Π (25 − m − i) / (25 − i), computed independently of the binomials in the game.
        let pNum = 1n;
        let pDen = 1n;
        for (let i = 0; i < k; i++) {
          pNum *= BigInt(MINES_TILES - mines - i);
          pDen *= BigInt(MINES_TILES - i);
        }
        const ev = new ExactSum();
        ev.add(minesMultiplier(mines, k), pNum, pDen);
        expect(ev.equals(99n, 100n)).toBe(true);
        expect(Math.abs(ev.toNumber() - MINES_RTP)).toBeLessThan(1e-9);
      }
    }
  });

  it('agrees with brute force over every mine placement for small and large mine counts', () => {
    for (const mines of [1, 2, 3, 22, 23, 24]) {
      for (let k = 1; k <= Math.min(3, MINES_TILES - mines); k++) {
        const picks = Array.from({ length: k }, (_, i) => i * 7);
        let total = 0;
        let safe = 0;
        for (const placement of subsets(MINES_TILES, mines)) {
          total++;
          if (!settleMines(placement, picks).hitMine) safe++;
        }
        const ev = new ExactSum();
        ev.add(minesMultiplier(mines, k), BigInt(safe), BigInt(total));
        expect(ev.equals(99n, 100n)).toBe(true);
      }
    }
  });

  it('shows the familiar multipliers', () => {
    expect(toNumber(minesMultiplier(1, 1))).toBeCloseTo(1.03125, 10);
    expect(minesMultiplier(3, 1)).toEqual(ratio(99n * 25n, 100n * 22n));
    expect(toNumber(minesMultiplier(24, 1))).toBeCloseTo(24.75, 10);
  });

  it('places distinct mines and settles picks', () => {
    const mines = placeMines(5, fixedFloats([0, 0, 0, 0, 0]));
    expect(mines).toEqual([0, 1, 2, 3, 4]);
    expect(settleMines(mines, [10, 11]).multiplier).toEqual(minesMultiplier(5, 2));
    const lost = settleMines(mines, [10, 3, 12]);
    expect(lost.hitMine).toBe(true);
    expect(lost.picks).toEqual([10, 3]);
    expect(lost.multiplier.num).toBe(0n);
  });

  it('refuses impossible boards and picks', () => {
    expect(() => placeMines(0, testFloats(0))).toThrow();
    expect(() => placeMines(25, testFloats(0))).toThrow();
    expect(() => minesMultiplier(24, 2)).toThrow();
    expect(() => settleMines([1], [2, 2])).toThrow();
    expect(() => settleMines([1], [25])).toThrow();
    expect(() => settleMines([1], [])).toThrow();
  });

  it('places mines uniformly over the 25 tiles (chi-square 99%, 20,000 boards of 3 mines)', () => {
    const counts = new Array(MINES_TILES).fill(0);
    for (let nonce = 0; nonce < 20_000; nonce++)
      for (const tile of placeMines(3, testFloats(nonce, 'mines'))) counts[tile]++;
    const result = chiSquareTest(counts, new Array(MINES_TILES).fill(1 / MINES_TILES));
    expect(result.statistic).toBeLessThan(result.critical);
  }, 30_000);
});
