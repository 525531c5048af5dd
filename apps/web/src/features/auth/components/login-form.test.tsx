import { MESSAGES } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../lib/format.ts';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { getToken, setToken } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';
import { loadValidationMessages } from '../../../lib/validation-messages.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { LoginForm } from './login-form.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

async function usePortuguese() {
  i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
  await i18next.changeLanguage('pt');
  loadValidationMessages();
}

const CAPTCHA = {
  'POST /api/auth/captcha': () => ({
    body: ok({ captcha_id: 'c1', image: 'data:image/svg+xml,<svg/>', expires_in: 120, required: false }),
  }),
};

function renderForm() {
  const onSuccess = vi.fn();
  const onWithdrawalSession = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <LoginForm onSuccess={onSuccess} onWithdrawalSession={onWithdrawalSession} />
    </QueryClientProvider>,
  );
  return { onSuccess, onWithdrawalSession };
}

async function typeCredentials() {
  const form = await screen.findByRole('form');
  await userEvent.type(form.querySelector('[name="username"]')!, 'maria01');
  await userEvent.type(form.querySelector('[name="password"]')!, 'senha-123');
  await userEvent.click(screen.getByTestId('login-submit'));
}

describe('login form', () => {
  it('asks the authenticator code when two-factor is on and sends it with the next try (pt)', async () => {
    await usePortuguese();
    const pt = MESSAGES.pt;
    setToken(null);
    const user = makeUser();
    const { calls } = mockApi({
      ...CAPTCHA,
      'POST /api/auth/login2': (call) => {
        const code = (call.body as { totp_code?: string }).totp_code;
        if (!code) return { status: 401, body: fail('TOTP_REQUIRED', pt['errors.TOTP_REQUIRED']) };
        if (code !== '123456')
          return {
            status: 401,
            body: fail('TOTP_INVALID', 'Código de autenticação incorreto. Restam 4 tentativa(s)'),
          };
        return {
          body: ok({
            token: 'session-1',
            token_type: 'Bearer',
            expires_at: '2026-12-01T00:00:00Z',
            user,
            previous_login: { at: '2026-11-30T21:15:00Z', ip: '203.0.113.9' },
          }),
        };
      },
      'POST /api/auth/me': () => ({ body: ok(user) }),
      'POST /api/profilepictures/user': () => ({ body: ok({ profileurl: null }) }),
    });
    const { onSuccess } = renderForm();
    await typeCredentials();
    const totp = await screen.findByTestId('login-totp');
    expect(screen.getByText('Código do autenticador')).toBeTruthy();
    await userEvent.type(totp, '000000');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Código de autenticação incorreto. Restam 4 tentativa(s)')).toBeTruthy();
    await userEvent.clear(totp);
    await userEvent.type(totp, '123456');
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    const tries = calls.filter((call) => call.url.pathname === '/api/auth/login2').map((call) => call.body);
    expect(tries).toEqual([
      { username: 'maria01', password: 'senha-123', remember: false },
      { username: 'maria01', password: 'senha-123', remember: false, totp_code: '000000' },
      { username: 'maria01', password: 'senha-123', remember: false, totp_code: '123456' },
    ]);
    expect(getToken()).toBe('session-1');
    setToken(null);
    await i18next.changeLanguage('en');
  });

  it('tells a self-excluded player why and opens the withdrawals-only session on request (pt)', async () => {
    await usePortuguese();
    setToken(null);
    const message = 'Você se autoexcluiu das apostas até 25/05/2027, 10:00. Você ainda pode sacar seu saldo';
    mockApi({
      ...CAPTCHA,
      'POST /api/auth/login2': () => ({
        status: 403,
        body: fail('SELF_EXCLUDED', message, {
          withdrawal_session: { token: 'withdraw-only', expires_at: '2026-11-25T14:00:00Z' },
        }),
      }),
      'POST /api/auth/me': () => ({ body: ok(makeUser()) }),
    });
    const { onSuccess, onWithdrawalSession } = renderForm();
    await typeCredentials();
    const restricted = await screen.findByTestId('login-restricted');
    expect(restricted.textContent).toContain(message);
    expect(restricted.textContent).toContain('esta sessão abre apenas o saldo e os saques');
    expect(getToken()).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Ir para o saque' }));
    await waitFor(() => expect(onWithdrawalSession).toHaveBeenCalled());
    expect(getToken()).toBe('withdraw-only');
    expect(onSuccess).not.toHaveBeenCalled();
    setToken(null);
    await i18next.changeLanguage('en');
  });

  it('shows the previous login time and address after a login (pt)', async () => {
    await usePortuguese();
    setToken(null);
    const user = makeUser();
    mockApi({
      ...CAPTCHA,
      'POST /api/auth/login2': () => ({
        body: ok({
          token: 'session-2',
          token_type: 'Bearer',
          expires_at: '2026-12-01T00:00:00Z',
          user,
          previous_login: { at: '2026-11-30T21:15:00Z', ip: '198.51.100.4' },
        }),
      }),
      'POST /api/auth/me': () => ({ body: ok(user) }),
      'POST /api/profilepictures/user': () => ({ body: ok({ profileurl: null }) }),
    });
    const { onSuccess } = renderForm();
    await typeCredentials();
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(vi.mocked(toast.success)).toHaveBeenLastCalledWith(expect.any(String), {
      description: `Último acesso: ${formatDateTime('2026-11-30T21:15:00Z')} a partir de 198.51.100.4`,
    });
    setToken(null);
    await i18next.changeLanguage('en');
  });
});
