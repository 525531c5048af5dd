import {
  ageOn,
  isCalendarDate,
  isValidCpf,
  RG_PERIODS,
  type TRegistrationLimit,
  type TRgPeriod,
  type TSiteData,
} from '@sorte/contract';
import { type ChangeEvent, useId } from 'react';
import type { FieldErrors, FieldValues, Resolver, UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/field.tsx';
import { parseAmountInput } from '../../../lib/format.ts';
import { useSiteData } from '../../../lib/site.ts';
import { isoDate, maskCpf, maskDate } from './masks.ts';
import './signup-rules.css';

/**
 * What the site's jurisdiction profile adds to sign-up (site data `registration`): on br a CPF,
 * the date of birth (the age is computed from it, there is no "I am 18" box), the loss and
 * session-time limits every new player must set, and the risk message shown at sign-up and login.
 */
export type TSignupRules = TSiteData['registration'] & { minAge: number };

export function useSignupRules(): TSignupRules | null {
  const site = useSiteData();
  // A site that sends no `registration` block (an older server) asks nothing beyond the base form.
  if (!site.data?.registration) return null;
  return { ...site.data.registration, minAge: site.data.min_age };
}

/** The form fields these rules add (kept beside the form's own values). */
export type TSignupRuleValues = {
  cpf?: string;
  birth_date?: string;
  loss_limit?: string;
  loss_period?: TRgPeriod;
  time_limit_minutes?: string;
};

export const SIGNUP_RULE_DEFAULTS: Required<TSignupRuleValues> = {
  cpf: '',
  birth_date: '',
  loss_limit: '',
  loss_period: 'month',
  time_limit_minutes: '120',
};

/** Session-time choices offered at sign-up, minutes per day. */
const TIME_CHOICES = [30, 60, 120, 180, 240, 360, 480, 720] as const;

/** Today in the player's calendar, YYYY-MM-DD. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** The errors of the rule fields, as i18n keys (the same keys the server answers with). */
export function signupRuleErrors(
  values: TSignupRuleValues,
  rules: TSignupRules | null,
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!rules) return errors;
  if (rules.requires_cpf) {
    if (!values.cpf?.trim()) errors.cpf = 'validation.required.cpf';
    else if (!isValidCpf(values.cpf.trim())) errors.cpf = 'validation.cpf_invalid';
  }
  if (rules.requires_birth_date) {
    const date = values.birth_date ?? '';
    if (!date) errors.birth_date = 'validation.required.birth_date';
    else if (!isCalendarDate(date) || ageOn(date, today()) > 120)
      errors.birth_date = 'validation.birth_date_invalid';
    else if (ageOn(date, today()) < rules.minAge) errors.birth_date = 'validation.adult_required';
  }
  if (rules.mandatory_limits.includes('loss')) {
    const amount = parseAmountInput(values.loss_limit ?? '');
    if (!values.loss_limit?.trim()) errors.loss_limit = 'errors.RG_LIMIT_REQUIRED';
    else if (!/^\d{1,11}(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0) {
      errors.loss_limit = 'validation.amount_invalid';
    }
  }
  return errors;
}

/** The limits to send from the rule fields. */
export function signupLimits(values: TSignupRuleValues, rules: TSignupRules | null): TRegistrationLimit[] {
  if (!rules) return [];
  const limits: TRegistrationLimit[] = [];
  if (rules.mandatory_limits.includes('loss')) {
    limits.push({
      kind: 'loss',
      period: values.loss_period ?? 'month',
      value: parseAmountInput(values.loss_limit ?? ''),
    });
  }
  if (rules.mandatory_limits.includes('session_time')) {
    limits.push({ kind: 'session_time', period: 'day', value: values.time_limit_minutes ?? '120' });
  }
  return limits;
}

/** Adds the rule fields' errors to a form's resolver. */
export function withSignupRules<TValues extends FieldValues & TSignupRuleValues, TOutput>(
  resolver: Resolver<TValues, unknown, TOutput>,
  rules: TSignupRules | null,
): Resolver<TValues, unknown, TOutput> {
  return async (input, context, options) => {
    // A prefilled birth date is shown dd/mm/aaaa like a typed one; the API takes YYYY-MM-DD.
    const values = input.birth_date ? { ...input, birth_date: isoDate(input.birth_date) } : input;
    const result = await resolver(values, context, options);
    const extra = signupRuleErrors(values, rules);
    if (Object.keys(extra).length === 0) return result;
    const errors = { ...result.errors } as FieldErrors<TValues>;
    for (const [field, message] of Object.entries(extra)) {
      (errors as Record<string, unknown>)[field] ??= { type: 'custom', message };
    }
    return { values: {}, errors };
  };
}

/** The risk message (br: at sign-up and at login). */
export function RiskNotice({ rules }: { rules: TSignupRules | null }) {
  const { t } = useTranslation();
  if (!rules?.shows_risk_message) return null;
  return (
    <p className="risk-notice" role="note" data-testid="risk-notice">
      {t('signup.risk', { age: rules.minAge })}
    </p>
  );
}

type TRuleFieldProps = {
  rules: TSignupRules | null;
  /** Called with the CPF's 11 digits once a valid one is typed (sign-up prefill). */
  onCpf?: (cpf: string) => void;
  // biome-ignore lint/suspicious/noExplicitAny: the host form's values include TSignupRuleValues.
  register: UseFormRegister<any>;
  errors: Partial<Record<keyof TSignupRuleValues, { message?: string }>>;
};

/** Re-masks the field as the player types, before the form reads it. */
function masked(registration: ReturnType<UseFormRegister<FieldValues>>, mask: (text: string) => string) {
  return {
    ...registration,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      event.target.value = mask(event.target.value);
      return registration.onChange(event);
    },
  };
}

