import { useGetIdentity, useLogout } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { session, type TOperatorSession } from '../api.ts';
import { ADMIN_LANGUAGES } from '../i18n.ts';
import { can } from '../providers.ts';
import { GROUPS, RESOURCES } from '../resources.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

/** The frame of every signed-in screen: sidebar navigation and the top bar (site, operator). */
export function Layout() {
  const { t, i18n } = useTranslation();
  const { data: identity } = useGetIdentity<TOperatorSession>();
  const { mutate: logout } = useLogout();
  const [open, setOpen] = useState(false);
  const operator = identity ?? session.operator();
  const visible = RESOURCES.filter((resource) => can(resource.permission));

  return (
    <div className={`shell${open ? ' shell--nav-open' : ''}`}>
      <aside className="sidebar" aria-label={t('nav.title')}>
        <div className="sidebar__brand">
          <span className="sidebar__logo" aria-hidden="true">
            S
          </span>
          <span>{t('app.name')}</span>
        </div>
        <nav className="sidebar__nav">
          {GROUPS.map((group) => {
            const items = visible.filter((resource) => resource.group === group);
            if (items.length === 0) return null;
            return (
              <div key={group} className="sidebar__group">
                <div className="sidebar__group-title">{t(`nav.group.${group}`)}</div>
                {items.map((resource) => (
                  <NavLink
                    key={resource.name}
                    to={`/${resource.path}`}
                    className="sidebar__link"
                    onClick={() => setOpen(false)}
                    data-testid={`nav-${resource.name}`}
                  >
                    <span className="sidebar__icon" aria-hidden="true">
                      {resource.icon}
                    </span>
                    {t(resource.label)}
                  </NavLink>
                ))}
              </div>
            );
          })}
        </nav>
      </aside>
      <div className="main">
        <header className="topbar">
          <button
            type="button"
            className="topbar__menu"
            aria-label={t('nav.menu')}
            aria-expanded={open}
            onClick={() => setOpen((value) => !value)}
          >
            ☰
          </button>
          <div className="topbar__site" data-testid="topbar-site">
            <span className="topbar__site-label">{t('topbar.site')}</span>
            <strong>
              {session.site()?.name ?? operator?.site ?? '—'}
              <small>{session.site()?.code ?? ''}</small>
            </strong>
          </div>
          <div className="topbar__spacer" />
          <label className="topbar__lang">
            <span className="visually-hidden">{t('topbar.language')}</span>
            <select value={i18n.language} onChange={(event) => void i18n.changeLanguage(event.target.value)}>
              {ADMIN_LANGUAGES.map((language) => (
                <option key={language.code} value={language.code}>
                  {language.label}
                </option>
              ))}
            </select>
          </label>
          <div className="topbar__operator" data-testid="topbar-operator">
            <span className="avatar" aria-hidden="true">
              {operator?.username.slice(0, 1).toUpperCase()}
            </span>
            <span className="topbar__operator-name">
              {operator?.username}
              <small>{operator ? t(`role.${operator.role}`) : ''}</small>
            </span>
          </div>
          <RecoveryCodes />
          <button type="button" className="button button--ghost" onClick={() => logout()}>
            {t('auth.sign_out')}
          </button>
        </header>
        <main className="content">
          <Outlet />
        </main>
      </div>
      <button
        type="button"
        className="shell__scrim"
        aria-label={t('nav.close')}
        tabIndex={-1}
        onClick={() => setOpen(false)}
      />
    </div>
  );
}
