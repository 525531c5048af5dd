import {
  BINGO_RTP,
  bingoTheoreticalRtp,
  binomial,
  crashWinProbability,
  HILO_RANKS,
  hiloWinningRanks,
  KENO_DRAWN,
  KENO_NUMBERS,
  KENO_PAYTABLES,
  limboWinProbability,
  type Multiplier,
  minesMultiplier,
  multiply,
  ratio,
  SLOT_REELS,
  SLOT_RTP,
  SLOT_STRIP_LENGTH,
  settleSlot,
} from '@sorte/fairness';

/**
 * Exact expected returns by enumerating each game's outcome space with exact fractions, to compare
 * with the figure the game declares. These are the lab's "paytable checked by enumeration" figures:
 * no simulation, no floating point until the final display.
 */

export const ONE: Multiplier = { num: 1n, den: 1n };

export function add(a: Multiplier, b: Multiplier): Multiplier {
  return ratio(a.num * b.den + b.num * a.den, a.den * b.den);
}

/** A fraction as a double with full precision (the fraction may have 60-digit terms). */
export function toDouble(m: Multiplier): number {
  return Number((m.num * 10n ** 18n) / m.den) / 1e18;
}

/** Limbo and crash: P(result ≥ target) × target, with P an exact fraction of 2⁵² or 2⁶⁴. */
export function thresholdRtp(game: 'limbo' | 'crash', targetHundredths: number): Multiplier {
  const p = game === 'limbo' ? limboWinProbability(targetHundredths) : crashWinProbability(targetHundredths);
  return ratio(p.num * BigInt(targetHundredths), p.den * 100n);
}

/** Dice: all 10,000 rolls; w winning rolls each paying 9900/w hundredths-of-a-roll. */
export function diceRtp(winningRolls: number): Multiplier {
  return ratio(BigInt(winningRolls) * 9_900n, BigInt(winningRolls) * 10_000n);
}

/** Mines, cashing out after k safe picks: P(k safe) × multiplier(k). */
export function minesRtp(mines: number, picks: number): Multiplier {
  const pSafe = ratio(binomial(25 - mines, picks), binomial(25, picks));
  return multiply(pSafe, minesMultiplier(mines, picks));
}

/** Mines: the best cash-out point over every k (every stopping rule is a mix of these). */
export function minesBestRtp(mines: number): { picks: number; rtp: Multiplier } {
  let best = { picks: 1, rtp: minesRtp(mines, 1) };
  for (let k = 2; k <= 25 - mines; k++) {
    const rtp = minesRtp(mines, k);
    if (rtp.num * best.rtp.den > best.rtp.num * rtp.den) best = { picks: k, rtp };
  }
  return best;
}

export function plinkoRtp(rows: number, hundredths: readonly number[]): Multiplier {
  let sum = 0n;
  for (let s = 0; s <= rows; s++) sum += binomial(rows, s) * BigInt(hundredths[s]!);
  return ratio(sum, (1n << BigInt(rows)) * 100n);
}

export function kenoProbabilities(picks: number): Multiplier[] {
  const all = binomial(KENO_NUMBERS, KENO_DRAWN);
  return Array.from({ length: picks + 1 }, (_, h) =>
    ratio(binomial(picks, h) * binomial(KENO_NUMBERS - picks, KENO_DRAWN - h), all),
  );
}

export function kenoRtp(picks: number): Multiplier {
  const table = KENO_PAYTABLES[picks]!;
  return kenoProbabilities(picks).reduce(
    (sum, p, h) => add(sum, multiply(p, ratio(BigInt(table.hundredths[h]!), 100n))),
    { num: 0n, den: 1n },
  );
}

/**
 * Hi-Lo, k calls then cash out, calling by `choose(rank)`: the expected fair product after k calls
 * from each start rank, by dynamic programming over the 13 ranks; the payout is 0.99 × that product.
 */
export function hiloRtp(calls: number, choose: (rank: number) => 'higher' | 'lower'): Multiplier {
  let value: Multiplier[] = Array.from({ length: HILO_RANKS + 1 }, () => ONE);
  for (let step = 0; step < calls; step++) {
    const next: Multiplier[] = [ONE];
    for (let r = 1; r <= HILO_RANKS; r++) {
      const call = choose(r);
      let sum: Multiplier = { num: 0n, den: 1n };
      for (let to = 1; to <= HILO_RANKS; to++) {
        const correct = call === 'higher' ? to >= r : to <= r;
        if (correct) sum = add(sum, multiply(ratio(1n, BigInt(hiloWinningRanks(r, call))), value[to]!));
      }
      next.push(sum);
    }
    value = next;
  }
  const start = value.slice(1).reduce((a, b) => add(a, b), { num: 0n, den: 1n });
  return multiply(ratio(99n, 100n * BigInt(HILO_RANKS)), start);
}

/** Slot: every one of the 20⁵ stop combinations through the game's own settlement. */
export function slotRtp(): { rtp: Multiplier; combinations: number } {
  const stops = new Array<number>(SLOT_REELS).fill(0);
  let sum: Multiplier = { num: 0n, den: 1n };
  // Multipliers share few denominators: add numerators per denominator, reduce once at the end.
  const byDen = new Map<bigint, bigint>();
  const total = SLOT_STRIP_LENGTH ** SLOT_REELS;
  for (let i = 0; i < total; i++) {
    let rest = i;
    for (let reel = 0; reel < SLOT_REELS; reel++) {
      stops[reel] = rest % SLOT_STRIP_LENGTH;
      rest = Math.floor(rest / SLOT_STRIP_LENGTH);
    }
    const m = settleSlot(stops).multiplier;
    byDen.set(m.den, (byDen.get(m.den) ?? 0n) + m.num);
  }
  for (const [den, num] of byDen) sum = add(sum, ratio(num, den));
  return { rtp: ratio(sum.num, sum.den * BigInt(total)), combinations: total };
}

export const DECLARED = { slot: SLOT_RTP, bingo: BINGO_RTP };

/** Bingo: the first-line distribution is exact (inclusion–exclusion over the card's lines). */
export function bingoRtp(): number {
  return bingoTheoreticalRtp();
}
