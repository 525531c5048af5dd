import type { TAdminRecoveryCodesResponse } from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../api.ts';

/**
 * The signed-in operator's recovery codes for a lost authenticator: a new set is created with a
 * current authenticator code and shown once (the server keeps only their hashes); each signs in
 * once in place of the authenticator code.
 */
export function RecoveryCodes() {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [code, setCode] = useState('');
  const [copied, setCopied] = useState(false);
  const issue = useMutation({
    mutationFn: async () =>
      (await api<TAdminRecoveryCodesResponse>('/admin/auth/recovery-codes', { body: { totp_code: code } }))
        .data.codes,
  });
  const close = () => {
    dialog.current?.close();
    issue.reset();
    setCode('');
    setCopied(false);
  };
  return (
    <>
      <button
        type="button"
        className="button button--ghost"
        onClick={() => dialog.current?.showModal()}
        data-testid="recovery-open"
      >
        {t('auth.recovery.open')}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby="recovery-title" onClose={close}>
        <h2 id="recovery-title">{t('auth.recovery.title')}</h2>
        {issue.data ? (
          <>
            <p className="alert alert--ok">{t('auth.recovery.issued')}</p>
            <ul className="recovery-codes" data-testid="recovery-codes">
              {issue.data.map((one) => (
                <li key={one}>
                  <code>{one}</code>
                </li>
              ))}
            </ul>
            <div className="dialog__actions">
              <button
                type="button"
                className="button"
                onClick={() => {
                  void navigator.clipboard?.writeText(issue.data.join('\n')).then(() => setCopied(true));
                }}
              >
                {copied ? t('auth.recovery.copied') : t('auth.recovery.copy')}
              </button>
              <button type="button" className="button button--primary" onClick={close}>
                {t('auth.recovery.close')}
              </button>
            </div>
          </>
        ) : (
          <form
            onSubmit={(event: FormEvent) => {
              event.preventDefault();
              issue.mutate();
            }}
          >
            <p className="muted">{t('auth.recovery.lead')}</p>
            <label className="field">
              <span className="field__label">{t('auth.recovery.code')}</span>
              <input
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                placeholder="000000"
                required
                value={code}
                onChange={(event) => setCode(event.target.value.trim())}
                data-testid="recovery-totp"
              />
            </label>
            {issue.error && (
              <p className="alert alert--error" role="alert">
                {issue.error instanceof ApiError ? issue.error.message : String(issue.error)}
              </p>
            )}
            <div className="dialog__actions">
              <button type="button" className="button" onClick={close}>
                {t('auth.recovery.close')}
              </button>
              <button
                type="submit"
                className="button button--primary"
                disabled={issue.isPending}
                data-testid="recovery-issue"
              >
                {t('auth.recovery.issue')}
              </button>
            </div>
          </form>
        )}
      </dialog>
    </>
  );
}
