import { zodResolver } from '@hookform/resolvers/zod';
import { M, type TRegisterRequest, ZRegisterRequest } from '@sorte/contract';
import { useState } from 'react';
import { type FieldPath, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Checkbox, Field, SubmitButton } from '../../../components/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { useCaptcha } from '../api/get-captcha.ts';
import { useRegister } from '../api/register.ts';
import { CaptchaField } from './captcha-field.tsx';

/** The form holds unticked boxes and an empty invite code; the schema decides what may be sent. */
type TRegisterForm = Omit<TRegisterRequest, 'agree_terms' | 'is_adult'> & {
  agree_terms: boolean;
  is_adult: boolean;
};

const FIELDS: readonly FieldPath<TRegisterForm>[] = [
  'username',
  'password',
  'password_confirmation',
  'realname',
  'phone',
  'qk_pwd',
  'invite_code',
  'captcha_code',
  'agree_terms',
  'is_adult',
];

const schemaResolver = zodResolver(ZRegisterRequest) as unknown as Resolver<
  TRegisterForm,
  unknown,
  TRegisterRequest
>;

/**
 * The schema compares the two passwords only once every field is valid; the player should hear
 * about a mismatch together with the other mistakes, so we add it here too.
 */
const registerResolver: Resolver<TRegisterForm, unknown, TRegisterRequest> = async (
  values,
  context,
  options,
) => {
  const result = await schemaResolver(values, context, options);
  const mismatch = values.password_confirmation !== '' && values.password !== values.password_confirmation;
  if (mismatch && !result.errors.password_confirmation) {
    return {
      values: {},
      errors: {
        ...result.errors,
        password_confirmation: { type: 'custom', message: M.passwordsMismatch },
      },
    };
  }
  return result;
};

/** An introducer's link carries their code as ?invite= or ?code=. */
export function inviteCodeFromUrl(search: string = window.location.search): string {
  const params = new URLSearchParams(search);
  const code = params.get('invite') ?? params.get('code') ?? '';
  return /^[A-Za-z0-9]{1,16}$/.test(code) ? code : '';
}

export function RegisterForm({ onSuccess, onLogin }: { onSuccess: () => void; onLogin?: () => void }) {
  const { t } = useTranslation();
  const captcha = useCaptcha('register');
  const registration = useRegister();
  const [failure, setFailure] = useState<string | null>(null);
  const captchaRequired = captcha.data?.required ?? false;
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    formState: { errors, isSubmitting },
  } = useForm<TRegisterForm, unknown, TRegisterRequest>({
    resolver: registerResolver,
    defaultValues: {
      username: '',
      password: '',
      password_confirmation: '',
      realname: '',
      phone: '',
      qk_pwd: '',
      invite_code: inviteCodeFromUrl(),
      agree_terms: false,
      is_adult: false,
    },
  });

  const onValid = async (values: TRegisterRequest) => {
    setFailure(null);
    try {
      await registration.mutateAsync({
        ...values,
        invite_code: values.invite_code ? values.invite_code : undefined,
        ...(captchaRequired
          ? { captcha_id: captcha.data?.captcha_id, captcha_code: values.captcha_code }
          : { captcha_id: undefined, captcha_code: undefined }),
      });
      toast.success(t('messages.registration_success'));
      onSuccess();
    } catch (error) {
      resetField('captcha_code');
      void captcha.refetch();
      if (error instanceof ApiError) {
        if (error.code === 'CAPTCHA_INVALID' && captchaRequired)
          setError('captcha_code', { message: error.message });
        setFailure(error.message);
        for (const [field, message] of Object.entries(error.errors)) {
          if ((FIELDS as readonly string[]).includes(field)) {
            setError(field as FieldPath<TRegisterForm>, { message });
          }
        }
      }
    }
  };

  return (
    <form
      className="form"
      noValidate
      onSubmit={handleSubmit(onValid, () => toast.error(t('messages.form_invalid')))}
      aria-label={t('auth.register')}
    >
      {failure && (
        <div className="form__alert" role="alert">
          <strong>{t('messages.registration_failed')}</strong>
          <span>{failure}</span>
        </div>
      )}
      <Field
        label={t('auth.username')}
        placeholder={t('auth.username_rule')}
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
        placeholder={t('auth.password_rule')}
        autoComplete="new-password"
        maxLength={64}
        error={errors.password?.message}
        {...register('password')}
      />
      <Field
        type="password"
        label={t('auth.password_confirmation')}
        placeholder={t('auth.password_confirmation_placeholder')}
        autoComplete="new-password"
        maxLength={64}
        error={errors.password_confirmation?.message}
        {...register('password_confirmation')}
      />
      <Field
        label={t('auth.realname')}
        placeholder={t('auth.realname_placeholder')}
        autoComplete="name"
        maxLength={60}
        error={errors.realname?.message}
        {...register('realname')}
      />
      <Field
        type="tel"
        label={t('auth.phone')}
        placeholder={t('auth.phone_placeholder')}
        autoComplete="tel"
        inputMode="tel"
        maxLength={20}
        error={errors.phone?.message}
        {...register('phone')}
      />
      <Field
        type="password"
        label={t('auth.qk_pwd')}
        placeholder={t('auth.qk_pwd_placeholder')}
        autoComplete="off"
        inputMode="numeric"
        pattern="[0-9]*"
        maxLength={6}
        error={errors.qk_pwd?.message}
        {...register('qk_pwd')}
      />
      <Field
        label={t('auth.invite_code')}
        placeholder={t('auth.invite_code_placeholder')}
        autoComplete="off"
        autoCapitalize="off"
        maxLength={16}
        error={errors.invite_code?.message}
        {...register('invite_code')}
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
      <Checkbox
        label={t('auth.agree_terms')}
        error={errors.agree_terms?.message}
        {...register('agree_terms')}
      />
      <Checkbox label={t('auth.is_adult')} error={errors.is_adult?.message} {...register('is_adult')} />
      <SubmitButton label={t('auth.create_account')} busy={isSubmitting} testId="register-submit" />
      {onLogin && (
        <p className="form__switch">
          {t('auth.have_account')}{' '}
          <button type="button" className="link-button" onClick={onLogin}>
            {t('auth.log_in')}
          </button>
        </p>
      )}
    </form>
  );
}
