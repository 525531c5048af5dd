import { CURRENCY, LANGUAGE_TAGS, type TLanguage } from '@sorte/contract';
import { currentLanguage } from './i18n.ts';

/**
 * The one place the player site turns numbers into text and typed text back into numbers. Every
 * amount, multiplier and percentage is written the way a reader of the chosen language writes it,
 * in the site's currency, through Intl: "R$ 1.234,56" in pt, "R$1,234.56" in en, "1.234,56 R$" in
 * vi. Money arrives as the contract's decimal string ("1234.56") and Intl formats that string
 * itself, so no amount ever passes through a float.
 */

const MONEY_TEXT = /^-?\d{1,13}\.\d{2}$/;

type TFormatKey = `${TLanguage}:${string}`;
const formats = new Map<TFormatKey, Intl.NumberFormat>();

function numberFormat(language: TLanguage, kind: string, options: Intl.NumberFormatOptions) {
  const key: TFormatKey = `${language}:${kind}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LANGUAGE_TAGS[language] ?? 'en', options);
    formats.set(key, format);
  }
  return format;
}

/**
 * Creates the formatters the first screens use (money in the header and a game's bar, the RTP on
 * every game tile). The browser's first number format loads its locale data, which takes a phone
 * tens of milliseconds: done in a task of its own while the app waits for its data, it is not
 * added to the long task of the first render that needs it.
 */
export function warmNumberFormats(language: TLanguage = currentLanguage()): void {
  formatMoney('0.00', language);
  formatPercent(0, language);
}

/** The contract's money text ("1234.56") as the reader writes it, with the currency; "0.00" when not money. */
export function formatMoney(
  value: string | null | undefined,
  language: TLanguage = currentLanguage(),
  currency: string = CURRENCY,
): string {
  const text = value && MONEY_TEXT.test(value) ? value : '0.00';
  return numberFormat(language, `money-${currency}`, { style: 'currency', currency }).format(
    text as Intl.StringNumericLiteral,
  );
}

/** Money with its sign always written: "+R$ 2,00", "-R$ 1,00", "R$ 0,00". */
export function formatSignedMoney(
  value: string | null | undefined,
  language: TLanguage = currentLanguage(),
  currency: string = CURRENCY,
): string {
  const text = value && MONEY_TEXT.test(value) ? value : '0.00';
  return numberFormat(language, `signed-${currency}`, {
    style: 'currency',
    currency,
    signDisplay: 'exceptZero',
  }).format(text as Intl.StringNumericLiteral);
}

/** The currency's sign as the reader's language writes it before or after an amount ("R$"). */
export function currencySymbol(language: TLanguage = currentLanguage(), currency: string = CURRENCY): string {
  return (
    numberFormat(language, `money-${currency}`, { style: 'currency', currency })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? currency
  );
}

/** An amount in the reader's digits without the currency ("1.234,56"), for fields that show it beside. */
export function formatAmount(
  value: string | null | undefined,
  language: TLanguage = currentLanguage(),
): string {
  const text = value && MONEY_TEXT.test(value) ? value : '0.00';
  return numberFormat(language, 'amount', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    text as Intl.StringNumericLiteral,
  );
}

type TNumberText = number | string;

/** A number or the contract's decimal text, as Intl takes it (text is formatted as written, not as a float). */
function numeric(value: TNumberText): number | Intl.StringNumericLiteral | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = value.trim();
  return /^-?\d+(?:\.\d+)?$/.test(text) ? (text as Intl.StringNumericLiteral) : null;
}

/**
 * A decimal in the reader's digits with a fixed number of places: a dice target or roll ("49,50" in
 * pt, "49.50" in en), a crash point without its sign.
 */
export function formatDecimal(
  value: TNumberText,
  places = 2,
  language: TLanguage = currentLanguage(),
): string {
  const number = numeric(value);
  if (number === null) return String(value);
  return numberFormat(language, `decimal-${places}`, {
    minimumFractionDigits: places,
    maximumFractionDigits: places,
  }).format(number);
}

/**
 * A multiplier's figure without its sign, for messages that write the sign themselves: two places,
 * and up to four when they matter ("2,00", "1,2857" in pt). The servers send four places.
 */
export function formatFactor(value: TNumberText, language: TLanguage = currentLanguage()): string {
  const number = numeric(value);
  if (number === null) return String(value);
  return numberFormat(language, 'factor', { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(
    number,
  );
}

/** A multiplier with the times sign before it, as the games and records show it: "×2,00" in pt. */
export function formatMultiplier(value: TNumberText, language: TLanguage = currentLanguage()): string {
  const number = numeric(value);
  return number === null ? String(value) : `×${formatFactor(value, language)}`;
}

/**
 * A percentage given in percent ("97.00", 1.5), as the reader writes it: "97%" / "1,5%" in pt,
 * "1.5%" in en, up to two places.
 */
export function formatPercent(value: TNumberText, language: TLanguage = currentLanguage()): string {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return String(value);
  return numberFormat(language, 'percent', { style: 'percent', maximumFractionDigits: 2 }).format(
    number / 100,
  );
}

/** A win chance in percent, always with two places so it does not jump as a slider moves: "49,50%". */
export function formatChance(value: TNumberText, language: TLanguage = currentLanguage()): string {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return String(value);
  return numberFormat(language, 'chance', {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(number / 100);
}

/** A count or plain number in the reader's digits ("1.000" in pt). */
export function formatNumber(value: number, language: TLanguage = currentLanguage()): string {
  return numberFormat(language, 'number', { maximumFractionDigits: 2 }).format(value);
}

/** The decimal separator of the reader's language ("," in pt, "." in en). */
export function decimalSeparator(language: TLanguage = currentLanguage()): string {
  return (
    numberFormat(language, 'number', { maximumFractionDigits: 2 })
      .formatToParts(1.5)
      .find((part) => part.type === 'decimal')?.value ?? '.'
  );
}

/**
 * What a player typed in an amount field, as the contract's decimal text ("1234.56"). The reader's
 * own way is accepted ("1.234,56", "50,5" and "R$ 50,00" in pt; "1,234.56" in en), and so is a point
 * as the decimal mark on a comma language when it cannot be a thousands separator ("50.5", as
 * players paste from elsewhere). Text that is no amount comes back trimmed as it was, so the form's
 * schema refuses it with its usual message.
 */
export function parseAmountInput(text: string, language: TLanguage = currentLanguage()): string {
  const trimmed = text.trim();
  const bare = trimmed.replace(/[\s\u00a0\u202f]|R\$|BRL/g, '');
  if (!/^\d[\d.,]*$/.test(bare)) return trimmed;
  const decimal = decimalSeparator(language);
  const group = decimal === ',' ? '.' : ',';
  let whole = bare;
  let fraction = '';
  const lastDecimal = bare.lastIndexOf(decimal);
  if (lastDecimal >= 0) {
    whole = bare.slice(0, lastDecimal);
    fraction = bare.slice(lastDecimal + 1);
  } else {
    // No decimal mark of the language: a group mark followed by one or two digits at the end is a
    // decimal mark written the other way ("50.5" on a pt site); three digits are a thousands group.
    const lastGroup = bare.lastIndexOf(group);
    if (lastGroup >= 0 && /^\d{1,2}$/.test(bare.slice(lastGroup + 1)) && bare.indexOf(group) === lastGroup) {
      whole = bare.slice(0, lastGroup);
      fraction = bare.slice(lastGroup + 1);
    }
  }
  if (fraction.includes(group) || fraction.includes(decimal)) return trimmed;
  if (whole.includes(group) && !/^\d{1,3}(?:[.,]\d{3})+$/.test(whole)) return trimmed;
  const digits = whole.split(group).join('');
  if (!/^\d+$/.test(digits) || !/^\d{0,2}$/.test(fraction)) return trimmed;
  const normalised = digits.replace(/^0+(?=\d)/, '');
  return fraction ? `${normalised}.${fraction}` : normalised;
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
