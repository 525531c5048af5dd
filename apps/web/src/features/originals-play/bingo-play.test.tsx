import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { mockApi, ok } from '../../test/api-mock.ts';
import { BINGO_LINES, BingoPlay, ballLetter } from './bingo-play.tsx';
import { launchOf, roundOf } from './play-fixtures.ts';

vi.mock('../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

// Columns B 1–15, I 16–30, N 31–45 (free centre), G 46–60, O 61–75.
const CARD = [
  1,
  16,
  31,
  46,
  61,
  2,
  17,
  32,
  47,
  62,
  3,
  18,
  null,
  48,
  63,
  4,
  19,
  34,
  49,
  64,
  5,
  20,
  35,
  50,
  65,
];
const TIERS = [
  { max_balls: 12, multiplier: '100.0000' },
  { max_balls: 18, multiplier: '15.0000' },
  { max_balls: 24, multiplier: '5.0000' },
];

function renderBingo(onBalance = vi.fn()) {
  render(
    <QueryClientProvider client={queryClient}>
      <BingoPlay launch={launchOf('bingo')} demo onBalance={onBalance} />
    </QueryClientProvider>,
  );
  return onBalance;
}

beforeEach(() => {
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
});

describe('bingo helpers', () => {
  it('calls balls by column letter and knows the twelve lines', () => {
    expect([1, 15, 16, 31, 45, 46, 61, 75].map(ballLetter)).toEqual(['B', 'B', 'I', 'N', 'N', 'G', 'O', 'O']);
    expect(BINGO_LINES).toHaveLength(12);
    expect(BINGO_LINES[2]).toEqual([10, 11, 12, 13, 14]);
    expect(BINGO_LINES[7]).toEqual([2, 7, 12, 17, 22]);
    expect(BINGO_LINES[11]).toEqual([4, 8, 12, 16, 20]);
  });
});

describe('bingo screen', () => {
  it('refuses a stake outside the limits', async () => {
    const api = mockApi({ 'GET /api/originals/rules': () => ({ body: ok({ list: [] }) }) });
    renderBingo();
    const amount = screen.getByTestId('bingo-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '.');
    expect(screen.getByText('Enter an amount like 1.00')).toBeTruthy();
    expect(screen.getByTestId('bingo-bet')).toHaveProperty('disabled', true);
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('draws the server balls on the server card and lights the completed line', async () => {
    const balls = [3, 70, 18, 48, 9, 63];
    const api = mockApi({
      'GET /api/originals/rules': () => ({ body: ok({ list: [{ game: 'bingo', paytable: TIERS }] }) }),
      'POST /api/originals/bingo/bet': () => ({
        body: ok({
          round: roundOf('bingo', {
            payout: '100.00',
            win_loss: '99.00',
            multiplier: '100.0000',
            outcome: { card: CARD, balls, completedLines: [2] },
          }),
          balance: '1099.00',
        }),
      }),
    });
    const onBalance = renderBingo();
    expect(await screen.findByText('×100')).toBeTruthy();
    const amount = screen.getByTestId('bingo-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '1');
    await userEvent.click(screen.getByTestId('bingo-bet'));
    expect(await screen.findByText('You won R$100.00 (×100.00)', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Line after 6 balls')).toBeTruthy();
    for (const cell of [10, 11, 12, 13, 14]) {
      expect(screen.getByTestId(`bingo-cell-${cell}`).className).toContain('is-line');
    }
    expect(screen.getByTestId('bingo-cell-10').textContent).toBe('3');
    expect(screen.getByTestId('bingo-cell-0').className).not.toContain('is-marked');
    expect(screen.getByText('≤ 12 balls').parentElement?.className).toBe('is-hit');
    expect(onBalance).toHaveBeenCalledWith('1099.00');
    expect(api.calls.find((call) => call.method === 'POST')?.body).toMatchObject({ amount: '1.00' });
  });
});
