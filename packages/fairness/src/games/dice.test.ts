import { describe, expect, it } from 'vitest';
import { chiSquareTest } from '../chi-square.ts';
import { ratio, toNumber } from '../multiplier.ts';
import { generateFloats } from '../seeds.ts';
import { ExactSum, fixedFloats, testFloats } from '../test-support.ts';
import {
  DICE_OUTCOMES,
  DICE_RTP,
  type DiceBet,
  diceMultiplier,
  isDiceWin,
  playDice,
  rollDice,
} from './dice.ts';

describe('dice', () => {
  it('has RTP exactly 99% for every target in both directions (enumerating all 10,000 rolls)', () => {
    for (const direction of ['under', 'over'] as const) {
      const targets =
        direction === 'under' ? [100, 101, 777, 4950, 5000, 9800] : [199, 200, 5000, 9000, 9899];
      for (let t = 100; t <= 9899; t += 97) targets.push(t);
      for (const target of targets) {
        const bet: DiceBet = { direction, target };
        const wins = direction === 'under' ? target : 9999 - target;
        if (wins < 100 || wins > 9800) continue;
        const multiplier = diceMultiplier(bet);
        let winningRolls = 0;
        for (let roll = 0; roll < DICE_OUTCOMES; roll++) if (isDiceWin(bet, roll)) winningRolls++;
        const ev = new ExactSum();
        ev.add(multiplier, BigInt(winningRolls), BigInt(DICE_OUTCOMES));
        expect(ev.equals(99n, 100n)).toBe(true);
        expect(Math.abs(ev.toNumber() - DICE_RTP)).toBeLessThan(1e-9);
      }
    }
  });

  it('pays 1.98× at 50% and 99× at 1%', () => {
    expect(diceMultiplier({ direction: 'under', target: 5000 })).toEqual(ratio(198n, 100n));
    expect(toNumber(diceMultiplier({ direction: 'under', target: 100 }))).toBe(99);
  });

  it('refuses targets outside 1%–98% chance', () => {
    expect(() => diceMultiplier({ direction: 'under', target: 99 })).toThrow();
    expect(() => diceMultiplier({ direction: 'over', target: 9900 })).toThrow();
    expect(() => diceMultiplier({ direction: 'under', target: 50.5 })).toThrow();
  });

  it('maps floats to 0.00–99.99 at the edges', () => {
    expect(rollDice(fixedFloats([0]))).toBe(0);
    expect(rollDice(fixedFloats([0.99999999]))).toBe(9999);
    expect(rollDice(fixedFloats([0.5]))).toBe(5000);
  });

  it('reproduces a published bet', () => {
    const seeds = {
      serverSeed: '5f0c1b7e2a9d4c3b8e6f1a0d9c2b7e4f3a8d1c6b0e9f2a7d4c1b8e3f6a0d9c2b',
      clientSeed: 'sorte-player-1',
      nonce: 42,
    };
    const [first] = generateFloats(seeds, 1);
    const result = playDice({ direction: 'under', target: 5000 }, fixedFloats([first!]));
    expect(result.roll).toBe(4454);
    expect(result.win).toBe(true);
  });

  it('spreads 100,000 rolls evenly over 100 buckets (chi-square 99%)', () => {
    const buckets = new Array(100).fill(0);
    for (let nonce = 0; nonce < 12_500; nonce++) {
      const next = testFloats(nonce);
      for (let i = 0; i < 8; i++) buckets[Math.floor(rollDice(next) / 100)]++;
    }
    const result = chiSquareTest(buckets, new Array(100).fill(0.01));
    expect(result.statistic).toBeLessThan(result.critical);
  }, 30_000);
});
