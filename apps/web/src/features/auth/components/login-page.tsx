import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { openModal } from '../../../lib/auth-modal.ts';
import { ForgotPasswordForm } from './forgot-password-form.tsx';
import { LoginForm } from './login-form.tsx';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [forgot, setForgot] = useState(false);
  const [reset, setReset] = useState(false);
  if (forgot) {
    return (
      <PageFrame title={t('auth.forgot_password')}>
        <div className="card card--narrow" data-testid="login-page">
          <ForgotPasswordForm
            onDone={() => {
              setReset(true);
              setForgot(false);
            }}
            onBack={() => setForgot(false)}
          />
        </div>
      </PageFrame>
    );
  }
  return (
    <PageFrame title={t('auth.log_in')}>
      <div className="card card--narrow" data-testid="login-page">
        {reset ? (
          <p className="form__sent" role="status">
            {t('messages.password_reset')}
          </p>
        ) : (
          <p className="modal__lead">{t('auth.login_lead')}</p>
        )}
        <LoginForm
          onSuccess={() => navigate('/profile')}
          onRegister={() => openModal('register')}
          onForgot={() => setForgot(true)}
          onWithdrawalSession={() => navigate('/withdraw')}
        />
      </div>
    </PageFrame>
  );
}
