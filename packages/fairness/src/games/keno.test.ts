import { describe, expect, it } from 'vitest';
import { chiSquareTest } from '../chi-square.ts';
import { ExactSum, testFloats } from '../test-support.ts';
import { drawKeno, KENO_PAYTABLES, kenoMultiplier, playKeno } from './keno.ts';

function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

const hypergeometric = (picks: number, hits: number) =>
  Number(binomial(picks, hits) * binomial(40 - picks, 10 - hits)) / Number(binomial(40, 10));

describe('keno', () => {
  it('has the documented exact RTP, in [96%, 99%], for 1 to 10 picks (hypergeometric enumeration)', () => {
    for (let picks = 1; picks <= 10; picks++) {
      const table = KENO_PAYTABLES[picks]!;
      expect(table.hundredths).toHaveLength(picks + 1);
      // The hypergeometric weights must cover every draw: Σ C(p,h)·C(40−p,10−h) = C(40,10).
      let ways = 0n;
      for (let hits = 0; hits <= picks; hits++)
        ways += binomial(picks, hits) * binomial(40 - picks, 10 - hits);
      expect(ways).toBe(binomial(40, 10));
      const exact = new ExactSum();
      for (let hits = 0; hits <= picks; hits++) {
        exact.add(kenoMultiplier(picks, hits), binomial(picks, hits) * binomial(40 - picks, 10 - hits), ways);
      }
      expect(Math.abs(exact.toNumber() - table.rtp)).toBeLessThan(1e-9);
      expect(exact.toNumber()).toBeGreaterThanOrEqual(0.96);
      expect(exact.toNumber()).toBeLessThanOrEqual(0.99);
    }
  });

  it('draws 10 different numbers from 1 to 40 and counts hits', () => {
    for (let nonce = 0; nonce < 100; nonce++) {
      const drawn = drawKeno(testFloats(nonce, 'keno'));
      expect(new Set(drawn).size).toBe(10);
      expect(drawn.every((n) => n >= 1 && n <= 40)).toBe(true);
    }
    const drawn = drawKeno(testFloats(7, 'keno'));
    const result = playKeno([drawn[0]!, drawn[1]!, drawn.includes(40) ? 39 : 40], testFloats(7, 'keno'));
    expect(result.hits.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses duplicate, out-of-range, empty and too many picks', () => {
    expect(() => playKeno([1, 1], testFloats(0))).toThrow();
    expect(() => playKeno([0], testFloats(0))).toThrow();
    expect(() => playKeno([41], testFloats(0))).toThrow();
    expect(() => playKeno([], testFloats(0))).toThrow();
    expect(() => playKeno([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], testFloats(0))).toThrow();
  });

  it('gives hit counts that follow the hypergeometric law (chi-square 99%, 10 picks, 50,000 draws)', () => {
    const picks = [3, 7, 11, 15, 19, 23, 27, 31, 35, 39];
    const counts = new Array(11).fill(0);
    for (let nonce = 0; nonce < 50_000; nonce++)
      counts[playKeno(picks, testFloats(nonce, 'keno')).hits.length]++;
    const result = chiSquareTest(
      counts,
      counts.map((_, hits) => hypergeometric(10, hits)),
    );
    expect(result.statistic).toBeLessThan(result.critical);
  }, 30_000);

  it('draws every number equally often (chi-square 99%)', () => {
    const counts = new Array(40).fill(0);
    for (let nonce = 0; nonce < 20_000; nonce++)
      for (const n of drawKeno(testFloats(nonce, 'keno-uniform'))) counts[n - 1]++;
    const result = chiSquareTest(counts, new Array(40).fill(1 / 40));
    expect(result.statistic).toBeLessThan(result.critical);
  }, 30_000);
});