/** Tells `onCpf` when the field holds a whole valid CPF. */
function withCpfDone(registration: ReturnType<typeof masked>, onCpf?: (cpf: string) => void) {
  if (!onCpf) return registration;
  return {
    ...registration,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const result = registration.onChange(event);
      const digits = event.target.value.replace(/\D/g, '');
      if (digits.length === 11 && isValidCpf(digits)) onCpf(digits);
      return result;
    },
  };
}

/**
 * CPF and date of birth, where the site's rules ask them: typed with their masks (000.000.000-00,
 * dd/mm/aaaa on a numeric keypad); the form keeps the date as YYYY-MM-DD for the API.
 */
export function IdentityRuleFields({ rules, register, errors, onCpf }: TRuleFieldProps) {
  const { t } = useTranslation();
  if (!rules) return null;
  return (
    <>
      {rules.requires_cpf && (
        <Field
          label={t('signup.cpf')}
          placeholder="000.000.000-00"
          inputMode="numeric"
          autoComplete="off"
          maxLength={14}
          error={errors.cpf?.message}
          {...withCpfDone(masked(register('cpf'), maskCpf), onCpf)}
        />
      )}
      {rules.requires_birth_date && (
        <Field
          label={t('signup.birth_date')}
          placeholder={t('signup.birth_date_placeholder')}
          inputMode="numeric"
          autoComplete="bday"
          maxLength={10}
          error={errors.birth_date?.message}
          {...masked(register('birth_date', { setValueAs: isoDate }), maskDate)}
        />
      )}
    </>
  );
}

/** The limits the site makes mandatory at sign-up (br: loss and daily session time). */
export function LimitRuleFields({ rules, register, errors }: TRuleFieldProps) {
  const { t } = useTranslation();
  const periodId = useId();
  const timeId = useId();
  if (!rules) return null;
  const asksLoss = rules.mandatory_limits.includes('loss');
  const asksTime = rules.mandatory_limits.includes('session_time');
  if (!asksLoss && !asksTime) return null;
  return (
    <fieldset className="signup-limits">
      <legend>{t('signup.limits_title')}</legend>
      <p className="signup-limits__intro">{t('signup.limits_intro')}</p>
      {asksLoss && (
        <div className="signup-limits__row">
          <Field
            label={t('limits.kind.loss')}
            placeholder={t('signup.loss_placeholder')}
            inputMode="decimal"
            autoComplete="off"
            maxLength={16}
            error={errors.loss_limit?.message}
            {...register('loss_limit')}
          />
          <div className="field">
            <label className="field__label" htmlFor={periodId}>
              {t('limits.period_label')}
            </label>
            <div className="field__control">
              <select id={periodId} className="field__select" {...register('loss_period')}>
                {RG_PERIODS.map((period) => (
                  <option key={period} value={period}>
                    {t(`rg.period.${period}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
      )}
      {asksTime && (
        <div className="field">
          <label className="field__label" htmlFor={timeId}>
            {t('signup.time_limit')}
          </label>
          <div className="field__control">
            <select id={timeId} className="field__select" {...register('time_limit_minutes')}>
              {TIME_CHOICES.map((minutes) => (
                <option key={minutes} value={String(minutes)}>
                  {minutes < 60
                    ? t('limits.minutes', { count: minutes })
                    : t('signup.hours', { count: minutes / 60 })}
                </option>
              ))}
            </select>
          </div>
        </div>
      )}
    </fieldset>
  );
}

/** Whether the rules ask limits at sign-up: then the sign-up has a second step for them. */
export function asksSignupLimits(rules: TSignupRules | null): boolean {
  return (rules?.mandatory_limits.length ?? 0) > 0;
}

/** CPF, date of birth and the mandatory limits in one block (an agent registering a player). */
export function SignupRuleFields(props: TRuleFieldProps) {
  return (
    <>
      <IdentityRuleFields {...props} />
      <LimitRuleFields {...props} />
    </>
  );
}
