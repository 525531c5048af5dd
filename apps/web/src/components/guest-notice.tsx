import { useTranslation } from 'react-i18next';
import { openModal } from '../lib/auth-modal.ts';
import { Icon } from './icon.tsx';

/** What a guest sees on a page that needs an account (spec §6). */
export function GuestNotice() {
  const { t } = useTranslation();
  return (
    <div className="guest-notice" role="status">
      <span className="guest-notice__icon">
        <Icon name="lock" size={30} />
      </span>
      <p>{t('auth.not_logged_in')}</p>
      <div className="guest-notice__actions">
        <button type="button" className="button button--primary" onClick={() => openModal('login')}>
          {t('auth.log_in')}
        </button>
        <button type="button" className="button button--ghost" onClick={() => openModal('register')}>
          {t('auth.register')}
        </button>
      </div>
    </div>
  );
}
