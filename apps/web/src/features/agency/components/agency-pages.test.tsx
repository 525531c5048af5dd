import { MESSAGES } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { loadValidationMessages } from '../../../lib/validation-messages.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { formatPeriod, RegisterSubordinatesPage } from './agency-pages.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const BR_RULES = {
  requires_cpf: true,
  requires_birth_date: true,
  mandatory_limits: ['loss', 'session_time'],
  shows_risk_message: true,
};
const INTL_RULES = {
  requires_cpf: false,
  requires_birth_date: false,
  mandatory_limits: [],
  shows_risk_message: false,
};
const PATH = '/agency-center/register-subordinates';

async function useLanguage(language: 'en' | 'pt') {
  if (language !== 'en')
    i18next.addResourceBundle(language, 'translation', await loadCatalogue(language), true, true);
  await i18next.changeLanguage(language);
  loadValidationMessages();
}

function renderPage(registration: typeof BR_RULES | typeof INTL_RULES) {
  setToken('player-token');
  queryClient.clear();
  const api = mockApi({
    'GET /api/dynamicwebs/getdata': () => ({ body: ok({ min_age: 18, registration }) }),
    'POST /api/auth/captcha': () => ({
      body: ok({ captcha_id: 'c1', image: 'data:image/svg+xml,<svg/>', expires_in: 120, required: false }),
    }),
    'POST /api/agency/subordinate/register': () => ({ body: ok({ username: 'joao2025', level: 1 }) }),
  });
  const router = createMemoryRouter([{ path: PATH, element: <RegisterSubordinatesPage /> }], {
    initialEntries: [PATH],
  });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, api };
}

afterEach(() => {
  queryClient.clear();
});

describe('register a subordinate', () => {
  it('on br asks what the site sign-up asks (CPF, birth date, limits) and sends it', async () => {
    await useLanguage('pt');
    const { container, api } = renderPage(BR_RULES);
    expect(await screen.findByTestId('risk-notice')).toBeTruthy();
    const field = (name: string) => container.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
    await waitFor(() => expect(field('cpf')).toBeTruthy());
    expect(field('birth_date').placeholder).toBe('dd/mm/aaaa');
    expect(container.querySelector('[name="qk_pwd"]')).toBeNull();

    await userEvent.click(screen.getByTestId('register-subordinate'));
    const pt = MESSAGES.pt;
    expect(await screen.findByText(pt['validation.required.cpf'])).toBeTruthy();
    expect(screen.getByText(pt['errors.RG_LIMIT_REQUIRED'])).toBeTruthy();
    expect(api.calls.some((call) => call.url.pathname === '/api/agency/subordinate/register')).toBe(false);

    await userEvent.type(field('username'), 'joao2025');
    await userEvent.type(field('password'), 'secret123');
    await userEvent.type(field('realname'), 'João Souza');
    await userEvent.type(field('phone'), '11987654321');
    await userEvent.type(field('cpf'), '529.982.247-25');
    // Typed as digits; the mask writes 17/05/1990 and the API gets 1990-05-17.
    await userEvent.type(field('birth_date'), '17051990');
    expect(field('birth_date').value).toBe('17/05/1990');
    await userEvent.type(field('loss_limit'), '2.000,00');
    await userEvent.click(screen.getByTestId('register-subordinate'));
    await waitFor(() =>
      expect(api.calls.some((call) => call.url.pathname === '/api/agency/subordinate/register')).toBe(true),
    );
    const sent = api.calls.find((call) => call.url.pathname === '/api/agency/subordinate/register')!
      .body as Record<string, unknown>;
    expect(sent).toMatchObject({
      username: 'joao2025',
      cpf: '529.982.247-25',
      birth_date: '1990-05-17',
      agree_terms: true,
      is_adult: true,
      limits: [
        { kind: 'loss', period: 'month', value: '2000.00' },
        { kind: 'session_time', period: 'day', value: '120' },
      ],
    });
    expect(sent.invite_code).toBeUndefined();
  });

  it('elsewhere asks only the account fields', async () => {
    await useLanguage('en');
    const { container } = renderPage(INTL_RULES);
    await waitFor(() => expect(container.querySelector('[name="username"]')).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const name of ['cpf', 'birth_date', 'loss_limit', 'time_limit_minutes']) {
      expect(container.querySelector(`[name="${name}"]`)).toBeNull();
    }
    expect(screen.queryByTestId('risk-notice')).toBeNull();
  });

  it('writes a settlement period as the reader writes a date', async () => {
    await useLanguage('pt');
    expect(formatPeriod('2026-11-24')).toBe('24/11/2026');
    await useLanguage('en');
    expect(formatPeriod('2026-11-24')).toBe('11/24/26');
  });
});
