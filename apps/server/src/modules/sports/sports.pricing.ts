import type { TSportsMarketType } from '@sorte/contract';
import { SPORTS_SELECTION_CODES } from '@sorte/contract';

/**
 * The book's arithmetic. Odds are integer HUNDREDTHS (2.15 → 215n), probabilities integer MILLIONTHS
 * (0.5 → 500_000n), margins BASIS POINTS of one (6 % → 600n), money integer centavos: every figure a
 * player is paid or shown comes from bigint arithmetic, never a float. (The model's goal expectations
 * are floats, but they only make the true probabilities, which are then rounded to millionths.)
 */

export const ODDS_MIN = 101n;
export const ODDS_MAX = 100_000n;

/** "2.15" → 215n; "2" → 200n; "2.1" → 210n. Null for anything else. */
export function parseOdds(text: string): bigint | null {
  const match = /^(\d{1,4})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

export function formatOdds(hundredths: bigint): string {
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`;
}

/** "0.06" → 600n basis points. */
export function parseMargin(text: string): bigint {
  const match = /^(\d)(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!match) throw new Error(`bad margin ${text}`);
  return BigInt(match[1]!) * 10_000n + BigInt((match[2] ?? '').padEnd(4, '0'));
}

export function formatMargin(bp: bigint): string {
  return `${bp / 10_000n}.${(bp % 10_000n).toString().padStart(4, '0')}`;
}

export function parseProbability(text: string): bigint {
  const match = /^(\d)(?:\.(\d{1,6}))?/.exec(text.trim());
  if (!match) throw new Error(`bad probability ${text}`);
  return BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0').slice(0, 6));
}

export function formatProbability(micro: bigint): string {
  return `${micro / 1_000_000n}.${(micro % 1_000_000n).toString().padStart(6, '0')}`;
}

/**
 * The house price of an outcome of true probability p with margin m: 1 / (p × (1 + m)), rounded DOWN
 * to the hundredth (rounding never favours the player) and kept within 1.01–1000.00.
 */
export function priceFromProbability(probabilityMicro: bigint, marginBp: bigint): bigint {
  const odds = 1_000_000_000_000n / (probabilityMicro * (10_000n + marginBp));
  return odds < ODDS_MIN ? ODDS_MIN : odds > ODDS_MAX ? ODDS_MAX : odds;
}

/** The product of odds in hundredths, as a fraction over 100^n (exact). */
export function oddsProduct(odds: bigint[]): { numerator: bigint; denominator: bigint } {
  let numerator = 1n;
  let denominator = 1n;
  for (const leg of odds) {
    numerator *= leg;
    denominator *= 100n;
  }
  return { numerator, denominator };
}

/** floor(stake × Π odds) in centavos. */
export function returnOf(stakeMinor: bigint, odds: bigint[]): bigint {
  const { numerator, denominator } = oddsProduct(odds);
  return (stakeMinor * numerator) / denominator;
}

/** Π odds shown with two places, rounded down. */
export function totalOddsOf(odds: bigint[]): bigint {
  const { numerator, denominator } = oddsProduct(odds);
  return (numerator * 100n) / denominator;
}

// ---------------------------------------------------------------------------------------------
// Settlement rules

export type TOutcome = 'won' | 'lost' | 'void';

/** Each selection's result for a final score (full time). */
export function settleMarket(
  type: TSportsMarketType,
  score: { home: number; away: number },
): Record<string, TOutcome> {
  const { home, away } = score;
  const won = (condition: boolean): TOutcome => (condition ? 'won' : 'lost');
  switch (type) {
    case '1x2':
      return { home: won(home > away), draw: won(home === away), away: won(home < away) };
    case 'double_chance':
      return { home_draw: won(home >= away), home_away: won(home !== away), draw_away: won(home <= away) };
    case 'over_under_2_5':
      return { over: won(home + away > 2), under: won(home + away < 3) };
    case 'btts':
      return { yes: won(home > 0 && away > 0), no: won(!(home > 0 && away > 0)) };
  }
}

/** A cancelled match: every selection void. */
export function voidMarket(type: TSportsMarketType): Record<string, TOutcome> {
  return Object.fromEntries(SPORTS_SELECTION_CODES[type].map((code) => [code, 'void' as const]));
}

export type TBetOutcome =
  | { status: 'open' }
  | { status: 'lost'; payoutMinor: 0n }
  | { status: 'void'; payoutMinor: bigint }
  | { status: 'won'; payoutMinor: bigint };

/**
 * A bet's outcome from its legs: any lost leg loses it (even with legs still open); otherwise it stays
 * open while a leg is open; a void leg drops out (odds 1.00); every leg void returns the stake (void);
 * else it pays stake × the product of the won legs' odds, rounded down to the centavo.
 */
export function betOutcome(
  stakeMinor: bigint,
  legs: { odds: bigint; status: 'open' | TOutcome }[],
): TBetOutcome {
  if (legs.some((leg) => leg.status === 'lost')) return { status: 'lost', payoutMinor: 0n };
  if (legs.some((leg) => leg.status === 'open')) return { status: 'open' };
  const won = legs.filter((leg) => leg.status === 'won').map((leg) => leg.odds);
  if (won.length === 0) return { status: 'void', payoutMinor: stakeMinor };
  return { status: 'won', payoutMinor: returnOf(stakeMinor, won) };
}

/**
 * The cash-out offer: stake × Π placed odds ÷ Π current odds × (1 − margin), rounded down. A won leg
 * counts at current odds 1.00 (its value is locked in), a void leg drops out. Null when a leg lost.
 */
export function cashOutValue(
  stakeMinor: bigint,
  legs: { placedOdds: bigint; currentOdds: bigint; status: 'open' | TOutcome }[],
  marginBp: bigint,
): bigint | null {
  if (legs.some((leg) => leg.status === 'lost')) return null;
  let numerator = stakeMinor * (10_000n - marginBp);
  let denominator = 10_000n;
  for (const leg of legs) {
    if (leg.status === 'void') continue;
    numerator *= leg.placedOdds;
    denominator *= leg.status === 'won' ? 100n : leg.currentOdds;
  }
  return numerator / denominator;
}

// ---------------------------------------------------------------------------------------------
// The model: true probabilities of a match from the teams' goal expectations (independent Poisson).

const MAX_GOALS = 10;

function poisson(lambda: number): number[] {
  const out: number[] = [];
  let p = Math.exp(-lambda);
  for (let k = 0; k <= MAX_GOALS; k += 1) {
    out.push(p);
    p = (p * lambda) / (k + 1);
  }
  return out;
}

/** True probabilities (millionths) of every selection of every market type, from λ home and λ away. */
export function matchProbabilities(
  lambdaHome: number,
  lambdaAway: number,
): Record<TSportsMarketType, Record<string, bigint>> {
  const h = poisson(lambdaHome);
  const a = poisson(lambdaAway);
  let home = 0;
  let draw = 0;
  let away = 0;
  let over = 0;
  let bothScore = 0;
  let total = 0;
  for (let i = 0; i <= MAX_GOALS; i += 1) {
    for (let j = 0; j <= MAX_GOALS; j += 1) {
      const p = h[i]! * a[j]!;
      total += p;
      if (i > j) home += p;
      else if (i === j) draw += p;
      else away += p;
      if (i + j > 2) over += p;
      if (i > 0 && j > 0) bothScore += p;
    }
  }
  const micro = (p: number) => {
    const value = Math.round((p / total) * 1_000_000);
    return BigInt(Math.min(995_000, Math.max(5_000, value)));
  };
  return {
    '1x2': { home: micro(home), draw: micro(draw), away: micro(away) },
    double_chance: {
      home_draw: micro(home + draw),
      home_away: micro(home + away),
      draw_away: micro(draw + away),
    },
    over_under_2_5: { over: micro(over), under: micro(total - over) },
    btts: { yes: micro(bothScore), no: micro(total - bothScore) },
  };
}

/**
 * Goal expectations from the results played so far: each team's attack and defence relative to the
 * league's home and away averages, shrunk towards the average (SHRINK virtual average matches) so a
 * team with few results is not priced from two games.
 */
export function teamRatings(
  results: { home: string; away: string; score: { home: number; away: number } }[],
) {
  const SHRINK = 5;
  const stats = new Map<
    string,
    {
      homeFor: number;
      homeAgainst: number;
      homeGames: number;
      awayFor: number;
      awayAgainst: number;
      awayGames: number;
    }
  >();
  const of = (team: string) => {
    let entry = stats.get(team);
    if (!entry) {
      entry = { homeFor: 0, homeAgainst: 0, homeGames: 0, awayFor: 0, awayAgainst: 0, awayGames: 0 };
      stats.set(team, entry);
    }
    return entry;
  };
  let homeGoals = 0;
  let awayGoals = 0;
  for (const result of results) {
    const home = of(result.home);
    const away = of(result.away);
    home.homeFor += result.score.home;
    home.homeAgainst += result.score.away;
    home.homeGames += 1;
    away.awayFor += result.score.away;
    away.awayAgainst += result.score.home;
    away.awayGames += 1;
    homeGoals += result.score.home;
    awayGoals += result.score.away;
  }
  // League averages shrunk towards typical football (1.45 home, 1.10 away goals a match), so a
  // handful of results (or a goalless away side) never gives a zero or wild average.
  const homeAvg = (homeGoals + SHRINK * 1.45) / (results.length + SHRINK);
  const awayAvg = (awayGoals + SHRINK * 1.1) / (results.length + SHRINK);
  const rate = (goals: number, played: number, avg: number) =>
    (goals + SHRINK * avg) / (played + SHRINK) / avg;
  return (homeTeam: string, awayTeam: string): { lambdaHome: number; lambdaAway: number } => {
    const home = of(homeTeam);
    const away = of(awayTeam);
    const homeAttack = rate(home.homeFor, home.homeGames, homeAvg);
    const awayDefence = rate(away.awayAgainst, away.awayGames, homeAvg);
    const awayAttack = rate(away.awayFor, away.awayGames, awayAvg);
    const homeDefence = rate(home.homeAgainst, home.homeGames, awayAvg);
    return { lambdaHome: homeAvg * homeAttack * awayDefence, lambdaAway: awayAvg * awayAttack * homeDefence };
  };
}
