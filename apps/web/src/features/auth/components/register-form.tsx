import { zodResolver } from '@hookform/resolvers/zod';
import { type TRegisterRequest, ZRegisterRequest } from '@sorte/contract';
import { type FormEvent, useState } from 'react';
import {
  type FieldPath,
  type Resolver,
  type UseFormGetValues,
  type UseFormRegister,
  type UseFormSetValue,
  useForm,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Checkbox, Field, SubmitButton } from '../../../components/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { useCaptcha } from '../api/get-captcha.ts';
import { lookupCpf } from '../api/lookup-cpf.ts';
import { useRegister } from '../api/register.ts';
import { AccountFields } from './account-fields.tsx';
import { CaptchaField } from './captcha-field.tsx';
import {
  asksSignupLimits,
  IdentityRuleFields,
  LimitRuleFields,
  RiskNotice,
  SIGNUP_RULE_DEFAULTS,
  signupLimits,
  type TSignupRuleValues,
  useSignupRules,
  withSignupRules,
} from './signup-rules.tsx';

/** The form holds unticked boxes and an empty invite code; the schema decides what may be sent. */
type TRegisterForm = Omit<TRegisterRequest, 'agree_terms' | 'is_adult'> &
  TSignupRuleValues & {
    agree_terms: boolean;
    is_adult: boolean;
  };

const FIELDS: readonly FieldPath<TRegisterForm>[] = [
  'username',
  'password',
  'realname',
  'phone',
  'invite_code',
  'cpf',
  'birth_date',
  'captcha_code',
  'agree_terms',
  'is_adult',
  'loss_limit',
];

const schemaResolver = zodResolver(ZRegisterRequest) as unknown as Resolver<
  TRegisterForm,
  unknown,
  TRegisterRequest
>;

/**
 * Sign-up asks only what a new player needs, as the leading sites do: the password is typed once
 * (with a show button) and the withdrawal password waits for the first withdrawal. One box covers
 * the terms and the age (the schema's two flags); its message is the terms one.
 */
const registerResolver: Resolver<TRegisterForm, unknown, TRegisterRequest> = async (
  values,
  context,
  options,
) => {
  const result = await schemaResolver({ ...values, is_adult: values.agree_terms }, context, options);
  if (result.errors.is_adult && !result.errors.agree_terms) {
    const { is_adult, ...others } = result.errors;
    return { values: {}, errors: { ...others, agree_terms: is_adult } };
  }
  if (result.errors.is_adult) {
    const { is_adult: _age, ...others } = result.errors;
    return { values: {}, errors: others };
  }
  return result;
};

/** An introducer's link carries their code as ?invite= or ?code=. */
export function inviteCodeFromUrl(search: string = window.location.search): string {
  const params = new URLSearchParams(search);
  const code = params.get('invite') ?? params.get('code') ?? '';
  return /^[A-Za-z0-9]{1,16}$/.test(code) ? code : '';
}

/** The first step's fields: who the player is (identity first, then the account). */
const FIRST_STEP: readonly FieldPath<TRegisterForm>[] = [
  'cpf',
  'realname',
  'birth_date',
  'username',
  'password',
  'phone',
  'agree_terms',
];

/**
 * Once a valid CPF is typed: the registered name and birth date, where the site offers them, into
 * the fields the player has left empty (what they typed is never overwritten). `prefilled` is the
 * name filled in, said beside the CPF: on a phone the name field is further down the form.
 */
function useCpfPrefill(
  getValues: UseFormGetValues<TRegisterForm>,
  setValue: UseFormSetValue<TRegisterForm>,
  asksBirthDate: boolean,
): { prefilled: string | null; prefill: (cpf: string) => void } {
  const [prefilled, setPrefilled] = useState<string | null>(null);
  const prefill = async (cpf: string) => {
    const person = await lookupCpf(cpf);
    if (!person) return;
    let filled = false;
    if (!getValues('realname')) {
      setValue('realname', person.realname, { shouldValidate: true });
      filled = true;
    }
    if (asksBirthDate && !getValues('birth_date')) {
      const [year, month, day] = person.birth_date.split('-');
      setValue('birth_date', `${day}/${month}/${year}`, { shouldValidate: true });
      filled = true;
    }
    setPrefilled(filled ? person.realname : null);
  };
  return { prefilled, prefill: (cpf) => void prefill(cpf) };
}

/**
 * Sign-up in two short steps where the site asks limits (br): first who the player is (CPF first,
 * then name and date of birth, the account and the terms), then the limits and "keep me signed
 * in". Elsewhere it is one step. Every error shows under its own field, on the step that holds it.
 */
