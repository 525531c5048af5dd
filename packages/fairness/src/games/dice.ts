import { type BetLimits, type Multiplier, ratio, ZERO } from '../multiplier.ts';
import { FairnessInputError, type FloatSource, floatToInt } from '../seeds.ts';

/**
 * Dice: one float → roll = floor(float × 10000), shown as 0.00–99.99 (all 10,000 values equally likely).
 * "under t" wins when roll < t, "over t" wins when roll > t (t in hundredths). With w winning rolls the
 * chance is w/10000 and the multiplier is (100 − 1)/chance = 9900/w, so RTP = 99% exactly for every bet.
 */
export const DICE_HOUSE_EDGE = 0.01;
export const DICE_RTP = 0.99;
export const DICE_OUTCOMES = 10_000;
/** Win chance between 1.00% and 98.00%. */
export const DICE_MIN_WINNING_ROLLS = 100;
export const DICE_MAX_WINNING_ROLLS = 9_800;
export const DICE_LIMITS: BetLimits = { minBetMinor: 10n, maxBetMinor: 500_000n, maxWinMinor: 50_000_000n };

export type DiceDirection = 'under' | 'over';
export interface DiceBet {
  direction: DiceDirection;
  /** Target in hundredths: 5000 means 50.00. */
  target: number;
}

export function diceWinningRolls(bet: DiceBet): number {
  return bet.direction === 'under' ? bet.target : DICE_OUTCOMES - 1 - bet.target;
}

export function assertDiceBet(bet: DiceBet): void {
  const wins = Number.isInteger(bet.target) ? diceWinningRolls(bet) : Number.NaN;
  if (
    (bet.direction !== 'under' && bet.direction !== 'over') ||
    !(wins >= DICE_MIN_WINNING_ROLLS && wins <= DICE_MAX_WINNING_ROLLS)
  ) {
    throw new FairnessInputError('INVALID_BET', 'The dice target must give a win chance from 1% to 98%.');
  }
}

export function diceMultiplier(bet: DiceBet): Multiplier {
  assertDiceBet(bet);
  return ratio(9_900n, BigInt(diceWinningRolls(bet)));
}

/** The roll in hundredths (0–9999). */
export function rollDice(next: FloatSource): number {
  return floatToInt(next(), DICE_OUTCOMES);
}

export function isDiceWin(bet: DiceBet, roll: number): boolean {
  return bet.direction === 'under' ? roll < bet.target : roll > bet.target;
}

export interface DiceResult {
  roll: number;
  win: boolean;
  multiplier: Multiplier;
}

export function playDice(bet: DiceBet, next: FloatSource): DiceResult {
  const multiplier = diceMultiplier(bet);
  const roll = rollDice(next);
  const win = isDiceWin(bet, roll);
  return { roll, win, multiplier: win ? multiplier : ZERO };
}
