import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon, type TIconName } from '../../../components/icon.tsx';
import { openModal } from '../../../lib/auth-modal.ts';
import { useHasToken } from '../../../lib/session.ts';
import { useSiteData } from '../../../lib/site.ts';
import { BannerCarousel } from './banner-carousel.tsx';
import { CategoryTabs } from './category-tabs.tsx';

const QUICK: readonly { to: string; labelKey: string; icon: TIconName }[] = [
  { to: '/recharge', labelKey: 'nav.deposit', icon: 'wallet' },
  { to: '/withdraw', labelKey: 'pages.withdraw', icon: 'bank' },
  { to: '/promotion/activity', labelKey: 'nav.promotions', icon: 'gift' },
  { to: '/promotion/vip', labelKey: 'pages.promotion_vip', icon: 'crown' },
];

/**
 * The home page. The game grids come from the games feature; the app composes the two
 * (app/pages/home-route.tsx), so features do not import each other.
 */
export function HomePage({
  renderCategory,
  gameRows,
}: {
  /** The games of one category tab. */
  renderCategory: (category: string) => ReactNode;
  /** Rows under the tabs (popular, new, recently played). */
  gameRows: ReactNode;
}) {
  const { t } = useTranslation();
  const { data: site, isPending } = useSiteData();
  const hasToken = useHasToken();
  return (
    <div className="home">
      {isPending ? (
        <div className="carousel carousel--skeleton" aria-hidden="true" />
      ) : (
        <BannerCarousel banners={site?.banners ?? []} />
      )}
      {!hasToken && (
        <section className="welcome card">
          <div>
            <h1 className="welcome__title">{t('home.welcome_title', { name: site?.name ?? 'Sorte' })}</h1>
            <p className="welcome__text">{t('home.welcome_text')}</p>
          </div>
          <button type="button" className="button button--primary" onClick={() => openModal('register')}>
            {t('auth.register_now')}
          </button>
        </section>
      )}
      <nav className="quick" aria-label={t('home.quick_links')}>
        {QUICK.map((item) => (
          <Link key={item.to} to={item.to} className="quick__item">
            <span className="quick__icon">
              <Icon name={item.icon} />
            </span>
            <span>{t(item.labelKey)}</span>
          </Link>
        ))}
      </nav>
      <CategoryTabs categories={site?.categories ?? []} loading={isPending} renderPanel={renderCategory} />
      {gameRows}
    </div>
  );
}
