import { zodResolver } from '@hookform/resolvers/zod';
import { type TLoginRequest, ZLoginRequest } from '@sorte/contract';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field, SubmitButton } from '../../../components/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
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
}: {
  onSuccess: () => void;
  onRegister?: () => void;
  /** Opens "Forgot password" (code by email). */
  onForgot?: () => void;
}) {
  const { t } = useTranslation();
  const captcha = useCaptcha('login');
  const login = useLogin();
  const captchaRequired = captcha.data?.required ?? false;
  const rules = useSignupRules();
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    formState: { errors, isSubmitting },
  } = useForm<TLoginRequest>({
    resolver: zodResolver(ZLoginRequest),
    defaultValues: { username: '', password: '' },
  });

  const onValid = async (values: TLoginRequest) => {
    try {
      await login.mutateAsync({
        username: values.username,
        password: values.password,
        ...(captchaRequired
          ? { captcha_id: captcha.data?.captcha_id, captcha_code: values.captcha_code }
          : {}),
      });
      toast.success(t('messages.login_success'));
      onSuccess();
    } catch (error) {
      // A captcha is single use: whatever went wrong, the next try needs a new one.
      resetField('captcha_code');
      void captcha.refetch();
      if (error instanceof ApiError) {
        if (error.code === 'CAPTCHA_INVALID' && captchaRequired)
          setError('captcha_code', { message: error.message });
        for (const [field, message] of Object.entries(error.errors)) {
          if (field === 'username' || field === 'password' || field === 'captcha_code')
            setError(field, { message });
        }
      }
    }
  };

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
      {(captchaRequired || captcha.isPending) && (
        <CaptchaField
          captcha={captcha.data}
          loading={captcha.isFetching}
          onRefresh={() => void captcha.refetch()}
          error={errors.captcha_code?.message}
          inputProps={register('captcha_code', { shouldUnregister: true })}
        />
      )}
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
