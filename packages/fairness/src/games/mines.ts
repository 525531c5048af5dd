import { type BetLimits, type Multiplier, ratio } from '../multiplier.ts';
import { FairnessInputError, type FloatSource, sampleWithoutReplacement } from '../seeds.ts';

/**
 * Mines: a 5×5 grid (tiles 0–24, row-major) hides m mines (1–24), placed by the first m steps of a
 * Fisher–Yates shuffle driven by the bet's floats. After k safe picks the cash-out multiplier is
 *   0.99 · C(25, k) / C(25 − m, k),
 * the inverse of the chance of k safe picks, less a 1% edge. Whatever the player does (any m, any
 * stopping rule, any tiles), the expected return is 99%.
 */
export const MINES_TILES = 25;
export const MINES_MIN = 1;
export const MINES_MAX = 24;
export const MINES_HOUSE_EDGE = 0.01;
export const MINES_RTP = 0.99;
/** From R$ 0,12, the smallest stake any mine count pays fairly (24 mines, multiples of R$ 0,04). */
export const MINES_LIMITS: BetLimits = { minBetMinor: 12n, maxBetMinor: 500_000n, maxWinMinor: 50_000_000n };

export function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 0; i < Math.min(k, n - k); i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

export function assertMineCount(mines: number): void {
  if (!Number.isInteger(mines) || mines < MINES_MIN || mines > MINES_MAX) {
    throw new FairnessInputError('INVALID_BET', 'Choose between 1 and 24 mines.');
  }
}

/** The cash-out multiplier after `safePicks` safe tiles with `mines` mines on the board. */
export function minesMultiplier(mines: number, safePicks: number): Multiplier {
  assertMineCount(mines);
  if (!Number.isInteger(safePicks) || safePicks < 0 || safePicks > MINES_TILES - mines) {
    throw new FairnessInputError('INVALID_BET', 'That many safe picks are impossible.');
  }
  if (safePicks === 0) return ratio(1n, 1n);
  return ratio(99n * binomial(MINES_TILES, safePicks), 100n * binomial(MINES_TILES - mines, safePicks));
}

/** The mine tiles, in the order they were drawn (sorted copies are for display). */
export function placeMines(mines: number, next: FloatSource): number[] {
  assertMineCount(mines);
  return sampleWithoutReplacement(next, MINES_TILES, mines);
}

export interface MinesRound {
  mines: number[];
  /** The tiles the player opened, in order, up to and including a mine if one was hit. */
  picks: number[];
  hitMine: boolean;
  multiplier: Multiplier;
}

/** Settles a finished round: the picks a player made (or the auto-pick list) against the mines. */
export function settleMines(mineTiles: readonly number[], picks: readonly number[]): MinesRound {
  if (picks.length === 0) {
    throw new FairnessInputError('INVALID_BET', 'Open at least one tile before cashing out.');
  }
  const mineSet = new Set(mineTiles);
  const seen = new Set<number>();
  const opened: number[] = [];
  for (const tile of picks) {
    if (!Number.isInteger(tile) || tile < 0 || tile >= MINES_TILES || seen.has(tile)) {
      throw new FairnessInputError('INVALID_BET', 'Each pick must be a different tile 0–24.');
    }
    seen.add(tile);
    opened.push(tile);
    if (mineSet.has(tile)) {
      return { mines: [...mineTiles], picks: opened, hitMine: true, multiplier: { num: 0n, den: 1n } };
    }
  }
  return {
    mines: [...mineTiles],
    picks: opened,
    hitMine: false,
    multiplier: minesMultiplier(mineTiles.length, opened.length),
  };
}
