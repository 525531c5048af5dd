import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, type TLanguage } from '../languages.ts';
import { formatMoneyIn } from '../money.ts';
import { ch } from './ch.ts';
import { cn } from './cn.ts';
import { en, type TCatalogue, type TMessageKey } from './en.ts';
import { id } from './id.ts';
import { msa } from './msa.ts';
import { pt } from './pt.ts';
import { th } from './th.ts';
import { vi } from './vi.ts';

export type { TCatalogue, TMessageKey };

/**
 * Server and form messages in all eight languages, keyed by the i18n keys the contract's schemas use
 * as their error messages (`validation.*`), by error code (`errors.<CODE>`) and by the spec's fixed
 * texts (`messages.*`). The web app shows the same texts for mistakes it catches itself.
 */
export const MESSAGES: Record<TLanguage, TCatalogue> = { en, pt, cn, ch, vi, id, th, msa };

export function isMessageKey(key: string): key is TMessageKey {
  return Object.hasOwn(en, key);
}

/**
 * An ISO instant as a reader of `lang` writes a date and time in `timeZone` ("01/06/2026, 00:00" in
 * pt). Anything that is not an instant comes back unchanged.
 */
export function formatDateTimeIn(lang: TLanguage, iso: string, timeZone = 'UTC'): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(LANGUAGE_TAGS[lang] ?? 'en', {
      dateStyle: 'short',
      timeStyle: 'short',
      timeZone,
    }).format(instant);
  } catch {
    return iso;
  }
}

/**
 * The text of `key` in `lang` with `{name}` parameters filled in; `{name:money}` shows a money text
 * ("0.50") the way the language writes reais ("R$ 0,50" in pt), `{name:datetime}` an ISO instant
 * in the `time_zone` parameter's zone, `{name:term}` another message of the catalogue by its key. An unknown key comes back as the
 * generic "enter the correct parameters" text rather than leaking the raw key to a player.
 */
export function translate(
  lang: TLanguage,
  key: string,
  params?: Readonly<Record<string, string | number>>,
): string {
  const catalogue = MESSAGES[lang] ?? MESSAGES[DEFAULT_LANGUAGE];
  const text = isMessageKey(key) ? catalogue[key] : catalogue['validation.invalid'];
  if (!params) return text;
  const language = MESSAGES[lang] ? lang : DEFAULT_LANGUAGE;
  return text.replace(/\{(\w+)(?::(money|datetime|term))?\}/g, (whole, name: string, kind?: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = String(params[name]);
    if (kind === 'money') return formatMoneyIn(language, value);
    if (kind === 'datetime') return formatDateTimeIn(language, value, String(params.time_zone ?? 'UTC'));
    if (kind === 'term') return isMessageKey(value) ? catalogue[value] : value;
    return value;
  });
}
