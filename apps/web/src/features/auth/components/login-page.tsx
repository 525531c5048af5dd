import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { openModal } from '../../../lib/auth-modal.ts';
import { LoginForm } from './login-form.tsx';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PageFrame title={t('auth.log_in')}>
      <div className="card card--narrow" data-testid="login-page">
        <p className="modal__lead">{t('auth.login_lead')}</p>
        <LoginForm onSuccess={() => navigate('/profile')} onRegister={() => openModal('register')} />
      </div>
    </PageFrame>
  );
}
