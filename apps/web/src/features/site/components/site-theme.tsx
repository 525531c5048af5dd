import { useEffect } from 'react';
import { adoptSiteLanguage } from '../../../lib/i18n.ts';
import { useLanguageList, useSiteData } from '../../../lib/site.ts';

/** Only custom properties may be set from server data; anything else is ignored. */
const CUSTOM_PROPERTY = /^--[a-z0-9-]{1,64}$/;
const SAFE_VALUE = /^[^;{}<>]{1,200}$/;

export function applyTheme(
  theme: Record<string, string>,
  root: HTMLElement = document.documentElement,
): void {
  for (const [name, value] of Object.entries(theme)) {
    if (CUSTOM_PROPERTY.test(name) && SAFE_VALUE.test(value)) root.style.setProperty(name, value);
  }
}

/** Applies the site's theme, title and favicon, and activates its first language on a first visit. */
export function SiteTheme() {
  const { data: site } = useSiteData();
  const { data: languages } = useLanguageList();

  useEffect(() => {
    if (!site) return;
    applyTheme(site.theme);
    document.title = site.name;
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon && site.favicon) icon.href = site.favicon;
    const themeColor = site.theme['--color-bg'];
    if (themeColor) document.querySelector('meta[name="theme-color"]')?.setAttribute('content', themeColor);
  }, [site]);

  useEffect(() => {
    if (languages && languages.length > 0) {
      void adoptSiteLanguage(languages.map((entry) => entry.language_code));
    }
  }, [languages]);

  return null;
}
