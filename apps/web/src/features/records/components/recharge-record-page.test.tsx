import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { RechargeRecordPage } from './recharge-record-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const order = (id: number, status: string) => ({
  id: String(id),
  order_no: `R2026112300000${id}`,
  amount: `${id}00.00`,
  bonus: '0.00',
  payment_type: 'pix',
  channel: 'pix_express',
  status,
  created_at: '2026-11-23T02:00:00.000Z',
  expires_at: '2026-11-23T02:15:00.000Z',
  paid_at: null,
});

function renderPage() {
  setToken('player-token');
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <RechargeRecordPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('recharge records', () => {
  it('names the channel as the player knows it, never by its internal code', async () => {
    const other = { ...order(3, 'paid'), channel: 'pix_operator_added' };
    mockApi({
      'POST /api/recharge/list': () => ({
        body: ok({ list: [order(2, 'paid'), other], next: null, prev: null }),
      }),
    });
    renderPage();
    const rows = await screen.findAllByTestId('record-row');
    expect(rows[0]?.textContent).toContain('Instant PIX');
    expect(rows[1]?.textContent).toContain('PIX');
    for (const row of rows) expect(row.textContent).not.toMatch(/pix_/);
  });

  it("says 'Load Fail' when the list cannot be read, and shows the rows after a retry", async () => {
    let answer: () => { status?: number; body: unknown } = () => ({
      status: 500,
      body: fail('INTERNAL', 'Something went wrong'),
    });
    mockApi({ 'POST /api/recharge/list': () => answer() });
    renderPage();
    expect(await screen.findByText('Load Fail')).toBeTruthy();
    answer = () => ({ body: ok({ list: [order(2, 'paid'), order(1, 'expired')], next: null, prev: null }) });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const rows = await screen.findAllByTestId('record-row');
    expect(rows.map((row) => row.getAttribute('data-order-no'))).toEqual([
      'R20261123000002',
      'R20261123000001',
    ]);
    expect(screen.getByText('Paid')).toBeTruthy();
    expect(screen.getByText('Expired')).toBeTruthy();
    expect(screen.queryByTestId('records-next')).toBeNull();
  });

  it("says 'No records found' for a player without orders", async () => {
    mockApi({ 'POST /api/recharge/list': () => ({ body: ok({ list: [], next: null, prev: null }) }) });
    renderPage();
    expect(await screen.findByText('No records found')).toBeTruthy();
  });

  it('pages to older rows with the next cursor and back with the previous one', async () => {
    const api = mockApi({
      'POST /api/recharge/list': (call) => {
        const body = call.body as { before?: string; after?: string };
        return body.before
          ? { body: ok({ list: [order(1, 'paid')], next: null, prev: '1' }) }
          : { body: ok({ list: [order(3, 'pending'), order(2, 'paid')], next: '2', prev: null }) };
      },
    });
    renderPage();
    await screen.findByText('Awaiting payment');
    expect((screen.getByTestId('records-previous') as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByTestId('records-next'));
    expect(await screen.findByText('R$100.00')).toBeTruthy();
    expect(api.calls.at(-1)?.body).toMatchObject({ before: '2', limit: 10 });
    await userEvent.click(screen.getByTestId('records-previous'));
    expect(await screen.findByText('Awaiting payment')).toBeTruthy();
    expect(api.calls.at(-1)?.body).toMatchObject({ after: '1' });
  });
});
