import type { TTotpSetupResponse } from '@sorte/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, SubmitButton } from '../../../components/field.tsx';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { useSecurityCall, useSecurityOverview } from '../api/security-api.ts';
import { showFailure } from './form-error.ts';

const CODE = /^(\d{6}|[a-z0-9]{4}-[a-z0-9]{4})$/i;

/**
 * Two-factor authentication on /security-center: turn it on (the server's QR and secret for an
 * authenticator app, confirmed with a first code; the recovery codes shown once), or off (login
 * password and a code). Once on, login and withdrawals ask the code.
 */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const overview = useSecurityOverview();
  const setup = useSecurityCall<Record<string, never>>('/api/security/totp/setup');
  const enable = useSecurityCall<{ code: string }>('/api/security/totp/enable');
  const disable = useSecurityCall<{ password: string; code: string }>('/api/security/totp/disable');
  const [secret, setSecret] = useState<TTotpSetupResponse | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  if (!overview.data) return null;
  const enabled = overview.data.totp_enabled;

  const checkCode = (): boolean => {
    const typed = code.trim();
    if (!typed) setErrors({ code: 'validation.required.code' });
    else if (!CODE.test(typed)) setErrors({ code: 'validation.code_format' });
    else return true;
    return false;
  };
  const start = async () => {
    setErrors({});
    try {
      setSecret((await setup.mutateAsync({})) as TTotpSetupResponse);
    } catch (error) {
      showFailure(error, setErrors);
    }
  };
  const onEnable = async (event: FormEvent) => {
    event.preventDefault();
    if (!checkCode()) return;
    try {
      const result = (await enable.mutateAsync({ code: code.trim() })) as { recovery_codes: string[] };
      setRecovery(result.recovery_codes);
      setSecret(null);
      setCode('');
      setErrors({});
      toast.success(t('messages.totp_enabled'));
    } catch (error) {
      showFailure(error, setErrors);
    }
  };
  const onDisable = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setErrors({ password: 'validation.required.password' });
    if (!checkCode()) return;
    try {
      await disable.mutateAsync({ password, code: code.trim() });
      setTurningOff(false);
      setPassword('');
      setCode('');
      setErrors({});
      toast.success(t('messages.totp_disabled'));
    } catch (error) {
      showFailure(error, setErrors);
    }
  };

  const codeField = (
    <Field
      label={t('security.totp_code')}
      inputMode="numeric"
      autoComplete="one-time-code"
      autoCapitalize="off"
      spellCheck={false}
      maxLength={9}
      value={code}
      onChange={(event) => setCode(event.target.value)}
      error={errors.code}
      data-testid="totp-code"
    />
  );

  return (
    <section className="security-card" aria-labelledby="security-two-factor" data-testid="two-factor-card">
      <h2 id="security-two-factor">{t('security.two_factor')}</h2>
      {recovery ? (
        <div className="security-form">
          <p className="security-note">{t('security.totp_recovery_intro')}</p>
          <ul className="totp-recovery" data-testid="totp-recovery-codes">
            {recovery.map((item) => (
              <li key={item}>
                <code>{item}</code>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="button button--secondary button--block"
            onClick={() =>
              void navigator.clipboard
                ?.writeText(recovery.join('\n'))
                .then(() => toast.success(t('money.copied')))
            }
          >
            {t('security.totp_copy_codes')}
          </button>
          <button
            type="button"
            className="button button--primary button--block"
            data-testid="totp-recovery-done"
            onClick={() => setRecovery(null)}
          >
            {t('security.totp_codes_saved')}
          </button>
        </div>
      ) : enabled ? (
        turningOff ? (
          <form className="security-form" onSubmit={(event) => void onDisable(event)} noValidate>
            <Field
              label={t('security.login_password')}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={errors.password}
              data-testid="totp-disable-password"
            />
            {codeField}
            <SubmitButton
              label={t('security.totp_turn_off')}
              busy={disable.isPending}
              testId="totp-disable-submit"
            />
          </form>
        ) : (
          <div className="security-form">
            <p className="security-note">
              {t('security.totp_on_note', { count: overview.data.recovery_codes_left })}
            </p>
            <button
              type="button"
              className="button button--secondary button--block"
              data-testid="totp-turn-off"
              onClick={() => setTurningOff(true)}
            >
              {t('security.totp_turn_off')}
            </button>
          </div>
        )
      ) : secret ? (
        <form className="security-form" onSubmit={(event) => void onEnable(event)} noValidate>
          <p className="security-note">{t('security.totp_scan')}</p>
          <img className="totp-qr" src={secret.qr} alt={t('security.totp_qr')} width={200} height={200} />
          <p className="security-note">
            {t('security.totp_manual')}{' '}
            <code className="totp-secret" data-testid="totp-secret">
              {secret.secret}
            </code>
          </p>
          {codeField}
          <SubmitButton
            label={t('security.totp_turn_on')}
            busy={enable.isPending}
            testId="totp-enable-submit"
          />
        </form>
      ) : (
        <form
          className="security-form"
          onSubmit={(event) => {
            event.preventDefault();
            void start();
          }}
          noValidate
        >
          <p className="security-note">{t('security.totp_intro')}</p>
          <SubmitButton label={t('security.totp_turn_on')} busy={setup.isPending} testId="totp-start" />
        </form>
      )}
    </section>
  );
}
