import { describe, expect, it } from 'vitest';
import { chiSquareTest } from '../chi-square.ts';
import { fixedFloats, testFloats } from '../test-support.ts';
import {
  fillGrid,
  gridPayInLineBets,
  linePay,
  SLOT_LINE_PAYS,
  SLOT_MAX_MULTIPLIER,
  SLOT_PAYLINES,
  SLOT_RTP,
  SLOT_SCATTER_PAYS,
  SLOT_STRIP_LENGTH,
  SLOT_STRIPS,
  SLOT_SYMBOLS,
  settleSlot,
  spinSlot,
} from './slot.ts';

const index = (symbol: (typeof SLOT_SYMBOLS)[number]) => SLOT_SYMBOLS.indexOf(symbol);

describe('video slot', () => {
  it('has the documented exact RTP over all 20^5 reel stops (brute force)', () => {
    const grid = new Uint8Array(15);
    const stops = [0, 0, 0, 0, 0];
    let total = 0;
    let max = 0;
    for (stops[0] = 0; stops[0] < SLOT_STRIP_LENGTH; stops[0]++) {
      for (stops[1] = 0; stops[1] < SLOT_STRIP_LENGTH; stops[1]++) {
        for (stops[2] = 0; stops[2] < SLOT_STRIP_LENGTH; stops[2]++) {
          for (stops[3] = 0; stops[3] < SLOT_STRIP_LENGTH; stops[3]++) {
            for (stops[4] = 0; stops[4] < SLOT_STRIP_LENGTH; stops[4]++) {
              fillGrid(stops, grid);
              const pay = gridPayInLineBets(grid);
              total += pay;
              if (pay > max) max = pay;
            }
          }
        }
      }
    }
    // total is an integer sum (exact in a double below 2^53): RTP = total / (20 lines × 20^5 spins).
    const rtp = total / (SLOT_PAYLINES.length * SLOT_STRIP_LENGTH ** 5);
    expect(total).toBe(310_913 * 200);
    expect(Math.abs(rtp - SLOT_RTP)).toBeLessThan(1e-9);
    expect(rtp).toBeGreaterThanOrEqual(0.96);
    expect(rtp).toBeLessThanOrEqual(0.99);
    expect(max / SLOT_PAYLINES.length).toBe(SLOT_MAX_MULTIPLIER);
  }, 60_000);

  it('agrees with the independent per-line formula', () => {
    const counts = SLOT_STRIPS.map((strip) => {
      const map = new Map<number, number>();
      for (const symbol of strip) map.set(index(symbol), (map.get(index(symbol)) ?? 0) + 1);
      return [...map.entries()];
    });
    let lineEv = 0;
    const walk = (reel: number, symbols: number[], p: number) => {
      if (reel === 5) {
        lineEv += p * linePay(symbols[0]!, symbols[1]!, symbols[2]!, symbols[3]!, symbols[4]!);
        return;
      }
      for (const [symbol, count] of counts[reel]!)
        walk(reel + 1, [...symbols, symbol], (p * count) / SLOT_STRIP_LENGTH);
    };
    walk(0, [], 1);
    let distribution = [1];
    for (const strip of SLOT_STRIPS) {
      const q = (3 * strip.filter((s) => s === 'scatter').length) / SLOT_STRIP_LENGTH;
      const nextDistribution = new Array(distribution.length + 1).fill(0);
      distribution.forEach((p, k) => {
        nextDistribution[k] += p * (1 - q);
        nextDistribution[k + 1] += p * q;
      });
      distribution = nextDistribution;
    }
    const scatterEv = distribution.reduce((sum, p, k) => sum + p * (SLOT_SCATTER_PAYS[k] ?? 0), 0);
    expect(Math.abs(lineEv + scatterEv - SLOT_RTP)).toBeLessThan(1e-9);
  });

  it('keeps scatters at least 3 apart so a reel shows at most one', () => {
    for (const strip of SLOT_STRIPS) {
      const positions = strip.flatMap((symbol, i) => (symbol === 'scatter' ? [i] : []));
      expect(positions).toHaveLength(1);
    }
  });

  it('pays lines left to right with wilds substituting, and a better pure-wild run', () => {
    const [W, S, seven, bar, lemon] = [
      index('wild'),
      index('scatter'),
      index('seven'),
      index('bar'),
      index('lemon'),
    ];
    expect(linePay(seven, seven, seven, bar, bar)).toBe(SLOT_LINE_PAYS.seven[0]);
    expect(linePay(W, seven, W, seven, lemon)).toBe(SLOT_LINE_PAYS.seven[1]);
    expect(linePay(W, W, W, lemon, lemon)).toBe(SLOT_LINE_PAYS.wild[0]);
    expect(linePay(W, W, W, W, W)).toBe(SLOT_LINE_PAYS.wild[2]);
    expect(linePay(bar, bar, S, bar, bar)).toBe(0);
    expect(linePay(W, W, S, bar, bar)).toBe(0);
    expect(linePay(lemon, seven, seven, seven, seven)).toBe(0);
  });

  it('settles a screen: line wins, scatters and the total multiplier agree', () => {
    for (let nonce = 0; nonce < 300; nonce++) {
      const result = spinSlot(testFloats(nonce, 'slot'));
      const lines = result.lineWins.reduce((sum, win) => sum + win.pay, 0);
      const expected = lines + result.scatterPay * 20;
      expect(result.multiplier.num * 20n).toBe(BigInt(expected) * result.multiplier.den);
      expect(result.screen).toHaveLength(3);
    }
    const result = settleSlot([12, 1, 5, 8, 2]);
    expect(result.screen.map((row) => row[0])).toEqual(['wild', 'melon', 'bar']);
    expect(() => settleSlot([0, 0, 0, 0, 20])).toThrow();
  });

  it('maps floats to stops', () => {
    expect(spinSlot(fixedFloats([0, 0.05, 0.5, 0.999, 0.25])).stops).toEqual([0, 1, 10, 19, 5]);
  });

  it('stops each reel uniformly (chi-square 99%, 40,000 spins)', () => {
    const counts = SLOT_STRIPS.map(() => new Array(SLOT_STRIP_LENGTH).fill(0));
    for (let nonce = 0; nonce < 40_000; nonce++) {
      spinSlot(testFloats(nonce, 'slot-uniform')).stops.forEach((stop, reel) => {
        counts[reel]![stop]++;
      });
    }
    for (const reelCounts of counts) {
      const result = chiSquareTest(reelCounts, new Array(SLOT_STRIP_LENGTH).fill(1 / SLOT_STRIP_LENGTH));
      expect(result.statistic).toBeLessThan(result.critical);
    }
  }, 30_000);
});
