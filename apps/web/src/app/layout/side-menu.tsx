import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { Icon } from '../../components/icon.tsx';
import { openModal } from '../../lib/auth-modal.ts';
import { useSiteData } from '../../lib/site.ts';
import { SIDE_MENU } from './navigation.ts';

/** Where the side menu shows (global.css `.side-menu`). */
const DESKTOP_QUERY = '(min-width: 1024px)';

function subscribe(listener: () => void): () => void {
  const media = window.matchMedia?.(DESKTOP_QUERY);
  if (!media) return () => {};
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}

/** Without media queries (a test's DOM) the menu is drawn. */
const isDesktop = () => window.matchMedia?.(DESKTOP_QUERY).matches ?? true;

/**
 * The desktop navigation (≥1024 px). On smaller screens, where the bottom bar serves and CSS hides
 * it, it is not drawn at all (a phone's first render has less to do); a window widened past 1024 px
 * draws it.
 */
export function SideMenu() {
  const desktop = useSyncExternalStore(subscribe, isDesktop, () => true);
  return desktop ? <SideMenuPanel /> : null;
}

function SideMenuPanel() {
  const { t } = useTranslation();
  const { data: site } = useSiteData();
  return (
    <aside className="side-menu" data-testid="side-menu" aria-label={t('nav.menu')}>
      <Link to="/" className="side-menu__brand" aria-label={t('nav.home')}>
        {site ? (
          <img src={site.logo} alt={site.name} height={34} />
        ) : (
          <span className="brand-text">Sorte</span>
        )}
      </Link>
      <nav>
        {SIDE_MENU.map((group) => (
          <div className="side-menu__group" key={group.titleKey}>
            <p className="side-menu__title">{t(group.titleKey)}</p>
            {group.items.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.to === '/'}
                className={({ isActive }) => `side-menu__item${isActive ? ' is-active' : ''}`}
              >
                <Icon name={item.icon} size={20} />
                <span>{t(item.labelKey)}</span>
              </NavLink>
            ))}
          </div>
        ))}
      </nav>
      <button type="button" className="side-menu__install" onClick={() => openModal('install')}>
        <Icon name="download" size={20} />
        <span>{t('pwa.install_title')}</span>
      </button>
    </aside>
  );
}
