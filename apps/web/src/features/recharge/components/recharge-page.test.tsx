import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { RechargePage } from './recharge-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const CHANNEL = {
  payment_type: 'pix',
  code: 'pix_bonus',
  name: 'PIX +2%',
  min_money: '50.00',
  max_money: '100000.00',
  fee_rate: '0.00',
  bonus_rate: '2.00',
  bonus_wagering_multiple: 5,
  presets: ['50.00', '100.00'],
  expires_in: 900,
};

function renderPage(refusal?: { code: string; message: string }) {
  setToken('player-token');
  const api = mockApi({
    'GET /api/payments/list': () => ({
      body: ok({
        currency: 'BRL',
        list: [
          { payment_type: 'pix', name: 'PIX', min_money: '50.00', max_money: '100000.00', channel_count: 1 },
        ],
      }),
    }),
    'GET /api/payment/online/list': () => ({ body: ok({ currency: 'BRL', list: [{ id: 2, ...CHANNEL }] }) }),
    'POST /api/recharge/online': () =>
      refusal
        ? { status: 422, body: fail(refusal.code, refusal.message) }
        : {
            body: ok({
              id: '9',
              order_no: 'R20261123ABC',
              amount: '100.00',
              bonus: '2.00',
              payment_type: 'pix',
              channel: 'pix_bonus',
              status: 'pending',
              created_at: '2026-11-23T02:00:00.000Z',
              expires_at: '2026-11-23T02:15:00.000Z',
              paid_at: null,
              txid: 'abc',
              pix_copy_paste: '000201…',
              qr_code: '000201…',
              expires_in: 900,
              pay_url: null,
            }),
          },
  });
  const router = createMemoryRouter(
    [
      { path: '/recharge', element: <RechargePage /> },
      { path: '/recharge-payment', element: <p>payment step</p> },
    ],
    { initialEntries: ['/recharge'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...api, router };
}

describe('deposit form', () => {
  it('opens on the smallest quick pick, with the currency sign before it and one set of limits', async () => {
    renderPage();
    const amount = await screen.findByTestId('recharge-amount');
    expect(amount).toHaveProperty('value', '50.00');
    expect(amount.parentElement?.firstElementChild?.textContent).toBe('R$');
    // The limits are said once, under the amount; no currency row repeats what the sign says.
    expect(screen.getByTestId('payment-method-pix').textContent).toBe('PIX');
    expect(screen.queryByText('Currency')).toBeNull();
    expect(screen.getByTestId('payment-channel-2').textContent).toContain('PIX +2% bonus');
    expect(screen.getByTestId('recharge-actual').textContent).toBe('R$50.00');
  });

  it('shows the bounds, the reward and the actual amount, and refuses an amount outside the bounds', async () => {
    const api = renderPage();
    const amount = await screen.findByTestId('recharge-amount');
    expect(screen.getByText('Min R$50.00 · Max R$100,000.00')).toBeTruthy();
    await userEvent.click(screen.getByTestId('recharge-preset-100.00'));
    expect(screen.getByTestId('recharge-actual').textContent).toBe('R$100.00');
    expect(screen.getByText('R$2.00')).toBeTruthy();
    await userEvent.clear(amount);
    await userEvent.type(amount, '49.99');
    await userEvent.click(screen.getByTestId('recharge-submit'));
    expect(await screen.findByText('The amount must be between R$50.00 and R$100,000.00')).toBeTruthy();
    expect(api.calls.some((call) => call.url.pathname === '/api/recharge/online')).toBe(false);
  });

  it('creates the order with the recharge post fields and goes to the payment step', async () => {
    const { calls, router } = renderPage();
    await userEvent.clear(await screen.findByTestId('recharge-amount'));
    await userEvent.type(screen.getByTestId('recharge-amount'), '100.5');
    await userEvent.click(screen.getByTestId('recharge-submit'));
    expect(await screen.findByText('payment step')).toBeTruthy();
    expect(router.state.location.search).toBe('?order_no=R20261123ABC');
    expect(calls.find((call) => call.url.pathname === '/api/recharge/online')?.body).toEqual({
      money: '100.50',
      payment_id: 2,
      payment_type: 'pix',
    });
  });

  it('keeps a deposit-limit refusal under the amount, naming the limit and when it resets', async () => {
    const message =
      'This deposit would go over your daily deposit limit of R$50.00 (R$50.00 left). The limit resets on 11/26/2026, 12:00 AM';
    const { router } = renderPage({ code: 'RG_DEPOSIT_LIMIT', message });
    await userEvent.clear(await screen.findByTestId('recharge-amount'));
    await userEvent.type(screen.getByTestId('recharge-amount'), '100');
    await userEvent.click(screen.getByTestId('recharge-submit'));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(toast.error).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/recharge');
  });
});
