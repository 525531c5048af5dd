import { describe, expect, it } from 'vitest';
import { chiSquareTest } from '../chi-square.ts';
import { fromHundredths } from '../multiplier.ts';
import { ExactSum, fixedFloats, testFloats } from '../test-support.ts';
import { dropPlinko, getPlinkoPaytable, PLINKO_PAYTABLES, PLINKO_RISKS } from './plinko.ts';

function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

describe('plinko', () => {
  it('has the documented exact RTP, in [96%, 99%], for every rows × risk (binomial enumeration)', () => {
    for (const risk of PLINKO_RISKS) {
      for (let rows = 8; rows <= 16; rows++) {
        const table = getPlinkoPaytable(rows, risk);
        expect(table.hundredths).toHaveLength(rows + 1);
        const ev = new ExactSum();
        for (let k = 0; k <= rows; k++)
          ev.add(fromHundredths(table.hundredths[k]!), binomial(rows, k), 2n ** BigInt(rows));
        expect(Math.abs(ev.toNumber() - table.rtp)).toBeLessThan(1e-9);
        expect(ev.toNumber()).toBeGreaterThanOrEqual(0.96);
        expect(ev.toNumber()).toBeLessThanOrEqual(0.99);
      }
    }
  });

  it('agrees with enumerating every one of the 2^rows paths through dropPlinko', () => {
    for (const risk of PLINKO_RISKS) {
      for (const rows of [8, 12]) {
        const ev = new ExactSum();
        for (let path = 0; path < 2 ** rows; path++) {
          const floats = Array.from({ length: rows }, (_, row) => ((path >> row) & 1 ? 0.75 : 0.25));
          ev.add(dropPlinko(rows, risk, fixedFloats(floats)).multiplier, 1n, 2n ** BigInt(rows));
        }
        expect(Math.abs(ev.toNumber() - getPlinkoPaytable(rows, risk).rtp)).toBeLessThan(1e-9);
      }
    }
  });

  it('has symmetric tables whose edges pay the most', () => {
    for (const risk of PLINKO_RISKS) {
      for (const table of Object.values(PLINKO_PAYTABLES[risk])) {
        const values = table.hundredths;
        expect([...values].reverse()).toEqual([...values]);
        expect(Math.max(...values)).toBe(values[0]);
      }
    }
  });

  it('turns floats into a left/right path, 0.5 going right', () => {
    const result = dropPlinko(8, 'low', fixedFloats([0.1, 0.5, 0.9, 0.2, 0.3, 0.4, 0.49, 0.99]));
    expect(result.path.join('')).toBe('LRRLLLLR');
    expect(result.slot).toBe(3);
  });

  it('refuses rows outside 8–16 and unknown risks', () => {
    expect(() => dropPlinko(7, 'low', testFloats(0))).toThrow();
    expect(() => dropPlinko(17, 'high', testFloats(0))).toThrow();
    expect(() => dropPlinko(8, 'extreme' as 'low', testFloats(0))).toThrow();
  });

  it('lands in slots as the binomial distribution says (chi-square 99%, 16 rows, 50,000 balls)', () => {
    const rows = 16;
    const counts = new Array(rows + 1).fill(0);
    for (let nonce = 0; nonce < 50_000; nonce++)
      counts[dropPlinko(rows, 'medium', testFloats(nonce, 'plinko')).slot]++;
    const probabilities = counts.map((_, k) => Number(binomial(rows, k)) / 2 ** rows);
    const result = chiSquareTest(counts, probabilities);
    expect(result.statistic).toBeLessThan(result.critical);
  }, 30_000);
});
