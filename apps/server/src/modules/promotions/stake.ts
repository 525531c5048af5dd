import type { TGameCategory } from '@sorte/contract';
import type { Executor } from '../../db/client.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';
import { stakeWithBonus } from '../wallet/bonus/stake.ts';
import type { TJson, TransferResult } from '../wallet/wallet.schema.ts';
import { localDay } from './days.ts';
import { PROFILES } from './promotions.profiles.ts';
import { gameCategory, siteJurisdiction, type TTurnoverAdd } from './promotions.repo.ts';
import { recordVipEvent } from './vip.ts';

export interface TBetStakeInput {
  siteId: bigint;
  memberId: bigint;
  amountMinor: bigint;
  idempotencyKey: string;
  reference?: string;
  metadata?: { [key: string]: TJson };
  /** The game's code (its category on the site decides the wagering weight, the rebate rate, slot/live levels). */
  gameCode: string;
  /** The category when the bet is not a catalogue game (the sportsbook: 'sports'). */
  category?: TGameCategory;
}

/**
 * The one call every bet path makes to take a member's stake, inside the bet's transaction: the
 * wallet spends real money first, then bonus, checks the max bet of any bonus still wagering and
 * feeds one grant (wallet.bonus.ts); then the stake counts towards the day's turnover (rebates) and
 * the VIP levels. Returns the first transfer, with `debitBalanceAfterMinor` set to what the member
 * can still stake (cash + bonus). Throws the wallet's refusals (INSUFFICIENT_FUNDS, BONUS_MAX_BET,
 * IDEMPOTENCY_CONFLICT) before anything moves.
 */
export async function takeBetStake(tx: Executor, input: TBetStakeInput): Promise<TransferResult> {
  const category = input.category ?? (await gameCategory(tx, input.siteId, input.gameCode));
  const result = await stakeWithBonus(tx, {
    siteId: input.siteId,
    memberId: input.memberId,
    amountMinor: input.amountMinor,
    idempotencyKey: input.idempotencyKey,
    reference: input.reference,
    metadata: input.metadata,
    category,
  });
  if (!result.replayed) {
    const jurisdiction = await siteJurisdiction(tx, input.siteId);
    await recordVipEvent(tx, {
      siteId: input.siteId,
      memberId: input.memberId,
      jurisdiction,
      stakeMinor: input.amountMinor,
      category,
      turnover: betTurnover(jurisdiction, category, input.amountMinor, result.bonusPartMinor),
    });
  }
  return { ...result.first, debitBalanceAfterMinor: result.playableAfterMinor };
}

/** A bet's turnover of the day (rebates): the day in the site's jurisdiction's time zone. */
export function betTurnover(
  jurisdiction: TJurisdiction,
  category: TGameCategory,
  stakeMinor: bigint,
  bonusMinor: bigint,
): TTurnoverAdd {
  return { day: localDay(new Date(), PROFILES[jurisdiction].timeZone), category, stakeMinor, bonusMinor };
}
