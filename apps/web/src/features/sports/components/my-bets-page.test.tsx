import type { TSportsBet } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { confirmStore } from '../../../lib/dialog.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import MyBetsPage from './my-bets-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const leg = (status: 'open' | 'won' | 'lost' | 'void') => ({
  selection_id: '901',
  selection_code: 'home',
  market_id: '361',
  market_type: '1x2' as const,
  event_id: '91',
  competition_name: 'Brasileirão Série A',
  home_team: 'Fluminense FC',
  away_team: 'CR Vasco da Gama',
  kickoff_at: '2026-11-25T21:30:00.000Z',
  odds: '1.48',
  status,
  score: status === 'open' ? null : { home: 2, away: 0 },
});

const openBet: TSportsBet = {
  id: '7',
  type: 'single',
  status: 'open',
  stake: '10.00',
  total_odds: '1.48',
  potential_return: '14.80',
  payout: '0.00',
  legs: [leg('open')],
  cash_out: { value: '9.40', available: true },
  placed_at: '2026-11-25T14:00:00.000Z',
  settled_at: null,
};

const pages = (status: string) =>
  status === 'open'
    ? [openBet]
    : [
        { ...openBet, id: '6', status: 'won' as const, payout: '14.80', cash_out: null, legs: [leg('won')] },
        {
          ...openBet,
          id: '5',
          status: 'void' as const,
          payout: '10.00',
          cash_out: null,
          legs: [leg('void')],
        },
        { ...openBet, id: '4', status: 'cashed_out' as const, payout: '8.00', cash_out: null },
      ];

function renderPage() {
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <MyBetsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Answers the confirm dialog the page opened. */
async function answerConfirm(answer: boolean): Promise<string> {
  await vi.waitFor(() => expect(confirmStore.get()).not.toBeNull());
  const pending = confirmStore.get()!;
  pending.resolve(answer);
  return pending.message;
}

describe('My bets', () => {
  it('sorts bets into open, settled, void and cashed out', async () => {
    setToken('player-token');
    mockApi({
      'GET /api/sports/bets': (call) => ({
        body: ok({ list: pages(call.url.searchParams.get('status') ?? 'all'), next_cursor: null }),
      }),
    });
    renderPage();
    expect((await screen.findByTestId('bet-card')).getAttribute('data-bet-id')).toBe('7');
    await userEvent.click(screen.getByTestId('my-bets-tab-settled'));
    await vi.waitFor(() => expect(screen.getByTestId('bet-card').getAttribute('data-bet-id')).toBe('6'));
    expect(screen.getByTestId('bet-payout').textContent).toBe('R$14.80');
    await userEvent.click(screen.getByTestId('my-bets-tab-void'));
    expect(screen.getByTestId('bet-card').getAttribute('data-status')).toBe('void');
    await userEvent.click(screen.getByTestId('my-bets-tab-cashed_out'));
    expect(screen.getByTestId('bet-card').getAttribute('data-status')).toBe('cashed_out');
  });

  it('cashes out at the offered value after a confirm, and asks again when the offer moved', async () => {
    setToken('player-token');
    const api = mockApi({
      'GET /api/sports/bets': () => ({ body: ok({ list: [openBet], next_cursor: null }) }),
      'POST /api/sports/bets/7/cash-out': (call) =>
        (call.body as { value: string }).value === '9.40'
          ? {
              status: 409,
              body: fail('CASH_OUT_CHANGED', 'The cash-out offer changed.', { data: { value: '9.10' } }),
            }
          : { body: ok({ bet: { ...openBet, status: 'cashed_out', payout: '9.10' }, balance: '99.10' }) },
      'POST /api/auth/me': () => ({ body: ok(null) }),
    });
    renderPage();
    await userEvent.click(await screen.findByTestId('bet-cash-out'));
    expect(screen.getByTestId('bet-cash-out').textContent).toBe('Cash out R$9.40');
    expect(await answerConfirm(true)).toBe('Cash out this bet now for R$9.40?');
    // The offer moved: the player is asked again, at the new value.
    expect(await answerConfirm(true)).toBe('Cash out this bet now for R$9.10?');
    await vi.waitFor(() =>
      expect(api.calls.filter((call) => call.url.pathname.endsWith('/cash-out'))).toHaveLength(2),
    );
    const [first, second] = api.calls.filter((call) => call.url.pathname.endsWith('/cash-out'));
    expect(first?.body).toEqual({ value: '9.40' });
    expect(second?.body).toEqual({ value: '9.10' });
    expect(first?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers['Idempotency-Key']).not.toBe(first?.headers['Idempotency-Key']);
  });

  it('sends nothing when the player declines the cash-out', async () => {
    setToken('player-token');
    const api = mockApi({
      'GET /api/sports/bets': () => ({ body: ok({ list: [openBet], next_cursor: null }) }),
    });
    renderPage();
    await userEvent.click(await screen.findByTestId('bet-cash-out'));
    await answerConfirm(false);
    expect(api.calls.some((call) => call.url.pathname.endsWith('/cash-out'))).toBe(false);
  });
});
