import type { TAdminSetupInfo } from '@sorte/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError, api } from '../api.ts';

/**
 * First owner setup (a site without operators): the one-time link the server printed at start.
 * The owner adds the authenticator (QR code or secret), then chooses a username and a password and
 * proves the authenticator with a current code.
 */
export default function SetupPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const info = useQuery({
    queryKey: ['owner-setup', token],
    queryFn: async () => (await api<TAdminSetupInfo>('/admin/setup', { query: { token } })).data,
    enabled: token !== '',
  });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const complete = useMutation({
    mutationFn: (body: Record<string, string>) => api('/admin/setup', { body: { token, ...body } }),
    onError: (error) => setFieldErrors(error instanceof ApiError ? error.errors : {}),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFieldErrors({});
    complete.mutate({
      username: String(form.get('username') ?? ''),
      password: String(form.get('password') ?? ''),
      totp_code: String(form.get('totp_code') ?? '').replace(/\s/g, ''),
    });
  };

  const refused = info.error ?? (token === '' ? new Error(t('setup.no_token')) : null);
  return (
    <div className="auth-page">
      <div className="auth-card card">
        <div className="auth-card__brand">
          <span className="sidebar__logo" aria-hidden="true">
            S
          </span>
          <div>
            <h1>{t('setup.title')}</h1>
            <p className="muted">{t('setup.subtitle')}</p>
          </div>
        </div>
        {refused && (
          <p className="alert alert--error" role="alert">
            {refused.message}
          </p>
        )}
        {complete.isSuccess ? (
          <>
            <p className="alert alert--ok" role="status" data-testid="setup-done">
              {complete.data.message}
            </p>
            <Link className="button button--primary button--block" to="/login">
              {t('auth.sign_in')}
            </Link>
          </>
        ) : (
          info.data && (
            <form onSubmit={submit} noValidate>
              <ol className="setup-steps">
                <li>{t('setup.step_app')}</li>
              </ol>
              <img
                className="setup-qr"
                src={info.data.qr_code}
                alt={t('setup.qr_alt')}
                width={180}
                height={180}
              />
              <p className="muted setup-secret">
                {t('setup.secret')} <code data-testid="setup-secret">{info.data.totp_secret}</code>
              </p>
              <label className="field">
                <span className="field__label">{t('auth.username')}</span>
                <input name="username" autoComplete="username" required />
                {fieldErrors.username && <span className="field__error">{fieldErrors.username}</span>}
              </label>
              <label className="field">
                <span className="field__label">{t('auth.password')}</span>
                <input name="password" type="password" autoComplete="new-password" required />
                {fieldErrors.password && <span className="field__error">{fieldErrors.password}</span>}
              </label>
              <label className="field">
                <span className="field__label">{t('auth.totp')}</span>
                <input
                  name="totp_code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={7}
                  required
                />
                {fieldErrors.totp_code && <span className="field__error">{fieldErrors.totp_code}</span>}
              </label>
              {complete.error && (
                <p className="alert alert--error" role="alert">
                  {complete.error.message}
                </p>
              )}
              <button
                type="submit"
                className="button button--primary button--block"
                disabled={complete.isPending}
              >
                {t('setup.submit')}
              </button>
            </form>
          )
        )}
      </div>
    </div>
  );
}
