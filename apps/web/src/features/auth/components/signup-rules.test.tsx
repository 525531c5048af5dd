import { MESSAGES } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { loadValidationMessages } from '../../../lib/validation-messages.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { LoginForm } from './login-form.tsx';
import { RegisterForm } from './register-form.tsx';

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

function renderWith(
  registration: typeof BR_RULES | typeof INTL_RULES,
  form: 'register' | 'login' = 'register',
) {
  const api = mockApi({
    'GET /api/dynamicwebs/getdata': () => ({ body: ok({ min_age: 18, registration }) }),
    'POST /api/auth/captcha': () => ({
      body: ok({ captcha_id: 'c1', image: 'data:image/svg+xml,<svg/>', expires_in: 120, required: false }),
    }),
    'POST /api/auth/register2': () => ({
      body: ok({ token: 't', token_type: 'Bearer', expires_at: '2030-01-01T00:00:00Z', user: { id: 1 } }),
    }),
  });
  const onSuccess = vi.fn();
  const view = render(
    <QueryClientProvider client={queryClient}>
      {form === 'register' ? <RegisterForm onSuccess={onSuccess} /> : <LoginForm onSuccess={onSuccess} />}
    </QueryClientProvider>,
  );
  return { ...view, api, onSuccess };
}

async function useLanguage(language: 'en' | 'pt') {
  if (language !== 'en')
    i18next.addResourceBundle(language, 'translation', await loadCatalogue(language), true, true);
  await i18next.changeLanguage(language);
  loadValidationMessages();
}

