import { describe, expect, it } from 'vitest';
import {
  BACCARAT_RETURN_HUNDREDTHS,
  baccaratPayoutMinor,
  bankerDraws,
  cardPoints,
  dealBaccarat,
  evaluateSlot,
  gameKindOf,
  RANKS,
  SLOT_LINES,
  SLOT_PAYS,
  SLOT_STRIP,
  SLOT_SYMBOL_COUNTS,
  SLOT_SYMBOLS,
  slotPayoutMinor,
  spinSlot,
  type TCard,
} from './games.ts';
import { slotRtp, slotRtpFraction, TABLE_RTP } from './rtp.ts';

describe('slot', () => {
  it('has a 35-stop strip with the stated symbol counts', () => {
    expect(SLOT_STRIP).toHaveLength(35);
    SLOT_SYMBOL_COUNTS.forEach((count, symbol) => {
      expect(SLOT_STRIP.filter((s) => s === symbol)).toHaveLength(count);
    });
    expect(SLOT_PAYS).toHaveLength(SLOT_SYMBOLS.length);
  });

  it('pays a line from the leftmost reel only, 3 to 5 alike, and adds the lines', () => {
    // Middle row: crown crown crown seven crown → 3 crowns on line 0; nothing else lines up.
    const grid = [
      [6, 0, 5],
      [5, 0, 6],
      [6, 0, 4],
      [4, 2, 4],
      [3, 0, 3],
    ];
    const outcome = evaluateSlot(grid);
    expect(outcome.wins).toEqual([{ line: 0, symbol: 0, count: 3, pays: 120 }]);
    expect(slotPayoutMinor(1_000n, outcome)).toBe(12_000n);
    // Five alike on every row: all ten lines pay the five-of-a-kind.
    const full = evaluateSlot(Array.from({ length: 5 }, () => [6, 6, 6]));
    expect(full.wins).toHaveLength(SLOT_LINES.length);
    expect(full.totalLinePays).toBe(10 * SLOT_PAYS[6]![2]);
    // Two alike do not pay; a match that does not start at reel 1 does not pay.
    expect(
      evaluateSlot([
        [1, 1, 1],
        [1, 1, 1],
        [2, 2, 2],
        [1, 1, 1],
        [1, 1, 1],
      ]).wins,
    ).toEqual([]);
  });

  it('returns the documented RTP exactly (every symbol tuple through the line evaluator)', () => {
    // Independent of the closed form in rtp.ts: weigh every tuple of reel symbols by its
    // probability and let evaluateSlot price a grid whose rows all show that tuple.
    const length = BigInt(SLOT_STRIP.length);
    let numerator = 0n;
    const symbols = SLOT_SYMBOL_COUNTS.length;
    const tuple = [0, 0, 0, 0, 0];
    const walk = (reel: number, weight: bigint) => {
      if (reel === 5) {
        const outcome = evaluateSlot(tuple.map((s) => [s, s, s]));
        numerator += weight * BigInt(outcome.totalLinePays);
        return;
      }
      for (let s = 0; s < symbols; s += 1) {
        tuple[reel] = s;
        walk(reel + 1, weight * BigInt(SLOT_SYMBOL_COUNTS[s]!));
      }
    };
    walk(0, 1n);
    // Ten identical lines pay ten line bets per tuple: divide by 10 for the return per total bet.
    const exact = slotRtpFraction();
    expect(numerator * exact.denominator).toBe(exact.numerator * length ** 5n * 10n);
    expect(slotRtp()).toBeCloseTo(95.935, 2);
    expect(slotRtp()).toBeGreaterThan(95);
    expect(slotRtp()).toBeLessThan(97);
  });

  it('draws uniform reel stops (chi-square on the first reel, 99.99 %)', () => {
    // The real CSPRNG, so the check is statistical: at 99 % it failed one run in a hundred by
    // design; at 99.99 % with 100,000 spins it keeps its power against a biased draw.
    const spins = 100_000;
    const counts = new Array(SLOT_SYMBOL_COUNTS.length).fill(0);
    for (let i = 0; i < spins; i += 1) counts[spinSlot().grid[0]![0]!] += 1;
    const chi = counts.reduce((sum, observed, symbol) => {
      const expected = (spins * SLOT_SYMBOL_COUNTS[symbol]!) / SLOT_STRIP.length;
      return sum + (observed - expected) ** 2 / expected;
    }, 0);
    // 6 degrees of freedom: the 99.99 % critical value is 27.86.
    expect(chi).toBeLessThan(27.86);
  });
});

