import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../components/icon.tsx';

/** Full-screen pages outside the index layout still offer a way home. */
export function BareFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="bare">
      <header className="bare__header">
        <Link to="/" className="icon-button" aria-label={t('nav.home')}>
          <Icon name="back" />
        </Link>
        <h1 className="page__title">{title}</h1>
      </header>
      <main className="bare__content">{children}</main>
    </div>
  );
}
