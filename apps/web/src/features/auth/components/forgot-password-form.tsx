import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, SubmitButton } from '../../../components/field.tsx';
import { api } from '../../../lib/api-client.ts';
import '../../../lib/validation-messages.ts';
import { showFailure } from '../../security/components/form-error.ts';
import { useCaptcha } from '../api/get-captcha.ts';
import { CaptchaField } from './captcha-field.tsx';
import './forgot-password.css';

type TFields = Record<string, string>;

/**
 * "Forgot password": the account (username) → a code emailed to the address confirmed on it
 * (POST /api/auth/password/forgot) → the code and the new password twice (POST /api/auth/password/reset).
 */
export function ForgotPasswordForm({
  onDone,
  onBack,
}: {
  onDone: (username: string) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const captcha = useCaptcha('forgot');
  const captchaRequired = captcha.data?.required ?? false;
  const [step, setStep] = useState<'account' | 'reset'>('account');
  const [busy, setBusy] = useState(false);
  const [values, setValues] = useState({
    username: '',
    captcha_code: '',
    code: '',
    new_password: '',
    new_password_confirmation: '',
  });
  const [errors, setErrors] = useState<TFields>({});
  const captchaInput = useRef<HTMLInputElement>(null);
  const set = (name: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [name]: event.target.value }));

  const sendCode = async (event?: FormEvent) => {
    event?.preventDefault();
    const local: TFields = {};
    if (!values.username.trim()) local.username = 'validation.required.username';
    if (captchaRequired && !values.captcha_code.trim())
      local.captcha_code = 'validation.required.captcha_code';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      await api.post<null>(
        '/api/auth/password/forgot',
        {
          username: values.username.trim(),
          ...(captchaRequired
            ? { captcha_id: captcha.data?.captcha_id, captcha_code: values.captcha_code }
            : {}),
        },
        { silent: true },
      );
      setStep('reset');
    } catch (error) {
      setValues((current) => ({ ...current, captcha_code: '' }));
      if (captchaInput.current) captchaInput.current.value = '';
      void captcha.refetch();
      showFailure(error, setErrors);
    } finally {
      setBusy(false);
    }
  };

  const reset = async (event: FormEvent) => {
    event.preventDefault();
    const local: TFields = {};
    if (!values.code.trim()) local.code = 'validation.required.code';
    else if (!/^\d{6}$/.test(values.code.trim())) local.code = 'validation.code_format';
    if (!values.new_password) local.new_password = 'validation.required.new_password';
    else if (values.new_password.length < 6) local.new_password = 'validation.password_min';
    if (values.new_password !== values.new_password_confirmation)
      local.new_password_confirmation = 'validation.passwords_did_not_match';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      await api.post<null>(
        '/api/auth/password/reset',
        {
          username: values.username.trim(),
          code: values.code.trim(),
          new_password: values.new_password,
          new_password_confirmation: values.new_password_confirmation,
        },
        { silent: true },
      );
      onDone(values.username.trim());
    } catch (error) {
      showFailure(error, setErrors);
    } finally {
      setBusy(false);
    }
  };

  if (step === 'account') {
    return (
      <form
        className="form form--forgot"
        noValidate
        onSubmit={(event) => void sendCode(event)}
        aria-label={t('auth.forgot_password')}
      >
        <p className="modal__lead">{t('auth.forgot_lead')}</p>
        <Field
          label={t('auth.username')}
          placeholder={t('auth.username_placeholder')}
          autoComplete="username"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={20}
          value={values.username}
          onChange={set('username')}
          error={errors.username}
          data-testid="forgot-username"
        />
        {(captchaRequired || captcha.isPending) && (
          <CaptchaField
            captcha={captcha.data}
            loading={captcha.isFetching}
            onRefresh={() => void captcha.refetch()}
            error={errors.captcha_code}
            inputProps={{
              name: 'captcha_code',
              ref: captchaInput,
              onChange: set('captcha_code'),
              onBlur: () => undefined,
            }}
          />
        )}
        <SubmitButton label={t('auth.send_code')} busy={busy} testId="forgot-send" />
        <p className="form__switch">
          <button type="button" className="link-button" onClick={onBack}>
            {t('auth.back_to_login')}
          </button>
        </p>
      </form>
    );
  }

  return (
    <form
      className="form form--forgot"
      noValidate
      onSubmit={(event) => void reset(event)}
      aria-label={t('auth.reset_password')}
    >
      <p className="form__sent" role="status" data-testid="reset-code-sent">
        {t('messages.reset_code_sent')}
      </p>
      <p className="modal__lead">{t('auth.reset_lead')}</p>
      <Field
        label={t('auth.email_code')}
        placeholder={t('auth.email_code_placeholder')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={values.code}
        onChange={set('code')}
        error={errors.code}
        data-testid="reset-code"
      />
      <Field
        type="password"
        label={t('security.new_password')}
        autoComplete="new-password"
        maxLength={64}
        value={values.new_password}
        onChange={set('new_password')}
        error={errors.new_password}
        data-testid="reset-new-password"
      />
      <Field
        type="password"
        label={t('security.confirm_password')}
        autoComplete="new-password"
        maxLength={64}
        value={values.new_password_confirmation}
        onChange={set('new_password_confirmation')}
        error={errors.new_password_confirmation}
        data-testid="reset-new-password-confirmation"
      />
      <SubmitButton label={t('auth.reset_password')} busy={busy} testId="reset-submit" />
      <p className="form__switch">
        <button type="button" className="link-button" onClick={() => void sendCode()}>
          {t('auth.resend_code')}
        </button>{' '}
        <button type="button" className="link-button" onClick={onBack}>
          {t('auth.back_to_login')}
        </button>
      </p>
    </form>
  );
}