/** A YYYY-MM-DD date as the player types it into the masked field: ddmmyyyy digits. */
function typed(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${day}${month}${year}`;
}

/** Eighteen years ago today, minus `days` (negative: not yet 18). */
function bornAgo(years: number, days = 0): string {
  const date = new Date();
  date.setFullYear(date.getFullYear() - years);
  date.setDate(date.getDate() - days);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

afterEach(() => {
  queryClient.clear();
});

describe('sign-up rules of the site', () => {
  it('on br signs up in two steps: CPF first with its mask, then the limits, errors under each field (pt)', async () => {
    await useLanguage('pt');
    const { container, api } = renderWith(BR_RULES);
    expect(await screen.findByTestId('risk-notice')).toBeTruthy();
    expect(screen.getByTestId('risk-notice').textContent).toContain('Proibido para menores de 18 anos');
    const field = (name: string) => container.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
    await waitFor(() => expect(field('cpf')).toBeTruthy());
    // Who the player is comes first: the CPF is the form's first field; the limits wait.
    expect(container.querySelector('input')!.name).toBe('cpf');
    expect(field('birth_date').placeholder).toBe('dd/mm/aaaa');
    expect(screen.getByTestId('register-step').textContent).toContain('Passo 1 de 2');
    expect(container.querySelector('[name="loss_limit"]')).toBeNull();

    await userEvent.click(screen.getByTestId('register-next'));
    const pt = MESSAGES.pt;
    expect(await screen.findByText(pt['validation.required.cpf'])).toBeTruthy();
    expect(screen.getByText(pt['validation.required.birth_date'])).toBeTruthy();
    expect(container.querySelector('[name="loss_limit"]')).toBeNull();

    await userEvent.type(field('cpf'), '52998224724');
    expect(field('cpf').value).toBe('529.982.247-24');
    await userEvent.type(field('birth_date'), typed(bornAgo(18, -1)));
    await userEvent.type(field('username'), 'maria2025');
    await userEvent.type(field('password'), 'secret123');
    await userEvent.type(field('realname'), 'Maria Silva');
    await userEvent.type(field('phone'), '11987654321');
    await userEvent.click(container.querySelector<HTMLInputElement>('[name="agree_terms"]')!);
    await userEvent.click(screen.getByTestId('register-next'));
    expect(await screen.findByText(pt['validation.cpf_invalid'])).toBeTruthy();
    expect(screen.getByText(pt['validation.adult_required'])).toBeTruthy();

    await userEvent.clear(field('cpf'));
    await userEvent.type(field('cpf'), '52998224725');
    await userEvent.clear(field('birth_date'));
    await userEvent.type(field('birth_date'), typed(bornAgo(18)));
    await userEvent.click(screen.getByTestId('register-next'));
    await waitFor(() => expect(container.querySelector('[name="loss_limit"]')).toBeTruthy());
    expect(screen.getByTestId('register-step').textContent).toContain('Passo 2 de 2');
    // The limits' step opens clean: its errors wait until the player tries to create the account.
    expect(screen.queryByText(pt['errors.RG_LIMIT_REQUIRED'])).toBeNull();

    await userEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText(pt['errors.RG_LIMIT_REQUIRED'])).toBeTruthy();
    await userEvent.type(field('loss_limit'), '1.500,50');
    await userEvent.click(screen.getByTestId('register-submit'));
    await waitFor(() =>
      expect(api.calls.some((call) => call.url.pathname === '/api/auth/register2')).toBe(true),
    );
    const sent = api.calls.find((call) => call.url.pathname === '/api/auth/register2')!.body as Record<
      string,
      unknown
    >;
    expect(sent).toMatchObject({
      cpf: '529.982.247-25',
      birth_date: bornAgo(18),
      realname: 'Maria Silva',
      limits: [
        { kind: 'loss', period: 'month', value: '1500.50' },
        { kind: 'session_time', period: 'day', value: '120' },
      ],
    });
  });

  it('a CPF the server refuses brings the player back to the first step, the error under the CPF', async () => {
    await useLanguage('pt');
    const { container } = renderWith(BR_RULES);
    const field = (name: string) => container.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
    await waitFor(() => expect(field('cpf')).toBeTruthy());
    mockApi({
      'GET /api/dynamicwebs/getdata': () => ({ body: ok({ min_age: 18, registration: BR_RULES }) }),
      'POST /api/auth/captcha': () => ({
        body: ok({ captcha_id: '', image: '', expires_in: 0, required: false }),
      }),
      'POST /api/auth/register2': () => ({
        status: 422,
        body: fail('CPF_IN_USE', 'Este CPF já tem uma conta', {
          errors: { cpf: 'Este CPF já tem uma conta' },
        }),
      }),
    });
    await userEvent.type(field('cpf'), '52998224725');
    await userEvent.type(field('birth_date'), '17051990');
    await userEvent.type(field('username'), 'maria2025');
    await userEvent.type(field('password'), 'secret123');
    await userEvent.type(field('realname'), 'Maria Silva');
    await userEvent.type(field('phone'), '11987654321');
    await userEvent.click(container.querySelector<HTMLInputElement>('[name="agree_terms"]')!);
    await userEvent.click(screen.getByTestId('register-next'));
    await waitFor(() => expect(container.querySelector('[name="loss_limit"]')).toBeTruthy());
    await userEvent.type(field('loss_limit'), '500');
    await userEvent.click(screen.getByTestId('register-submit'));
    const message = await screen.findByText('Este CPF já tem uma conta');
    expect(screen.getByTestId('register-step').textContent).toContain('Passo 1 de 2');
    // Under the CPF field (its description), not in a toast or a banner over the title.
    expect(field('cpf').getAttribute('aria-describedby')).toBe(message.id);
    expect(container.querySelector('[role="alert"].form__alert')).toBeNull();
  });

  it('on br prefills name and birth date from the CPF lookup, never over what the player typed (pt)', async () => {
    await useLanguage('pt');
    const { container } = renderWith(BR_RULES);
    const field = (name: string) => container.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
    await waitFor(() => expect(field('cpf')).toBeTruthy());
    const api = mockApi({
      'GET /api/dynamicwebs/getdata': () => ({ body: ok({ min_age: 18, registration: BR_RULES }) }),
      'POST /api/kyc/cpf-lookup': () => ({
        body: ok({ found: true, realname: 'Maria da Silva Prado', birth_date: '1991-04-12' }),
      }),
    });
    await userEvent.type(field('cpf'), '5299822472');
    expect(api.calls.some((call) => call.url.pathname === '/api/kyc/cpf-lookup')).toBe(false);
    await userEvent.type(field('cpf'), '5');
    await waitFor(() => expect(field('realname').value).toBe('Maria da Silva Prado'));
    expect(field('birth_date').value).toBe('12/04/1991');
    expect(screen.getByTestId('cpf-prefilled').textContent).toBe(
      'Preenchemos seu nome, Maria da Silva Prado, e sua data de nascimento a partir do seu CPF. Confira antes de continuar.',
    );
    const lookup = api.calls.find((call) => call.url.pathname === '/api/kyc/cpf-lookup')!;
    expect(lookup.body).toEqual({ cpf: '52998224725' });

    // Typed first: the name stays the player's.
    await userEvent.clear(field('cpf'));
    await userEvent.clear(field('realname'));
    await userEvent.type(field('realname'), 'Maria S. Prado');
    await userEvent.type(field('cpf'), '52998224725');
    await waitFor(() =>
      expect(api.calls.filter((call) => call.url.pathname === '/api/kyc/cpf-lookup')).toHaveLength(2),
    );
    expect(field('realname').value).toBe('Maria S. Prado');
  });

  it('elsewhere asks none of it and shows no risk message', async () => {
    await useLanguage('en');
    const { container } = renderWith(INTL_RULES);
    await waitFor(() => expect(container.querySelector('[name="username"]')).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const name of ['cpf', 'birth_date', 'loss_limit', 'time_limit_minutes']) {
      expect(container.querySelector(`[name="${name}"]`)).toBeNull();
    }
    expect(screen.queryByTestId('risk-notice')).toBeNull();
  });

  it('shows the risk message at login on br', async () => {
    await useLanguage('en');
    renderWith(BR_RULES, 'login');
    expect((await screen.findByTestId('risk-notice')).textContent).toContain('Play responsibly');
  });
});
