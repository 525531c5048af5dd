import { createFloatStream, createServerSeed, GAME_RULES, playLimbo } from '@sorte/fairness';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { prepareBet, settleInstant } from './originals.games.ts';

describe('originals settlement', () => {
  it('refuses a target whose win would pass the max win, and pays the largest accepted win in full', () => {
    const serverSeed = createServerSeed();
    const target = 100_000; // 1000×
    let nonce = 0;
    // About one bet in 1,010 reaches 1000×; the bound keeps the search finite.
    while (
      nonce < 200_000 &&
      playLimbo(target, createFloatStream({ serverSeed, clientSeed: 'c', nonce })).resultHundredths < target
    ) {
      nonce++;
    }
    expect(nonce).toBeLessThan(200_000);
    // R$ 5.000 at 1000× would win R$ 5.000.000, ten times the cap: refused, naming the highest target.
    const refused = (() => {
      try {
        prepareBet('limbo', { amount: '5000.00', target: '1000.00' });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'TARGET_ABOVE_CAP',
      params: { max_target: '100.00', max_win: '500000.00' },
    });
    // R$ 500 at 1000× wins exactly the cap: accepted and paid in full, never cut short.
    const bet = prepareBet('limbo', { amount: '500.00', target: '1000.00' });
    const settled = settleInstant('limbo', { serverSeed, clientSeed: 'c', nonce }, bet);
    expect(settled.multiplier).toEqual({ num: 1000n, den: 1n });
    expect(settled.payoutMinor).toBe(GAME_RULES.limbo.limits.maxWinMinor);
    expect(settled.payoutMinor).toBe(50_000n * 1000n);
  });

  it('adds the roulette chips into one stake and refuses stakes outside the limits', () => {
    const bet = prepareBet('roulette', {
      bets: [
        { type: 'red', numbers: [], amount: '1.00' },
        { type: 'dozen', numbers: [2], amount: '2.50' },
      ],
    });
    expect(bet.stakeMinor).toBe(350n);
    expect(bet.params).toEqual({
      bets: [
        { type: 'red', numbers: [], stakeMinor: '100' },
        { type: 'dozen', numbers: [2], stakeMinor: '250' },
      ],
    });
    const tooBig = () => prepareBet('keno', { amount: '100.01', picks: [1] });
    expect(tooBig).toThrow(AppError);
    expect(() => prepareBet('dice', { amount: '0.00', direction: 'under', target: 5000 })).toThrow(AppError);
  });
});
