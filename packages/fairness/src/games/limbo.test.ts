import { describe, expect, it } from 'vitest';
import { chiSquareTest } from '../chi-square.ts';
import { fixedFloats, testFloats } from '../test-support.ts';
import {
  LIMBO_MAX_TARGET_HUNDREDTHS,
  LIMBO_RTP,
  limboWinProbability,
  playLimbo,
  rollLimbo,
} from './limbo.ts';

const E = 1n << 64n;

/** Floats whose 64-bit integer is exactly h. */
function floatsFor(h: bigint): number[] {
  return [Number(h >> 32n) / 2 ** 32, Number(h & 0xffffffffn) / 2 ** 32];
}

describe('limbo', () => {
  it('has RTP 99% within 1e-9 for targets from 1.01× to the cap', () => {
    for (const target of [101, 102, 150, 200, 1000, 9999, 100_000, 10_000_000, LIMBO_MAX_TARGET_HUNDREDTHS]) {
      const { num, den } = limboWinProbability(target);
      const rtp = (Number(num) / Number(den)) * (target / 100);
      expect(Math.abs(rtp - LIMBO_RTP)).toBeLessThan(1e-9);
      expect(rtp).toBeLessThanOrEqual(0.99);
      expect(rtp).toBeGreaterThanOrEqual(0.96);
    }
  });

  it('wins exactly for the integers the probability counts (the boundary h and its neighbour)', () => {
    for (const target of [101, 200, 333, 5000, 100_000]) {
      const winners = (99n * E) / BigInt(target);
      const firstWinning = E - winners;
      expect(rollLimbo(fixedFloats(floatsFor(firstWinning)))).toBeGreaterThanOrEqual(target);
      expect(rollLimbo(fixedFloats(floatsFor(firstWinning - 1n)))).toBeLessThan(target);
    }
  });

  it('rolls 1.00× at h = 0 and the cap at the top', () => {
    expect(rollLimbo(fixedFloats([0, 0]))).toBe(100);
    expect(rollLimbo(fixedFloats(floatsFor(E - 1n)))).toBe(LIMBO_MAX_TARGET_HUNDREDTHS);
  });

  it('pays the target only when the result reaches it', () => {
    const win = playLimbo(200, fixedFloats(floatsFor((E / 4n) * 3n)));
    expect(win.win).toBe(true);
    expect(win.multiplier).toEqual({ num: 2n, den: 1n });
    const loss = playLimbo(200, fixedFloats([0.1, 0]));
    expect(loss.win).toBe(false);
    expect(loss.multiplier.num).toBe(0n);
  });

  it('follows P(result ≥ m) = 0.99/m over 100,000 rounds (chi-square 99%)', () => {
    const edges = [100, 101, 125, 150, 200, 300, 500, 1000, 10_000];
    const observed = new Array(edges.length).fill(0);
    for (let nonce = 0; nonce < 25_000; nonce++) {
      const next = testFloats(nonce, 'limbo');
      for (let i = 0; i < 4; i++) {
        const result = rollLimbo(next);
        let bucket = edges.length - 1;
        while (result < edges[bucket]!) bucket--;
        observed[bucket]++;
      }
    }
    const survival = (m: number) => (m <= 100 ? 1 : 0.99 / (m / 100));
    const probabilities = edges.map(
      (edge, i) => survival(edge) - (i + 1 < edges.length ? survival(edges[i + 1]!) : 0),
    );
    const result = chiSquareTest(observed, probabilities);
    expect(result.statistic).toBeLessThan(result.critical);
  }, 30_000);
});
