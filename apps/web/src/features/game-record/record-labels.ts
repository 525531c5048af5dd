/** The sportsbook's code in the game record (apps/server sports.records.ts). */
export const SPORTSBOOK = 'sportsbook';

/**
 * A row's brand and name as the reader reads them: a sports bet is "Apostas esportivas", an
 * accumulator "Múltipla · 2 seleções" (the server names it by its number of legs, "2"); a single
 * keeps its match ("Flamengo x Palmeiras"), other games their own names.
 */
export function recordLabels(
  row: { game: string; brand: string; name: string },
  t: (key: string, options?: Record<string, unknown>) => string,
): { brand: string; name: string } {
  if (row.game !== SPORTSBOOK) return { brand: row.brand, name: row.name };
  const legs = /^\d+$/.test(row.name) ? row.name : undefined;
  return {
    brand: t('sports.title'),
    name: legs ? t('sports.my_bets.accumulator', { count: Number(legs) }) : row.name,
  };
}
