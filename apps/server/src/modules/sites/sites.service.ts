import { LANGUAGE_NAMES, type TLanguageEntry, type TSiteData, type TSocialLink } from '@sorte/contract';
import { siteLanguages, type TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { findJurisdictionProfile } from '../responsible-gaming/rg.repo.ts';
import { findBanners, findSiteByCode, findSiteByHost, findSocialLinks } from './sites.repo.ts';

/**
 * Turns a Host header into the lookup key: lower case, port and trailing dot removed. Returns null
 * for anything that is not a plausible host name or IP literal (so garbage never reaches SQL).
 */
export function normalizeHost(header: string | undefined): string | null {
  if (!header) return null;
  let host = header.trim().toLowerCase();
  if (host.length > 260) return null;
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return null;
    host = host.slice(0, end + 1);
  } else {
    host = host.replace(/:\d{1,5}$/, '');
  }
  host = host.replace(/\.$/, '');
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]{1,253})$/.test(host)) return null;
  return host;
}

const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 1_000;

/**
 * Resolves sites by host, with a short in-process cache: every request needs its site, and site
 * rows change rarely. The cache is bounded so a flood of invented Host headers cannot grow it.
 */
export class SiteResolver {
  readonly #cache = new Map<string, { site: TSite | null; until: number }>();

  constructor(private readonly executor: Executor) {}

  async byHost(header: string | undefined): Promise<TSite | null> {
    const host = normalizeHost(header);
    if (!host) return null;
    const now = Date.now();
    const cached = this.#cache.get(host);
    if (cached && cached.until > now) return cached.site;
    const found = await findSiteByHost(this.executor, host);
    const site = found && found.status === 1 ? found : null;
    if (this.#cache.size >= CACHE_MAX_ENTRIES) this.#cache.clear();
    this.#cache.set(host, { site, until: now + CACHE_TTL_MS });
    return site;
  }

  async byCode(code: string): Promise<TSite | null> {
    if (!/^[a-z0-9-]{2,32}$/.test(code)) return null;
    const site = await findSiteByCode(this.executor, code);
    return site && site.status === 1 ? site : null;
  }

  /** Drops cached lookups (after an operator edits sites or domains). */
  clear(): void {
    this.#cache.clear();
  }
}

export function languageList(site: TSite): TLanguageEntry[] {
  return siteLanguages(site).map((code) => ({
    language_flag_link: `/media/flags/${code}.svg`,
    language_name: LANGUAGE_NAMES[code],
    language_code: code,
  }));
}

export async function getSiteData(
  executor: Executor,
  site: TSite,
  captchaRequired: boolean,
): Promise<TSiteData> {
  const banners = await findBanners(executor, site.id);
  const profile = await findJurisdictionProfile(executor, site);
  return {
    site: site.code,
    name: site.name,
    logo: site.logo,
    favicon: site.favicon,
    jurisdiction: site.jurisdiction,
    currency: 'BRL',
    default_lang: siteLanguages(site)[0]!,
    languages: siteLanguages(site),
    theme: site.theme,
    banners: banners.map((banner) => ({
      id: Number(banner.id),
      image: banner.image,
      title: banner.title,
      link: banner.link,
    })),
    categories: site.categories,
    background_video: site.backgroundVideo,
    captcha_required: captchaRequired,
    min_age: site.minAge,
    telegram_link: site.telegramLink,
    registration: {
      requires_cpf: profile.requiresCpf,
      requires_birth_date: profile.requiresBirthDate,
      mandatory_limits: profile.mandatoryLimits,
      shows_risk_message: profile.showsRiskMessage,
    },
  };
}

export async function getSocialLinks(executor: Executor, site: TSite): Promise<TSocialLink[]> {
  const links = await findSocialLinks(executor, site.id);
  return links.map((link) => ({ name: link.name, url: link.url, icon: `/media/social/${link.name}.svg` }));
}
