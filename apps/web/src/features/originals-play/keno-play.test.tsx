import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { mockApi, ok } from '../../test/api-mock.ts';
import { KenoPlay, kenoPays, togglePick } from './keno-play.tsx';
import { launchOf, roundOf } from './play-fixtures.ts';

vi.mock('../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

const PAYTABLE = { '3': { hits: ['0.0000', '0.0000', '2.5000', '25.0000'], rtp: 0.97 } };

beforeEach(() => {
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
});

function renderKeno(onBalance = vi.fn()) {
  render(
    <QueryClientProvider client={queryClient}>
      <KenoPlay launch={launchOf('keno')} demo onBalance={onBalance} />
    </QueryClientProvider>,
  );
  return onBalance;
}

describe('keno picks', () => {
  it('toggles numbers, keeps them sorted and never holds more than ten', () => {
    expect(togglePick([], 12)).toEqual([12]);
    expect(togglePick([12], 3)).toEqual([3, 12]);
    expect(togglePick([3, 12], 3)).toEqual([12]);
    const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(togglePick(ten, 11)).toEqual(ten);
    expect(togglePick([], 41)).toEqual([]);
    expect(kenoPays(PAYTABLE, 3)).toEqual(PAYTABLE['3'].hits);
    expect(kenoPays(PAYTABLE, 4)).toEqual([]);
  });
});

describe('keno screen', () => {
  it('needs at least one number and stops at ten', async () => {
    mockApi({ 'GET /api/originals/rules': () => ({ body: ok({ list: [] }) }) });
    renderKeno();
    expect(screen.getByTestId('keno-bet')).toHaveProperty('disabled', true);
    expect(screen.getByText('Pick 1 to 10 numbers')).toBeTruthy();
    for (let n = 1; n <= 10; n++) await userEvent.click(screen.getByTestId(`keno-cell-${n}`));
    expect(screen.getByText('10 of 10 picked')).toBeTruthy();
    expect(screen.getByTestId('keno-cell-11')).toHaveProperty('disabled', true);
    // Ten picks pay ×0.77, ×8.51…: at R$ 0,10 the centavos would eat the RTP, so the bet waits.
    expect(screen.getByTestId('keno-bet')).toHaveProperty('disabled', true);
    expect(
      screen.getByText(
        'For this choice, bet R$1.75 or more, or a multiple of R$1.00 — other amounts would be paid less than the RTP shown',
      ),
    ).toBeTruthy();
    await userEvent.click(screen.getByTestId('keno-amount-fix'));
    expect(screen.getByTestId('keno-amount')).toHaveProperty('value', '1.00');
    expect(screen.getByTestId('keno-bet')).toHaveProperty('disabled', false);
    await userEvent.click(screen.getByTestId('keno-clear'));
    expect(screen.getByTestId('keno-bet')).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByTestId('keno-auto'));
    expect(screen.getByText('10 of 10 picked')).toBeTruthy();
  });

  it('reveals the ten numbers the server drew and marks the hits', async () => {
    const drawn = [7, 3, 30, 21, 40, 1, 15, 9, 33, 26];
    const api = mockApi({
      'GET /api/originals/rules': () => ({
        body: ok({ list: [{ game: 'keno', rtp: '97.00', paytable: PAYTABLE }] }),
      }),
      'POST /api/originals/keno/bet': () => ({
        body: ok({
          round: roundOf('keno', {
            payout: '2.50',
            win_loss: '1.50',
            multiplier: '2.5000',
            outcome: { drawn, hits: [3, 7] },
          }),
          balance: '1001.50',
        }),
      }),
    });
    const onBalance = renderKeno();
    for (const n of [3, 7, 12]) await userEvent.click(screen.getByTestId(`keno-cell-${n}`));
    expect(await screen.findByText('×25')).toBeTruthy();
    const amount = screen.getByTestId('keno-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '1');
    await userEvent.click(screen.getByTestId('keno-bet'));
    expect(await screen.findByText('You won R$2.50 (×2.50)', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId('keno-result').textContent).toContain('2 hits');
    expect(screen.getByTestId('keno-cell-3').className).toContain('is-hit');
    expect(screen.getByTestId('keno-cell-7').className).toContain('is-hit');
    expect(screen.getByTestId('keno-cell-30').className).toContain('is-drawn');
    expect(screen.getByTestId('keno-cell-12').className).toContain('is-picked');
    expect(onBalance).toHaveBeenCalledWith('1001.50');
    const bet = api.calls.find((call) => call.url.pathname === '/api/originals/keno/bet');
    expect(bet?.body).toMatchObject({ amount: '1.00', picks: [3, 7, 12] });
  });
});
