import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { BankCardsPage } from './bank-cards-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

function renderPage(add: () => { status?: number; body: unknown }) {
  setToken('player-token');
  const api = mockApi({
    'GET /api/member/bank': () => ({
      body: ok({ list: [], max_cards: 5, own_cpf_only: false, member_cpf: null }),
    }),
    'POST /api/member/bank/add': add,
  });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <BankCardsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const field = (name: string) => view.container.querySelector(`[name="${name}"]`) as HTMLInputElement;
  return { ...api, field };
}

describe('bank card add', () => {
  it('catches wrong check digits in the browser and sends nothing', async () => {
    const { calls, field } = renderPage(() => ({ body: ok({}) }));
    await screen.findByTestId('bank-card-add');
    expect(screen.getByText('No PIX key added yet')).toBeTruthy();
    await userEvent.type(field('name'), 'Maria da Silva');
    // A CPF key is asked once: the key is the payee's CPF, there is no second CPF field.
    expect(field('cpf_id')).toBeNull();
    await userEvent.type(field('account'), '529.982.247-26');
    await userEvent.click(screen.getByTestId('bank-card-add'));
    expect(await screen.findAllByText('The CPF is not valid')).toHaveLength(1);
    expect(calls.some((call) => call.url.pathname === '/api/member/bank/add')).toBe(false);
  });

  it("shows the server's field message on the field it concerns", async () => {
    const { calls, field } = renderPage(() => ({
      status: 422,
      body: fail('VALIDATION_FAILED', 'Please enter the correct parameters', {
        errors: { account: 'This PIX key is already registered' },
      }),
    }));
    await screen.findByTestId('bank-card-add');
    await userEvent.type(field('name'), 'Maria da Silva');
    await userEvent.type(field('account'), '52998224725');
    await userEvent.click(screen.getByTestId('bank-card-add'));
    expect(await screen.findByText('This PIX key is already registered')).toBeTruthy();
    expect(calls.find((call) => call.url.pathname === '/api/member/bank/add')?.body).toEqual({
      bank_name: undefined,
      account_type: 'CPF',
      name: 'Maria da Silva',
      account: '52998224725',
      cpf_id: '52998224725',
      account_no: undefined,
    });
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('asks the payee CPF beside any other key type', async () => {
    const { calls, field } = renderPage(() => ({ body: ok({}) }));
    await screen.findByTestId('bank-card-add');
    await userEvent.selectOptions(field('account_type') as unknown as HTMLSelectElement, 'EMAIL');
    await userEvent.type(field('name'), 'Maria da Silva');
    await userEvent.type(field('account'), 'maria@example.com');
    await userEvent.type(field('cpf_id'), '529.982.247-25');
    await userEvent.click(screen.getByTestId('bank-card-add'));
    await vi.waitFor(() =>
      expect(calls.find((call) => call.url.pathname === '/api/member/bank/add')?.body).toMatchObject({
        account_type: 'EMAIL',
        account: 'maria@example.com',
        cpf_id: '529.982.247-25',
      }),
    );
  });
});
