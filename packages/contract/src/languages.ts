/**
 * The eight interface languages of the spec. `cn` is Simplified Chinese (zh-Hans) and `ch` is
 * Traditional Chinese (zh-Hant); see docs/decisions/002-chinese-language-codes.md. Some calls of the
 * spec send `zh_cn`, which is the Simplified variant.
 */
export const LANGUAGES = ['en', 'pt', 'cn', 'ch', 'vi', 'id', 'th', 'msa'] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: TLanguage = 'en';

const ALIASES: Record<string, TLanguage> = {
  zh_cn: 'cn',
  'zh-cn': 'cn',
  zh: 'cn',
  zh_tw: 'ch',
  'zh-tw': 'ch',
  zh_hk: 'ch',
  'pt-br': 'pt',
  pt_br: 'pt',
  ms: 'msa',
  my: 'msa',
};

/** Maps any code we accept (including aliases) to one of the eight languages, or null. */
export function normalizeLanguage(code: string | undefined | null): TLanguage | null {
  if (!code) return null;
  const lower = code.trim().toLowerCase();
  if ((LANGUAGES as readonly string[]).includes(lower)) return lower as TLanguage;
  return ALIASES[lower] ?? null;
}

/** BCP 47 tags, for <html lang> and Intl formatting. */
export const LANGUAGE_TAGS: Record<TLanguage, string> = {
  en: 'en',
  pt: 'pt-BR',
  cn: 'zh-Hans',
  ch: 'zh-Hant',
  vi: 'vi',
  id: 'id',
  th: 'th',
  msa: 'ms',
};

/** Each language's own name for itself, shown in the language switcher. */
export const LANGUAGE_NAMES: Record<TLanguage, string> = {
  en: 'English',
  pt: 'Português',
  cn: '简体中文',
  ch: '繁體中文',
  vi: 'Tiếng Việt',
  id: 'Bahasa Indonesia',
  th: 'ไทย',
  msa: 'Bahasa Melayu',
};
