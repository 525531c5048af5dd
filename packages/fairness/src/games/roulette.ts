import { type BetLimits, type Multiplier, ratio, ZERO } from '../multiplier.ts';
import { FairnessInputError, type FloatSource, floatToInt } from '../seeds.ts';

/**
 * European roulette: one float → pocket floor(float × 37), 0–36. Every bet pays 36/n for the n numbers
 * it covers (straight 35:1 … even money 1:1), so every bet's RTP is 36/37 ≈ 97.297% (edge 2.70%).
 */
export const ROULETTE_POCKETS = 37;
export const ROULETTE_RTP = 36 / 37;
export const ROULETTE_LIMITS: BetLimits = {
  minBetMinor: 10n,
  maxBetMinor: 500_000n,
  maxWinMinor: 18_000_000n,
};
/** A spin carries at most this many separate bets. */
export const ROULETTE_MAX_BETS = 50;

export const RED_NUMBERS: ReadonlySet<number> = new Set([
  1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36,
]);

export type RouletteBetType =
  | 'straight'
  | 'split'
  | 'street'
  | 'corner'
  | 'line'
  | 'trio'
  | 'first_four'
  | 'dozen'
  | 'column'
  | 'red'
  | 'black'
  | 'odd'
  | 'even'
  | 'low'
  | 'high';

/**
 * `numbers` names the bet on the table layout: straight [n]; split [a, b] (adjacent, or 0 with 1/2/3);
 * street [first of the row: 1, 4, …, 34]; corner [top-left: n with n % 3 ≠ 0, n ≤ 32]; line [first of
 * the first row: 1, 4, …, 31]; trio [1: 0-1-2 | 2: 0-2-3]; first four [] (0-1-2-3); dozen [1|2|3];
 * column [1|2|3]; outside bets [].
 */
export interface RouletteBet {
  type: RouletteBetType;
  numbers: readonly number[];
  stakeMinor: bigint;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function invalid(): never {
  throw new FairnessInputError('INVALID_BET', 'That roulette bet does not exist on the table.');
}

function single(bet: RouletteBet, valid: (n: number) => boolean): number {
  const [n] = bet.numbers;
  if (bet.numbers.length !== 1 || n === undefined || !Number.isInteger(n) || !valid(n)) invalid();
  return n;
}

/** The pockets a bet covers, after checking that the bet exists on the layout. */
export function coveredNumbers(bet: RouletteBet): number[] {
  switch (bet.type) {
    case 'straight':
      return [single(bet, (n) => n >= 0 && n <= 36)];
    case 'split': {
      const [a, b] = [...bet.numbers].sort((x, y) => x - y);
      if (
        bet.numbers.length !== 2 ||
        a === undefined ||
        b === undefined ||
        !Number.isInteger(a) ||
        !Number.isInteger(b)
      ) {
        invalid();
      }
      const zeroSplit = a === 0 && b >= 1 && b <= 3;
      const sideBySide = a >= 1 && b === a + 1 && a % 3 !== 0 && b <= 36;
      const aboveBelow = a >= 1 && b === a + 3 && b <= 36;
      if (!zeroSplit && !sideBySide && !aboveBelow) invalid();
      return [a, b];
    }
    case 'street': {
      const n = single(bet, (x) => x >= 1 && x <= 34 && x % 3 === 1);
      return range(n, n + 2);
    }
    case 'corner': {
      const n = single(bet, (x) => x >= 1 && x <= 32 && x % 3 !== 0);
      return [n, n + 1, n + 3, n + 4];
    }
    case 'line': {
      const n = single(bet, (x) => x >= 1 && x <= 31 && x % 3 === 1);
      return range(n, n + 5);
    }
    case 'trio': {
      // Where the zero meets two numbers of the first row.
      const n = single(bet, (x) => x === 1 || x === 2);
      return [0, n, n + 1];
    }
    case 'first_four':
      if (bet.numbers.length !== 0) invalid();
      return [0, 1, 2, 3];
    case 'dozen': {
      const d = single(bet, (x) => x >= 1 && x <= 3);
      return range(12 * (d - 1) + 1, 12 * d);
    }
    case 'column': {
      const c = single(bet, (x) => x >= 1 && x <= 3);
      return range(1, 36).filter((n) => (n - c) % 3 === 0);
    }
    default: {
      if (bet.numbers.length !== 0) invalid();
      const outside: Record<string, (n: number) => boolean> = {
        red: (n) => RED_NUMBERS.has(n),
        black: (n) => !RED_NUMBERS.has(n),
        odd: (n) => n % 2 === 1,
        even: (n) => n % 2 === 0,
        low: (n) => n <= 18,
        high: (n) => n >= 19,
      };
      const test = outside[bet.type];
      if (!test) invalid();
      return range(1, 36).filter(test);
    }
  }
}

/** The total return multiplier when a bet wins (stake included): 36 / numbers covered. */
export function rouletteMultiplier(bet: RouletteBet): Multiplier {
  return ratio(36n, BigInt(coveredNumbers(bet).length));
}

export function spinRoulette(next: FloatSource): number {
  return floatToInt(next(), ROULETTE_POCKETS);
}

export interface RouletteBetResult {
  bet: RouletteBet;
  win: boolean;
  multiplier: Multiplier;
}

export function assertRouletteBets(bets: readonly RouletteBet[]): void {
  if (bets.length < 1 || bets.length > ROULETTE_MAX_BETS) {
    throw new FairnessInputError('INVALID_BET', `Place between 1 and ${ROULETTE_MAX_BETS} bets.`);
  }
  for (const bet of bets) coveredNumbers(bet);
}

export function settleRoulette(bets: readonly RouletteBet[], pocket: number): RouletteBetResult[] {
  assertRouletteBets(bets);
  return bets.map((bet) => {
    const win = coveredNumbers(bet).includes(pocket);
    return { bet, win, multiplier: win ? rouletteMultiplier(bet) : ZERO };
  });
}

export function playRoulette(bets: readonly RouletteBet[], next: FloatSource) {
  assertRouletteBets(bets);
  const pocket = spinRoulette(next);
  return { pocket, results: settleRoulette(bets, pocket) };
}
