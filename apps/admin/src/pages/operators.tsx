import { useInvalidate } from '@refinedev/core';
import {
  OPERATOR_ROLES,
  type TOperatorAccount,
  type TOperatorRole,
  type TOperatorSecretResponse,
} from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, session } from '../api.ts';
import { DataTable } from '../components/data-table.tsx';
import { formatDateTime } from '../i18n.ts';

/** The new authenticator of an operator, shown once to hand over. */
function SecretCard({ secret, onClose }: { secret: TOperatorSecretResponse; onClose: () => void }) {
  const { t } = useTranslation();
  const card = useRef<HTMLElement>(null);
  // On a phone the card opens below the list: bring it into view.
  useEffect(() => {
    if (window.matchMedia('(max-width: 900px)').matches) card.current?.scrollIntoView({ block: 'start' });
  }, []);
  return (
    <section ref={card} className="card panel" data-testid="operator-secret">
      <header className="panel__header">
        <h2>{t('operators.secret_title', { username: secret.operator.username })}</h2>
        <button
          type="button"
          className="button button--ghost"
          onClick={onClose}
          aria-label={t('common.close')}
        >
          ✕
        </button>
      </header>
      <p className="muted">{t('operators.secret_hint')}</p>
      <img className="setup-qr" src={secret.qr_code} alt={t('setup.qr_alt')} width={180} height={180} />
      <p className="setup-secret">
        <code>{secret.totp_secret}</code>
      </p>
    </section>
  );
}

/** Owner: the site's operators — create one with a role, reset an authenticator, disable or enable. */
export default function OperatorsPage() {
  const { t } = useTranslation();
  const invalidate = useInvalidate();
  const [secret, setSecret] = useState<TOperatorSecretResponse | null>(null);
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refresh = () => invalidate({ resource: 'operators', invalidates: ['list'] });
  const failed = (error: unknown) => {
    setErrors(error instanceof ApiError ? error.errors : {});
    setNotice({ tone: 'error', text: error instanceof Error ? error.message : String(error) });
  };

  const form = useRef<HTMLFormElement>(null);
  const create = useMutation({
    mutationFn: (body: { username: string; password: string; role: TOperatorRole }) =>
      api<TOperatorSecretResponse>('/admin/operators', { body }),
    onSuccess: async ({ data, message }) => {
      form.current?.reset();
      setSecret(data);
      setNotice({ tone: 'ok', text: message });
      await refresh();
    },
    onError: failed,
  });
  const reset = useMutation({
    mutationFn: (id: number) =>
      api<TOperatorSecretResponse>(`/admin/operators/${id}/reset-totp`, { body: {} }),
    onSuccess: async ({ data, message }) => {
      setSecret(data);
      setNotice({ tone: 'ok', text: message });
      await refresh();
    },
    onError: failed,
  });
  const status = useMutation({
    mutationFn: ({ id, value }: { id: number; value: 0 | 1 }) =>
      api<TOperatorAccount>(`/admin/operators/${id}/status`, { body: { status: value } }),
    onSuccess: async ({ message }) => {
      setNotice({ tone: 'ok', text: message });
      await refresh();
    },
    onError: failed,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setErrors({});
    setNotice(null);
    create.mutate({
      username: String(form.get('username') ?? ''),
      password: String(form.get('password') ?? ''),
      role: String(form.get('role') ?? 'support') as TOperatorRole,
    });
  };
  const me = session.operator();

  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('operators.title')}</h1>
        <p className="muted">{t('operators.subtitle')}</p>
      </header>
      {notice && (
        <p className={`alert alert--${notice.tone === 'ok' ? 'ok' : 'error'} page__alert`} role="status">
          {notice.text}
        </p>
      )}
      <div className={`split${secret ? ' split--open' : ''}`}>
        <div>
          <form ref={form} className="card filters operator-form" onSubmit={submit} noValidate>
            <label className="field field--inline">
              <span className="field__label">{t('auth.username')}</span>
              <input name="username" autoComplete="off" required />
              {errors.username && <span className="field__error">{errors.username}</span>}
            </label>
            <label className="field field--inline">
              <span className="field__label">{t('auth.password')}</span>
              <input name="password" type="password" autoComplete="new-password" required />
              {errors.password && <span className="field__error">{errors.password}</span>}
            </label>
            <label className="field field--inline">
              <span className="field__label">{t('operators.role')}</span>
              <select name="role" defaultValue="support">
                {OPERATOR_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {t(`role.${role}`)}
                  </option>
                ))}
              </select>
            </label>
            <div className="filters__actions">
              <button type="submit" className="button button--primary" disabled={create.isPending}>
                {t('operators.create')}
              </button>
            </div>
          </form>
          <DataTable<TOperatorAccount>
            resource="operators"
            rowKey={(row) => String(row.id)}
            columns={[
              { key: 'username', header: t('auth.username') },
              { key: 'role', header: t('operators.role'), render: (row) => t(`role.${row.role}`) },
              {
                key: 'status',
                header: t('operators.status'),
                render: (row) => (
                  <span className={`badge badge--${row.status === 1 ? 'ok' : 'bad'}`}>
                    {t(row.status === 1 ? 'operators.active' : 'operators.disabled')}
                  </span>
                ),
              },
              {
                key: 'last_login_at',
                header: t('operators.last_login'),
                render: (row) => formatDateTime(row.last_login_at),
              },
              {
                key: 'actions',
                header: '',
                align: 'right',
                render: (row) =>
                  row.username === me?.username ? null : (
                    <span className="badges">
                      <button
                        type="button"
                        className="button button--ghost"
                        onClick={() => {
                          if (window.confirm(t('operators.reset_confirm', { username: row.username })))
                            reset.mutate(row.id);
                        }}
                      >
                        {t('operators.reset_totp')}
                      </button>
                      <button
                        type="button"
                        className={`button ${row.status === 1 ? 'button--danger' : ''}`}
                        onClick={() => status.mutate({ id: row.id, value: row.status === 1 ? 0 : 1 })}
                      >
                        {t(row.status === 1 ? 'operators.disable' : 'operators.enable')}
                      </button>
                    </span>
                  ),
              },
            ]}
          />
        </div>
        {secret && <SecretCard secret={secret} onClose={() => setSecret(null)} />}
      </div>
    </div>
  );
}
