import type { TCaptchaResponse } from '@sorte/contract';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/field.tsx';
import { Icon } from '../../../components/icon.tsx';

/** The captcha code input with its image; clicking the image fetches a new one. */
export function CaptchaField({
  captcha,
  loading,
  onRefresh,
  error,
  inputProps,
}: {
  captcha: TCaptchaResponse | undefined;
  loading: boolean;
  onRefresh: () => void;
  error?: string;
  inputProps: {
    name: string;
    ref: Ref<HTMLInputElement>;
    onChange: React.ChangeEventHandler<HTMLInputElement>;
    onBlur: React.FocusEventHandler<HTMLInputElement>;
  };
}) {
  const { t } = useTranslation();
  return (
    <Field
      label={t('auth.captcha')}
      placeholder={t('auth.captcha_placeholder')}
      autoComplete="off"
      autoCapitalize="off"
      spellCheck={false}
      maxLength={8}
      error={error}
      {...inputProps}
      addon={
        <button
          type="button"
          className="captcha"
          onClick={onRefresh}
          aria-label={t('auth.captcha_refresh')}
          title={t('auth.captcha_refresh')}
        >
          {captcha && !loading ? (
            <img
              data-testid="captcha-image"
              src={captcha.image}
              alt={t('auth.captcha_image')}
              width={110}
              height={40}
            />
          ) : (
            <span className="captcha__loading" data-testid="captcha-image">
              <Icon name="refresh" size={18} />
            </span>
          )}
        </button>
      }
    />
  );
}
