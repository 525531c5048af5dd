import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { setToken } from '../../lib/storage.ts';
import { mockApi, ok } from '../../test/api-mock.ts';
import { CrashBets } from './crash-bets.tsx';

describe('crash bets table', () => {
  it("lists this round's bets with the player's own row and cash-outs, and the player's last bets", async () => {
    queryClient.clear();
    setToken('member-token');
    mockApi({
      'GET /api/crash/round-bets': () => ({
        body: ok({
          round_id: '9',
          count: 2,
          total: '32.00',
          list: [
            {
              player: 'ma***7',
              amount: '30.00',
              status: 'cashed',
              cashout_multiplier: '1.50',
              payout: '45.00',
              mine: false,
            },
            {
              player: 'de***1',
              amount: '2.00',
              status: 'placed',
              cashout_multiplier: null,
              payout: '0.00',
              mine: true,
            },
          ],
        }),
      }),
      'GET /api/crash/my-bets': () => ({
        body: ok({
          list: [
            {
              round_id: '8',
              amount: '2.00',
              status: 'lost',
              cashout_multiplier: null,
              crash_point: '1.20',
              payout: '0.00',
              created_at: '2026-11-25T10:00:00.000Z',
            },
          ],
        }),
      }),
    });
    render(
      <QueryClientProvider client={queryClient}>
        <CrashBets roundId="9" phase="running" demo={false} />
      </QueryClientProvider>,
    );
    const rows = await screen.findAllByTestId('crash-bets-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('ma***7')).toBeTruthy();
    expect(within(rows[0]!).getByText('×1.50')).toBeTruthy();
    expect(within(rows[0]!).getByText('R$45.00')).toBeTruthy();
    expect(rows[1]!.className).toContain('is-mine');
    expect(within(rows[1]!).getByText('You')).toBeTruthy();
    expect(screen.getByTestId('crash-bets-summary').textContent).toBe('Players: 2 · In play: R$32.00');

    await userEvent.click(screen.getByTestId('crash-bets-tab-mine'));
    const mine = await screen.findByTestId('crash-my-bets-table');
    expect(within(mine).getByText('×1.20')).toBeTruthy();
    expect(within(mine).getByText('R$0.00')).toBeTruthy();
  });
});
