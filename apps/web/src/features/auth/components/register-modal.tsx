import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/modal.tsx';
import { openModal } from '../../../lib/auth-modal.ts';
import { RegisterForm } from './register-form.tsx';

export default function RegisterModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Modal title={t('auth.register')} onClose={onClose} testId="register-modal">
      <p className="modal__lead">{t('auth.register_lead')}</p>
      <RegisterForm
        onSuccess={() => {
          onClose();
          // The next step of a new player is the first deposit.
          navigate('/recharge?welcome=1');
        }}
        onLogin={() => openModal('login')}
      />
    </Modal>
  );
}
