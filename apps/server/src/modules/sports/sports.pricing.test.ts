import { describe, expect, it } from 'vitest';
import {
  betOutcome,
  cashOutValue,
  formatOdds,
  matchProbabilities,
  parseOdds,
  priceFromProbability,
  returnOf,
  settleMarket,
  teamRatings,
  totalOddsOf,
} from './sports.pricing.ts';

describe('sportsbook arithmetic (bigint, never a float)', () => {
  it('reads and writes odds as exact hundredths', () => {
    expect(parseOdds('2.15')).toBe(215n);
    expect(parseOdds('2')).toBe(200n);
    expect(parseOdds('2.1')).toBe(210n);
    expect(parseOdds('2.155')).toBeNull();
    expect(parseOdds('-2')).toBeNull();
    expect(formatOdds(101n)).toBe('1.01');
    expect(formatOdds(100_000n)).toBe('1000.00');
  });

  it('prices 1 / (p × (1 + margin)) rounded down, within 1.01–1000.00', () => {
    expect(priceFromProbability(500_000n, 600n)).toBe(188n); // 1.886…
    expect(priceFromProbability(500_000n, 0n)).toBe(200n);
    expect(priceFromProbability(990_000n, 600n)).toBe(101n); // 0.95… → the floor of 1.01
    expect(priceFromProbability(1n, 0n)).toBe(100_000n); // capped
  });

  it('pays floor(stake × product of odds) and shows the product floored to 2 places', () => {
    expect(returnOf(1_000n, [188n, 377n, 171n])).toBe(12_119n); // 121.19796…
    expect(totalOddsOf([188n, 377n, 171n])).toBe(1_211n);
    // 0.1 + 0.2 style traps do not exist here: 3 × 1.10 = 3.30 exactly.
    expect(returnOf(300n, [110n])).toBe(330n);
  });

  it('settles every market type for a score', () => {
    expect(settleMarket('1x2', { home: 2, away: 1 })).toEqual({ home: 'won', draw: 'lost', away: 'lost' });
    expect(settleMarket('1x2', { home: 0, away: 0 })).toEqual({ home: 'lost', draw: 'won', away: 'lost' });
    expect(settleMarket('double_chance', { home: 1, away: 1 })).toEqual({
      home_draw: 'won',
      home_away: 'lost',
      draw_away: 'won',
    });
    expect(settleMarket('over_under_2_5', { home: 2, away: 0 })).toEqual({ over: 'lost', under: 'won' });
    expect(settleMarket('over_under_2_5', { home: 2, away: 1 })).toEqual({ over: 'won', under: 'lost' });
    expect(settleMarket('btts', { home: 3, away: 0 })).toEqual({ yes: 'lost', no: 'won' });
    expect(settleMarket('btts', { home: 1, away: 1 })).toEqual({ yes: 'won', no: 'lost' });
  });

  it('drops void legs out of an accumulator, loses on any lost leg, returns the stake when all are void', () => {
    expect(
      betOutcome(1_000n, [
        { odds: 200n, status: 'won' },
        { odds: 300n, status: 'void' },
      ]),
    ).toEqual({
      status: 'won',
      payoutMinor: 2_000n,
    });
    expect(
      betOutcome(1_000n, [
        { odds: 200n, status: 'open' },
        { odds: 300n, status: 'lost' },
      ]),
    ).toEqual({
      status: 'lost',
      payoutMinor: 0n,
    });
    expect(
      betOutcome(1_000n, [
        { odds: 200n, status: 'won' },
        { odds: 300n, status: 'open' },
      ]),
    ).toEqual({ status: 'open' });
    expect(betOutcome(1_000n, [{ odds: 200n, status: 'void' }])).toEqual({
      status: 'void',
      payoutMinor: 1_000n,
    });
  });

  it('offers a cash-out from the current odds with a margin', () => {
    // Odds unchanged: the stake less the margin.
    expect(cashOutValue(1_000n, [{ placedOdds: 200n, currentOdds: 200n, status: 'open' }], 500n)).toBe(950n);
    // The selection shortened to 1.50: worth more now.
    expect(cashOutValue(1_000n, [{ placedOdds: 300n, currentOdds: 150n, status: 'open' }], 500n)).toBe(
      1_900n,
    );
    // A won leg counts at 1.00; a void leg drops out; a lost leg: no offer.
    expect(
      cashOutValue(
        1_000n,
        [
          { placedOdds: 200n, currentOdds: 500n, status: 'won' },
          { placedOdds: 400n, currentOdds: 400n, status: 'void' },
          { placedOdds: 150n, currentOdds: 150n, status: 'open' },
        ],
        500n,
      ),
    ).toBe(1_900n);
    expect(cashOutValue(1_000n, [{ placedOdds: 200n, currentOdds: 200n, status: 'lost' }], 500n)).toBeNull();
  });

  it('makes coherent true probabilities from the season so far', () => {
    const expect1 = teamRatings([
      { home: 'A', away: 'B', score: { home: 3, away: 0 } },
      { home: 'B', away: 'A', score: { home: 0, away: 2 } },
    ]);
    const { lambdaHome, lambdaAway } = expect1('A', 'B');
    expect(lambdaHome).toBeGreaterThan(lambdaAway);
    const p = matchProbabilities(lambdaHome, lambdaAway);
    const sum = p['1x2'].home! + p['1x2'].draw! + p['1x2'].away!;
    expect(Number(sum)).toBeGreaterThan(999_990);
    expect(Number(sum)).toBeLessThan(1_000_010);
    expect(p['1x2'].home!).toBeGreaterThan(p['1x2'].away!);
    // Double chance is the sum of its two outcomes (each rounded to the millionth on its own).
    const gap = p.double_chance.home_draw! - (p['1x2'].home! + p['1x2'].draw!);
    expect(gap >= -1n && gap <= 1n).toBe(true);
    expect(Number(p.over_under_2_5.over! + p.over_under_2_5.under!)).toBeCloseTo(1_000_000, -1);
    // One goalless away side in a one-match season still prices (no zero average).
    const early = teamRatings([{ home: 'A', away: 'B', score: { home: 2, away: 0 } }])('A', 'B');
    expect(Number.isFinite(early.lambdaAway) && early.lambdaAway > 0).toBe(true);
  });
});
