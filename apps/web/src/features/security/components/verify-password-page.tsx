import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Field, SubmitButton } from '../../../components/field.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { useSecurityCall, useSecurityOverview } from '../api/security-api.ts';
import '../security.css';
import { showFailure } from './form-error.ts';

/**
 * /verify-password: the login password first (it opens a 10-minute window), then the 6-digit
 * withdrawal password twice (and the authenticator code when two-factor is on).
 */
export default function VerifyPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const overview = useSecurityOverview();
  const verify = useSecurityCall<{ password: string }>('/api/security/verify-password');
  const save = useSecurityCall<Record<string, string>>('/api/security/withdraw-password');
  const [password, setPassword] = useState('');
  const [qk, setQk] = useState({ qk_pwd: '', qk_pwd_confirmation: '', totp_code: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const verified = Boolean(overview.data?.password_verified_until);

  const onVerify = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setErrors({ password: 'validation.required.password' });
      return;
    }
    try {
      await verify.mutateAsync({ password });
      setErrors({});
    } catch (error) {
      showFailure(error, setErrors);
    }
  };
  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!/^\d{6}$/.test(qk.qk_pwd)) local.qk_pwd = 'validation.qk_pwd_format';
    if (qk.qk_pwd !== qk.qk_pwd_confirmation)
      local.qk_pwd_confirmation = 'validation.passwords_did_not_match';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      const { totp_code, ...rest } = qk;
      await save.mutateAsync(totp_code ? { ...rest, totp_code } : rest);
      toast.success(t('messages.withdraw_password_set'));
      navigate('/security-center');
    } catch (error) {
      showFailure(error, setErrors);
    }
  };

  return (
    <PageFrame title={t('pages.verify_password')} requiresLogin>
      {!verified ? (
        <form className="security-card security-form" onSubmit={(event) => void onVerify(event)} noValidate>
          <p className="security-note">{t('security.verify_intro')}</p>
          <Field
            label={t('security.login_password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={errors.password}
            data-testid="verify-password"
          />
          <SubmitButton
            label={t('security.continue')}
            busy={verify.isPending}
            testId="verify-password-submit"
          />
        </form>
      ) : (
        <form className="security-card security-form" onSubmit={(event) => void onSave(event)} noValidate>
          <Field
            label={t('security.qk_pwd')}
            type="password"
            inputMode="numeric"
            maxLength={6}
            autoComplete="new-password"
            value={qk.qk_pwd}
            onChange={(event) => setQk({ ...qk, qk_pwd: event.target.value.replace(/\D/g, '') })}
            error={errors.qk_pwd}
            data-testid="qk-pwd"
          />
          <Field
            label={t('security.qk_pwd_confirm')}
            type="password"
            inputMode="numeric"
            maxLength={6}
            autoComplete="new-password"
            value={qk.qk_pwd_confirmation}
            onChange={(event) => setQk({ ...qk, qk_pwd_confirmation: event.target.value.replace(/\D/g, '') })}
            error={errors.qk_pwd_confirmation}
            data-testid="qk-pwd-confirmation"
          />
          {overview.data?.totp_enabled && (
            <Field
              label={t('security.totp_code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={qk.totp_code}
              onChange={(event) => setQk({ ...qk, totp_code: event.target.value.trim() })}
              error={errors.totp_code}
            />
          )}
          <SubmitButton label={t('security.save')} busy={save.isPending} testId="qk-pwd-submit" />
        </form>
      )}
    </PageFrame>
  );
}
