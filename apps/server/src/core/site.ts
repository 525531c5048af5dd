import { LANGUAGES, type TLanguage } from '@sorte/contract';
import type { TSiteRow } from '../modules/sites/sites.schema.ts';

/**
 * The site a request runs on (resolved from its Host header by the sites module). Nearly every
 * module reads it, so it lives in the core layer: a module that needs a site's jurisdiction or
 * languages does not depend on how sites are found.
 */
export type TSite = TSiteRow;

/** The site's languages, its default first (spec §4: the first entry becomes active). */
export function siteLanguages(site: TSite): TLanguage[] {
  const own = site.languages.filter((code): code is TLanguage =>
    (LANGUAGES as readonly string[]).includes(code),
  );
  const first = own.includes(site.defaultLang as TLanguage) ? (site.defaultLang as TLanguage) : own[0];
  return first ? [first, ...own.filter((code) => code !== first)] : ['en'];
}
