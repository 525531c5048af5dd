import { RECORD_PERIODS, type TRecordPeriod } from '@sorte/contract';
import { useTranslation } from 'react-i18next';

/**
 * The one period control of every record screen (game record, transactions, deposits and
 * withdrawals, order center): a
 * row of choices, "All" first, the chosen one marked. Before, the screens had period buttons plus a
 * separate "Reset"/"Clear" button each named differently; now going back to everything is just
 * choosing "All" (an option whose value is 'all' comes first).
 */
export function PeriodFilter<T extends string>({
  value,
  options,
  onChange,
  label,
  testIdPrefix,
}: {
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  /** What the row chooses, for screen readers ("Period"). */
  label: string;
  testIdPrefix: string;
}) {
  return (
    <fieldset className="period-filter">
      <legend className="visually-hidden">{label}</legend>
      {[...options.filter((o) => o.value === 'all'), ...options.filter((o) => o.value !== 'all')].map(
        (option) => (
          <button
            key={option.value}
            type="button"
            className={`period-filter__option${option.value === value ? ' is-active' : ''}`}
            aria-pressed={option.value === value}
            onClick={() => onChange(option.value)}
            data-testid={`${testIdPrefix}-${option.value}`}
          >
            {option.label}
          </button>
        ),
      )}
    </fieldset>
  );
}

/**
 * The period chips of the record screens (recharge, withdrawal, transaction and game records, the
 * order center): all / today / last 3 days / last 7 days, in the record calls' one vocabulary.
 */
export function RecordPeriodFilter({
  value,
  onChange,
}: {
  value: TRecordPeriod;
  onChange: (period: TRecordPeriod) => void;
}) {
  const { t } = useTranslation();
  return (
    <PeriodFilter
      value={value}
      options={RECORD_PERIODS.map((period) => ({ value: period, label: t(`money.period.${period}`) }))}
      onChange={onChange}
      label={t('money.period_label')}
      testIdPrefix="period"
    />
  );
}
