import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Field, SubmitButton } from '../../../components/field.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { useSecurityCall } from '../api/security-api.ts';
import '../security.css';
import { showFailure } from './form-error.ts';

/** /change-password: old password, new one twice; every other session ends. */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const change = useSecurityCall<Record<string, string>>('/api/security/password');
  const [values, setValues] = useState({ old_password: '', new_password: '', new_password_confirmation: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!values.old_password) local.old_password = 'validation.required.old_password';
    if (!values.new_password) local.new_password = 'validation.required.new_password';
    else if (values.new_password.length < 6) local.new_password = 'validation.password_min';
    else if (values.new_password === values.old_password) local.new_password = 'validation.new_password_same';
    if (values.new_password !== values.new_password_confirmation) {
      local.new_password_confirmation = 'validation.passwords_did_not_match';
    }
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      await change.mutateAsync(values);
      toast.success(t('messages.password_changed'));
      navigate('/security-center');
    } catch (error) {
      showFailure(error, setErrors);
    }
  };
  const field = (name: keyof typeof values, label: string) => (
    <Field
      label={label}
      type="password"
      autoComplete={name === 'old_password' ? 'current-password' : 'new-password'}
      value={values[name]}
      onChange={(event) => setValues({ ...values, [name]: event.target.value })}
      error={errors[name]}
      data-testid={`change-${name}`}
    />
  );
  return (
    <PageFrame title={t('pages.change_password')} requiresLogin>
      <form className="security-card security-form" onSubmit={(event) => void onSubmit(event)} noValidate>
        {field('old_password', t('security.old_password'))}
        {field('new_password', t('security.new_password'))}
        {field('new_password_confirmation', t('security.confirm_password'))}
        <p className="security-note">{t('security.other_sessions_end')}</p>
        <SubmitButton label={t('security.save')} busy={change.isPending} testId="change-password-submit" />
      </form>
    </PageFrame>
  );
}
