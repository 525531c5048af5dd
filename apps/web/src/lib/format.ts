import { CURRENCY, LANGUAGE_TAGS } from '@sorte/contract';
import { currentLanguage } from './i18n.ts';

/**
 * Money arrives as the contract's decimal string ("1234.56"). We show it as is — never through a
 * float — and fall back to "0.00" for anything that is not one.
 */
export function formatMoney(value: string | null | undefined): string {
  return value && /^-?\d{1,13}\.\d{2}$/.test(value) ? value : '0.00';
}

export { CURRENCY };

/** The server names VIP levels in English (Member, Bronze…); known names are shown translated. */
export function levelLabel(
  translate: (key: string, options: { defaultValue: string }) => string,
  name: string,
) {
  return name ? translate(`vip_levels.${name.toLowerCase()}`, { defaultValue: name }) : '';
}

/**
 * An ISO time in the reader's chosen language (not the browser's), date and time to the second:
 * rounds a few seconds apart must read apart. '—' when absent, the text itself when unreadable.
 */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[currentLanguage()], {
    dateStyle: 'short',
    timeStyle: 'medium',
  }).format(date);
}
