import { LANGUAGE_TAGS, type TLanguage } from './languages.ts';

/**
 * Money crosses every boundary as integer minor units (centavos). In TypeScript a minor amount is a
 * `bigint`; on the wire it is a decimal string with exactly two places ("0.00"), as the spec shows.
 * Nothing here ever goes through a JS float.
 */

/** The largest amount we accept anywhere: 10^13 - 1 centavos (just under R$ 100 billion). */
export const MAX_MINOR = 9_999_999_999_999n;

const DECIMAL = /^(0|[1-9]\d{0,10})(?:\.(\d{1,2}))?$/;

/** Parses "12", "12.3" or "12.34" into centavos. Returns null for anything else (signs, 3 decimals, spaces). */
export function parseMinor(text: string): bigint | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const whole = BigInt(match[1]!);
  const fraction = BigInt((match[2] ?? '').padEnd(2, '0'));
  const minor = whole * 100n + fraction;
  return minor > MAX_MINOR ? null : minor;
}

/** Formats centavos as "1234.56" (no grouping; the UI localises for display). */
export function formatMinor(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const whole = abs / 100n;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

export const CURRENCY = 'BRL' as const;

const moneyFormats = new Map<TLanguage, Intl.NumberFormat>();

/**
 * "1234.56" as a reader of `lang` writes reais, for messages: "R$ 1.234,56" (pt), "R$1,234.56" (en),
 * "1.234,56 R$" (vi). Intl formats the decimal string itself, so no float is involved. Anything that
 * is not a money text comes back unchanged.
 */
export function formatMoneyIn(lang: TLanguage, text: string): string {
  if (!/^-?\d{1,13}\.\d{2}$/.test(text)) return text;
  let format = moneyFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(LANGUAGE_TAGS[lang] ?? 'en', { style: 'currency', currency: CURRENCY });
    moneyFormats.set(lang, format);
  }
  return format.format(text as Intl.StringNumericLiteral);
}
