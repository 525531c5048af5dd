import i18next from 'i18next';
import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icon.tsx';

/**
 * Errors are either i18n keys (the contract schemas' messages) or texts the server already
 * translated; keys are translated, texts shown as they are.
 */
export function messageText(message: string | undefined): string | undefined {
  if (!message) return undefined;
  return i18next.exists(message) ? i18next.t(message) : message;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> & {
  label: string;
  error?: string;
  hint?: string;
  addon?: ReactNode;
  /** Shown before the value inside the box, as the currency sign of an amount ("R$"). */
  leading?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

export function Field({ label, error, hint, addon, leading, id, ref, type = 'text', ...input }: InputProps) {
  const { t } = useTranslation();
  const generated = useId();
  const inputId = id ?? generated;
  const [visible, setVisible] = useState(false);
  const isPassword = type === 'password';
  const text = messageText(error);
  const describedBy = [text ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={`field${text ? ' field--invalid' : ''}`}>
      <label htmlFor={inputId} className="field__label">
        {label}
      </label>
      <div className="field__control">
        {leading}
        <input
          ref={ref}
          id={inputId}
          type={isPassword && visible ? 'text' : type}
          aria-invalid={text ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...input}
        />
        {isPassword && (
          <button
            type="button"
            className="field__toggle"
            onClick={() => setVisible((value) => !value)}
            aria-label={visible ? t('auth.hide_password') : t('auth.show_password')}
            aria-pressed={visible}
          >
            <Icon name={visible ? 'eyeOff' : 'eye'} size={18} />
          </button>
        )}
        {addon}
      </div>
      {hint && !text && (
        <p className="field__hint" id={`${inputId}-hint`}>
          {hint}
        </p>
      )}
      {text && (
        <p className="field__error" id={`${inputId}-error`} role="alert">
          {text}
        </p>
      )}
    </div>
  );
}

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'children'> & {
  label: ReactNode;
  error?: string;
  ref?: Ref<HTMLInputElement>;
};

export function Checkbox({ label, error, id, ref, ...input }: CheckboxProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const text = messageText(error);
  return (
    <div className={`checkbox${text ? ' checkbox--invalid' : ''}`}>
      <input
        ref={ref}
        id={inputId}
        type="checkbox"
        aria-invalid={text ? true : undefined}
        aria-describedby={text ? `${inputId}-error` : undefined}
        {...input}
      />
      <label htmlFor={inputId}>{label}</label>
      {text && (
        <p className="field__error" id={`${inputId}-error`} role="alert">
          {text}
        </p>
      )}
    </div>
  );
}

/** A form's main button: full width, "Please wait" and disabled while the form submits. */
export function SubmitButton({ label, busy, testId }: { label: string; busy: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <button
      type="submit"
      className="button button--primary button--block button--large"
      data-testid={testId}
      disabled={busy}
    >
      {busy ? t('common.please_wait') : label}
    </button>
  );
}

/** A labelled choice among fixed options (value → shown label), controlled by its host. */
export function SelectField<T extends string>({
  label,
  value,
  options,
  optionLabel,
  onChange,
  testId,
}: {
  label: string;
  value: T;
  options: readonly T[];
  optionLabel: (option: T) => string;
  onChange: (value: T) => void;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__control">
        <select
          id={id}
          className="field__select"
          value={value}
          onChange={(event) => onChange(event.target.value as T)}
          data-testid={testId}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {optionLabel(option)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
