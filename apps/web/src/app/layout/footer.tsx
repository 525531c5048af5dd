import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../components/icon.tsx';
import { openModal } from '../../lib/auth-modal.ts';
import { useSiteData, useSocialLinks } from '../../lib/site.ts';
import { socialNetworkName } from '../../lib/social-names.ts';

const LEGAL = [
  { hash: 'terms', labelKey: 'footer.terms' },
  { hash: 'privacy', labelKey: 'footer.privacy' },
  { hash: 'responsible-gaming', labelKey: 'footer.responsible_gaming' },
  { hash: 'faq', labelKey: 'footer.faq' },
] as const;

export function Footer() {
  const { t } = useTranslation();
  const { data: site } = useSiteData();
  const { data: social } = useSocialLinks(site?.site);
  const name = site?.name ?? 'Sorte';
  return (
    <footer className="footer">
      <nav className="footer__legal" aria-label={t('footer.legal')}>
        {LEGAL.map((item) => (
          <Link key={item.hash} to={`/information-center/support#${item.hash}`}>
            {t(item.labelKey)}
          </Link>
        ))}
      </nav>
      {social && social.length > 0 && (
        <ul className="footer__social" aria-label={t('footer.follow_us')}>
          {social.map((link) => (
            <li key={link.url}>
              <a
                href={link.url}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={socialNetworkName(link.name)}
              >
                <img src={link.icon} alt="" width={28} height={28} loading="lazy" />
              </a>
            </li>
          ))}
        </ul>
      )}
      {/* On a phone the header has no room for it: installing the app is offered here and in the account menu. */}
      <button
        type="button"
        className="button button--ghost button--small footer__install"
        data-testid="install-app"
        onClick={() => openModal('install')}
      >
        <Icon name="download" size={18} />
        {t('pwa.install_title')}
      </button>
      <p className="footer__responsible">
        <span className="badge-18" aria-hidden="true">
          18+
        </span>
        {t('footer.responsible_note', { age: site?.min_age ?? 18 })}
      </p>
      <p className="footer__copyright">{t('footer.copyright', { year: new Date().getFullYear(), name })}</p>
    </footer>
  );
}
