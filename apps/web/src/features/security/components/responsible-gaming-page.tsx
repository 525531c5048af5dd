import {
  COOLING_OFF_DAYS,
  RG_LIMIT_KINDS,
  RG_PERIODS,
  SELF_EXCLUSION_MONTHS,
  type TRgLimitKind,
  type TRgPeriod,
} from '@sorte/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, SelectField, SubmitButton } from '../../../components/field.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { useRgStatus, useSecurityCall, useSetRgLimit } from '../api/security-api.ts';
import '../security.css';
import { endSession } from '../../../lib/session.ts';
import { showFailure } from './form-error.ts';

/** /responsible-gaming: limits (tighter at once, looser after 24 h), a pause or self-exclusion. */
export default function ResponsibleGamingPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('security.responsible_gaming')} requiresLogin>
      <RgContent />
    </PageFrame>
  );
}

function RgContent() {
  const { t } = useTranslation();
  const status = useRgStatus();
  if (status.isPending) return <Spinner />;
  if (status.isError) return <LoadFail onRetry={() => void status.refetch()} />;
  const { limits, exclusion } = status.data;
  const show = (kind: TRgLimitKind, value: string) =>
    kind === 'session_time' ? t('limits.minutes', { count: Number(value) }) : formatMoney(value);
  return (
    <>
      {exclusion && (
        <p className="security-card" role="status">
          {exclusion.ends_at
            ? t('limits.excluded_until', { at: formatDateTime(exclusion.ends_at) })
            : t('limits.excluded')}
        </p>
      )}
      <section className="security-card rg-limits" aria-labelledby="rg-limits">
        <h2 id="rg-limits">{t('limits.limits')}</h2>
        {limits.length === 0 ? (
          <p className="security-note">{t('limits.none')}</p>
        ) : (
          <ul className="security-list">
            {limits.map((limit) => (
              <li key={`${limit.kind}-${limit.period}`} className="security-row" data-testid="rg-limit">
                <div>
                  <strong>
                    {t(`limits.kind.${limit.kind}`)} · {t(`rg.period.${limit.period}`)}
                  </strong>
                  <span className="security-row__value">
                    {limit.value
                      ? t('limits.used', {
                          used: show(limit.kind, limit.used),
                          value: show(limit.kind, limit.value),
                        })
                      : '—'}
                  </span>
                  {limit.pending_effective_at && (
                    <span className="security-row__value">
                      {limit.pending_remove
                        ? t('limits.pending_remove', { at: formatDateTime(limit.pending_effective_at) })
                        : t('limits.pending', {
                            value: show(limit.kind, limit.pending_value ?? '0'),
                            at: formatDateTime(limit.pending_effective_at),
                          })}
                    </span>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
        <LimitForm />
      </section>
      <ExclusionForm />
    </>
  );
}

function LimitForm() {
  const { t } = useTranslation();
  const setLimit = useSetRgLimit();
  const [kind, setKind] = useState<TRgLimitKind>('deposit');
  const [period, setPeriod] = useState<TRgPeriod>('day');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const clean = value.trim().replace(',', '.');
    if (!/^\d{1,11}(\.\d{1,2})?$/.test(clean)) {
      setErrors({ value: 'validation.amount_invalid' });
      return;
    }
    setErrors({});
    try {
      const status = await setLimit.mutateAsync({ kind, period, value: clean });
      const saved = status.limits.find((limit) => limit.kind === kind && limit.period === period);
      if (saved?.pending_effective_at) {
        toast.success(t('limits.pending_notice', { at: formatDateTime(saved.pending_effective_at) }));
      } else {
        toast.success(t('messages.limit_saved'));
      }
      setValue('');
    } catch (error) {
      showFailure(error, setErrors);
    }
  };
  return (
    <form className="security-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <div className="rg-form-row">
        <SelectField
          label={t('limits.limit_kind')}
          value={kind}
          options={RG_LIMIT_KINDS}
          optionLabel={(option) => t(`limits.kind.${option}`)}
          onChange={setKind}
          testId="rg-kind"
        />
        <SelectField
          label={t('limits.period_label')}
          value={period}
          options={RG_PERIODS}
          optionLabel={(option) => t(`rg.period.${option}`)}
          onChange={setPeriod}
          testId="rg-period"
        />
      </div>
      <Field
        label={kind === 'session_time' ? t('limits.value_minutes') : t('limits.value_amount')}
        inputMode="decimal"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={errors.value}
        data-testid="rg-value"
      />
      <p className="security-note">{t('limits.rule')}</p>
      <SubmitButton label={t('limits.save_limit')} busy={setLimit.isPending} testId="rg-save" />
    </form>
  );
}

function ExclusionForm() {
  const { t } = useTranslation();
  const choiceId = useId();
  const pause = useSecurityCall<{ days: number; password: string }>('/api/responsible-gaming/cooling-off');
  const exclude = useSecurityCall<{ months: number; password: string }>(
    '/api/responsible-gaming/self-exclusion',
  );
  const [choice, setChoice] = useState('pause:1');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setErrors({ password: 'validation.required.password' });
      return;
    }
    const [kind, amount] = choice.split(':');
    try {
      if (kind === 'pause') await pause.mutateAsync({ days: Number(amount), password });
      else await exclude.mutateAsync({ months: Number(amount), password });
      toast.success(t(kind === 'pause' ? 'messages.cooling_off_started' : 'messages.self_exclusion_started'));
      // The server ended every session: forget this one too, so the home page does not ask to log
      // in again as if it had expired.
      await endSession();
      window.location.assign('/');
    } catch (error) {
      showFailure(error, setErrors);
    }
  };
  return (
    <form className="security-card security-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <h2>{t('limits.break_title')}</h2>
      <p className="security-note">{t('limits.break_intro')}</p>
      <div className="field">
        <label className="field__label" htmlFor={choiceId}>
          {t('limits.break_length')}
        </label>
        <div className="field__control">
          <select
            id={choiceId}
            className="field__select"
            value={choice}
            onChange={(event) => setChoice(event.target.value)}
          >
            {COOLING_OFF_DAYS.map((days) => (
              <option key={`pause:${days}`} value={`pause:${days}`}>
                {t('limits.pause_days', { count: days })}
              </option>
            ))}
            {SELF_EXCLUSION_MONTHS.map((months) => (
              <option key={`exclude:${months}`} value={`exclude:${months}`}>
                {months === 0
                  ? t('limits.exclude_indefinite')
                  : t('limits.exclude_months', { count: months })}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Field
        label={t('security.login_password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
      />
      <SubmitButton
        label={t('limits.start_break')}
        busy={pause.isPending || exclude.isPending}
        testId="rg-break"
      />
    </form>
  );
}
