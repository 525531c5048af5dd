import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import cn from './locales/cn.json';
import en from './locales/en.json';
import pt from './locales/pt.json';

/** Languages of the back office (the server answers in the same one: ?lang=). */
export const ADMIN_LANGUAGES = [
  { code: 'en', label: 'English', locale: 'en-US' },
  { code: 'pt', label: 'Português', locale: 'pt-BR' },
  { code: 'cn', label: '简体中文', locale: 'zh-CN' },
] as const;
export type TAdminLanguage = (typeof ADMIN_LANGUAGES)[number]['code'];

const LANG_KEY = 'sorte-admin-lang';

function initialLanguage(): TAdminLanguage {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved === 'en' || saved === 'pt' || saved === 'cn') return saved;
  const browser = navigator.language.toLowerCase();
  if (browser.startsWith('pt')) return 'pt';
  if (browser.startsWith('zh')) return 'cn';
  return 'en';
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, pt: { translation: pt }, cn: { translation: cn } },
  lng: initialLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

i18n.on('languageChanged', (lang) => {
  localStorage.setItem(LANG_KEY, lang);
  document.documentElement.lang = ADMIN_LANGUAGES.find((item) => item.code === lang)?.locale ?? 'en';
});
document.documentElement.lang = ADMIN_LANGUAGES.find((item) => item.code === i18n.language)?.locale ?? 'en';

/** The Intl locale of the back office's language (money, dates, numbers). */
export function intlLocale(): string {
  return ADMIN_LANGUAGES.find((item) => item.code === i18n.language)?.locale ?? 'en-US';
}

/** "1234.56" (the API's decimal BRL) → "R$ 1.234,56" in pt, "R$1,234.56" in en. */
export function formatMoney(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  return new Intl.NumberFormat(intlLocale(), { style: 'currency', currency: 'BRL' }).format(Number(value));
}

/** An ISO timestamp in the operator's language, e.g. 25/11/2026 14:05. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'short', timeStyle: 'short' }).format(
    new Date(value),
  );
}

export default i18n;
