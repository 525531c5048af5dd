import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { OrderCenterPage } from './order-center-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe('order center', () => {
  it('shows the four totals and the orders of the chosen period', async () => {
    setToken('player-token');
    const api = mockApi({
      'GET /api/ordercenter/details': (call) => ({
        body: ok({
          details:
            call.url.searchParams.get('period') === 'today'
              ? []
              : [
                  {
                    type: 'withdraw',
                    order_no: 'W1',
                    amount: '50.00',
                    fee: '2.00',
                    actual_amount: '48.00',
                    status: 'pending_review',
                    created_at: '2026-11-23T02:00:00.000Z',
                  },
                ],
          total_recharge_amount: '100.00',
          total_withdraw_amount: '0.00',
          total_bonus_amount: '2.00',
          total_fee_amount: '0.00',
          has_more: false,
          period: call.url.searchParams.get('period') ?? 'all',
          time_zone: 'UTC',
        }),
      }),
    });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/order-center']}>
          <OrderCenterPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Under review')).toBeTruthy();
    expect(screen.getByTestId('order-total_recharge').textContent).toContain('R$100.00');
    expect(screen.getByTestId('order-total_bonus').textContent).toContain('R$2.00');
    expect(screen.getByText('Fee R$2.00 · Actual receipt R$48.00')).toBeTruthy();
    expect(api.calls.at(-1)?.url.searchParams.get('period')).toBe('all');
    await userEvent.click(screen.getByText('Today'));
    expect(await screen.findByText('No records found')).toBeTruthy();
    expect(api.calls.at(-1)?.url.searchParams.get('period')).toBe('today');
  });
});
