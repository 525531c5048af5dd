import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { Icon } from '../../components/icon.tsx';
import { OPEN_CHAT_EVENT } from '../../features/chat/components/chat-launcher.tsx';
import { BOTTOM_NAV } from './navigation.ts';

export function BottomNav() {
  const { t } = useTranslation();
  return (
    <nav className="bottom-nav" data-testid="bottom-nav" aria-label={t('nav.main')}>
      {BOTTOM_NAV.map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          end={item.to === '/'}
          className={({ isActive }) =>
            `bottom-nav__item${isActive ? ' is-active' : ''}${item.to === '/recharge' ? ' bottom-nav__item--cta' : ''}`
          }
        >
          <span className="bottom-nav__icon">
            <Icon name={item.icon} />
          </span>
          <span className="bottom-nav__label">{t(item.labelKey)}</span>
        </NavLink>
      ))}
      {/* On a phone the chat lives here, not in a floating button over the page's text and buttons. */}
      <button
        type="button"
        className="bottom-nav__item bottom-nav__chat"
        data-testid="nav-chat"
        aria-label={t('community.chat.open')}
        onClick={() => window.dispatchEvent(new Event(OPEN_CHAT_EVENT))}
      >
        <span className="bottom-nav__icon">
          <Icon name="users" />
        </span>
        <span className="bottom-nav__label">{t('community.chat.title')}</span>
      </button>
    </nav>
  );
}
