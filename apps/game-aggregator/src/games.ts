import { randomInt } from 'node:crypto';

/**
 * The aggregator's games and their RNG. Outcomes are drawn on the aggregator with the operating
 * system's CSPRNG (crypto.randomInt, uniform without modulo bias) before the stake is taken, and
 * are shown to the player only after the operator accepted the bet. Payouts are integer centavos:
 * the slot pays whole line bets, baccarat floors its 1.95× to the centavo.
 */

export type TRandom = (maxExclusive: number) => number;
export const secureRandom: TRandom = (max) => randomInt(max);

// ---------------------------------------------------------------------------------------------
// Slot: 5 reels × 3 rows, 10 fixed paylines, line wins from the leftmost reel (3, 4 or 5 alike).

export const SLOT_REELS = 5;
export const SLOT_ROWS = 3;
/** Symbols, best first; the page draws each from the game's theme. */
export const SLOT_SYMBOLS = ['crown', 'diamond', 'seven', 'bell', 'star', 'clover', 'coin'] as const;
/** How often each symbol stands on a reel strip of 35 stops (the same strip on every reel). */
export const SLOT_SYMBOL_COUNTS = [2, 3, 4, 5, 6, 7, 8] as const;
/** Pays in line bets for 3, 4 and 5 alike (a line bet is a tenth of the total bet). */
export const SLOT_PAYS: readonly (readonly [number, number, number])[] = [
  [120, 600, 2500],
  [60, 250, 1200],
  [40, 150, 600],
  [25, 100, 400],
  [20, 60, 250],
  [17, 50, 150],
  [15, 40, 100],
];
/** Rows (0 top … 2 bottom) of each payline, reel by reel. */
export const SLOT_LINES: readonly (readonly number[])[] = [
  [1, 1, 1, 1, 1],
  [0, 0, 0, 0, 0],
  [2, 2, 2, 2, 2],
  [0, 1, 2, 1, 0],
  [2, 1, 0, 1, 2],
  [0, 0, 1, 2, 2],
  [2, 2, 1, 0, 0],
  [1, 0, 0, 0, 1],
  [1, 2, 2, 2, 1],
  [0, 1, 1, 1, 0],
];
export const SLOT_LINE_COUNT = SLOT_LINES.length;

/** The reel strip: symbol indexes, spread so equal symbols rarely stand next to each other. */
export const SLOT_STRIP: readonly number[] = (() => {
  const strip: number[] = [];
  const left = [...SLOT_SYMBOL_COUNTS] as number[];
  while (strip.length < 35) {
    for (let symbol = left.length - 1; symbol >= 0; symbol -= 1) {
      if ((left[symbol] ?? 0) > 0) {
        strip.push(symbol);
        left[symbol] = (left[symbol] ?? 0) - 1;
      }
    }
  }
  return strip;
})();

export interface TSlotLineWin {
  line: number;
  symbol: number;
  count: 3 | 4 | 5;
  /** In line bets. */
  pays: number;
}

export interface TSlotOutcome {
  /** grid[reel][row]: symbol indexes. */
  grid: number[][];
  wins: TSlotLineWin[];
  /** Sum of line pays, in line bets. */
  totalLinePays: number;
}

export function spinSlot(random: TRandom = secureRandom): TSlotOutcome {
  const grid: number[][] = [];
  for (let reel = 0; reel < SLOT_REELS; reel += 1) {
    const stop = random(SLOT_STRIP.length);
    const column: number[] = [];
    for (let row = 0; row < SLOT_ROWS; row += 1) column.push(SLOT_STRIP[(stop + row) % SLOT_STRIP.length]!);
    grid.push(column);
  }
  return evaluateSlot(grid);
}

export function evaluateSlot(grid: number[][]): TSlotOutcome {
  const wins: TSlotLineWin[] = [];
  SLOT_LINES.forEach((rows, line) => {
    const symbol = grid[0]![rows[0]!]!;
    let count = 1;
    while (count < SLOT_REELS && grid[count]![rows[count]!] === symbol) count += 1;
    if (count >= 3) {
      const pays = SLOT_PAYS[symbol]![count - 3]!;
      wins.push({ line, symbol, count: count as 3 | 4 | 5, pays });
    }
  });
  return { grid, wins, totalLinePays: wins.reduce((sum, win) => sum + win.pays, 0) };
}

