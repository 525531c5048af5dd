import { ZEmail } from '@sorte/contract';
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
 * /bind-email: an address → a 6-digit code mailed to it (POST /api/security/email/code) → the code
 * (POST /api/security/email/bind); the confirmed address is where a forgotten password's code goes.
 */
export default function BindEmailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const overview = useSecurityOverview();
  const sendCode = useSecurityCall<{ email: string }>('/api/security/email/code');
  const bind = useSecurityCall<{ email: string; code: string }>('/api/security/email/bind');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const current = overview.data?.email_verified ? overview.data.email : null;

  const onSend = async (event?: FormEvent) => {
    event?.preventDefault();
    const parsed = ZEmail.safeParse(email);
    if (!parsed.success)
      return setErrors({ email: parsed.error.issues[0]?.message ?? 'validation.email_invalid' });
    const address = parsed.data;
    setErrors({});
    try {
      await sendCode.mutateAsync({ email: address });
      setSentTo(address);
    } catch (error) {
      showFailure(error, setErrors);
    }
  };
  const onBind = async (event: FormEvent) => {
    event.preventDefault();
    if (!sentTo) return;
    const typed = code.trim();
    if (!typed) return setErrors({ code: 'validation.required.code' });
    if (!/^\d{6}$/.test(typed)) return setErrors({ code: 'validation.code_format' });
    setErrors({});
    try {
      await bind.mutateAsync({ email: sentTo, code: typed });
      toast.success(t('messages.email_bound'));
      navigate('/security-center');
    } catch (error) {
      showFailure(error, setErrors);
    }
  };

  return (
    <PageFrame title={t('pages.bind_email')} requiresLogin>
      {sentTo === null ? (
        <form className="security-card security-form" onSubmit={(event) => void onSend(event)} noValidate>
          {current && (
            <p className="security-note" data-testid="bind-email-current">
              {t('security.email_current', { email: current })}
            </p>
          )}
          <p className="security-note">{t('security.bind_email_intro')}</p>
          <Field
            label={t('security.email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={254}
            placeholder={t('security.email_placeholder')}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={errors.email}
            data-testid="bind-email-address"
          />
          <SubmitButton label={t('security.send_code')} busy={sendCode.isPending} testId="bind-email-send" />
        </form>
      ) : (
        <form className="security-card security-form" onSubmit={(event) => void onBind(event)} noValidate>
          <p className="security-note" role="status" data-testid="bind-email-sent">
            {t('security.email_code_sent', { email: sentTo })}
          </p>
          <Field
            label={t('security.email_code')}
            placeholder={t('auth.email_code_placeholder')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={errors.code}
            data-testid="bind-email-code"
          />
          <SubmitButton label={t('security.bind')} busy={bind.isPending} testId="bind-email-submit" />
          <p className="security-links">
            <button type="button" className="link-button" onClick={() => void onSend()}>
              {t('security.resend_code')}
            </button>
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setSentTo(null);
                setCode('');
                setErrors({});
              }}
            >
              {t('security.other_email')}
            </button>
          </p>
        </form>
      )}
    </PageFrame>
  );
}
