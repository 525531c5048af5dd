import type { TGameRecordResponse } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { fail, mockApi, ok, type TMockCall } from '../../../test/api-mock.ts';
import GameRecordPage, { signedMoney } from './game-record-page.tsx';

vi.mock('../../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

const row = (id: string, win_loss: string) => ({
  id,
  brand: 'Sorte Originals',
  name: 'Dice',
  game: 'dice',
  bet_time: '2026-11-23T04:28:19.000Z',
  bet_amount: '1.00',
  payout: '0.00',
  win_loss,
  multiplier: '0.0000',
  status: 'settled' as 'active' | 'settled',
});

const answer = (
  list: ReturnType<typeof row>[],
  paging: Partial<TGameRecordResponse> = {},
): TGameRecordResponse => ({
  list,
  next_before_id: null,
  prev_after_id: null,
  totals: { bet_amount: `${list.length}.00`, win_loss: '0.00', count: list.length },
  ...paging,
});

function renderRecord(handler: (call: TMockCall) => { status?: number; body: unknown }) {
  const api = mockApi({ 'POST /api/game/record': handler });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <GameRecordPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return api;
}

const bodies = (calls: TMockCall[]) =>
  calls.filter((call) => call.url.pathname === '/api/game/record').map((call) => call.body);

describe('game record', () => {
  it('shows each round with labelled stake and signed win/loss, and pages when there is more', async () => {
    setToken('player-token');
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const { calls } = renderRecord((call) => {
      const body = call.body as { before_id?: string };
      return {
        body: ok(
          body.before_id === '8'
            ? answer([row('7', '-1.00')], { prev_after_id: '7' })
            : answer([row('9', '0.98'), row('8', '-1.00')], { next_before_id: '8' }),
        ),
      };
    });
    const rows = await screen.findAllByTestId('game-record-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Bet amount')).toBeTruthy();
    expect(within(rows[0]!).getByText('+R$0.98').className).toBe('is-win');
    expect(within(rows[1]!).getByText('-R$1.00').className).toBe('is-loss');

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByTestId('game-record-row')).toHaveLength(1));
    expect(bodies(calls).at(-1)).toMatchObject({ period: 'today', before_id: '8' });
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
  });

  it('filters by period, resets to every round, and hides paging with a single page', async () => {
    setToken('player-token');
    const { calls } = renderRecord(() => ({ body: ok(answer([])) }));
    expect(await screen.findByText('No records found')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
    expect(screen.getByTestId('period-today').getAttribute('aria-pressed')).toBe('true');

    await userEvent.click(screen.getByTestId('period-last_7_days'));
    await waitFor(() => expect(bodies(calls).at(-1)).toMatchObject({ period: 'last_7_days' }));
    await userEvent.click(screen.getByTestId('period-all'));
    await waitFor(() => expect(bodies(calls).at(-1)).toMatchObject({ period: 'all' }));
    expect(screen.getByTestId('period-all').getAttribute('aria-pressed')).toBe('true');
    // "Reset" is not a period: no period tab stays selected.
    // One control: "All" is chosen, every period is not.
    expect(screen.getByTestId('period-all').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('period-today').getAttribute('aria-pressed')).toBe('false');
  });

  it('shows a round still open (Mines, Hi-Lo) as in progress, not as a loss', async () => {
    setToken('player-token');
    const open = { ...row('5', '-7.68'), game: 'mines', name: 'Mines', status: 'active' as const };
    renderRecord(() => ({ body: ok(answer([open, row('4', '-1.00')])) }));
    const rows = await screen.findAllByTestId('game-record-row');
    expect(within(rows[0]!).getByText('In progress').className).toBe('is-pending');
    expect(within(rows[0]!).queryByText('-R$7.68')).toBeNull();
    expect(within(rows[1]!).getByText('-R$1.00').className).toBe('is-loss');
  });

  it('offers a retry when the record cannot load', async () => {
    setToken('player-token');
    let failing = true;
    renderRecord(() =>
      failing
        ? { status: 500, body: fail('INTERNAL', 'Server error') }
        : { body: ok(answer([row('1', '0.00')])) },
    );
    expect((await screen.findByRole('alert')).textContent).toContain('Load Fail');
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('game-record-row')).toBeTruthy();
  });

  it('asks a guest to log in', () => {
    renderRecord(() => ({ body: ok(answer([])) }));
    expect(screen.getByText('currently not logged in, please log in first')).toBeTruthy();
  });
});

describe('signedMoney', () => {
  it('signs wins, leaves losses and zero as they are', () => {
    expect(signedMoney('2.00')).toBe('+R$2.00');
    expect(signedMoney('0.05')).toBe('+R$0.05');
    expect(signedMoney('0.00')).toBe('R$0.00');
    expect(signedMoney('-1.00')).toBe('-R$1.00');
    expect(signedMoney('garbage')).toBe('R$0.00');
  });
});
