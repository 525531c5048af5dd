import type { TCategoryWeights, TGameCategory } from '@sorte/contract';
import type { TJson } from '../wallet.schema.ts';
import type { TGrantRaw } from './grants.repo.ts';

/**
 * What a bonus grant, a stake and a win are, and the pure reads of a grant's row and terms: the
 * model both the posting core (a group posts bonus holders' cash stakes itself, ADR 028) and the
 * bonus files build on, below both.
 */

export type TGrantStatus = 'active' | 'completed' | 'expired' | 'forfeited';

export interface BonusGrant {
  id: bigint;
  siteId: bigint;
  memberId: bigint;
  campaignCode: string;
  periodKey: string;
  terms: Record<string, unknown>;
  amountMinor: bigint;
  balanceMinor: bigint;
  wageringRequiredMinor: bigint;
  wageringDoneMinor: bigint;
  maxBetMinor: bigint | null;
  locksCash: boolean;
  status: TGrantStatus;
  expiresAt: Date;
  createdAt: Date;
  closedAt: Date | null;
  convertedMinor: bigint;
  forfeitedMinor: bigint;
}

const big = (v: unknown): bigint => BigInt(String(v));
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

export function toGrant(r: TGrantRaw): BonusGrant {
  return {
    id: big(r.id),
    siteId: big(r.site_id),
    memberId: big(r.member_id),
    campaignCode: r.campaign_code,
    periodKey: r.period_key,
    terms: (typeof r.terms === 'string' ? JSON.parse(r.terms) : r.terms) as Record<string, unknown>,
    amountMinor: big(r.amount_minor),
    balanceMinor: big(r.balance_minor),
    wageringRequiredMinor: big(r.wagering_required_minor),
    wageringDoneMinor: big(r.wagering_done_minor),
    maxBetMinor: r.max_bet_minor === null ? null : big(r.max_bet_minor),
    locksCash: r.locks_cash,
    status: r.status as TGrantStatus,
    expiresAt: date(r.expires_at),
    createdAt: date(r.created_at),
    closedAt: r.closed_at === null ? null : date(r.closed_at),
    convertedMinor: big(r.converted_minor),
    forfeitedMinor: big(r.forfeited_minor),
  };
}

export interface StakeInput {
  siteId: bigint;
  memberId: bigint;
  amountMinor: bigint;
  /** The bet's key: the first part of the stake is posted under it, further parts under `<key>:b<grant>`. */
  idempotencyKey: string;
  reference?: string;
  metadata?: { [key: string]: TJson };
  /** Game category of the bet on its site (wagering weight). */
  category: TGameCategory;
}

/**
 * Weight in percent (0..100) of a game category for this grant's wagering (null: a stake whose
 * category was not recorded, weighed as the default).
 */
export function categoryWeight(terms: Record<string, unknown>, category: TGameCategory | null): bigint {
  const weights = (terms.weights ?? {}) as TCategoryWeights;
  const value = (category === null ? undefined : weights[category]) ?? weights.default ?? 100;
  const pct = typeof value === 'number' && Number.isInteger(value) ? value : 100;
  return BigInt(Math.max(0, Math.min(100, pct)));
}

export interface WinInput {
  siteId: bigint;
  memberId: bigint;
  /** The whole payout (positive). */
  amountMinor: bigint;
  /** The win's key: the first part is posted under it, further parts under `<key>:b<grant>`. */
  idempotencyKey: string;
  /** The idempotency key of the stake this win pays: its real/bonus split decides the win's. */
  stakeKey: string;
  reference?: string;
  metadata?: { [key: string]: TJson };
  /**
   * 'refund': the stake given back (a rolled-back bet): each part returns where it came from, and
   * the wagering the bet fed on its grant is taken off again. Default 'win'.
   */
  kind?: 'win' | 'refund';
  /** Turnover restored on the member's cash account requirement (a refund of a bet that lowered it). */
  wageringAddMinor?: bigint;
}

/**
 * The key of one part of a split stake or win: the first part under the bet's (or win's) own key,
 * every further part under `<key>:b<grant>`.
 */
export function partKey(key: string, grantId: bigint, first: boolean): string {
  return first ? key : `${key}:b${grantId}`;
}
