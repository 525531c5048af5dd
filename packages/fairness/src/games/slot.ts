import { type BetLimits, type Multiplier, ratio } from '../multiplier.ts';
import { FairnessInputError, type FloatSource, floatToInt } from '../seeds.ts';

/**
 * "Fortuna" — a 5-reel, 3-row video slot with 20 fixed paylines, a wild and a scatter.
 *
 * - Each reel is a strip of 20 symbols; one float per reel picks the stop floor(float × 20), and the
 *   reel shows strip[stop], strip[stop + 1], strip[stop + 2] (wrapping) as rows 0–2.
 * - A line pays the longest run from the leftmost reel of one symbol, where the wild stands in for
 *   any symbol but the scatter; a run of wilds alone pays the wild line if that is worth more.
 *   Line pays are multiples of the line bet (stake / 20).
 * - Scatters pay anywhere on the screen, as multiples of the whole stake: 3 → 2×, 4 → 10×, 5 → 50×.
 *   Each strip has one scatter, so a reel shows at most one.
 *
 * RTP is exact: every line sees, on each reel, a symbol distributed as that strip's symbol counts,
 * independently across reels; so the line part is one line's expectation (enumerated over symbol
 * tuples), and the scatter part follows from P(scatter visible on reel i) = 3/20. The tests check this
 * figure against brute force over all 20⁵ = 3,200,000 reel stops.
 */
export const SLOT_SYMBOLS = [
  'wild',
  'scatter',
  'seven',
  'bar',
  'bell',
  'melon',
  'plum',
  'orange',
  'lemon',
] as const;
export type SlotSymbol = (typeof SLOT_SYMBOLS)[number];
export const SLOT_REELS = 5;
export const SLOT_ROWS = 3;
export const SLOT_STRIP_LENGTH = 20;
/** 310913 / 320000 = 97.1603125%. */
export const SLOT_RTP = 310_913 / 320_000;

export const SLOT_STRIPS: readonly (readonly SlotSymbol[])[] = [
  [
    'lemon',
    'seven',
    'orange',
    'plum',
    'bar',
    'lemon',
    'melon',
    'scatter',
    'orange',
    'bell',
    'lemon',
    'plum',
    'wild',
    'melon',
    'bar',
    'orange',
    'lemon',
    'plum',
    'bell',
    'melon',
  ],
  [
    'lemon',
    'wild',
    'orange',
    'plum',
    'bar',
    'melon',
    'lemon',
    'scatter',
    'orange',
    'bell',
    'plum',
    'melon',
    'wild',
    'seven',
    'lemon',
    'bar',
    'orange',
    'plum',
    'bell',
    'melon',
  ],
  [
    'scatter',
    'orange',
    'bell',
    'plum',
    'melon',
    'wild',
    'seven',
    'lemon',
    'bar',
    'orange',
    'plum',
    'bell',
    'melon',
    'lemon',
    'wild',
    'orange',
    'plum',
    'bar',
    'melon',
    'lemon',
  ],
  [
    'seven',
    'lemon',
    'bar',
    'orange',
    'plum',
    'bell',
    'melon',
    'lemon',
    'wild',
    'orange',
    'plum',
    'bar',
    'melon',
    'lemon',
    'scatter',
    'orange',
    'bell',
    'plum',
    'melon',
    'wild',
  ],
  [
    'lemon',
    'plum',
    'wild',
    'melon',
    'bar',
    'orange',
    'lemon',
    'plum',
    'bell',
    'melon',
    'lemon',
    'seven',
    'orange',
    'plum',
    'bar',
    'lemon',
    'melon',
    'scatter',
    'orange',
    'bell',
  ],
];

