import type { TUserInfo } from '@sorte/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon, type TIconName } from '../../components/icon.tsx';
import { openModal } from '../../lib/auth-modal.ts';
import { levelLabel } from '../../lib/format.ts';
import { usePopover } from '../../lib/popover.ts';
import { endSession, useProfilePhoto } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';

const LINKS: readonly { to: string; labelKey: string; icon: TIconName }[] = [
  { to: '/profile', labelKey: 'nav.profile', icon: 'user' },
  { to: '/recharge', labelKey: 'nav.deposit', icon: 'wallet' },
  { to: '/withdraw', labelKey: 'pages.withdraw', icon: 'bank' },
  { to: '/order-center', labelKey: 'pages.order_center', icon: 'list' },
  { to: '/game-record', labelKey: 'lobby.record.title', icon: 'game' },
  { to: '/fairness', labelKey: 'lobby.fair.title', icon: 'shield' },
  { to: '/security-center', labelKey: 'pages.security_center', icon: 'shield' },
  // Limits, a pause and self-exclusion one tap from the account menu, as the rules ask.
  { to: '/responsible-gaming', labelKey: 'footer.responsible_gaming', icon: 'lock' },
];

export function UserMenu({ user }: { user: TUserInfo }) {
  const { t } = useTranslation();
  const { open, setOpen, root } = usePopover();
  const menuId = useId();
  const { data: photo } = useProfilePhoto(user);

  return (
    <div className="menu" ref={root}>
      <button
        type="button"
        className="avatar-button"
        data-testid="user-menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t('header.account_menu', { name: user.name })}
        onClick={() => setOpen((value) => !value)}
      >
        {photo ? (
          <img src={photo} alt="" width={34} height={34} />
        ) : (
          <span aria-hidden="true">{user.name.slice(0, 1).toUpperCase()}</span>
        )}
      </button>
      {open && <AccountMenu id={menuId} user={user} onClose={() => setOpen(false)} />}
    </div>
  );
}

/** The open account menu: the player's pages, installing the app (a phone's only entry besides the footer), logout. */
function AccountMenu({ id, user, onClose }: { id: string; user: TUserInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const logout = async () => {
    onClose();
    await endSession();
    toast.success(t('auth.logged_out'));
  };

  return (
    <div className="menu__popover" id={id} role="menu">
      <p className="menu__heading">
        <strong>{user.name}</strong>
        <span>{levelLabel(t, user.level_name)}</span>
      </p>
      {LINKS.map((link) => (
        <Link key={link.to} to={link.to} role="menuitem" className="menu__item" onClick={onClose}>
          <Icon name={link.icon} size={18} />
          {t(link.labelKey)}
        </Link>
      ))}
      <button
        type="button"
        role="menuitem"
        className="menu__item menu__item--install"
        onClick={() => {
          onClose();
          openModal('install');
        }}
      >
        <Icon name="download" size={18} />
        {t('pwa.install_title')}
      </button>
      <button
        type="button"
        role="menuitem"
        className="menu__item menu__item--danger"
        data-testid="logout"
        onClick={() => void logout()}
      >
        <Icon name="logout" size={18} />
        {t('auth.log_out')}
      </button>
    </div>
  );
}
