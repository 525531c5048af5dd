import { MESSAGES } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';
import { loadValidationMessages } from '../../../lib/validation-messages.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import BindEmailPage from './bind-email-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const OVERVIEW = {
  has_qk_pwd: false,
  email: null,
  email_verified: false,
  totp_enabled: false,
  recovery_codes_left: 0,
  password_changed_at: null,
  last_login: null,
  current_login: { at: '2026-11-25T10:00:00.000Z', ip: '127.0.0.1' },
  password_verified_until: null,
};

describe('/bind-email', () => {
  it('sends a code to the address typed, then confirms it with the code (pt)', async () => {
    i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
    await i18next.changeLanguage('pt');
    loadValidationMessages();
    const pt = MESSAGES.pt;
    setToken('player-token');
    let codeWrong = true;
    const { calls } = mockApi({
      'GET /api/security/overview': () => ({ body: ok(OVERVIEW) }),
      'GET /api/user/info': () => ({ body: ok(null) }),
      'POST /api/security/email/code': () => ({ body: ok(null) }),
      'POST /api/security/email/bind': () =>
        codeWrong
          ? {
              status: 422,
              body: fail('EMAIL_CODE_INVALID', pt['errors.EMAIL_CODE_INVALID'], {
                errors: { code: pt['errors.EMAIL_CODE_INVALID'] },
              }),
            }
          : { body: ok(null) },
    });
    const router = createMemoryRouter(
      [
        { path: '/bind-email', element: <BindEmailPage /> },
        { path: '/security-center', element: <p>security centre</p> },
      ],
      { initialEntries: ['/bind-email'] },
    );
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const address = await screen.findByTestId('bind-email-address');
    await userEvent.type(address, 'maria@exemplo');
    await userEvent.click(screen.getByTestId('bind-email-send'));
    expect(await screen.findByText(pt['validation.email_invalid'])).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/api/security/email/code')).toBe(false);

    await userEvent.clear(address);
    await userEvent.type(address, 'Maria@Exemplo.com');
    await userEvent.click(screen.getByTestId('bind-email-send'));
    expect((await screen.findByTestId('bind-email-sent')).textContent).toBe(
      'Enviamos um código de 6 dígitos para maria@exemplo.com. Digite-o abaixo.',
    );
    expect(calls.find((call) => call.url.pathname === '/api/security/email/code')?.body).toEqual({
      email: 'maria@exemplo.com',
    });

    await userEvent.type(screen.getByTestId('bind-email-code'), '654321');
    await userEvent.click(screen.getByTestId('bind-email-submit'));
    expect(await screen.findByText(pt['errors.EMAIL_CODE_INVALID'])).toBeTruthy();

    codeWrong = false;
    await userEvent.click(screen.getByTestId('bind-email-submit'));
    expect(await screen.findByText('security centre')).toBeTruthy();
    expect(toast.success).toHaveBeenCalledWith(pt['messages.email_bound']);
    expect(calls.filter((call) => call.url.pathname === '/api/security/email/bind').at(-1)?.body).toEqual({
      email: 'maria@exemplo.com',
      code: '654321',
    });
    await i18next.changeLanguage('en');
  });
});