/** The row (0 top … 2 bottom) a payline crosses on each reel. */
export const SLOT_PAYLINES: readonly (readonly number[])[] = [
  [1, 1, 1, 1, 1],
  [0, 0, 0, 0, 0],
  [2, 2, 2, 2, 2],
  [0, 1, 2, 1, 0],
  [2, 1, 0, 1, 2],
  [1, 0, 0, 0, 1],
  [1, 2, 2, 2, 1],
  [0, 0, 1, 2, 2],
  [2, 2, 1, 0, 0],
  [1, 2, 1, 0, 1],
  [1, 0, 1, 2, 1],
  [0, 1, 1, 1, 0],
  [2, 1, 1, 1, 2],
  [0, 1, 0, 1, 0],
  [2, 1, 2, 1, 2],
  [1, 1, 0, 1, 1],
  [1, 1, 2, 1, 1],
  [0, 0, 2, 0, 0],
  [2, 2, 0, 2, 2],
  [0, 2, 2, 2, 0],
];

/** Line pays for 3, 4 and 5 of a kind, in multiples of the line bet. */
export const SLOT_LINE_PAYS: Readonly<
  Record<Exclude<SlotSymbol, 'scatter'>, readonly [number, number, number]>
> = {
  wild: [50, 200, 1000],
  seven: [25, 100, 500],
  bar: [20, 80, 300],
  bell: [12, 40, 150],
  melon: [8, 25, 100],
  plum: [4, 15, 60],
  orange: [3, 12, 40],
  lemon: [2, 8, 30],
};

/** Scatter pays by count anywhere, in multiples of the whole stake. */
export const SLOT_SCATTER_PAYS: Readonly<Record<number, number>> = { 3: 2, 4: 10, 5: 50 };

/**
 * The largest total multiplier any spin can produce (found by the exhaustive test). At the max bet the
 * max-win cap is above stake × this, so the cap never lowers the RTP.
 */
export const SLOT_MAX_MULTIPLIER = 140.8;
export const SLOT_LIMITS: BetLimits = { minBetMinor: 20n, maxBetMinor: 50_000n, maxWinMinor: 100_000_000n };

const WILD = 0;
const SCATTER = 1;
const SYMBOL_INDEX = new Map<SlotSymbol, number>(SLOT_SYMBOLS.map((symbol, i) => [symbol, i]));
/** Pays by symbol index for run lengths 0–5 (0 for runs under 3), so evaluation is table lookups. */
const PAY_BY_INDEX: number[][] = SLOT_SYMBOLS.map((symbol) =>
  symbol === 'scatter' ? [0, 0, 0, 0, 0, 0] : [0, 0, 0, ...SLOT_LINE_PAYS[symbol]],
);
/** Strips as symbol indexes, doubled so a window never needs a modulo. */
const STRIP_INDEXES: number[][] = SLOT_STRIPS.map((strip) => {
  const indexes = strip.map((symbol) => SYMBOL_INDEX.get(symbol)!);
  return [...indexes, ...indexes];
});

/** The pay of one line (line-bet multiples) given its five symbol indexes. */
export function linePay(s0: number, s1: number, s2: number, s3: number, s4: number): number {
  const line = [s0, s1, s2, s3, s4];
  let wilds = 0;
  while (wilds < 5 && line[wilds] === WILD) wilds++;
  const wildPay = PAY_BY_INDEX[WILD]![wilds]!;
  if (wilds === 5) return wildPay;
  const symbol = line[wilds]!;
  if (symbol === SCATTER) return wildPay;
  let run = wilds;
  while (run < 5 && (line[run] === symbol || line[run] === WILD)) run++;
  const symbolPay = PAY_BY_INDEX[symbol]![run]!;
  return symbolPay > wildPay ? symbolPay : wildPay;
}

/**
 * Total pay of a screen in units of the line bet: the sum of all line pays plus the scatter pay × 20.
 * `grid[reel * 3 + row]` holds symbol indexes. Allocation-free apart from linePay's small array.
 */
