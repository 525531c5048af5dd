import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useHasToken } from '../lib/session.ts';
import { GuestNotice } from './guest-notice.tsx';
import { Icon } from './icon.tsx';

/**
 * The frame of every inner page: a translated title, a back button, and — when the page needs an
 * account and the visitor is a guest — the log-in notice instead of the content.
 */
export function PageFrame({
  title,
  children,
  requiresLogin = false,
  actions,
}: {
  title: string;
  children: ReactNode;
  requiresLogin?: boolean;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hasToken = useHasToken();

  const goBack = () => {
    // A deep link has no history inside the app: back then means home.
    if (
      window.history.state &&
      typeof window.history.state.idx === 'number' &&
      window.history.state.idx > 0
    ) {
      navigate(-1);
    } else {
      navigate('/');
    }
  };

  return (
    <section className="page">
      <header className="page__header">
        <button type="button" className="icon-button" onClick={goBack} aria-label={t('common.back')}>
          <Icon name="back" />
        </button>
        <h1 className="page__title">{title}</h1>
        <div className="page__actions">{actions}</div>
      </header>
      <div className="page__content">{requiresLogin && !hasToken ? <GuestNotice /> : children}</div>
    </section>
  );
}
