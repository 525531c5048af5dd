import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/modal.tsx';
import { openModal } from '../../../lib/auth-modal.ts';
import { ForgotPasswordForm } from './forgot-password-form.tsx';
import { LoginForm } from './login-form.tsx';

export default function LoginModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [mode, setMode] = useState<'login' | 'forgot'>('login');
  const [reset, setReset] = useState(false);
  if (mode === 'forgot') {
    return (
      <Modal title={t('auth.forgot_password')} onClose={onClose} testId="login-modal">
        <ForgotPasswordForm
          onDone={() => {
            setReset(true);
            setMode('login');
          }}
          onBack={() => setMode('login')}
        />
      </Modal>
    );
  }
  return (
    <Modal title={t('auth.log_in')} onClose={onClose} testId="login-modal">
      {reset ? (
        <p className="form__sent" role="status" data-testid="password-reset-done">
          {t('messages.password_reset')}
        </p>
      ) : (
        <p className="modal__lead">{t('auth.login_lead')}</p>
      )}
      <LoginForm
        onSuccess={onClose}
        onRegister={() => openModal('register')}
        onForgot={() => setMode('forgot')}
        onWithdrawalSession={() => {
          onClose();
          navigate('/withdraw');
        }}
      />
    </Modal>
  );
}
