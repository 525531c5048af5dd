import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { loadValidationMessages } from '../../../lib/validation-messages.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { TwoFactorCard } from './two-factor-card.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const OVERVIEW = {
  has_qk_pwd: true,
  email: null,
  email_verified: false,
  totp_enabled: false,
  recovery_codes_left: 0,
  password_changed_at: null,
  last_login: null,
  current_login: { at: '2026-11-25T10:00:00.000Z', ip: '127.0.0.1' },
  password_verified_until: null,
};
const CODES = ['ab12-cd34', 'ef56-gh78', 'ij90-kl12', 'mn34-op56'];

describe('two-factor card on /security-center', () => {
  it('shows the QR and key, turns on with a code and shows the recovery codes once (pt)', async () => {
    i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
    await i18next.changeLanguage('pt');
    loadValidationMessages();
    setToken('player-token');
    queryClient.clear();
    let enabled = false;
    const { calls } = mockApi({
      'GET /api/security/overview': () => ({
        body: ok({ ...OVERVIEW, totp_enabled: enabled, recovery_codes_left: enabled ? CODES.length : 0 }),
      }),
      'POST /api/security/totp/setup': () => ({
        body: ok({
          secret: 'JBSWY3DPEHPK3PXP',
          otpauth_url: 'otpauth://totp/Sorte:maria01?secret=JBSWY3DPEHPK3PXP',
          qr: 'data:image/svg+xml,<svg/>',
        }),
      }),
      'POST /api/security/totp/enable': (call) => {
        if ((call.body as { code: string }).code !== '123456')
          return {
            status: 422,
            body: fail('TOTP_INVALID', 'Código errado', { errors: { code: 'Código errado' } }),
          };
        enabled = true;
        return { body: ok({ recovery_codes: CODES }) };
      },
    });
    render(
      <QueryClientProvider client={queryClient}>
        <TwoFactorCard />
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByTestId('totp-start'));
    expect(
      (await screen.findByRole('img', { name: 'QR code para o app autenticador' })).getAttribute('src'),
    ).toBe('data:image/svg+xml,<svg/>');
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSWY3DPEHPK3PXP');
    await userEvent.type(screen.getByTestId('totp-code'), '111111');
    await userEvent.click(screen.getByTestId('totp-enable-submit'));
    expect(await screen.findByText('Código errado')).toBeTruthy();
    await userEvent.clear(screen.getByTestId('totp-code'));
    await userEvent.type(screen.getByTestId('totp-code'), '123456');
    await userEvent.click(screen.getByTestId('totp-enable-submit'));
    const list = await screen.findByTestId('totp-recovery-codes');
    expect(list.textContent).toBe(CODES.join(''));
    expect(calls.filter((call) => call.url.pathname === '/api/security/totp/enable').at(-1)?.body).toEqual({
      code: '123456',
    });
    await userEvent.click(screen.getByTestId('totp-recovery-done'));
    expect(screen.queryByTestId('totp-recovery-codes')).toBeNull();
    expect(
      await screen.findByText(
        'Ativada: o login e os saques pedem o código do autenticador. Códigos de recuperação restantes: 4',
      ),
    ).toBeTruthy();
    expect(screen.getByTestId('totp-turn-off')).toBeTruthy();
    await i18next.changeLanguage('en');
  });
});
