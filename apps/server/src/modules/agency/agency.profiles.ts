import type { TJurisdiction } from '../sites/sites.schema.ts';

/**
 * Commission rules as data (ADR 017). A site gets its jurisdiction profile's rules as its
 * `agency_rules` row the first time they are read; an operator edits the row afterwards, and every
 * rules row is checked against the profile's limits (`assertRulesAllowed`) before it is used. Each
 * settlement run snapshots the rules it used.
 *
 * Every player is an agent: a member earns on the play of the players they invited (level 1), of the
 * players those invited (level 2), and so on down to `maxLevels`. The rate of each level comes from
 * the tier the member's team volume in the period reaches. Amounts are centavos (strings in JSON).
 *
 * Market notes §3: on `br` one level only (chains of invitations paid on many levels come close to
 * the "bola de neve" schemes of Lei 1.521/51), commission on net gaming revenue, and never on
 * deposits (Portaria SPA/MF 1.231/2024 art. 42 §1 I).
 */
export interface TAgencyRules {
  /** Periods are calendar days in this time zone. */
  timeZone: string;
  /** What a subordinate's play counts for: stakes (turnover) or stakes − wins − rewards (NGR, ≥ 0). */
  basis: 'turnover' | 'ngr';
  maxLevels: number;
  /** From the lowest tier up; `ratesBps[i]` is the rate of level i + 1. */
  tiers: { minTeamVolumeMinor: string; ratesBps: number[] }[];
  /** Commission on subordinates' deposits per level, or null where deposits may not earn rewards. */
  rechargeRatesBps: number[] | null;
}

/** What a jurisdiction allows any site's rules to say. */
export interface TAgencyLimits {
  maxLevels: number;
  depositBased: boolean;
  maxRateBps: number;
  /** Message key saying why deposit-based commission is off. */
  depositOffReason: string | null;
}

export const AGENCY_LIMITS: Record<TJurisdiction, TAgencyLimits> = {
  intl: { maxLevels: 5, depositBased: true, maxRateBps: 5_000, depositOffReason: null },
  br: { maxLevels: 1, depositBased: false, maxRateBps: 5_000, depositOffReason: 'agency.off.deposit_tied' },
};

export const AGENCY_DEFAULTS: Record<TJurisdiction, TAgencyRules> = {
  intl: {
    timeZone: 'UTC',
    basis: 'turnover',
    maxLevels: 3,
    tiers: [
      { minTeamVolumeMinor: '0', ratesBps: [30, 10, 5] },
      { minTeamVolumeMinor: '1000000', ratesBps: [40, 15, 5] },
      { minTeamVolumeMinor: '5000000', ratesBps: [50, 20, 10] },
    ],
    rechargeRatesBps: [100, 0, 0],
  },
  br: {
    timeZone: 'America/Sao_Paulo',
    basis: 'ngr',
    maxLevels: 1,
    tiers: [
      { minTeamVolumeMinor: '0', ratesBps: [1_000] },
      { minTeamVolumeMinor: '1000000', ratesBps: [1_500] },
      { minTeamVolumeMinor: '5000000', ratesBps: [2_000] },
    ],
    rechargeRatesBps: null,
  },
};

export class AgencyRulesError extends Error {
  override name = 'AgencyRulesError';
}

/** Refuses rules the jurisdiction does not allow (deeper chains, deposit-based commission, odd tiers). */
export function assertRulesAllowed(rules: TAgencyRules, limits: TAgencyLimits): void {
  const fail = (why: string) => {
    throw new AgencyRulesError(why);
  };
  if (!Number.isInteger(rules.maxLevels) || rules.maxLevels < 1) fail('maxLevels must be at least 1');
  if (rules.maxLevels > limits.maxLevels) fail(`at most ${limits.maxLevels} level(s) on this site`);
  if (rules.rechargeRatesBps && !limits.depositBased) fail('commission may not depend on deposits here');
  if (rules.rechargeRatesBps && rules.rechargeRatesBps.length !== rules.maxLevels)
    fail('one recharge rate per level');
  if (rules.tiers.length === 0) fail('at least one tier');
  let previous = -1n;
  for (const tier of rules.tiers) {
    const min = BigInt(tier.minTeamVolumeMinor);
    if (min <= previous) fail('tiers must rise');
    previous = min;
    if (tier.ratesBps.length !== rules.maxLevels) fail('one rate per level in every tier');
  }
  if (rules.tiers[0] && BigInt(rules.tiers[0].minTeamVolumeMinor) !== 0n) fail('the first tier starts at 0');
  for (const rate of [...rules.tiers.flatMap((t) => t.ratesBps), ...(rules.rechargeRatesBps ?? [])]) {
    if (!Number.isInteger(rate) || rate < 0 || rate > limits.maxRateBps)
      fail(`rates between 0 and ${limits.maxRateBps} bps`);
  }
}