/** A total bet must split into ten whole-centavo line bets. */
export function slotPayoutMinor(betMinor: bigint, outcome: TSlotOutcome): bigint {
  return (betMinor / BigInt(SLOT_LINE_COUNT)) * BigInt(outcome.totalLinePays);
}

// ---------------------------------------------------------------------------------------------
// Baccarat (punto banco), dealt from an infinite shoe: each card is a uniform rank.

export type TBaccaratSide = 'player' | 'banker' | 'tie';
export const BACCARAT_SIDES: readonly TBaccaratSide[] = ['player', 'banker', 'tie'];
/** Return per unit staked on a win, in hundredths: player 2×, banker 1.95× (5 % commission), tie 9×. */
export const BACCARAT_RETURN_HUNDREDTHS: Record<TBaccaratSide, bigint> = {
  player: 200n,
  banker: 195n,
  tie: 900n,
};
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'] as const;
export const SUITS = ['♠', '♥', '♦', '♣'] as const;

export interface TCard {
  rank: number;
  suit: number;
}

export interface TBaccaratOutcome {
  player: TCard[];
  banker: TCard[];
  playerPoints: number;
  bankerPoints: number;
  winner: TBaccaratSide;
}

export const cardPoints = (rank: number) => (rank >= 9 ? 0 : rank + 1);
const points = (cards: readonly TCard[]) => cards.reduce((sum, card) => sum + cardPoints(card.rank), 0) % 10;

/** Whether the banker draws, given its two-card total and the player's third card (null: none). */
export function bankerDraws(bankerTotal: number, playerThird: number | null): boolean {
  if (playerThird === null) return bankerTotal <= 5;
  if (bankerTotal <= 2) return true;
  if (bankerTotal === 3) return playerThird !== 8;
  if (bankerTotal === 4) return playerThird >= 2 && playerThird <= 7;
  if (bankerTotal === 5) return playerThird >= 4 && playerThird <= 7;
  if (bankerTotal === 6) return playerThird === 6 || playerThird === 7;
  return false;
}

/** Deals a coup from `draw` (a source of cards), by the standard third-card rules. */
export function dealBaccarat(draw: () => TCard): TBaccaratOutcome {
  const player = [draw(), draw()];
  const banker = [draw(), draw()];
  const natural = points(player) >= 8 || points(banker) >= 8;
  if (!natural) {
    let playerThird: number | null = null;
    if (points(player) <= 5) {
      const card = draw();
      player.push(card);
      playerThird = cardPoints(card.rank);
    }
    if (bankerDraws(points(banker), playerThird)) banker.push(draw());
  }
  const playerPoints = points(player);
  const bankerPoints = points(banker);
  const winner = playerPoints === bankerPoints ? 'tie' : playerPoints > bankerPoints ? 'player' : 'banker';
  return { player, banker, playerPoints, bankerPoints, winner };
}

export function playBaccarat(random: TRandom = secureRandom): TBaccaratOutcome {
  return dealBaccarat(() => ({ rank: random(RANKS.length), suit: random(SUITS.length) }));
}

/** What a bet on `side` returns: the win, the stake back on a tie for player/banker, else 0. */
export function baccaratPayoutMinor(
  betMinor: bigint,
  side: TBaccaratSide,
  outcome: TBaccaratOutcome,
): bigint {
  if (outcome.winner === side) return (betMinor * BACCARAT_RETURN_HUNDREDTHS[side]) / 100n;
  if (outcome.winner === 'tie') return betMinor;
  return 0n;
}

// ---------------------------------------------------------------------------------------------
// Which screen a catalogue category plays on.

export type TGameKind = 'slot' | 'table';
const TABLE_CATEGORIES = new Set(['live_casino', 'card']);
export const gameKindOf = (category: string): TGameKind =>
  TABLE_CATEGORIES.has(category) ? 'table' : 'slot';
