import { MESSAGES } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { WithdrawPage } from './withdraw-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const INFO = {
  currency: 'BRL',
  balance: '100.00',
  withdrawable: '100.00',
  wagering_required: '0.00',
  min_money: '20.00',
  max_money: '50000.00',
  channel: 'pix',
  fee_rate: '1.00',
  fee_min: '2.00',
  daily_count_max: 5,
  today_count: 0,
  has_qk_pwd: true,
  own_cpf_only: false,
  preview: null,
  rules: ['Withdrawals are paid by PIX after the administrators review'],
};

const CARD = {
  id: 31,
  bank_name: 'PIX',
  account_type: 'CPF',
  name: 'Maria da Silva',
  account: '52998224725',
  account_masked: '***.982.247-**',
  cpf_id: '52998224725',
  account_no: null,
  is_default: true,
  created_at: '2026-11-23T02:00:00.000Z',
};

function renderPage(drawing: () => { status?: number; body: unknown }, info: Partial<typeof INFO> = {}) {
  setToken('player-token');
  queryClient.clear();
  const api = mockApi({
    'GET /api/drawing/info': () => ({ body: ok({ ...INFO, ...info }) }),
    'GET /api/member/bank': () => ({
      body: ok({ list: [CARD], max_cards: 5, own_cpf_only: false, member_cpf: null }),
    }),
    'POST /api/drawing': drawing,
    'POST /api/auth/me': () => ({ body: ok(null) }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/withdraw']}>
        <WithdrawPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return api;
}

const en = MESSAGES.en;

describe('withdraw form', () => {
  it('refuses an empty form with the translated messages and sends nothing', async () => {
    const api = renderPage(() => ({ body: ok({}) }));
    await userEvent.click(await screen.findByTestId('withdraw-submit'));
    expect(await screen.findByText(en['validation.required.amount'])).toBeTruthy();
    expect(screen.getByText(en['validation.required.qk_pwd'])).toBeTruthy();
    expect(api.calls.some((call) => call.url.pathname === '/api/drawing')).toBe(false);
  });

  it('shows fee and actual receipt as the amount is typed, and the bounds when outside them', async () => {
    renderPage(() => ({ body: ok({}) }));
    const amount = await screen.findByTestId('withdraw-amount');
    await userEvent.type(amount, '50');
    expect(screen.getByTestId('withdraw-fee').textContent).toBe('R$2.00');
    expect(screen.getByTestId('withdraw-actual').textContent).toBe('R$48.00');
    await userEvent.clear(amount);
    await userEvent.type(amount, '10');
    await userEvent.type(screen.getByTestId('withdraw-password'), '123456');
    await userEvent.click(screen.getByTestId('withdraw-submit'));
    expect(await screen.findByText('The amount must be between R$20.00 and R$50,000.00')).toBeTruthy();
    expect(screen.getByTestId('withdraw-actual').textContent).toBe('R$0.00');
  });

  it('sends the withdraw post fields and shows exactly the success message', async () => {
    const api = renderPage(() => ({ body: ok({}) }));
    await userEvent.type(await screen.findByTestId('withdraw-amount'), '50');
    await userEvent.type(screen.getByTestId('withdraw-password'), '482915');
    await userEvent.click(screen.getByTestId('withdraw-submit'));
    const success = await screen.findByTestId('withdraw-success');
    expect(success.textContent).toBe(
      'The withdrawal application has been submitted successfully. Please wait for the administrators review.',
    );
    const call = api.calls.find((item) => item.url.pathname === '/api/drawing');
    expect(call?.body).toMatchObject({
      money: '50.00',
      member_bank_id: '31',
      qk_pwd: '482915',
      payment_type: 'CPF',
      account: '52998224725',
    });
  });

  it('on a free PIX channel shows no fee, the whole amount received, and reads a comma as the decimal mark', async () => {
    renderPage(() => ({ body: ok({}) }), { fee_rate: '0.00', fee_min: '0.00' });
    await userEvent.type(await screen.findByTestId('withdraw-amount'), '20,5');
    expect(screen.getByTestId('withdraw-fee').textContent).toBe('R$0.00');
    expect(screen.getByTestId('withdraw-actual').textContent).toBe('R$20.50');
    expect(screen.getByText(/No fee on PIX withdrawals/)).toBeTruthy();
  });

  it('asks a player without a withdrawal password to create it with the first withdrawal', async () => {
    const api = renderPage(() => ({ body: ok({}) }), { has_qk_pwd: false });
    expect(await screen.findByTestId('withdraw-password-first')).toBeTruthy();
    await userEvent.type(screen.getByTestId('withdraw-amount'), '50');
    await userEvent.type(screen.getByTestId('withdraw-password'), '482915');
    await userEvent.type(screen.getByTestId('withdraw-password-confirmation'), '482916');
    await userEvent.click(screen.getByTestId('withdraw-submit'));
    expect(await screen.findByText(en['validation.passwords_did_not_match'])).toBeTruthy();
    expect(api.calls.some((call) => call.url.pathname === '/api/drawing')).toBe(false);
    await userEvent.clear(screen.getByTestId('withdraw-password-confirmation'));
    await userEvent.type(screen.getByTestId('withdraw-password-confirmation'), '482915');
    await userEvent.click(screen.getByTestId('withdraw-submit'));
    await screen.findByTestId('withdraw-success');
    const call = api.calls.find((item) => item.url.pathname === '/api/drawing');
    expect(call?.body).toMatchObject({ money: '50.00', qk_pwd: '482915', qk_pwd_confirmation: '482915' });
  });

  it('shows the server message when the withdrawal is refused', async () => {
    renderPage(() => ({
      status: 400,
      body: fail('WITHDRAW_PASSWORD_WRONG', 'Wrong withdrawal password. 4 attempt(s) left'),
    }));
    await userEvent.type(await screen.findByTestId('withdraw-amount'), '50');
    await userEvent.type(screen.getByTestId('withdraw-password'), '000000');
    await userEvent.click(screen.getByTestId('withdraw-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('withdraw-error').textContent).toBe(
        'Wrong withdrawal password. 4 attempt(s) left',
      ),
    );
    expect(screen.queryByTestId('withdraw-success')).toBeNull();
  });

  it('asks the authenticator code when two-factor is on and sends it with the next try', async () => {
    let tries = 0;
    const { calls } = renderPage(() => {
      tries += 1;
      if (tries === 1)
        return {
          status: 403,
          body: fail('TOTP_REQUIRED', 'Please enter the code from your authenticator app'),
        };
      return { body: ok({ order_no: 'W1', status: 'pending', money: '50.00' }) };
    });
    await userEvent.type(await screen.findByTestId('withdraw-amount'), '50');
    await userEvent.type(screen.getByTestId('withdraw-password'), '123456');
    expect(screen.queryByTestId('withdraw-totp')).toBeNull();
    await userEvent.click(screen.getByTestId('withdraw-submit'));
    const field = await screen.findByTestId('withdraw-totp');
    expect(screen.getAllByText('Please enter the code from your authenticator app').length).toBeGreaterThan(
      0,
    );
    await userEvent.type(screen.getByTestId('withdraw-password'), '123456');
    await userEvent.type(field, '654321');
    await userEvent.click(screen.getByTestId('withdraw-submit'));
    await waitFor(() => expect(tries).toBe(2));
    const sent = calls.filter((call) => call.url.pathname === '/api/drawing').at(-1)!.body as Record<
      string,
      unknown
    >;
    expect(sent.totp_code).toBe('654321');
  });
});
