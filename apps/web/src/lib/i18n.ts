import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, normalizeLanguage, type TLanguage } from '@sorte/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { pageReload } from './page-reload.ts';
import { getStoredLanguage, setStoredLanguage } from './storage.ts';

export { pageReload };

export type TCatalogue = { [key: string]: string | TCatalogue };

/** Each language is its own chunk: a player downloads only the catalogue they read. */
const catalogues = import.meta.glob<TCatalogue>('../locales/*.json', { import: 'default' });

export async function loadCatalogue(language: TLanguage): Promise<TCatalogue> {
  const load = catalogues[`../locales/${language}.json`];
  if (!load) throw new Error(`No catalogue for language ${language}`);
  return load();
}

/**
 * The stored choice when it is one of ours, otherwise the site's first language when the page
 * names the site's languages (its bootstrap), otherwise the default (en).
 */
export function resolveInitialLanguage(siteLanguages: readonly string[] = []): TLanguage {
  const site = siteLanguages.map((code) => normalizeLanguage(code)).find((code) => code !== null);
  return normalizeLanguage(getStoredLanguage()) ?? site ?? DEFAULT_LANGUAGE;
}

export function currentLanguage(): TLanguage {
  return normalizeLanguage(i18next.resolvedLanguage ?? i18next.language) ?? resolveInitialLanguage();
}

function applyDocumentLanguage(language: TLanguage): void {
  document.documentElement.lang = LANGUAGE_TAGS[language];
  // The install sheet speaks the reader's language too: the server writes the manifest per language.
  document
    .querySelector('link[rel="manifest"]')
    ?.setAttribute('href', `/manifest.webmanifest?lang=${language}`);
}

export async function initI18n(language: TLanguage = resolveInitialLanguage()): Promise<typeof i18next> {
  const catalogue = await loadCatalogue(language);
  await i18next.use(initReactI18next).init({
    lng: language,
    // Every key exists in every language (scripts/check-i18n.ts), so no fallback catalogue is loaded.
    fallbackLng: false,
    resources: { [language]: { translation: catalogue } },
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  applyDocumentLanguage(language);
  return i18next;
}

/** Adds more keys (e.g. the contract's validation messages) to the active language. */
export function addTranslations(language: TLanguage, catalogue: TCatalogue): void {
  i18next.addResourceBundle(language, 'translation', catalogue, true, false);
}

/**
 * Switching language refreshes the page (spec §4): every query, cached server text and formatted
 * value is then fetched again in the new language.
 */
export function changeLanguage(code: string): void {
  const language = normalizeLanguage(code);
  if (!language) return;
  setStoredLanguage(language);
  pageReload.run();
}

/**
 * After the site's languages load, the first becomes active when the player has not chosen one.
 * Returns the language now active.
 */
export async function adoptSiteLanguage(siteLanguages: readonly string[]): Promise<TLanguage> {
  const active = currentLanguage();
  if (getStoredLanguage()) return active;
  const first = siteLanguages.map((code) => normalizeLanguage(code)).find((code) => code !== null);
  if (!first) return active;
  setStoredLanguage(first);
  if (first !== active) {
    i18next.addResourceBundle(first, 'translation', await loadCatalogue(first), true, true);
    await i18next.changeLanguage(first);
    applyDocumentLanguage(first);
  }
  return first;
}