export function RegisterForm({ onSuccess, onLogin }: { onSuccess: () => void; onLogin?: () => void }) {
  const { t } = useTranslation();
  const captcha = useCaptcha('register');
  const registration = useRegister();
  const [failure, setFailure] = useState<string | null>(null);
  const captchaRequired = captcha.data?.required ?? false;
  // The site's jurisdiction profile: CPF, date of birth, mandatory limits, risk message (br).
  const rules = useSignupRules();
  const steps = asksSignupLimits(rules) ? 2 : 1;
  const [step, setStep] = useState(1);
  const [inviteOpen] = useState(() => inviteCodeFromUrl() !== '');
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    getValues,
    setValue,
    trigger,
    formState: { errors, isSubmitting },
  } = useForm<TRegisterForm, unknown, TRegisterRequest>({
    resolver: withSignupRules(registerResolver, rules),
    mode: 'onTouched',
    defaultValues: {
      username: '',
      password: '',
      realname: '',
      phone: '',
      invite_code: inviteCodeFromUrl(),
      ...SIGNUP_RULE_DEFAULTS,
      agree_terms: false,
      is_adult: false,
      remember: false,
    },
  });
  const { prefilled, prefill } = useCpfPrefill(getValues, setValue, rules?.requires_birth_date ?? false);
  const onFirstStep = (fields: string[]) => fields.some((field) => (FIRST_STEP as string[]).includes(field));

  // Only the first step's fields are checked here: the limits' errors wait for their own step.
  const continueToLimits = async (event: FormEvent) => {
    event.preventDefault();
    if (await trigger(FIRST_STEP as FieldPath<TRegisterForm>[], { shouldFocus: true })) setStep(2);
  };

  const onValid = async (values: TRegisterRequest) => {
    setFailure(null);
    try {
      await registration.mutateAsync({
        ...values,
        invite_code: values.invite_code ? values.invite_code : undefined,
        cpf: rules?.requires_cpf ? values.cpf : undefined,
        birth_date: rules?.requires_birth_date ? values.birth_date : undefined,
        limits: signupLimits(getValues(), rules),
        ...(captchaRequired
          ? { captcha_id: captcha.data?.captcha_id, captcha_code: values.captcha_code }
          : { captcha_id: undefined, captcha_code: undefined }),
      });
      toast.success(t('messages.registration_success'));
      onSuccess();
    } catch (error) {
      resetField('captcha_code');
      void captcha.refetch();
      if (!(error instanceof ApiError)) return;
      const fields = Object.entries(error.errors).filter(([field]) =>
        (FIELDS as readonly string[]).includes(field),
      );
      if (error.code === 'CAPTCHA_INVALID' && captchaRequired) fields.push(['captcha_code', error.message]);
      // A refusal of no field of this form (the registry, a limit) is said once, above the fields.
      if (fields.length === 0) setFailure(error.message);
      if (onFirstStep(fields.map(([field]) => field))) setStep(1);
      for (const [field, message] of fields) setError(field as FieldPath<TRegisterForm>, { message });
    }
  };

  const onInvalid = (invalid: Partial<Record<string, unknown>>) => {
    if (onFirstStep(Object.keys(invalid))) setStep(1);
  };

  const last = step === steps;
  return (
    <form
      className="form"
      noValidate
      onSubmit={last ? handleSubmit(onValid, onInvalid) : continueToLimits}
      aria-label={t('auth.register')}
    >
      {steps > 1 && (
        <p className="register__step" data-testid="register-step">
          {t('signup.step', { step, count: steps })} ·{' '}
          {step === 1 ? t('signup.step_details') : t('signup.limits_title')}
        </p>
      )}
      {step === 1 && <RiskNotice rules={rules} />}
      {failure && (
        <div className="form__alert" role="alert">
          <strong>{t('messages.registration_failed')}</strong>
          <span>{failure}</span>
        </div>
      )}
      {step === 1 && (
        <>
          <IdentityRuleFields rules={rules} register={register} errors={errors} onCpf={prefill} />
          {prefilled && (
            <p className="cpf-prefilled" role="status" data-testid="cpf-prefilled">
              {t('signup.prefilled', { name: prefilled })}
            </p>
          )}
          <AccountFields register={register} errors={errors} />
          <Checkbox
            label={t('auth.terms_and_age', { age: rules?.minAge ?? 18 })}
            error={errors.agree_terms?.message}
            {...register('agree_terms')}
          />
        </>
      )}
      {last && (
        <>
          <LimitRuleFields rules={rules} register={register} errors={errors} />
          <InviteField open={inviteOpen} register={register} error={errors.invite_code?.message} />
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
            label={t('auth.keep_signed_in')}
            data-testid="register-remember"
            {...register('remember')}
          />
        </>
      )}
      {/* Stays at the bottom of the sheet while the fields scroll: the button is always in view. */}
      <div className="register__submit">
        {last ? (
          <SubmitButton label={t('auth.create_account')} busy={isSubmitting} testId="register-submit" />
        ) : (
          <SubmitButton label={t('signup.continue')} busy={false} testId="register-next" />
        )}
        {step > 1 && (
          <button type="button" className="link-button register__back" onClick={() => setStep(step - 1)}>
            {t('common.back')}
          </button>
        )}
      </div>
      {onLogin && step === 1 && (
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

/** Folded unless a link brought a code or the code was refused: most players have none. */
function InviteField({
  open,
  register,
  error,
}: {
  open: boolean;
  register: UseFormRegister<TRegisterForm>;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <details className="register__invite" open={open || error !== undefined || undefined}>
      <summary>{t('auth.have_invite_code')}</summary>
      <Field
        label={t('auth.invite_code')}
        placeholder={t('auth.invite_code_placeholder')}
        autoComplete="off"
        autoCapitalize="off"
        maxLength={16}
        error={error}
        {...register('invite_code')}
      />
    </details>
  );
}