describe('baccarat', () => {
  it('follows the third-card rules', () => {
    expect(bankerDraws(5, null)).toBe(true);
    expect(bankerDraws(6, null)).toBe(false);
    expect(bankerDraws(3, 8)).toBe(false);
    expect(bankerDraws(3, 9)).toBe(true);
    expect(bankerDraws(4, 1)).toBe(false);
    expect(bankerDraws(4, 2)).toBe(true);
    expect(bankerDraws(6, 6)).toBe(true);
    expect(bankerDraws(6, 5)).toBe(false);
    expect(bankerDraws(7, 6)).toBe(false);
    const cards = (ranks: number[]) => {
      const queue = ranks.map((rank): TCard => ({ rank, suit: 0 }));
      return () => queue.shift()!;
    };
    // Player 9+K = 9, a natural: nobody draws.
    const natural = dealBaccarat(cards([8, 12, 4, 0]));
    expect(natural).toMatchObject({ playerPoints: 9, bankerPoints: 6, winner: 'player' });
    expect(natural.banker).toHaveLength(2);
    // Player 2+3 = 5 draws a 4 → 9; banker 3+3 = 6 stands on a player third of 4.
    const drawn = dealBaccarat(cards([1, 2, 2, 2, 3]));
    expect(drawn.player).toHaveLength(3);
    expect(drawn.banker).toHaveLength(2);
    expect(drawn).toMatchObject({ playerPoints: 9, bankerPoints: 6, winner: 'player' });
  });

  it('pays 2×, 1.95× and 9×, returns the stake on a tie, floors to the centavo', () => {
    const outcome = (winner: 'player' | 'banker' | 'tie') => ({
      player: [],
      banker: [],
      playerPoints: 0,
      bankerPoints: 0,
      winner,
    });
    expect(baccaratPayoutMinor(1_000n, 'player', outcome('player'))).toBe(2_000n);
    expect(baccaratPayoutMinor(30n, 'banker', outcome('banker'))).toBe(58n);
    expect(baccaratPayoutMinor(1_000n, 'tie', outcome('tie'))).toBe(9_000n);
    expect(baccaratPayoutMinor(1_000n, 'banker', outcome('tie'))).toBe(1_000n);
    expect(baccaratPayoutMinor(1_000n, 'player', outcome('banker'))).toBe(0n);
    expect(BACCARAT_RETURN_HUNDREDTHS.banker).toBe(195n);
  });

  it('returns the documented RTP per bet (every coup of an infinite shoe enumerated)', () => {
    const wins = { player: 0, banker: 0, tie: 0 };
    const total = RANKS.length ** 6;
    const ranks = [0, 0, 0, 0, 0, 0];
    // Six cards at most are dealt; a coup using fewer is counted once per unused tail, which
    // weighs it by its true probability.
    for (let code = 0; code < total; code += 1) {
      let rest = code;
      for (let i = 0; i < 6; i += 1) {
        ranks[i] = rest % 13;
        rest = Math.floor(rest / 13);
      }
      let next = 0;
      wins[dealBaccarat(() => ({ rank: ranks[next++]!, suit: 0 })).winner] += 1;
    }
    const p = (n: number) => n / total;
    expect((2 * p(wins.player) + p(wins.tie)) * 100).toBeCloseTo(TABLE_RTP.player, 1);
    expect((1.95 * p(wins.banker) + p(wins.tie)) * 100).toBeCloseTo(TABLE_RTP.banker, 1);
    expect(9 * p(wins.tie) * 100).toBeCloseTo(TABLE_RTP.tie, 1);
    expect(cardPoints(9)).toBe(0);
  });
});

it('plays card and live titles at the table and everything else on the slot', () => {
  expect(gameKindOf('card')).toBe('table');
  expect(gameKindOf('live_casino')).toBe('table');
  for (const category of ['slots', 'fish', 'arcade', 'crash', 'bingo', 'lottery', 'sports', 'video_game']) {
    expect(gameKindOf(category)).toBe('slot');
  }
});
