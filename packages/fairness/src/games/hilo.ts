import { type BetLimits, type Multiplier, multiply, ratio } from '../multiplier.ts';
import { FairnessInputError, type FloatSource, floatToInt } from '../seeds.ts';

/**
 * Hi-Lo: cards come from an infinite shoe (each card independent): card = floor(float × 52),
 * rank = card % 13 + 1 (1 = ace, low; 13 = king, high), suit = floor(card / 13).
 *
 * From a card of rank r the player calls "higher or same" (chance (14 − r)/13) or "lower or same"
 * (chance r/13), or skips the card. A correct call multiplies the running multiplier by 1/chance; the
 * 1% edge is applied once, at cash-out: payout = 0.99 × Π(1/chanceᵢ). The running product is a fair
 * martingale, so every strategy (calls, skips, when to cash out) has RTP exactly 99%.
 */
export const HILO_HOUSE_EDGE = 0.01;
export const HILO_RTP = 0.99;
export const HILO_RANKS = 13;
export const HILO_MAX_STEPS = 100;
/**
 * From R$ 9,10: below it some cash-out (a call that cannot lose at R$ 0,10 pays R$ 0,09) would pay
 * less than 99 % − 0.1 pp in whole centavos (stake-rules.ts).
 */
export const HILO_LIMITS: BetLimits = { minBetMinor: 910n, maxBetMinor: 500_000n, maxWinMinor: 50_000_000n };

export type HiloCall = 'higher' | 'lower' | 'skip';

export interface Card {
  /** 0–51. */
  index: number;
  /** 1 (ace) – 13 (king). */
  rank: number;
  /** 0 ♠, 1 ♥, 2 ♦, 3 ♣. */
  suit: number;
}

export function drawCard(next: FloatSource): Card {
  const index = floatToInt(next(), 52);
  return { index, rank: (index % 13) + 1, suit: Math.floor(index / 13) };
}

/** Winning ranks out of 13 for a call from rank r. */
export function hiloWinningRanks(rank: number, call: 'higher' | 'lower'): number {
  return call === 'higher' ? HILO_RANKS + 1 - rank : rank;
}

export function isHiloCorrect(from: number, to: number, call: 'higher' | 'lower'): boolean {
  return call === 'higher' ? to >= from : to <= from;
}

/** The fair step factor 13 / winning ranks of a call. */
export function hiloStepMultiplier(rank: number, call: 'higher' | 'lower'): Multiplier {
  return ratio(13n, BigInt(hiloWinningRanks(rank, call)));
}

const EDGE: Multiplier = { num: 99n, den: 100n };

/** The payout multiplier for cashing out after correct calls with the given fair product. */
export function hiloCashOutMultiplier(fairProduct: Multiplier): Multiplier {
  return multiply(EDGE, fairProduct);
}

export interface HiloStep {
  call: HiloCall;
  from: Card;
  card: Card;
  correct: boolean;
}

export interface HiloRound {
  start: Card;
  steps: HiloStep[];
  lost: boolean;
  /** Cash-out needs at least one correct higher/lower call (skips alone only move to a new card). */
  canCashOut: boolean;
  /** The payout multiplier if the round is cashed out now (0 once lost). */
  multiplier: Multiplier;
}

/**
 * Replays a round: the first float is the start card, each call draws the next card. Used by the
 * server step by step (pass the calls so far) and by the verifier (all calls).
 */
export function playHilo(calls: readonly HiloCall[], next: FloatSource): HiloRound {
  if (calls.length > HILO_MAX_STEPS) throw new FairnessInputError('INVALID_BET', 'Too many Hi-Lo steps.');
  const start = drawCard(next);
  let current = start;
  let fair: Multiplier = { num: 1n, den: 1n };
  const steps: HiloStep[] = [];
  for (const call of calls) {
    if (call !== 'higher' && call !== 'lower' && call !== 'skip') {
      throw new FairnessInputError('INVALID_BET', 'A Hi-Lo call is higher, lower or skip.');
    }
    const card = drawCard(next);
    const correct = call === 'skip' || isHiloCorrect(current.rank, card.rank, call);
    steps.push({ call, from: current, card, correct });
    if (!correct) return { start, steps, lost: true, canCashOut: false, multiplier: { num: 0n, den: 1n } };
    if (call !== 'skip') fair = multiply(fair, hiloStepMultiplier(current.rank, call));
    current = card;
  }
  const anyCall = steps.some((step) => step.call !== 'skip');
  return { start, steps, lost: false, canCashOut: anyCall, multiplier: hiloCashOutMultiplier(fair) };
}
