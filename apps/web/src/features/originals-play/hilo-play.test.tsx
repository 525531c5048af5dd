import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/api-mock.ts';
import { HiloPlay, hiloCards, rankLabel, suitLabel, winningRanks } from './hilo-play.tsx';
import { launchOf, roundOf } from './play-fixtures.ts';

vi.mock('../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

const FIVE_HEARTS = { index: 17, rank: 5, suit: 1 };
const NINE_CLUBS = { index: 47, rank: 9, suit: 3 };
const TWO_SPADES = { index: 1, rank: 2, suit: 0 };

const active = (steps: unknown[], multiplier: string, canCashOut: boolean) =>
  roundOf('hilo', {
    id: '88',
    status: 'active',
    settled_at: null,
    multiplier,
    outcome: { start: FIVE_HEARTS, steps, lost: false, canCashOut },
  });

beforeEach(() => {
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
});

describe('hi-lo helpers', () => {
  it('names cards and counts the winning ranks of a call', () => {
    expect([1, 10, 11, 13].map(rankLabel)).toEqual(['A', '10', 'J', 'K']);
    expect([0, 1, 2, 3].map(suitLabel)).toEqual(['♠', '♥', '♦', '♣']);
    expect(winningRanks(5, 'higher')).toBe(9);
    expect(winningRanks(5, 'lower')).toBe(5);
    expect(winningRanks(1, 'higher')).toBe(13);
    expect(hiloCards(null)).toEqual({ cards: [], current: null });
    const round = active(
      [{ call: 'higher', from: FIVE_HEARTS, card: NINE_CLUBS, correct: true }],
      '1.4300',
      true,
    );
    expect(hiloCards(round).current).toEqual(NINE_CLUBS);
    expect(hiloCards(round).cards).toHaveLength(2);
  });
});

describe('hi-lo screen', () => {
  it('checks the stake, deals, and offers the calls with their chances', async () => {
    const onBalance = vi.fn();
    const api = mockApi({
      'GET /api/originals/hilo/active': () => ({ body: ok({ round: null, balance: '1000.00' }) }),
      'POST /api/originals/hilo/start': () => ({
        body: ok({ round: active([], '0.0000', false), balance: '999.00' }),
      }),
    });
    render(<HiloPlay launch={launchOf('hilo')} demo onBalance={onBalance} />);
    await waitFor(() => expect(screen.getByTestId('hilo-bet')).toHaveProperty('disabled', false));
    const amount = screen.getByTestId('hilo-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.05');
    expect(screen.getByText('Bet between R$0.10 and R$5,000.00')).toBeTruthy();
    expect(screen.getByTestId('hilo-bet')).toHaveProperty('disabled', true);
    await userEvent.clear(amount);
    await userEvent.type(amount, '10');
    await userEvent.click(screen.getByTestId('hilo-bet'));
    // From a five: 9 of 13 ranks are higher or the same (×0.99 × 13/9), 5 are lower or the same.
    expect(await screen.findByText('69.23% · ×1.43')).toBeTruthy();
    expect(screen.getByText('38.46% · ×2.574')).toBeTruthy();
    expect(screen.getByTestId('hilo-cashout')).toHaveProperty('disabled', true);
    expect(api.calls.find((call) => call.url.pathname === '/api/originals/hilo/start')?.body).toEqual({
      amount: '10.00',
    });
    expect(onBalance).toHaveBeenCalledWith('999.00');
  });

  it('resumes a round, shows the card the server drew and cashes out', async () => {
    const step = { call: 'higher', from: FIVE_HEARTS, card: NINE_CLUBS, correct: true };
    const api = mockApi({
      'GET /api/originals/hilo/active': () => ({
        body: ok({ round: active([step], '1.4300', true), balance: '999.00' }),
      }),
      'POST /api/originals/hilo/cashout': () => ({
        body: ok({
          round: roundOf('hilo', {
            id: '88',
            payout: '1.43',
            win_loss: '0.43',
            multiplier: '1.4300',
            outcome: { start: FIVE_HEARTS, steps: [step], lost: false, canCashOut: true },
          }),
          balance: '1000.43',
        }),
      }),
    });
    render(<HiloPlay launch={launchOf('hilo')} demo onBalance={() => {}} />);
    await userEvent.click(await screen.findByText('Cash out R$1.43'));
    expect(await screen.findByText('You won R$1.43 (×1.43)')).toBeTruthy();
    expect(api.calls.at(-1)?.body).toEqual({ round_id: '88' });
    expect(screen.getByTestId('hilo-result').querySelector('[data-rank="9"]')).toBeTruthy();
  });

  it('ends the round on a wrong call the server settled', async () => {
    const api = mockApi({
      'GET /api/originals/hilo/active': () => ({
        body: ok({ round: active([], '0.0000', false), balance: '999.00' }),
      }),
      'POST /api/originals/hilo/call': () => ({
        body: ok({
          round: roundOf('hilo', {
            id: '88',
            outcome: {
              start: FIVE_HEARTS,
              steps: [{ call: 'higher', from: FIVE_HEARTS, card: TWO_SPADES, correct: false }],
              lost: true,
              canCashOut: false,
            },
          }),
          balance: '999.00',
        }),
      }),
    });
    render(<HiloPlay launch={launchOf('hilo')} demo onBalance={() => {}} />);
    await userEvent.click(await screen.findByTestId('hilo-higher'));
    expect(await screen.findByText('Wrong call — the round is over.')).toBeTruthy();
    expect(api.calls.at(-1)?.body).toEqual({ round_id: '88', call: 'higher' });
    expect(screen.getByText('You lost R$1.00')).toBeTruthy();
    expect(screen.getByTestId('hilo-bet')).toBeTruthy();
  });
});
