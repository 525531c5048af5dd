import { MESSAGES } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { toast } from '../../../lib/toast.ts';
import { loadValidationMessages } from '../../../lib/validation-messages.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { inviteCodeFromUrl, RegisterForm } from './register-form.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

function renderForm() {
  mockApi({
    'POST /api/auth/captcha': () => ({
      body: ok({ captcha_id: 'c1', image: 'data:image/svg+xml,<svg/>', expires_in: 120, required: true }),
    }),
  });
  const onSuccess = vi.fn();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RegisterForm onSuccess={onSuccess} />
    </QueryClientProvider>,
  );
  return { ...view, onSuccess };
}

async function useLanguage(language: 'en' | 'pt') {
  if (language !== 'en')
    i18next.addResourceBundle(language, 'translation', await loadCatalogue(language), true, true);
  await i18next.changeLanguage(language);
  loadValidationMessages();
}

describe('register form', () => {
  it('shows the translated message of every rule when submitted empty (en)', async () => {
    await useLanguage('en');
    const { container } = renderForm();
    await screen.findByTestId('captcha-image');
    await userEvent.click(screen.getByTestId('register-submit'));
    const en = MESSAGES.en;
    for (const text of [
      en['validation.required.username'],
      en['validation.required.password'],
      en['validation.required.realname'],
      en['validation.required.phone'],
      en['validation.required.captcha_code'],
      en['validation.terms_required'],
    ]) {
      expect(await screen.findByText(text)).toBeTruthy();
    }
    // Only what a new player needs: no second password, no withdrawal password, one box.
    for (const name of ['password_confirmation', 'qk_pwd', 'is_adult']) {
      expect(container.querySelector(`[name="${name}"]`)).toBeNull();
    }
    // The terms-and-age box and "keep me signed in".
    expect(container.querySelectorAll('input[type="checkbox"]')).toHaveLength(2);
    expect(container.textContent).not.toContain('validation.');
    // Each error is under its field: no toast over the form.
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('shows the messages in Portuguese when the language is pt', async () => {
    await useLanguage('pt');
    renderForm();
    await screen.findByTestId('captcha-image');
    const form = document.querySelector('form')!;
    await userEvent.type(form.querySelector<HTMLInputElement>('[name="password"]')!, 'abc');
    await userEvent.type(form.querySelector<HTMLInputElement>('[name="phone"]')!, '123');
    await userEvent.click(screen.getByTestId('register-submit'));
    const pt = MESSAGES.pt;
    expect(await screen.findByText(pt['validation.required.username'])).toBeTruthy();
    expect(await screen.findByText(pt['validation.password_min'])).toBeTruthy();
    expect(await screen.findByText(pt['validation.phone_invalid'])).toBeTruthy();
    expect(await screen.findByText(pt['validation.terms_required'])).toBeTruthy();
    expect(screen.getByTestId('register-submit').textContent).toBe('Criar conta');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('sends one box as both the terms and the age, and no withdrawal password', async () => {
    await useLanguage('en');
    const api = mockApi({
      'POST /api/auth/captcha': () => ({
        body: ok({ captcha_id: '', image: '', expires_in: 0, required: false }),
      }),
      'POST /api/auth/register2': () => ({ body: ok({ token: 't', user: {} }) }),
      'POST /api/auth/me': () => ({ body: ok(null) }),
    });
    render(
      <QueryClientProvider client={queryClient}>
        <RegisterForm onSuccess={() => {}} />
      </QueryClientProvider>,
    );
    const form = document.querySelector('form')!;
    await waitFor(() => expect(form.querySelector('[name="captcha_code"]')).toBeNull());
    await userEvent.type(form.querySelector<HTMLInputElement>('[name="username"]')!, 'maria_01');
    await userEvent.type(form.querySelector<HTMLInputElement>('[name="password"]')!, 'secret123');
    await userEvent.type(form.querySelector<HTMLInputElement>('[name="realname"]')!, 'Maria Silva');
    await userEvent.type(form.querySelector<HTMLInputElement>('[name="phone"]')!, '11987654321');
    await userEvent.click(form.querySelector<HTMLInputElement>('[name="agree_terms"]')!);
    await userEvent.click(screen.getByTestId('register-submit'));
    await waitFor(() =>
      expect(api.calls.some((call) => call.url.pathname === '/api/auth/register2')).toBe(true),
    );
    const body = api.calls.find((call) => call.url.pathname === '/api/auth/register2')?.body as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ agree_terms: true, is_adult: true, username: 'maria_01' });
    expect(body).not.toHaveProperty('qk_pwd');
    expect(body).not.toHaveProperty('password_confirmation');
  });

  it('hides the captcha when the server says it is not required', async () => {
    mockApi({
      'POST /api/auth/captcha': () => ({
        body: ok({ captcha_id: '', image: '', expires_in: 0, required: false }),
      }),
    });
    render(
      <QueryClientProvider client={queryClient}>
        <RegisterForm onSuccess={() => {}} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.queryByTestId('captcha-image')).toBeNull());
    expect(document.querySelector('[name="captcha_code"]')).toBeNull();
  });

  it('takes the introducer code from ?invite= or ?code=', () => {
    expect(inviteCodeFromUrl('?invite=AB12CD')).toBe('AB12CD');
    expect(inviteCodeFromUrl('?code=XY9')).toBe('XY9');
    expect(inviteCodeFromUrl('?invite=<script>')).toBe('');
    expect(inviteCodeFromUrl('')).toBe('');
  });
});
