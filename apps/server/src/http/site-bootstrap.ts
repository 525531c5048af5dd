import { LANGUAGE_TAGS, normalizeLanguage, type TLanguageEntry, type TSiteData } from '@sorte/contract';
import { escapeHtml } from './html-page.ts';

/**
 * What the player app needs to draw its first frame as the right site: the same site data and
 * language list GET /api/dynamicwebs/getdata and GET /api/language/getList answer, written into
 * the HTML served for the host. Without it a first visit to br.localhost showed the intl brand,
 * theme and English copy until those two requests came back.
 */
export interface TSiteBootstrap {
  site: TSiteData;
  languages: TLanguageEntry[];
}

/** The element the app reads it from (apps/web/src/lib/site-bootstrap.ts). */
export const BOOTSTRAP_ELEMENT_ID = 'site-bootstrap';

/** Only custom properties with plain values reach the page's style (as the app's applyTheme). */
const CUSTOM_PROPERTY = /^--[a-z0-9-]{1,64}$/;
const SAFE_VALUE = /^[^;{}<>"]{1,200}$/;

/** JSON inside a <script> element: no "</script>" or "<!--" can end or bend it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function themeStyle(theme: Record<string, string>): string {
  return Object.entries(theme)
    .filter(([name, value]) => CUSTOM_PROPERTY.test(name) && SAFE_VALUE.test(value))
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
}

/**
 * index.html as this site's page before any script runs: the document language is the site's
 * first, the title and the skeleton's brand are its name, its theme colours are on the root
 * element, and the bootstrap data sits before the entry script for the app's first render.
 */
export function withSiteBootstrap(html: string, bootstrap: TSiteBootstrap | undefined): string {
  if (!bootstrap) return html;
  const { site } = bootstrap;
  const language = normalizeLanguage(site.default_lang);
  const style = themeStyle(site.theme);
  const attributes = [
    language ? ` lang="${LANGUAGE_TAGS[language]}"` : '',
    style ? ` style="${escapeHtml(style)}"` : '',
  ].join('');
  const themeColor = site.theme['--color-bg'];
  let page = html
    .replace(/<html\b[^>]*>/, `<html${attributes}>`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(site.name)}</title>`)
    .replace(
      /<span class="brand-text">[^<]*<\/span>/,
      `<span class="brand-text">${escapeHtml(site.name)}</span>`,
    );
  if (themeColor && SAFE_VALUE.test(themeColor))
    page = page.replace(
      /<meta name="theme-color" content="[^"]*"/,
      `<meta name="theme-color" content="${escapeHtml(themeColor)}"`,
    );
  const data = `<script id="${BOOTSTRAP_ELEMENT_ID}" type="application/json">${scriptJson(bootstrap)}</script>`;
  const head = page.indexOf('</head>');
  return head < 0 ? page : `${page.slice(0, head)}  ${data}\n  ${page.slice(head)}`;
}
