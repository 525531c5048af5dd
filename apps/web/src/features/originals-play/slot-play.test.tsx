import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { mockApi, ok } from '../../test/api-mock.ts';
import { launchOf, roundOf } from './play-fixtures.ts';
import { lineWins, SlotPlay, slotScreen, winningCells } from './slot-play.tsx';

vi.mock('../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

const PAYLINES = [
  [1, 1, 1, 1, 1],
  [0, 0, 0, 0, 0],
  [2, 2, 2, 2, 2],
  [0, 1, 2, 1, 0],
];
const SCREEN = [
  ['seven', 'lemon', 'plum', 'orange', 'bar'],
  ['bell', 'bell', 'wild', 'bell', 'melon'],
  ['lemon', 'scatter', 'orange', 'plum', 'scatter'],
];

beforeEach(() => {
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
});

describe('slot helpers', () => {
  it('reads a 3×5 screen and lights the winning cells from the left', () => {
    expect(slotScreen({ screen: SCREEN })).toEqual(SCREEN);
    expect(slotScreen({ screen: [['seven']] })).toBeNull();
    expect(slotScreen({})).toBeNull();
    const wins = lineWins({ lineWins: [{ line: 0, symbol: 'bell', count: 4, pay: 40 }] });
    expect([...winningCells(wins, PAYLINES)]).toEqual(['1-0', '1-1', '1-2', '1-3']);
    expect([...winningCells([{ line: 3, symbol: 'x', count: 3, pay: 1 }], PAYLINES)]).toEqual([
      '0-0',
      '1-1',
      '2-2',
    ]);
    expect(winningCells([{ line: 99, symbol: 'x', count: 3, pay: 1 }], PAYLINES).size).toBe(0);
  });
});

describe('slot screen', () => {
  it('refuses a stake outside the limits', async () => {
    const api = mockApi({ 'GET /api/originals/rules': () => ({ body: ok({ list: [] }) }) });
    render(
      <QueryClientProvider client={queryClient}>
        <SlotPlay launch={launchOf('slot')} demo onBalance={() => {}} />
      </QueryClientProvider>,
    );
    const amount = screen.getByTestId('slot-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '9999');
    expect(screen.getByText('Bet between R$0.10 and R$5,000.00')).toBeTruthy();
    expect(screen.getByTestId('slot-bet')).toHaveProperty('disabled', true);
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('stops the reels on the screen the server drew and lists its wins', async () => {
    const onBalance = vi.fn();
    const api = mockApi({
      'GET /api/originals/rules': () => ({
        body: ok({
          list: [{ game: 'slot', paytable: { paylines: PAYLINES, line_pays: { bell: [12, 40, 150] } } }],
        }),
      }),
      'POST /api/originals/slot/bet': () => ({
        body: ok({
          round: roundOf('slot', {
            payout: '2.00',
            win_loss: '1.00',
            multiplier: '2.0000',
            outcome: {
              screen: SCREEN,
              lineWins: [{ line: 0, symbol: 'bell', count: 4, pay: 40 }],
              scatterCount: 2,
              scatterPay: 0,
            },
          }),
          balance: '1001.00',
        }),
      }),
    });
    render(
      <QueryClientProvider client={queryClient}>
        <SlotPlay launch={launchOf('slot')} demo onBalance={onBalance} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('×12 · ×40 · ×150')).toBeTruthy();
    const amount = screen.getByTestId('slot-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '1');
    await userEvent.click(screen.getByTestId('slot-bet'));
    expect(await screen.findByText('You won R$2.00 (×2.00)', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Line 1: 4× Bell pays ×40')).toBeTruthy();
    expect(screen.getByTestId('slot-cell-2-1').getAttribute('data-symbol')).toBe('scatter');
    expect(screen.getByTestId('slot-cell-1-3').className).toContain('is-lit');
    expect(screen.getByTestId('slot-cell-1-4').className).not.toContain('is-lit');
    expect(onBalance).toHaveBeenCalledWith('1001.00');
    expect(api.calls.find((call) => call.method === 'POST')?.body).toMatchObject({ amount: '1.00' });
  });
});
