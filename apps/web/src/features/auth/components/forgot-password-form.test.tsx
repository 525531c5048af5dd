import { MESSAGES } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { loadValidationMessages } from '../../../lib/validation-messages.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import LoginModal from './login-modal.tsx';

async function useLanguage(language: 'en' | 'pt') {
  if (language !== 'en')
    i18next.addResourceBundle(language, 'translation', await loadCatalogue(language), true, true);
  await i18next.changeLanguage(language);
  loadValidationMessages();
}

describe('forgot password in the login modal', () => {
  it('asks the account, sends the code, then sets the new password typed twice (pt)', async () => {
    await useLanguage('pt');
    const pt = MESSAGES.pt;
    let codeWrong = true;
    const { calls } = mockApi({
      'POST /api/auth/captcha': () => ({
        body: ok({ captcha_id: 'c1', image: 'data:image/svg+xml,<svg/>', expires_in: 120, required: false }),
      }),
      'POST /api/auth/password/forgot': () => ({ body: ok(null) }),
      'POST /api/auth/password/reset': () =>
        codeWrong
          ? {
              status: 422,
              body: fail('EMAIL_CODE_INVALID', pt['errors.EMAIL_CODE_INVALID'], {
                errors: { code: pt['errors.EMAIL_CODE_INVALID'] },
              }),
            }
          : { body: ok(null) },
    });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <LoginModal onClose={vi.fn()} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Esqueceu a senha?' }));
    expect(
      screen.getByText('Informe sua conta. Enviaremos um código para o e-mail confirmado nela.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByTestId('forgot-send'));
    expect(await screen.findByText(pt['validation.required.username'])).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/api/auth/password/forgot')).toBe(false);

    await userEvent.type(screen.getByTestId('forgot-username'), 'maria01');
    await userEvent.click(screen.getByTestId('forgot-send'));
    await screen.findByTestId('reset-code');
    const forgot = calls.find((call) => call.url.pathname === '/api/auth/password/forgot');
    expect(forgot?.body).toEqual({ username: 'maria01' });
    expect(screen.getByTestId('reset-code-sent').textContent).toBe(pt['messages.reset_code_sent']);

    // Checked before anything is sent: the code's form and the two passwords.
    await userEvent.type(screen.getByTestId('reset-code'), '12');
    await userEvent.type(screen.getByTestId('reset-new-password'), 'nova-senha-1');
    await userEvent.type(screen.getByTestId('reset-new-password-confirmation'), 'nova-senha-2');
    await userEvent.click(screen.getByTestId('reset-submit'));
    expect(await screen.findByText(pt['validation.code_format'])).toBeTruthy();
    expect(screen.getByText(pt['validation.passwords_did_not_match'])).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/api/auth/password/reset')).toBe(false);

    // The server's refusal of a wrong code shows under the code.
    await userEvent.clear(screen.getByTestId('reset-code'));
    await userEvent.type(screen.getByTestId('reset-code'), '123456');
    await userEvent.clear(screen.getByTestId('reset-new-password-confirmation'));
    await userEvent.type(screen.getByTestId('reset-new-password-confirmation'), 'nova-senha-1');
    await userEvent.click(screen.getByTestId('reset-submit'));
    expect(await screen.findByText(pt['errors.EMAIL_CODE_INVALID'])).toBeTruthy();

    codeWrong = false;
    await userEvent.click(screen.getByTestId('reset-submit'));
    // Back on the login form, saying the password was reset.
    expect((await screen.findByTestId('password-reset-done')).textContent).toBe(
      pt['messages.password_reset'],
    );
    const reset = calls.filter((call) => call.url.pathname === '/api/auth/password/reset').at(-1);
    expect(reset?.body).toEqual({
      username: 'maria01',
      code: '123456',
      new_password: 'nova-senha-1',
      new_password_confirmation: 'nova-senha-1',
    });
    expect(screen.getByTestId('login-submit')).toBeTruthy();
    await useLanguage('en');
  });
});