export function gridPayInLineBets(grid: ArrayLike<number>): number {
  let total = 0;
  for (const rows of SLOT_PAYLINES) {
    total += linePay(
      grid[rows[0]!]!,
      grid[3 + rows[1]!]!,
      grid[6 + rows[2]!]!,
      grid[9 + rows[3]!]!,
      grid[12 + rows[4]!]!,
    );
  }
  let scatters = 0;
  for (let i = 0; i < 15; i++) if (grid[i] === SCATTER) scatters++;
  return total + (SLOT_SCATTER_PAYS[scatters] ?? 0) * SLOT_PAYLINES.length;
}

/** Fills `grid` with the screen for the given stops. */
export function fillGrid(stops: readonly number[], grid: number[] | Uint8Array): void {
  for (let reel = 0; reel < SLOT_REELS; reel++) {
    const strip = STRIP_INDEXES[reel]!;
    for (let row = 0; row < SLOT_ROWS; row++) grid[reel * 3 + row] = strip[stops[reel]! + row]!;
  }
}

export interface SlotLineWin {
  /** 0-based payline number. */
  line: number;
  symbol: SlotSymbol;
  count: number;
  /** Multiples of the line bet. */
  pay: number;
}

export interface SlotResult {
  stops: number[];
  /** screen[row][reel]. */
  screen: SlotSymbol[][];
  lineWins: SlotLineWin[];
  scatterCount: number;
  /** Multiples of the whole stake. */
  scatterPay: number;
  multiplier: Multiplier;
}

function describeLine(symbols: number[]): { symbol: number; count: number } {
  let wilds = 0;
  while (wilds < 5 && symbols[wilds] === WILD) wilds++;
  const wildPay = PAY_BY_INDEX[WILD]![wilds]!;
  if (wilds === 5 || symbols[wilds] === SCATTER) return { symbol: WILD, count: wilds };
  const symbol = symbols[wilds]!;
  let run = wilds;
  while (run < 5 && (symbols[run] === symbol || symbols[run] === WILD)) run++;
  return PAY_BY_INDEX[symbol]![run]! >= wildPay ? { symbol, count: run } : { symbol: WILD, count: wilds };
}

export function spinSlot(next: FloatSource): SlotResult {
  const stops = Array.from({ length: SLOT_REELS }, () => floatToInt(next(), SLOT_STRIP_LENGTH));
  return settleSlot(stops);
}

/** The full result of given stops: the screen, each winning line and the total multiplier. */
export function settleSlot(stops: readonly number[]): SlotResult {
  if (
    stops.length !== SLOT_REELS ||
    stops.some((s) => !Number.isInteger(s) || s < 0 || s >= SLOT_STRIP_LENGTH)
  ) {
    throw new FairnessInputError('INVALID_BET', 'Five reel stops from 0 to 19 are needed.');
  }
  const grid = new Array<number>(15);
  fillGrid(stops, grid);
  const lineWins: SlotLineWin[] = [];
  SLOT_PAYLINES.forEach((rows, line) => {
    const symbols = rows.map((row, reel) => grid[reel * 3 + row]!);
    const pay = linePay(symbols[0]!, symbols[1]!, symbols[2]!, symbols[3]!, symbols[4]!);
    if (pay > 0) {
      const { symbol, count } = describeLine(symbols);
      lineWins.push({ line, symbol: SLOT_SYMBOLS[symbol]!, count, pay });
    }
  });
  const scatterCount = grid.filter((symbol) => symbol === SCATTER).length;
  const scatterPay = SLOT_SCATTER_PAYS[scatterCount] ?? 0;
  const screen = Array.from({ length: SLOT_ROWS }, (_, row) =>
    Array.from({ length: SLOT_REELS }, (_, reel) => SLOT_SYMBOLS[grid[reel * 3 + row]!]!),
  );
  return {
    stops: [...stops],
    screen,
    lineWins,
    scatterCount,
    scatterPay,
    multiplier: ratio(BigInt(gridPayInLineBets(grid)), BigInt(SLOT_PAYLINES.length)),
  };
}
