import type { TSportsMarketType } from '@sorte/contract';
import type { TJurisdiction } from '../sites/sites.schema.ts';

/**
 * The sportsbook's rules per jurisdiction (site profile DATA, never `if (br)` in code): stake limits,
 * the largest return of one bet, the house margin each market type is priced with, the cash-out
 * margin, and which competitions the site shows first.
 */
export interface TSportsProfile {
  minStakeMinor: bigint;
  maxStakeMinor: bigint;
  maxPayoutMinor: bigint;
  /** Basis points of one: 600 = 6 %. */
  marginBp: Record<TSportsMarketType, bigint>;
  cashOutMarginBp: bigint;
  /**
   * In-play defaults (a site's operator may change them: sports_settings). A bet with a live leg is
   * accepted only after `inPlayDelayMs`, at the prices of that moment; a goal suspends the match's
   * markets for `scoreSuspensionSeconds` or until they are repriced.
   */
  inPlayDelayMs: number;
  scoreSuspensionSeconds: number;
  /** Competition codes seeded for the demo, in display order. */
  competitions: readonly string[];
}

const MARGINS: Record<TSportsMarketType, bigint> = {
  '1x2': 600n,
  double_chance: 500n,
  over_under_2_5: 600n,
  btts: 600n,
};

export const SPORTS_PROFILES: Record<TJurisdiction, TSportsProfile> = {
  intl: {
    minStakeMinor: 100n,
    maxStakeMinor: 1_000_000n,
    maxPayoutMinor: 10_000_000n,
    marginBp: MARGINS,
    cashOutMarginBp: 500n,
    inPlayDelayMs: 5_000,
    scoreSuspensionSeconds: 60,
    competitions: ['brasileirao-serie-a'],
  },
  // Portaria SPA/MF 1.231/2024: one price for everyone at a moment, fixed once placed (the legs keep it).
  br: {
    minStakeMinor: 100n,
    maxStakeMinor: 500_000n,
    maxPayoutMinor: 5_000_000n,
    marginBp: MARGINS,
    cashOutMarginBp: 500n,
    inPlayDelayMs: 5_000,
    scoreSuspensionSeconds: 60,
    competitions: ['brasileirao-serie-a', 'brasileirao-serie-b'],
  },
};

export function sportsProfile(jurisdiction: TJurisdiction): TSportsProfile {
  return SPORTS_PROFILES[jurisdiction] ?? SPORTS_PROFILES.intl;
}
