import type { TUserInfo } from '@sorte/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../components/icon.tsx';
import { HeaderSearch } from '../../features/games/components/header-search.tsx';
import { NotificationBell } from '../../features/information/components/notification-bell.tsx';
import { RealityCheckDialog } from '../../features/security/components/reality-check.tsx';
import { LanguageSwitcher } from '../../features/site/components/language-switcher.tsx';
import { openModal } from '../../lib/auth-modal.ts';
import { formatMoney } from '../../lib/format.ts';
import { useUser } from '../../lib/session.ts';
import { useSiteData } from '../../lib/site.ts';
import { UserMenu } from './user-menu.tsx';

export function Header() {
  const { t } = useTranslation();
  const { user } = useUser();

  return (
    <header className="header">
      <HeaderBrand />
      <div className="header__actions">
        <HeaderSearch />
        {user ? (
          <MemberActions user={user} />
        ) : (
          <>
            <button
              type="button"
              className="button button--ghost button--small"
              data-testid="open-login"
              onClick={() => openModal('login')}
            >
              {t('auth.log_in')}
            </button>
            <button
              type="button"
              className="button button--primary button--small"
              data-testid="open-register"
              onClick={() => openModal('register')}
            >
              {t('auth.register')}
            </button>
          </>
        )}
        <button
          type="button"
          className="icon-button header__install"
          data-testid="install-app"
          onClick={() => openModal('install')}
          aria-label={t('pwa.install_title')}
        >
          <Icon name="download" size={20} />
        </button>
        <LanguageSwitcher />
        {user && <UserMenu user={user} />}
      </div>
    </header>
  );
}

/** The site's wordmark, or on a phone its mark (the wordmark would be too small to read there). */
function HeaderBrand() {
  const { t } = useTranslation();
  const { data: site } = useSiteData();
  return (
    <Link to="/" className="header__brand" aria-label={t('nav.home')}>
      {site ? (
        <picture>
          <source media="(max-width: 480px)" srcSet={site.favicon} />
          <img src={site.logo} alt={site.name} height={34} />
        </picture>
      ) : (
        <span className="brand-text">Sorte</span>
      )}
    </Link>
  );
}

/** A logged-in player's balance (a tap refreshes it), notifications, reality check and Deposit. */
function MemberActions({ user }: { user: TUserInfo }) {
  const { t } = useTranslation();
  const { refetch, isFetching } = useUser();
  return (
    <>
      <button
        type="button"
        className={`balance${isFetching ? ' is-loading' : ''}`}
        onClick={() => void refetch()}
        title={t('header.refresh_balance')}
      >
        <span className="balance__amount" data-testid="header-balance">
          {formatMoney(user.money)}
        </span>
        {/* The name starts with what the button shows (the amount), then says what a tap does. */}
        <span className="visually-hidden"> · {t('header.refresh_hint')}</span>
        <Icon name="refresh" size={16} className="balance__refresh" />
      </button>
      <NotificationBell />
      <RealityCheckDialog />
      {/* On a phone the bottom bar carries Deposit; on wider screens it sits by the balance. */}
      <Link
        to="/recharge"
        className="button button--primary button--small header__deposit"
        data-testid="header-deposit"
      >
        {t('nav.deposit')}
      </Link>
    </>
  );
}
