import { describe, expect, it } from 'vitest';
import { chiSquareTest } from '../chi-square.ts';
import { type Multiplier, multiply, ratio } from '../multiplier.ts';
import { ExactSum, fixedFloats, testFloats } from '../test-support.ts';
import {
  drawCard,
  HILO_RTP,
  type HiloCall,
  hiloCashOutMultiplier,
  hiloStepMultiplier,
  playHilo,
} from './hilo.ts';

/** A float that draws the card of `rank` (1–13) in suit 0. */
const cardFloat = (rank: number) => (rank - 1 + 0.5) / 52;

type Strategy = (rank: number, step: number) => HiloCall | 'cashout';

/**
 * The exact expected return of a strategy, enumerating every sequence of ranks (each 1/13) up to
 * `depth` calls. Independent of playHilo: it applies the rules from the game's description.
 */
function exactReturn(strategy: Strategy, depth: number): ExactSum {
  const ev = new ExactSum();
  const walk = (
    rank: number,
    step: number,
    fair: Multiplier,
    called: boolean,
    pNum: bigint,
    pDen: bigint,
  ) => {
    const action = step >= depth ? 'cashout' : strategy(rank, step);
    if (action === 'cashout') {
      ev.add(called ? multiply({ num: 99n, den: 100n }, fair) : { num: 1n, den: 1n }, pNum, pDen);
      return;
    }
    for (let nextRank = 1; nextRank <= 13; nextRank++) {
      const correct = action === 'skip' || (action === 'higher' ? nextRank >= rank : nextRank <= rank);
      if (!correct) continue;
      const nextFair =
        action === 'skip' ? fair : multiply(fair, ratio(13n, BigInt(action === 'higher' ? 14 - rank : rank)));
      walk(nextRank, step + 1, nextFair, called || action !== 'skip', pNum, pDen * 13n);
    }
  };
  for (let start = 1; start <= 13; start++) walk(start, 0, { num: 1n, den: 1n }, false, 1n, 13n);
  return ev;
}

describe('hi-lo', () => {
  const likelier: Strategy = (rank) => (rank <= 7 ? 'higher' : 'lower');
  const longShot: Strategy = (rank) => (rank <= 7 ? 'lower' : 'higher');
  const mixed: Strategy = (rank, step) =>
    step === 1 && rank === 7 ? 'skip' : step === 2 && rank > 10 ? 'cashout' : likelier(rank, step);

  it('has RTP exactly 99% for any strategy (enumerating every card sequence)', () => {
    for (const strategy of [likelier, longShot, mixed]) {
      for (const depth of [1, 2, 3, 4]) {
        const ev = exactReturn(strategy, depth);
        expect(ev.equals(99n, 100n)).toBe(true);
        expect(Math.abs(ev.toNumber() - HILO_RTP)).toBeLessThan(1e-9);
      }
    }
  });

  it('replays the rules the enumeration assumes', () => {
    const round = playHilo(
      ['higher', 'lower', 'skip'],
      fixedFloats([cardFloat(5), cardFloat(9), cardFloat(9), cardFloat(2)]),
    );
    expect(round.lost).toBe(false);
    expect(round.canCashOut).toBe(true);
    expect(round.steps.map((step) => step.card.rank)).toEqual([9, 9, 2]);
    const fair = multiply(hiloStepMultiplier(5, 'higher'), hiloStepMultiplier(9, 'lower'));
    expect(round.multiplier).toEqual(hiloCashOutMultiplier(fair));
    const lost = playHilo(['higher'], fixedFloats([cardFloat(5), cardFloat(4)]));
    expect(lost.lost).toBe(true);
    expect(lost.multiplier.num).toBe(0n);
  });

  it('does not let a player cash out on skips alone', () => {
    const round = playHilo(['skip'], fixedFloats([cardFloat(5), cardFloat(4)]));
    expect(round.canCashOut).toBe(false);
  });

  it('draws all 13 ranks and 4 suits equally often (chi-square 99%, 100,000 cards)', () => {
    const ranks = new Array(13).fill(0);
    const suits = new Array(4).fill(0);
    for (let nonce = 0; nonce < 12_500; nonce++) {
      const next = testFloats(nonce, 'hilo');
      for (let i = 0; i < 8; i++) {
        const card = drawCard(next);
        ranks[card.rank - 1]++;
        suits[card.suit]++;
      }
    }
    const rankResult = chiSquareTest(ranks, new Array(13).fill(1 / 13));
    expect(rankResult.statistic).toBeLessThan(rankResult.critical);
    const suitResult = chiSquareTest(suits, new Array(4).fill(1 / 4));
    expect(suitResult.statistic).toBeLessThan(suitResult.critical);
  }, 30_000);
});
