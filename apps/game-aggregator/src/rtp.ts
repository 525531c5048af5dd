import { SLOT_PAYS, SLOT_SYMBOL_COUNTS } from './games.ts';

/**
 * Theoretical return to player. The slot's is exact: every payline sees on each reel an independent
 * uniform stop of the same strip, so a line pays n-alike of symbol s with probability
 * p^n (1 − p) (n < 5) or p^5, p = count(s) / strip length, and the total return per total bet is the
 * expected pay of one line in line bets (ten lines × a tenth of the bet each). The baccarat figures
 * are for an infinite shoe; rtp.test.ts enumerates every coup to prove them.
 */
export function slotRtpFraction(): { numerator: bigint; denominator: bigint } {
  const length = BigInt(SLOT_SYMBOL_COUNTS.reduce((sum, count) => sum + count, 0));
  const denominator = length ** 5n;
  let numerator = 0n;
  SLOT_SYMBOL_COUNTS.forEach((count, symbol) => {
    const c = BigInt(count);
    const [three, four, five] = SLOT_PAYS[symbol]!;
    // Over length^5: p^3 (1−p) = c^3 (L−c) L / L^5, p^4 (1−p) = c^4 (L−c) / L^5, p^5 = c^5 / L^5.
    numerator += c ** 3n * (length - c) * length * BigInt(three);
    numerator += c ** 4n * (length - c) * BigInt(four);
    numerator += c ** 5n * BigInt(five);
  });
  return { numerator, denominator };
}

/** The slot's RTP in percent (e.g. 95.94). */
export function slotRtp(): number {
  const { numerator, denominator } = slotRtpFraction();
  return Number((numerator * 1_000_000n) / denominator) / 10_000;
}

/** Baccarat RTP in percent per bet (infinite shoe, punto banco third-card rules). */
export const TABLE_RTP = { player: 98.77, banker: 98.94, tie: 85.88 } as const;
