import type { TLanguageEntry, TSiteData } from '@sorte/contract';
import { queryClient } from './query-client.ts';
import { LANGUAGE_LIST_QUERY_KEY, SITE_DATA_QUERY_KEY } from './site.ts';

/**
 * The site the server wrote into the page it served for this host (apps/server/src/http/
 * site-bootstrap.ts): the same answers as GET /api/dynamicwebs/getdata and /api/language/getList.
 * Read before the first render, so the first frame has the site's brand, theme and language
 * instead of the defaults until those requests return.
 */
export interface TSiteBootstrap {
  site: TSiteData;
  languages: TLanguageEntry[];
}

const ELEMENT_ID = 'site-bootstrap';

/** The page's bootstrap, or null when the page has none (a dev server, a database that did not answer). */
export function readSiteBootstrap(doc: Document = document): TSiteBootstrap | null {
  const text = doc.getElementById(ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<TSiteBootstrap>;
    if (typeof value.site?.site !== 'string' || !Array.isArray(value.languages)) return null;
    return value as TSiteBootstrap;
  } catch {
    return null;
  }
}

/**
 * The bootstrap as the site queries' first answers. They are marked stale at once: the app draws
 * with them without waiting, and asks the server again in the background as it did before, so a
 * page the service worker kept from an earlier visit never pins old site data.
 */
export function seedSiteQueries(bootstrap: TSiteBootstrap): void {
  queryClient.setQueryData(SITE_DATA_QUERY_KEY, bootstrap.site, { updatedAt: 0 });
  queryClient.setQueryData(LANGUAGE_LIST_QUERY_KEY, bootstrap.languages, { updatedAt: 0 });
}
