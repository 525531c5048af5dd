import { useLogin } from '@refinedev/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_LANGUAGES } from '../i18n.ts';

/** Operator sign-in: username, password and the current code of the authenticator app. */
export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const { mutate: login, isPending } = useLogin<{ username: string; password: string; totp_code: string }>();
  const [error, setError] = useState<{ message: string; errors: Record<string, string> } | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    login(
      {
        username: String(form.get('username') ?? ''),
        password: String(form.get('password') ?? ''),
        totp_code: String(form.get('totp_code') ?? '').replace(/\s/g, ''),
      },
      {
        onSuccess: (result) => {
          if (!result.success) {
            const refused = result.error as unknown as { message?: string; errors?: Record<string, string> };
            setError({ message: refused?.message ?? t('errors.network'), errors: refused?.errors ?? {} });
          }
        },
      },
    );
  };

  return (
    <div className="auth-page">
      <form className="auth-card card" onSubmit={submit} noValidate>
        <div className="auth-card__brand">
          <span className="sidebar__logo" aria-hidden="true">
            S
          </span>
          <div>
            <h1>{t('auth.title')}</h1>
            <p className="muted">{t('auth.subtitle')}</p>
          </div>
        </div>
        <label className="field">
          <span className="field__label">{t('auth.username')}</span>
          <input name="username" autoComplete="username" required data-testid="login-username" />
          {error?.errors.username && <span className="field__error">{error.errors.username}</span>}
        </label>
        <label className="field">
          <span className="field__label">{t('auth.password')}</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            data-testid="login-password"
          />
          {error?.errors.password && <span className="field__error">{error.errors.password}</span>}
        </label>
        <label className="field">
          <span className="field__label">{t('auth.totp')}</span>
          <input
            name="totp_code"
            autoComplete="one-time-code"
            pattern="[0-9]{6}|[A-Za-z0-9]{4}-[A-Za-z0-9]{4}"
            maxLength={9}
            placeholder="000000"
            required
            data-testid="login-totp"
          />
          <span className="field__hint">{t('auth.totp_hint')}</span>
        </label>
        {error && (
          <p className="alert alert--error" role="alert" data-testid="login-error">
            {error.message}
          </p>
        )}
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={isPending}
          data-testid="login-submit"
        >
          {isPending ? t('auth.signing_in') : t('auth.sign_in')}
        </button>
        <div className="auth-card__lang">
          {ADMIN_LANGUAGES.map((language) => (
            <button
              key={language.code}
              type="button"
              className={`link${i18n.language === language.code ? ' link--active' : ''}`}
              onClick={() => void i18n.changeLanguage(language.code)}
            >
              {language.label}
            </button>
          ))}
        </div>
      </form>
    </div>
  );
}
