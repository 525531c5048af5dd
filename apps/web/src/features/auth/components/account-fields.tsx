import type { UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/field.tsx';

type TAccountFieldName = 'username' | 'password' | 'realname' | 'phone';

/**
 * The account a sign-up creates: username, password, full name and mobile number, with the same
 * rules and hints wherever an account is made (the player's own sign-up, an agent registering a
 * subordinate). For someone else's account the browser must not fill in the agent's own details.
 */
export function AccountFields({
  register,
  errors,
  forSomeoneElse = false,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: the host form's values include these four fields.
  register: UseFormRegister<any>;
  errors: Partial<Record<TAccountFieldName, { message?: string }>>;
  forSomeoneElse?: boolean;
}) {
  const { t } = useTranslation();
  const own = (value: string) => (forSomeoneElse ? 'off' : value);
  return (
    <>
      <Field
        label={t('auth.username')}
        placeholder={t('auth.username_rule')}
        autoComplete={own('username')}
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
        label={t('auth.realname')}
        placeholder={t('auth.realname_placeholder')}
        autoComplete={own('name')}
        maxLength={60}
        error={errors.realname?.message}
        {...register('realname')}
      />
      <Field
        type="tel"
        label={t('auth.phone')}
        placeholder={t('auth.phone_placeholder')}
        autoComplete={own('tel')}
        inputMode="tel"
        maxLength={20}
        error={errors.phone?.message}
        {...register('phone')}
      />
    </>
  );
}
