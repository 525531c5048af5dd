import { CURRENCY, LANGUAGE_TAGS } from '@sorte/contract';
import type { TFunction } from 'i18next';
import { formatNumber } from '../../../lib/format.ts';
import { currentLanguage } from '../../../lib/i18n.ts';

/** The goal line of the over/under market, in the reader's digits ("2,5" in pt). */
const GOAL_LINE = 2.5;

/** Decimal odds as the reader writes them, always two places: "2,15" in pt, "2.15" in en. */
export function formatOdds(odds: string): string {
  const language = currentLanguage();
  if (!/^\d{1,6}(?:\.\d{1,2})?$/.test(odds)) return odds;
  return new Intl.NumberFormat(LANGUAGE_TAGS[language], {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(odds as Intl.StringNumericLiteral);
}

/** A market's name ("Resultado final", "Mais/Menos de 2,5 gols"). */
export function marketName(type: string, t: TFunction): string {
  return t(`sports.markets.${type}`, { line: formatNumber(GOAL_LINE), defaultValue: type });
}

/**
 * A selection as the player reads it. `short` is the odds row of the sports home (1, X, 2); the
 * event page names the teams ("Flamengo ou empate").
 */
export function selectionLabel(
  code: string,
  teams: { home_team: string; away_team: string },
  t: TFunction,
  short = false,
): string {
  const values = { home: teams.home_team, away: teams.away_team, line: formatNumber(GOAL_LINE) };
  if (short) return t(`sports.short.${code}`, { ...values, defaultValue: code });
  if (code === 'home') return teams.home_team;
  if (code === 'away') return teams.away_team;
  return t(`sports.selections.${code}`, { ...values, defaultValue: code });
}

/** "Flamengo x Palmeiras" (the separator is the language's). */
export function matchName(teams: { home_team: string; away_team: string }, t: TFunction): string {
  return t('sports.versus', { home: teams.home_team, away: teams.away_team });
}

/** Kick-off as the reader writes a day and a time ("sáb., 29/11, 16:00"). */
export function formatKickoff(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[currentLanguage()], {
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(date);
}

/** The currency's sign as the reader writes it ("R$"), beside an amount field. */
export function currencySymbol(): string {
  return (
    new Intl.NumberFormat(LANGUAGE_TAGS[currentLanguage()], { style: 'currency', currency: CURRENCY })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? CURRENCY
  );
}
