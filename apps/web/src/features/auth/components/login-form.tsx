import { zodResolver } from '@hookform/resolvers/zod';
import { type TLoginRequest, ZLoginRequest } from '@sorte/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Checkbox, Field, SubmitButton } from '../../../components/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { queryClient, USER_QUERY_KEY } from '../../../lib/query-client.ts';
import { fetchUser } from '../../../lib/session.ts';
import { setToken } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { useCaptcha } from '../api/get-captcha.ts';
import { useLogin } from '../api/login.ts';
import { CaptchaField } from './captcha-field.tsx';
import './forgot-password.css';
import { RiskNotice, useSignupRules } from './signup-rules.tsx';

export function LoginForm({
  onSuccess,
  onRegister,
  onForgot,
  onWithdrawalSession,
}: {
  onSuccess: () => void;
  onRegister?: () => void;
  /** Opens "Forgot password" (code by email). */
  onForgot?: () => void;
  /** After a paused or self-excluded player takes the withdrawals-only session: go to withdraw. */
  onWithdrawalSession?: () => void;
}) {
  const { t } = useTranslation();
  const captcha = useCaptcha('login');
  const login = useLogin();
  const captchaRequired = captcha.data?.required ?? false;
  const rules = useSignupRules();
  // Two-factor on: the server answers TOTP_REQUIRED and the form asks the authenticator code.
  const [totpAsked, setTotpAsked] = useState(false);
  // A pause or self-exclusion: login refused, with a session that reaches only the withdrawal.
  const [restricted, setRestricted] = useState<{ message: string; token: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<TLoginRequest>({
    resolver: zodResolver(ZLoginRequest),
    defaultValues: { username: '', password: '', remember: false },
  });

  const onValid = async (values: TLoginRequest) => {
    try {
      const { previousLogin } = await login.mutateAsync({
        username: values.username,
        password: values.password,
        remember: values.remember === true,
        ...(totpAsked && values.totp_code ? { totp_code: values.totp_code } : {}),
        ...(captchaRequired
          ? { captcha_id: captcha.data?.captcha_id, captcha_code: values.captcha_code }
          : {}),
      });
      // The previous login's time and address, so a player notices one that was not theirs.
      toast.success(t('messages.login_success'), {
        description: previousLogin
          ? t('security.last_login', { at: formatDateTime(previousLogin.at), ip: previousLogin.ip ?? '—' })
          : t('security.first_login'),
      });
      onSuccess();
    } catch (error) {
      // A captcha is single use: whatever went wrong, the next try needs a new one.
      resetField('captcha_code');
      void captcha.refetch();
      if (!(error instanceof ApiError)) return;
      if (error.withdrawalSession) {
        setRestricted({ message: error.message, token: error.withdrawalSession.token });
        return;
      }
      if (error.code === 'TOTP_REQUIRED' || error.code === 'TOTP_INVALID') {
        setTotpAsked(true);
        if (error.code === 'TOTP_INVALID') setError('totp_code', { message: error.message });
        else setFocus('totp_code');
        return;
      }
      if (error.code === 'CAPTCHA_INVALID' && captchaRequired)
        setError('captcha_code', { message: error.message });
      const fields = Object.entries(error.errors).filter(
        ([field]) =>
          field === 'username' || field === 'password' || field === 'captcha_code' || field === 'totp_code',
      );
      for (const [field, message] of fields) setError(field as keyof TLoginRequest, { message });
      if (fields.length === 0 && error.code !== 'CAPTCHA_INVALID') toast.error(error.message);
    }
  };

  if (restricted) {
    return (
      <div className="form" data-testid="login-restricted">
        <p className="form__alert" role="alert">
          {restricted.message}
        </p>
        <p className="modal__lead">{t('auth.withdrawal_only')}</p>
        {onWithdrawalSession && (
          <button
            type="button"
            className="button button--primary button--block button--large"
            data-testid="login-withdraw-only"
            onClick={() => {
              setToken(restricted.token);
              void queryClient
                .fetchQuery({ queryKey: USER_QUERY_KEY, queryFn: fetchUser, staleTime: 0 })
                .catch(() => undefined)
                .finally(onWithdrawalSession);
            }}
          >
            {t('auth.go_to_withdraw')}
          </button>
        )}
      </div>
    );
  }

  return (
    <form
      className="form"
      noValidate
      onSubmit={handleSubmit(onValid, () => toast.error(t('messages.form_invalid')))}
      aria-label={t('auth.log_in')}
    >
      <RiskNotice rules={rules} />
      <Field
        label={t('auth.username')}
        placeholder={t('auth.username_placeholder')}
        autoComplete="username"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={20}
        error={errors.username?.message}
        {...register('username')}
      />
      <Field
        type="password"
        label={t('auth.password')}
        placeholder={t('auth.password_placeholder')}
        autoComplete="current-password"
        maxLength={64}
        error={errors.password?.message}
        {...register('password')}
      />
      {totpAsked && (
        <Field
          label={t('security.totp_code')}
          hint={t('auth.totp_hint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={9}
          error={errors.totp_code?.message}
          data-testid="login-totp"
          {...register('totp_code', { shouldUnregister: true })}
        />
      )}
      {(captchaRequired || captcha.isPending) && (
        <CaptchaField
          captcha={captcha.data}
          loading={captcha.isFetching}
          onRefresh={() => void captcha.refetch()}
          error={errors.captcha_code?.message}
          inputProps={register('captcha_code', { shouldUnregister: true })}
        />
      )}
      <Checkbox label={t('auth.keep_signed_in')} data-testid="login-remember" {...register('remember')} />
      {onForgot && (
        <p className="form__forgot">
          <button type="button" className="link-button" onClick={onForgot} data-testid="forgot-password">
            {t('auth.forgot_password')}
          </button>
        </p>
      )}
      <SubmitButton label={t('auth.log_in')} busy={isSubmitting} testId="login-submit" />
      {onRegister && (
        <p className="form__switch">
          {t('auth.no_account')}{' '}
          <button type="button" className="link-button" onClick={onRegister}>
            {t('auth.register_now')}
          </button>
        </p>
      )}
    </form>
  );
}
