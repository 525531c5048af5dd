import type { TUserInfo } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { connectBalanceSocket } from '../../../lib/balance-socket.ts';
import { queryClient, USER_QUERY_KEY } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { RechargePaymentPage } from './recharge-payment-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

/** A stand-in for the browser's WebSocket: records what the page sends, lets the test push. */
class FakeSocket extends EventTarget {
  static last: FakeSocket | null = null;
  readonly url: string;
  readonly sent: unknown[] = [];
  constructor(url: string) {
    super();
    this.url = url;
    FakeSocket.last = this;
    queueMicrotask(() => this.dispatchEvent(new Event('open')));
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {}
  push(message: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
}

const ORDER = {
  id: '9',
  order_no: 'R20261123ABC',
  amount: '100.00',
  bonus: '0.00',
  payment_type: 'pix',
  channel: 'pix_express',
  created_at: new Date().toISOString(),
  expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
  paid_at: null,
  txid: 'abc',
  pix_copy_paste: '00020101021226760014br.gov.bcb.pix6304ABCD',
  qr_code: '00020101021226760014br.gov.bcb.pix6304ABCD',
  expires_in: 900,
  pay_url: 'http://127.0.0.1:4010/pay/abc',
};

describe('payment step', () => {
  it('shows the PIX code and payer link, then the paid state and the new balance after a push, without a reload', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    setToken('player-token');
    let status = 'pending';
    mockApi({
      'GET /api/recharge/detail': () => ({ body: ok({ ...ORDER, status }) }),
      'POST /api/auth/me': () => ({ body: ok(makeUser({ money: '100.00' })) }),
    });
    queryClient.setQueryData(USER_QUERY_KEY, makeUser({ money: '0.00' }));
    // The app shell holds the one connection; the page listens to it.
    const stop = connectBalanceSocket();
    onTestFinished(stop);
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/recharge-payment?order_no=R20261123ABC']}>
          <RechargePaymentPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('open-payer-page')).getAttribute('href')).toBe(ORDER.pay_url);
    expect(screen.getByTestId('payment-order-no').textContent).toBe('R20261123ABC');
    expect((screen.getByLabelText('PIX copy and paste code') as HTMLTextAreaElement).value).toBe(
      ORDER.pix_copy_paste,
    );
    expect(screen.getByTestId('payment-countdown').textContent).toMatch(/^expires in 1[45]:\d\d$/);

    // The socket authenticates with the token in its first message, never in the URL.
    const socket = FakeSocket.last!;
    await vi.waitFor(() => expect(socket.sent).toEqual([{ type: 'auth', token: 'player-token' }]));
    expect(socket.url).not.toContain('player-token');

    status = 'paid';
    act(() =>
      socket.push({
        type: 'balance',
        money: '100.00',
        fs_money: '0.00',
        ml_money: '0.00',
        total_money: '100.00',
        hold_money: '0.00',
        reason: 'deposit_paid',
        order_no: 'R20261123ABC',
      }),
    );
    expect(queryClient.getQueryData<TUserInfo>(USER_QUERY_KEY)?.money).toBe('100.00');
    expect(await screen.findByTestId('recharge-paid')).toBeTruthy();
    expect(screen.getByText('R$100.00 has been added to your balance')).toBeTruthy();
    expect(screen.getByTestId('recharge-play-now').getAttribute('href')).toBe('/game');
    expect(screen.getByTestId('recharge-play-now').textContent).toBe('Play now');
  });

  it('walks the player through the three steps, asks for their own CPF where the site does, and checks on "I\'ve paid"', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    setToken('player-token');
    let reads = 0;
    mockApi({
      'GET /api/recharge/detail': () => {
        reads += 1;
        return { body: ok({ ...ORDER, status: reads >= 3 ? 'paid' : 'pending' }) };
      },
      'GET /api/dynamicwebs/getdata': () => ({ body: ok({ registration: { requires_cpf: true } }) }),
    });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/recharge-payment?order_no=R20261123ABC']}>
          <RechargePaymentPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const steps = await screen.findByTestId('pay-steps');
    expect(steps.querySelectorAll('li')).toHaveLength(3);
    expect((await screen.findByTestId('own-cpf-note')).textContent).toContain('your own name and CPF');

    // Not paid yet: the player is told so instead of nothing happening.
    screen.getByTestId('pix-i-paid').click();
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(expect.stringContaining("haven't received")),
    );
    // Paid by then: the page turns to the paid state.
    screen.getByTestId('pix-i-paid').click();
    expect(await screen.findByTestId('recharge-paid')).toBeTruthy();
  });

  it('says there is no payment in progress without an order number', () => {
    setToken('player-token');
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/recharge-payment']}>
          <RechargePaymentPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByText('No payment in progress')).toBeTruthy();
  });
});
