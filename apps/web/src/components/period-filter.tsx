/**
 * The one period control of every record screen (game record, transactions, order center): a
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
