import { describe, expect, it } from 'vitest';
import { chiSquareTest } from '../chi-square.ts';
import { ExactSum, testFloats } from '../test-support.ts';
import {
  coveredNumbers,
  playRoulette,
  ROULETTE_POCKETS,
  ROULETTE_RTP,
  type RouletteBet,
  rouletteMultiplier,
  settleRoulette,
  spinRoulette,
} from './roulette.ts';

/** Every bet that exists on a European table. */
function allBets(): RouletteBet[] {
  const bets: RouletteBet[] = [];
  const add = (type: RouletteBet['type'], numbers: number[]) => {
    try {
      coveredNumbers({ type, numbers, stakeMinor: 100n });
      bets.push({ type, numbers, stakeMinor: 100n });
    } catch {
      // Not a bet on the layout: skipped on purpose, the counts below prove the right ones remain.
    }
  };
  for (let n = 0; n <= 36; n++) add('straight', [n]);
  for (let a = 0; a <= 36; a++) for (let b = a + 1; b <= 36; b++) add('split', [a, b]);
  for (let n = 0; n <= 36; n++) {
    add('street', [n]);
    add('corner', [n]);
    add('line', [n]);
    add('trio', [n]);
  }
  add('first_four', []);
  for (let d = 0; d <= 4; d++) {
    add('dozen', [d]);
    add('column', [d]);
  }
  for (const type of ['red', 'black', 'odd', 'even', 'low', 'high'] as const) add(type, []);
  return bets;
}

describe('european roulette', () => {
  const bets = allBets();

  it('knows exactly the bets of the layout', () => {
    const count = (type: string) => bets.filter((bet) => bet.type === type).length;
    expect(count('straight')).toBe(37);
    expect(count('split')).toBe(60);
    expect(count('street')).toBe(12);
    expect(count('corner')).toBe(22);
    expect(count('line')).toBe(11);
    expect(count('trio')).toBe(2);
    expect(count('first_four')).toBe(1);
    expect(count('dozen')).toBe(3);
    expect(count('column')).toBe(3);
    expect(count('red') + count('black') + count('odd') + count('even') + count('low') + count('high')).toBe(
      6,
    );
  });

  it('has RTP exactly 36/37 for every bet (enumerating all 37 pockets)', () => {
    for (const bet of bets) {
      const ev = new ExactSum();
      for (let pocket = 0; pocket < ROULETTE_POCKETS; pocket++) {
        const [result] = settleRoulette([bet], pocket);
        ev.add(result!.multiplier, 1n, 37n);
      }
      expect(ev.equals(36n, 37n)).toBe(true);
      expect(Math.abs(ev.toNumber() - ROULETTE_RTP)).toBeLessThan(1e-9);
    }
    expect(ROULETTE_RTP).toBeGreaterThanOrEqual(0.96);
  });

  it('pays the standard odds', () => {
    expect(rouletteMultiplier({ type: 'straight', numbers: [17], stakeMinor: 1n })).toEqual({
      num: 36n,
      den: 1n,
    });
    expect(rouletteMultiplier({ type: 'split', numbers: [0, 2], stakeMinor: 1n })).toEqual({
      num: 18n,
      den: 1n,
    });
    expect(rouletteMultiplier({ type: 'corner', numbers: [5], stakeMinor: 1n })).toEqual({
      num: 9n,
      den: 1n,
    });
    expect(rouletteMultiplier({ type: 'red', numbers: [], stakeMinor: 1n })).toEqual({ num: 2n, den: 1n });
    // Trio (0-1-2, 0-2-3) pays 11:1 and the first four (0-1-2-3) 8:1; both win on zero.
    expect(coveredNumbers({ type: 'trio', numbers: [2], stakeMinor: 1n })).toEqual([0, 2, 3]);
    expect(rouletteMultiplier({ type: 'trio', numbers: [1], stakeMinor: 1n })).toEqual({ num: 12n, den: 1n });
    expect(rouletteMultiplier({ type: 'first_four', numbers: [], stakeMinor: 1n })).toEqual({
      num: 9n,
      den: 1n,
    });
    expect(settleRoulette([{ type: 'first_four', numbers: [], stakeMinor: 1n }], 0)[0]!.win).toBe(true);
    expect(coveredNumbers({ type: 'column', numbers: [2], stakeMinor: 1n })).toContain(35);
  });

  it('loses every outside bet on zero', () => {
    const outside = bets.filter(
      (bet) =>
        (bet.numbers.length === 0 && bet.type !== 'first_four') || ['dozen', 'column'].includes(bet.type),
    );
    expect(settleRoulette(outside, 0).every((result) => !result.win)).toBe(true);
  });

  it('refuses bets that are not on the layout', () => {
    expect(() => playRoulette([{ type: 'split', numbers: [3, 4], stakeMinor: 1n }], testFloats(0))).toThrow();
    expect(() => playRoulette([{ type: 'trio', numbers: [3], stakeMinor: 1n }], testFloats(0))).toThrow();
    expect(() =>
      playRoulette([{ type: 'first_four', numbers: [1], stakeMinor: 1n }], testFloats(0)),
    ).toThrow();
    expect(() =>
      playRoulette([{ type: 'straight', numbers: [37], stakeMinor: 1n }], testFloats(0)),
    ).toThrow();
    expect(() => playRoulette([], testFloats(0))).toThrow();
  });

  it('lands on every pocket equally often (chi-square 99%, 100,000 spins)', () => {
    const counts = new Array(ROULETTE_POCKETS).fill(0);
    for (let nonce = 0; nonce < 12_500; nonce++) {
      const next = testFloats(nonce, 'roulette');
      for (let i = 0; i < 8; i++) counts[spinRoulette(next)]++;
    }
    const result = chiSquareTest(counts, new Array(ROULETTE_POCKETS).fill(1 / ROULETTE_POCKETS));
    expect(result.statistic).toBeLessThan(result.critical);
  }, 30_000);
});
