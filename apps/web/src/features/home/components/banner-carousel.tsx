import type { TSiteData } from '@sorte/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../../lib/i18n.ts';

type TBanner = TSiteData['banners'][number];

const AUTOPLAY_MS = 5_000;

/** The banner's title in the active language, else English, else the first one given. */
export function bannerTitle(banner: TBanner, language: string): string {
  return banner.title[language] ?? banner.title.en ?? Object.values(banner.title)[0] ?? '';
}

function BannerLink({ banner, children }: { banner: TBanner; children: React.ReactNode }) {
  if (!banner.link) return <div className="carousel__slide-inner">{children}</div>;
  if (/^https?:\/\//.test(banner.link)) {
    return (
      <a className="carousel__slide-inner" href={banner.link} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  }
  return (
    <Link className="carousel__slide-inner" to={banner.link}>
      {children}
    </Link>
  );
}

/** What the banner's button says, from where it leads. */
function ctaKey(link: string): string {
  if (link.startsWith('/recharge')) return 'home.banner_cta_deposit';
  if (link.startsWith('/promotion')) return 'home.banner_cta_promo';
  return 'home.banner_cta_play';
}

export function BannerCarousel({ banners }: { banners: TBanner[] }) {
  const { t } = useTranslation();
  const track = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const [paused, setPaused] = useState(false);
  const language = currentLanguage();

  // Track which slide is in view as the player swipes (scroll-snap does the moving).
  useEffect(() => {
    const element = track.current;
    if (!element) return;
    const onScroll = () => setActive(Math.round(element.scrollLeft / Math.max(1, element.clientWidth)));
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (banners.length < 2 || paused || reduced) return;
    const timer = window.setInterval(() => {
      const element = track.current;
      if (!element) return;
      const next = (Math.round(element.scrollLeft / Math.max(1, element.clientWidth)) + 1) % banners.length;
      element.scrollTo({ left: next * element.clientWidth, behavior: 'smooth' });
    }, AUTOPLAY_MS);
    return () => window.clearInterval(timer);
  }, [banners.length, paused]);

  const goTo = (index: number) => {
    const element = track.current;
    if (element) element.scrollTo({ left: index * element.clientWidth, behavior: 'smooth' });
  };

  if (banners.length === 0) return null;
  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label={t('home.banners')}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {/* Focusable, so a keyboard scrolls it with the arrow keys like a finger swipes it (WCAG 2.1.1). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <div className="carousel__track" ref={track} tabIndex={0}>
        {banners.map((banner, index) => {
          const title = bannerTitle(banner, language);
          return (
            <div className="carousel__slide" key={banner.id}>
              <BannerLink banner={banner}>
                <img
                  src={banner.image}
                  alt={title}
                  loading={index === 0 ? 'eager' : 'lazy'}
                  fetchPriority={index === 0 ? 'high' : 'low'}
                  decoding="async"
                />
                {title && (
                  <span className="carousel__text">
                    <span className="carousel__title">{title}</span>
                    {banner.link && (
                      <span className="button button--primary carousel__cta">{t(ctaKey(banner.link))}</span>
                    )}
                  </span>
                )}
              </BannerLink>
            </div>
          );
        })}
      </div>
      {banners.length > 1 && (
        <div className="carousel__dots">
          {banners.map((banner, index) => (
            <button
              key={banner.id}
              type="button"
              className={`carousel__dot${index === active ? ' is-active' : ''}`}
              aria-label={t('home.go_to_slide', { number: index + 1 })}
              aria-current={index === active}
              onClick={() => goTo(index)}
            />
          ))}
        </div>
      )}
    </section>
  );
}
