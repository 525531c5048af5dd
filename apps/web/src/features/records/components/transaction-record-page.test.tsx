import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { referenceText, TransactionRecordPage } from './transaction-record-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const ROW = {
  id: 41,
  created_at: '2026-11-23T02:00:00.000Z',
  kind: 'deposit',
  amount: '100.00',
  change: '+100.00',
  direction: 'in',
  account: 'cash',
  balance_after: '100.00',
  reference: 'deposit:R20261123ABC',
};

describe('transaction record', () => {
  it('filters by period, resets, and pages with the keyset cursors', async () => {
    setToken('player-token');
    const api = mockApi({
      'POST /api/transaction/record': (call) => {
        const body = call.body as { period: string; cursor?: string };
        const list = body.period === 'today' ? [] : [ROW];
        return {
          body: ok({
            list,
            next_cursor: body.cursor ? null : 'older',
            prev_cursor: body.cursor ? 'newer' : null,
            period: body.period,
            page_size: 10,
            time_zone: 'UTC',
          }),
        };
      },
    });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <TransactionRecordPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('+R$100.00')).toBeTruthy();
    expect(screen.getByText('Deposit')).toBeTruthy();
    expect(screen.getByText('Deposit order R20261123ABC')).toBeTruthy();
    expect(api.calls.at(-1)?.body).toEqual({ period: 'all', page_size: 10 });

    await userEvent.click(screen.getByTestId('records-next'));
    await vi.waitFor(() =>
      expect(api.calls.at(-1)?.body).toEqual({ period: 'all', cursor: 'older', page_size: 10 }),
    );
    await userEvent.click(await screen.findByTestId('records-previous'));
    await vi.waitFor(() =>
      expect(api.calls.at(-1)?.body).toEqual({ period: 'all', cursor: 'newer', page_size: 10 }),
    );

    await userEvent.click(screen.getByTestId('period-today'));
    expect(await screen.findByText('No records found')).toBeTruthy();
    expect(api.calls.at(-1)?.body).toEqual({ period: 'today', page_size: 10 });
    await userEvent.click(screen.getByTestId('period-last_7_days'));
    await vi.waitFor(() => expect(api.calls.at(-1)?.body).toEqual({ period: 'last_7_days', page_size: 10 }));
    await userEvent.click(screen.getByTestId('period-all'));
    expect(await screen.findByText('+R$100.00')).toBeTruthy();
  });
});

describe('wallet references', () => {
  const t = (key: string, options?: Record<string, unknown>) => `${key}|${String(options?.id ?? '')}`;
  it('are named for people, never as the internal kind prefix', () => {
    expect(referenceText('crash-round:16', t)).toBe('money.reference.crash_round|16');
    expect(referenceText('deposit:R20261123ABC', t)).toBe('money.reference.deposit|R20261123ABC');
    expect(referenceText('round:7', t)).toBe('money.reference.round|7');
    expect(referenceText('sports-bet:501', t)).toBe('money.reference.sports_bet|501');
    expect(referenceText('something-new:42', t)).toBe('42');
  });
});
