import {
  formatMinor,
  SPORTS_MAX_LEGS,
  SPORTS_SELECTION_CODES,
  type TGameCategory,
  type TSportsBet,
  type TSportsBetFilter,
  type TSportsEvent,
  type TSportsLimits,
  type TSportsMarketType,
  type TSportsOddsChange,
  type TSportsOddsPolicy,
  type TSportsSettings,
} from '@sorte/contract';
import { sha256OfJson } from '../../core/hash.ts';
import {
  commitWithNextStatement,
  type Db,
  type Executor,
  type Tx,
  transactionOnGenericPlans,
} from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { takeBetStake } from '../promotions/stake.ts';
import { gateOf } from '../responsible-gaming/rg.repo.ts';
import { assertPlayAllowed, playGateParts } from '../responsible-gaming/rg.service.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';
import { getBalances } from '../wallet/balances.ts';
import { payWin } from '../wallet/bonus/win.ts';
import { isWalletError, walletAppError } from '../wallet/wallet.errors.ts';
import { transfer } from '../wallet/wallet.service.ts';
import {
  findEventsMarkets,
  findMarketSelections,
  findSportsSettings,
  finishUnbetEvents,
  insertEventRows,
  insertMarketRows,
  insertSelectionRows,
  lockEventMarkets,
  lockEventRow,
  lockMarketRow,
  markEventsMarketsSettled,
  markMarketOddsSet,
  markMarketRepriced,
  markMarketSettled,
  suspendOpenMarkets,
  updateEventLive,
  updateEventResult,
  updateMarketStatus,
  updateSelectionOdds,
  updateSelectionPrice,
  updateSelectionResult,
  updateSelectionResults,
  upsertSportsSettings,
} from './sports.markets.repo.ts';
import {
  betOutcome,
  cashOutValue,
  formatOdds,
  formatProbability,
  parseMargin,
  parseOdds,
  parseProbability,
  priceFromProbability,
  returnOf,
  settleMarket,
  type TOutcome,
  voidMarket,
} from './sports.pricing.ts';
import { sportsProfile, type TSportsProfile } from './sports.profiles.ts';
import { pushBet, pushSports } from './sports.realtime.ts';
import {
  betView,
  betViews,
  eventTakesBets,
  eventViews,
  findBet,
  findBetByKey,
  findCompetitions,
  findEvent,
  findEvents,
  findLegs,
  findMarketRows,
  findMemberBets,
  insertBetWithLegs,
  lockMarketBets,
  lockPlacement,
  marketViews,
  placedLegs,
  placementSelections,
  type TBetRow,
  type TEventRow,
  type TLegRow,
  type TPlacementSelection,
} from './sports.repo.ts';
import {
  findCashOutClientKey,
  findOwedBetIds,
  findOwedBets,
  findSitesOwed,
  markBetCashedOut,
  shareLockMarkets,
  syncLegStatuses,
  updateBetSettlement,
  updateBetUnrecovered,
} from './sports.settle.repo.ts';
import {
  settleInGroups,
  settlementWin,
  type TGroupSettlement,
  type TNewOutcome,
} from './sports.settle-group.ts';

/**
 * The sportsbook's money paths. Every one runs in ONE transaction that takes its locks in the same
 * order — the markets involved (ascending id), then the bet row, then (inside the wallet) the
 * player's accounts — so placement, cash-out, odds changes and settlement never deadlock and a
 * cash-out racing a settlement has exactly one winner: whichever locks the bet first changes its
 * status, and the other finds it no longer open. Odds and market status change only under the
 * market row's lock (writers UPDATE it first), so a placement holding it FOR SHARE sees one price.
 *
 * Money moves only through the wallet under keys derived from the bet id:
 *   sports-bet:<id>:stake           the stake (kind bet, via the promotions stake path: bonus, wagering)
 *   sports-bet:<id>:pay:<n>         the n-th settlement's payout (win, or refund for a void bet)
 *   sports-bet:<id>:reverse:<n>     a resettlement taking back settlement n's payout (win_reversal)
 *   sports-bet:<id>:cash-out        the cash-out (win)
 */

export const SPORTS_GAME_CODE = 'sportsbook';
export const SPORTS_CATEGORY: TGameCategory = 'sports';

export interface TSportsSite {
  id: bigint;
  jurisdiction: TJurisdiction;
}

/** Writes the operator's audit entry in the action's own transaction (admin/audit.ts). */
export type TAudit = (tx: Tx, after: TSportsEvent) => Promise<void>;

export interface TSportsDeps {
  db: Db;
  /** Called after a commit that changed a member's balance (the realtime hub's publishBalance). */
  publishBalance?: (siteId: bigint, memberId: bigint, reason: string) => void;
}

export function sportsLimits(site: TSportsSite): TSportsLimits {
  const profile = sportsProfile(site.jurisdiction);
  return {
    min_stake: formatMinor(profile.minStakeMinor),
    max_stake: formatMinor(profile.maxStakeMinor),
    max_payout: formatMinor(profile.maxPayoutMinor),
    max_legs: SPORTS_MAX_LEGS,
  };
}

// ---------------------------------------------------------------------------------------------
// In-play settings

/** The in-play delay of a site whose own setting is `stored` (null: none, the profile's default). */
export function inPlayDelayMs(site: TSportsSite, stored: number | null): number {
  return stored ?? sportsProfile(site.jurisdiction).inPlayDelayMs;
}

/** The site's in-play controls: its own row, else its jurisdiction profile's defaults. */
export async function sportsSettings(executor: Executor, site: TSportsSite): Promise<TSportsSettings> {
  const row = await findSportsSettings(executor, site.id);
  const profile = sportsProfile(site.jurisdiction);
  return {
    in_play_delay_ms: inPlayDelayMs(site, row ? Number(row.delay) : null),
    score_suspension_seconds: row ? Number(row.suspension) : profile.scoreSuspensionSeconds,
  };
}

/** An operator sets the site's in-play controls (audited with the values before and after). */
export async function setSportsSettings(
  deps: TSportsDeps,
  site: TSportsSite,
  input: TSportsSettings,
  audit?: (tx: Tx, before: TSportsSettings, after: TSportsSettings) => Promise<void>,
): Promise<TSportsSettings> {
  return deps.db.transaction(async (tx) => {
    const before = await sportsSettings(tx, site);
    await upsertSportsSettings(tx, site.id, input);
    const after = await sportsSettings(tx, site);
    await audit?.(tx, before, after);
    return after;
  });
}

// ---------------------------------------------------------------------------------------------
// Reads

export async function listCompetitions(db: Db, site: TSportsSite) {
  return { list: await findCompetitions(db, site.id) };
}

export async function listEvents(
  db: Db,
  site: TSportsSite,
  query: {
    competition_id?: string | undefined;
    state: 'open' | 'live' | 'upcoming' | 'finished' | 'all';
    limit: number;
  },
) {
  const events = await findEvents(db, site.id, {
    state: query.state,
    limit: query.limit,
    ...(query.competition_id ? { competitionId: BigInt(query.competition_id) } : {}),
  });
  return {
    competitions: await findCompetitions(db, site.id),
    list: await eventViews(db, events),
    limits: sportsLimits(site),
  };
}

export async function getEvent(db: Db, site: TSportsSite, eventId: bigint): Promise<{ event: TSportsEvent }> {
  const event = await findEvent(db, site.id, eventId);
  if (!event) throw new AppError('NOT_FOUND');
  const [view] = await eventViews(db, [event]);
  return { event: view! };
}

async function playable(executor: Executor, siteId: bigint, memberId: bigint): Promise<string> {
  try {
    return formatMinor((await getBalances(executor, memberId, { siteId })).totalMinor);
  } catch (error) {
    if (isWalletError(error, 'ACCOUNT_NOT_FOUND')) return '0.00';
    throw error;
  }
}

async function oneBetView(executor: Executor, site: TSportsSite, bet: TBetRow): Promise<TSportsBet> {
  const [view] = await betViews(executor, [bet], sportsProfile(site.jurisdiction).cashOutMarginBp);
  return view!;
}

export async function listBets(
  db: Db,
  site: TSportsSite,
  memberId: bigint,
  query: { status: TSportsBetFilter; cursor?: string | undefined },
) {
  const PAGE = 20;
  const bets = await findMemberBets(db, site.id, memberId, {
    status: query.status,
    limit: PAGE + 1,
    ...(query.cursor ? { beforeId: BigInt(query.cursor) } : {}),
  });
  const page = bets.slice(0, PAGE);
  return {
    list: await betViews(db, page, sportsProfile(site.jurisdiction).cashOutMarginBp),
    next_cursor: bets.length > PAGE ? page.at(-1)!.id : null,
  };
}

export async function getBet(db: Db, site: TSportsSite, memberId: bigint, betId: bigint) {
  const bet = await findBet(db, { siteId: site.id, memberId, betId });
  if (!bet) throw new AppError('NOT_FOUND');
  return { bet: await oneBetView(db, site, bet), balance: await playable(db, site.id, memberId) };
}

// ---------------------------------------------------------------------------------------------
// Placement

export interface TPlaceBetInput {
  type: 'single' | 'accumulator';
  legs: { selection_id: string; odds: string }[];
  stake: string;
  accept_odds_changes: TSportsOddsPolicy;
}

export function requestHashOf(memberId: bigint, input: TPlaceBetInput, stakeMinor: bigint): string {
  return sha256OfJson({
    memberId: memberId.toString(),
    type: input.type,
    legs: input.legs.map((leg) => [leg.selection_id, formatOdds(parseOdds(leg.odds) ?? 0n)]),
    stake: stakeMinor.toString(),
    policy: input.accept_odds_changes,
  });
}

/** A stake outside the site's range is refused before the selections are read. */
export function assertStakeInRange(profile: TSportsProfile, stakeMinor: bigint): void {
  if (stakeMinor < profile.minStakeMinor || stakeMinor > profile.maxStakeMinor) {
    const range = { min: formatMinor(profile.minStakeMinor), max: formatMinor(profile.maxStakeMinor) };
    throw new AppError('BET_OUT_OF_RANGE', { params: range, extra: { data: range } });
  }
}

/**
 * A placement's legs, in the order it asked for them, from the selections read for it: refused when
 * a selection is not offered (MARKET_CLOSED) or two legs are on one event.
 */
export function placementLegs(
  input: Pick<TPlaceBetInput, 'legs'>,
  selections: readonly TPlacementSelection[],
): TPlacementSelection[] {
  const byId = new Map(selections.map((row) => [row.selection_id, row]));
  const missing = input.legs.map((leg) => leg.selection_id).filter((id) => !byId.has(id));
  if (missing.length > 0)
    throw new AppError('MARKET_CLOSED', { extra: { data: { selection_ids: missing } } });
  const legs = input.legs.map((leg) => byId.get(leg.selection_id)!);
  if (new Set(legs.map((leg) => leg.event_id)).size !== legs.length) throw new AppError('SPORTS_SAME_EVENT');
  return legs;
}

/**
 * What the legs' markets, events and prices allow (a placement's checks after the in-play delay, in
 * order): refused when a market is closed or suspended, when a price moved beyond the player's odds
 * policy, or past the max payout; else the bet's potential return at the current odds (never below
 * the stake).
 */
export function priceLegs(
  profile: TSportsProfile,
  input: Pick<TPlaceBetInput, 'legs' | 'accept_odds_changes'>,
  stakeMinor: bigint,
  legs: readonly TPlacementSelection[],
): bigint {
  const closed = legs.filter(
    (leg) =>
      leg.market_status === 'settled' || leg.event_status === 'finished' || leg.event_status === 'cancelled',
  );
  if (closed.length > 0) {
    throw new AppError('MARKET_CLOSED', {
      extra: { data: { selection_ids: closed.map((leg) => leg.selection_id) } },
    });
  }
  const suspended = legs.filter(
    (leg) =>
      leg.market_status !== 'open' ||
      !eventTakesBets({ status: leg.event_status, kickoff_at: leg.kickoff_at }),
  );
  if (suspended.length > 0) {
    throw new AppError('MARKET_SUSPENDED', {
      extra: { data: { selection_ids: suspended.map((leg) => leg.selection_id) } },
    });
  }

  const changes: TSportsOddsChange[] = [];
  const refused: TSportsOddsChange[] = [];
  input.legs.forEach((leg, index) => {
    const seen = parseOdds(leg.odds) ?? 0n;
    const now = parseOdds(legs[index]!.odds) ?? 0n;
    if (seen === now) return;
    const change = {
      selection_id: leg.selection_id,
      odds_seen: formatOdds(seen),
      odds_now: formatOdds(now),
    };
    changes.push(change);
    const accepted =
      input.accept_odds_changes === 'any' || (input.accept_odds_changes === 'higher' && now > seen);
    if (!accepted) refused.push(change);
  });
  if (refused.length > 0) throw new AppError('ODDS_CHANGED', { extra: { data: { changes } } });

  const odds = legs.map((leg) => parseOdds(leg.odds)!);
  const potentialMinor = returnOf(stakeMinor, odds);
  if (potentialMinor > profile.maxPayoutMinor) {
    // The largest stake these odds allow under the max payout.
    const maxStake = (profile.maxPayoutMinor * stakeMinor) / potentialMinor;
    const max = maxStake < profile.maxStakeMinor ? maxStake : profile.maxStakeMinor;
    const params = { max_payout: formatMinor(profile.maxPayoutMinor), max: formatMinor(max) };
    throw new AppError('SPORTS_MAX_PAYOUT', { params, extra: { data: params } });
  }
  return potentialMinor < stakeMinor ? stakeMinor : potentialMinor;
}

/** The stake of bet `betId` as the wallet posts it: its key, reference and metadata. */
export function betStake(betId: string, type: TPlaceBetInput['type'], legs: number) {
  return {
    idempotencyKey: `sports-bet:${betId}:stake`,
    reference: `sports-bet:${betId}`,
    metadata: { product: 'sports', betId, type, legs },
  };
}

/**
 * What one try of a placement decided: placed; the key placed a bet already (found by the lock, or
 * taken by a concurrent request: answer it as a replay); or a live leg needs the site's in-play
 * delay first. The last two wrote nothing.
 */
type TAttempt =
  | { kind: 'placed'; view: TSportsBet; balance: bigint }
  | { kind: 'same_key' }
  | { kind: 'delay'; ms: number };

/** A bet with a live leg waits the site's in-play delay (nothing written), then is placed as of now. */
export type TInPlayDelay = { delayMs: number };

/**
 * Places a bet: validates the legs against the current prices (odds change policy), the market and
 * event status, the stake limits and the max payout, the player's responsible-gaming limits, then
 * takes the stake through the wallet (bonus path: real money first, wagering, turnover) and records
 * the bet at the CURRENT odds. The same key with the same request answers the first bet; with another
 * request IDEMPOTENCY_CONFLICT. A refusal changes nothing.
 */
export async function placeBet(
  deps: TSportsDeps,
  site: TSportsSite,
  memberId: bigint,
  input: TPlaceBetInput,
  idempotencyKey: string,
  options: { delayServed?: boolean } = {},
): Promise<{ bet: TSportsBet; balance: string; replayed: boolean }> {
  const profile = sportsProfile(site.jurisdiction);
  const stakeMinor = parseStake(input.stake);
  const hash = requestHashOf(memberId, input, stakeMinor);
  const replay = async () => {
    const previous = await findBetByKey(deps.db, memberId, idempotencyKey);
    if (!previous) return null;
    if (previous.request_hash !== hash || previous.site_id !== site.id.toString()) {
      throw new AppError('IDEMPOTENCY_CONFLICT');
    }
    return {
      bet: await oneBetView(deps.db, site, previous),
      balance: await playable(deps.db, site.id, memberId),
      replayed: true,
    };
  };
  // In play, a bet waits the site's delay and is then checked and taken at the prices and market
  // states of that moment (a goal or a price move meanwhile refuses it as the policy says).
  // `delayServed`: a group served it already (sports.bet-group.ts).
  let delayServed = options.delayServed ?? false;
  const ids = input.legs.map((leg) => leg.selection_id);
  // Seven round trips on PostgreSQL (BEGIN rides with the lock, COMMIT with the push): lock the
  // markets and look for the key · read the selections and the RG gate · insert the bet with its
  // legs · the stake (the wallet's lock and write, turnover and VIP) · push the bet to the member.
  // The answer is built from what the transaction read and wrote.
  const attempt = () =>
    transactionOnGenericPlans(deps.db, async (tx): Promise<TAttempt> => {
      const { taken } = await lockPlacement(tx, {
        siteId: site.id,
        memberId,
        key: idempotencyKey,
        selectionIds: ids,
      });
      if (taken !== null) return { kind: 'same_key' };
      assertStakeInRange(profile, stakeMinor);
      const read = await placementSelections(
        tx,
        site.id,
        ids,
        await playGateParts(tx, { siteId: site.id, memberId }),
      );
      const legs = placementLegs(input, read.selections);
      if (!delayServed && legs.some((leg) => leg.event_status === 'live')) {
        const { in_play_delay_ms: delay } = await sportsSettings(tx, site);
        if (delay > 0) return { kind: 'delay', ms: delay };
      }
      const potentialMinor = priceLegs(profile, input, stakeMinor, legs);
      await assertPlayAllowed(tx, { siteId: site.id, memberId }, stakeMinor, gateOf(read.also));

      const bet = await insertBetWithLegs(
        tx,
        {
          siteId: site.id,
          memberId,
          type: input.type,
          stakeMinor,
          potentialReturnMinor: potentialMinor,
          key: idempotencyKey,
          hash,
        },
        legs,
      );
      if (!bet) return { kind: 'same_key' };
      let balance: bigint;
      try {
        const stake = await takeBetStake(tx, {
          siteId: site.id,
          memberId,
          amountMinor: stakeMinor,
          ...betStake(bet.id, input.type, legs.length),
          gameCode: SPORTS_GAME_CODE,
          category: SPORTS_CATEGORY,
        });
        balance = stake.debitBalanceAfterMinor ?? 0n;
      } catch (error) {
        if (isWalletError(error, 'INSUFFICIENT_FUNDS') || isWalletError(error, 'ACCOUNT_NOT_FOUND')) {
          throw new AppError('INSUFFICIENT_FUNDS');
        }
        if (isWalletError(error)) throw walletAppError(error);
        throw error;
      }
      const view = betView(bet, placedLegs(bet.id, legs), sportsProfile(site.jurisdiction).cashOutMarginBp);
      // The push is the transaction's last statement: its COMMIT rides with it.
      commitWithNextStatement(tx);
      await pushBet(tx, site.id, memberId, view);
      return { kind: 'placed', view, balance };
    });
  let result = await attempt();
  if (result.kind === 'delay') {
    // Nothing was written: wait outside any transaction, then place it as of now.
    const { ms } = result;
    await new Promise((resolve) => setTimeout(resolve, ms));
    delayServed = true;
    result = await attempt();
  }
  if (result.kind !== 'placed') {
    // The key placed a bet already; a second delay cannot be (the first was served).
    const raced = result.kind === 'same_key' ? await replay() : null;
    if (raced) return raced;
    throw new AppError('IDEMPOTENCY_CONFLICT');
  }
  deps.publishBalance?.(site.id, memberId, 'sports_bet');
  return { bet: result.view, balance: formatMinor(result.balance), replayed: false };
}

export function parseStake(text: string): bigint {
  const match = /^(0|[1-9]\d{0,10})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new AppError('INVALID_AMOUNT');
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

// ---------------------------------------------------------------------------------------------
// Cash-out

export async function cashOut(
  deps: TSportsDeps,
  site: TSportsSite,
  memberId: bigint,
  betId: bigint,
  valueSeen: string,
  idempotencyKey: string,
): Promise<{ bet: TSportsBet; balance: string }> {
  const profile = sportsProfile(site.jurisdiction);
  const seenMinor = parseStake(valueSeen);
  const owned = await findBet(deps.db, { siteId: site.id, memberId, betId });
  if (!owned) throw new AppError('NOT_FOUND');
  const replayCashOut = async () => {
    const bet = await findBet(deps.db, { siteId: site.id, memberId, betId });
    const key = await findCashOutClientKey(deps.db, site.id, betId);
    if (bet?.status === 'cashed_out' && key === idempotencyKey) {
      return {
        bet: await oneBetView(deps.db, site, bet),
        balance: await playable(deps.db, site.id, memberId),
      };
    }
    return null;
  };
  const result = await deps.db
    .transaction(async (tx) => {
      const marketIds = (await findLegs(tx, [betId.toString()])).map((leg) => leg.market_id);
      await shareLockMarkets(tx, marketIds);
      const bet = await findBet(tx, { siteId: site.id, memberId, betId }, { forUpdate: true });
      if (bet?.status !== 'open') throw new AppError('CASH_OUT_UNAVAILABLE');
      const legs = await findLegs(tx, [bet.id]);
      const view = betView(bet, legs, profile.cashOutMarginBp);
      if (!view.cash_out?.available) throw new AppError('CASH_OUT_UNAVAILABLE');
      const valueMinor = cashOutValue(
        BigInt(bet.stake_minor),
        legs.map((leg) => ({
          placedOdds: parseOdds(leg.odds)!,
          currentOdds: parseOdds(leg.current_odds)!,
          status: leg.status,
        })),
        profile.cashOutMarginBp,
      )!;
      if (valueMinor !== seenMinor) {
        throw new AppError('CASH_OUT_CHANGED', { extra: { data: { value: formatMinor(valueMinor) } } });
      }
      const paid = await payWin(tx, {
        siteId: site.id,
        memberId,
        amountMinor: valueMinor,
        idempotencyKey: `sports-bet:${bet.id}:cash-out`,
        stakeKey: `sports-bet:${bet.id}:stake`,
        reference: `sports-bet:${bet.id}`,
        metadata: { product: 'sports', betId: bet.id, cashOut: true, clientKey: idempotencyKey },
      });
      await markBetCashedOut(tx, bet.id, valueMinor);
      const after = (await findBet(tx, { siteId: site.id, betId }))!;
      const afterView = await oneBetView(tx, site, after);
      await pushBet(tx, site.id, memberId, afterView);
      return { bet: afterView, balance: formatMinor(paid.playableAfterMinor) };
    })
    .catch(async (error: unknown) => {
      // A retry (or a double tap racing the first) of a cash-out that went through answers it again.
      if (error instanceof AppError && error.code === 'CASH_OUT_UNAVAILABLE') {
        const replayed = await replayCashOut();
        if (replayed) return { ...replayed, replayed: true };
      }
      throw error;
    });
  if (!('replayed' in result)) deps.publishBalance?.(site.id, memberId, 'sports_cash_out');
  return { bet: result.bet, balance: result.balance };
}

// ---------------------------------------------------------------------------------------------
// Settlement

/**
 * Recomputes every bet with a leg in these markets from the legs' current results, inside the
 * caller's transaction (which holds the markets' locks). A bet whose outcome changed moves money:
 * a resettlement first pays the new outcome, then takes back the previous payout (win_reversal);
 * what the player no longer holds is recorded as unrecovered (overdraft is impossible). Cashed-out
 * bets are final. Returns the members whose balance changed.
 *
 * A final's thousands of bets are settled in a few statements (ADR 027): the bets locked and their
 * legs updated and read for all of them at once, then the first settlements of stakes paid in cash
 * in groups (`settleInGroups`: every win transfer, balance, bet and push of a group in one
 * statement). What takes a payout back, pays a stake that had a bonus part, or voids one that fed a
 * grant's wagering goes bet by bet
 * (`resettleOne`); so does everything with `oneByOne` (tests compare the two).
 */
async function resettleBets(
  tx: Tx,
  site: TSportsSite,
  marketIds: string[],
  options: { oneByOne?: boolean } = {},
): Promise<{ settled: number; members: Set<string> }> {
  const members = new Set<string>();
  const { bets, nowMs } = await lockMarketBets(tx, marketIds);
  const open = bets.filter((bet) => bet.status !== 'cashed_out');
  if (open.length === 0) return { settled: 0, members };
  await syncLegStatuses(
    tx,
    open.map((bet) => bet.id),
  );
  const legsOf = new Map<string, TLegRow[]>();
  for (const leg of await findLegs(
    tx,
    open.map((bet) => bet.id),
  )) {
    const list = legsOf.get(leg.bet_id) ?? [];
    list.push(leg);
    legsOf.set(leg.bet_id, list);
  }
  const marginBp = sportsProfile(site.jurisdiction).cashOutMarginBp;
  const unchanged: TGroupSettlement['pushed'] = [];
  const changed: TNewOutcome[] = [];
  /** Members with a settlement that goes bet by bet: all of theirs do, in bet order. */
  const byOne = new Set<string>();
  for (const bet of open) {
    const legs = legsOf.get(bet.id) ?? [];
    const outcome = betOutcome(
      BigInt(bet.stake_minor),
      legs.map((leg) => ({ odds: parseOdds(leg.odds)!, status: leg.status })),
    );
    const previousPayout = BigInt(bet.payout_minor);
    const payoutMinor = outcome.status === 'open' ? 0n : outcome.payoutMinor;
    if (outcome.status === bet.status && payoutMinor === previousPayout) {
      // Nothing changed for this bet, but its legs may have: tell the player anyway.
      unchanged.push({ memberId: BigInt(bet.member_id), view: betView(bet, legs, marginBp) });
      continue;
    }
    changed.push({ bet, legs, status: outcome.status, payoutMinor });
    members.add(bet.member_id);
    // A stake that fed a grant is paid as any cash stake, but its refund (void) takes the wagering
    // back from the grant: `payWin`'s, bet by bet.
    const refundsWagering = bet.fed_grant && outcome.status === 'void';
    if (options.oneByOne || previousPayout > 0n || bet.bonus_stake || refundsWagering)
      byOne.add(bet.member_id);
  }
  // A member's settlements keep the bets' order (a payout taken back finds the cash paid before it).
  const grouped = changed.filter(({ bet }) => !byOne.has(bet.member_id));
  await settleInGroups(tx, site, { settled: grouped, pushed: unchanged, nowMs });
  for (const settlement of changed) {
    if (byOne.has(settlement.bet.member_id)) await resettleOne(tx, site, settlement);
  }
  return { settled: changed.length, members };
}

/** One bet's new outcome, on its own: its payout, the previous one taken back, its row and push. */
async function resettleOne(tx: Tx, site: TSportsSite, { bet, legs, status, payoutMinor }: TNewOutcome) {
  const memberId = BigInt(bet.member_id);
  const previousPayout = BigInt(bet.payout_minor);
  const seq = bet.settle_seq + 1;
  let unrecovered = 0n;
  if (payoutMinor > 0n) {
    await payWin(tx, {
      siteId: site.id,
      memberId,
      amountMinor: payoutMinor,
      ...settlementWin(bet.id, seq),
      metadata: { product: 'sports', betId: bet.id, outcome: status, settlement: seq },
      kind: status === 'void' ? 'refund' : 'win',
    });
  }
  if (previousPayout > 0n) {
    unrecovered = await takeBack(tx, site.id, memberId, bet.id, previousPayout, {
      key: `sports-bet:${bet.id}:reverse:${bet.settle_seq}`,
      reverses: bet.settle_seq,
    });
  }
  await updateBetSettlement(tx, bet.id, { status, payoutMinor, unrecoveredMinor: unrecovered, seq });
  const after = (await findBet(tx, { siteId: site.id, betId: BigInt(bet.id) }))!;
  await pushBet(
    tx,
    site.id,
    memberId,
    betView(after, legs, sportsProfile(site.jurisdiction).cashOutMarginBp),
  );
}

/**
 * Takes back a payout from the player's cash (kind win_reversal, cash → house) under `key`. When the
 * player already spent part of it, takes what is there and returns the rest as unrecovered.
 */
async function takeBack(
  tx: Tx,
  siteId: bigint,
  memberId: bigint,
  betId: string,
  amountMinor: bigint,
  what: { key: string; reverses: number; collection?: boolean },
): Promise<bigint> {
  const cash = (await getBalances(tx, memberId, { siteId })).cashMinor;
  const take = cash < amountMinor ? cash : amountMinor;
  if (take > 0n) {
    await transfer(tx, {
      siteId,
      kind: 'win_reversal',
      from: { memberId, account: 'cash' },
      to: { system: 'house' },
      amountMinor: take,
      idempotencyKey: what.key,
      reference: `sports-bet:${betId}`,
      metadata: {
        product: 'sports',
        betId,
        reverses: what.reverses,
        owed: amountMinor.toString(),
        ...(what.collection ? { collection: true } : {}),
      },
    });
  }
  return amountMinor - take;
}

/**
 * Collects what resettlements could not take back (a corrected result after the player had spent
 * the payout: `unrecovered_minor`) from the player's cash as it comes in — a job every few minutes
 * and an operator's "collect now". Each collection is a win_reversal under a key of the bet, its
 * settlement and the amount still owed (which only falls within one settlement), so a retry or a
 * second process takes nothing twice; the bet row's lock serialises collectors. Returns what was
 * taken per bet.
 */
export async function collectUnrecovered(
  deps: TSportsDeps,
  site: TSportsSite,
  options: { betId?: bigint; audit?: (tx: Tx, result: TCollected) => Promise<void> } = {},
): Promise<TCollected[]> {
  const owed = await findOwedBetIds(deps.db, site.id, options.betId);
  const results: TCollected[] = [];
  for (const { id } of owed) {
    const result = await deps.db.transaction(async (tx) => {
      const bet = await findBet(tx, { siteId: site.id, betId: BigInt(id) }, { forUpdate: true });
      const before = BigInt(bet?.unrecovered_minor ?? '0');
      if (!bet || before === 0n) return null;
      const memberId = BigInt(bet.member_id);
      const left = await takeBack(tx, site.id, memberId, bet.id, before, {
        key: `sports-bet:${bet.id}:collect:${bet.settle_seq}:${before}`,
        reverses: bet.settle_seq,
        collection: true,
      });
      const collected: TCollected = {
        bet_id: bet.id,
        member_id: bet.member_id,
        collected: formatMinor(before - left),
        still_owed: formatMinor(left),
      };
      if (left === before) return collected;
      await updateBetUnrecovered(tx, bet.id, left);
      const after = (await findBet(tx, { siteId: site.id, betId: BigInt(bet.id) }))!;
      const legs = await findLegs(tx, [bet.id]);
      await pushBet(
        tx,
        site.id,
        memberId,
        betView(after, legs, sportsProfile(site.jurisdiction).cashOutMarginBp),
      );
      await options.audit?.(tx, collected);
      return collected;
    });
    if (!result) continue;
    results.push(result);
    if (result.collected !== '0.00')
      deps.publishBalance?.(site.id, BigInt(result.member_id), 'sports_collection');
  }
  return results;
}

export type TCollected = { bet_id: string; member_id: string; collected: string; still_owed: string };

/** The bets of a site on which a player still owes a corrected payout, oldest first. */
export async function listUnrecovered(executor: Executor, site: TSportsSite) {
  const rows = await findOwedBets(executor, site.id);
  return rows.map((row) => ({
    ...row,
    owed: formatMinor(BigInt(row.owed)),
    settled_at: row.settled_at === null ? null : new Date(row.settled_at).toISOString(),
  }));
}

/** The sites with something to collect (the job's round). */
export async function sitesOwed(executor: Executor): Promise<TSportsSite[]> {
  const rows = await findSitesOwed(executor);
  return rows.map((row) => ({ id: BigInt(row.id), jurisdiction: row.jurisdiction }));
}

async function lockEvent(tx: Tx, siteId: bigint, eventId: bigint): Promise<TEventRow> {
  if (!(await lockEventRow(tx, siteId, eventId))) throw new AppError('NOT_FOUND');
  return (await findEvent(tx, siteId, eventId))!;
}

async function pushEventState(tx: Tx, siteId: bigint, eventId: bigint): Promise<TSportsEvent> {
  const event = (await findEvent(tx, siteId, eventId))!;
  const rows = await findMarketRows(tx, [event.id]);
  const [view] = await eventViews(tx, [event]);
  await pushSports(tx, siteId, {
    type: 'sports_event',
    event_id: event.id,
    status: view!.status,
    score: view!.score,
  });
  for (const market of marketViews(event, rows)) {
    await pushSports(tx, siteId, { type: 'sports_market', event_id: event.id, market });
  }
  return view!;
}

/**
 * Enters (or corrects) the final score of a match: the event is finished, every market settled from
 * the score, and every bet on it settled — or resettled, when a previous result is corrected — at
 * once, in one transaction.
 */
export async function enterResult(
  deps: TSportsDeps,
  site: TSportsSite,
  eventId: bigint,
  score: { home: number; away: number },
  audit?: TAudit,
  options: TSettleOptions = {},
): Promise<{ event: TSportsEvent; bets_settled: number }> {
  return settleEvent(
    deps,
    site,
    eventId,
    (type) => settleMarket(type, score),
    { status: 'finished', score },
    audit,
    options,
  );
}

/** `oneByOne`: every bet settled on its own, as before ADR 027 (tests compare the two). */
type TSettleOptions = { oneByOne?: boolean };

/** Cancels a match: every market void, every stake on it returned (an accumulator's leg drops out). */
export async function cancelEvent(
  deps: TSportsDeps,
  site: TSportsSite,
  eventId: bigint,
  audit?: TAudit,
  options: TSettleOptions = {},
) {
  return settleEvent(
    deps,
    site,
    eventId,
    (type) => voidMarket(type),
    { status: 'cancelled', score: null },
    audit,
    options,
  );
}

async function settleEvent(
  deps: TSportsDeps,
  site: TSportsSite,
  eventId: bigint,
  resultsOf: (type: TSportsMarketType) => Record<string, TOutcome>,
  state: { status: 'finished' | 'cancelled'; score: { home: number; away: number } | null },
  audit: TAudit | undefined,
  options: TSettleOptions,
) {
  const result = await deps.db.transaction(async (tx) => {
    await lockEvent(tx, site.id, eventId);
    const markets = await lockEventMarkets(tx, eventId);
    await updateEventResult(tx, eventId, state);
    for (const market of markets) {
      const results = resultsOf(market.type);
      for (const [code, outcome] of Object.entries(results)) {
        await updateSelectionResult(tx, market.id, code, outcome);
      }
      await markMarketSettled(tx, market.id);
    }
    const { settled, members } = await resettleBets(
      tx,
      site,
      markets.map((market) => market.id),
      options,
    );
    const event = await pushEventState(tx, site.id, eventId);
    await audit?.(tx, event);
    return { event, bets_settled: settled, members };
  });
  for (const member of result.members) deps.publishBalance?.(site.id, BigInt(member), 'sports_settled');
  return { event: result.event, bets_settled: result.bets_settled };
}

/** Marks a match live with its current score (bets stay open on open markets: in-play). */
export async function markLive(
  deps: TSportsDeps,
  site: TSportsSite,
  eventId: bigint,
  score: { home: number; away: number },
  audit?: TAudit,
) {
  return deps.db.transaction(async (tx) => {
    const event = await lockEvent(tx, site.id, eventId);
    if (event.status === 'finished' || event.status === 'cancelled') throw new AppError('MARKET_CLOSED');
    await updateEventLive(tx, eventId, score);
    // A goal (the score differs from the one stored, 0–0 before kick-off) suspends the match's open
    // markets until they are repriced or the site's window ends: the prices of a moment ago are wrong.
    const scored =
      Number(event.home_goals ?? 0) !== score.home || Number(event.away_goals ?? 0) !== score.away;
    const { score_suspension_seconds: seconds } = await sportsSettings(tx, site);
    if (scored && seconds > 0) {
      await suspendOpenMarkets(tx, eventId, seconds);
    }
    const after = await pushEventState(tx, site.id, eventId);
    await audit?.(tx, after);
    return { event: after, bets_settled: 0 };
  });
}

async function lockMarket(tx: Tx, siteId: bigint, marketId: bigint) {
  const market = await lockMarketRow(tx, siteId, marketId);
  if (!market) throw new AppError('NOT_FOUND');
  return market;
}

async function pushMarket(tx: Tx, siteId: bigint, eventId: string, marketId: string): Promise<TSportsEvent> {
  const event = (await findEvent(tx, siteId, BigInt(eventId)))!;
  const rows = await findMarketRows(tx, [event.id]);
  const market = marketViews(event, rows).find((m) => m.id === marketId)!;
  await pushSports(tx, siteId, { type: 'sports_market', event_id: event.id, market });
  const [view] = await eventViews(tx, [event]);
  return view!;
}

/** Suspends or reopens a market (a settled market stays settled). */
export async function setMarketStatus(
  deps: TSportsDeps,
  site: TSportsSite,
  marketId: bigint,
  status: 'open' | 'suspended',
  audit?: TAudit,
) {
  return deps.db.transaction(async (tx) => {
    const market = await lockMarket(tx, site.id, marketId);
    if (market.status === 'settled') throw new AppError('MARKET_CLOSED');
    await updateMarketStatus(tx, marketId, status);
    const after = await pushMarket(tx, site.id, market.event_id, market.id);
    await audit?.(tx, after);
    return { event: after, bets_settled: 0 };
  });
}

export interface TOddsInput {
  selections?: { selection_id: string; odds: string }[] | undefined;
  /** Who set odds by hand: an operator ('manual', kept until repriced) or the odds feed ('feed'). */
  source?: 'manual' | 'feed';
  margin?: string | undefined;
  probabilities?: { selection_id: string; probability: string }[] | undefined;
}

/**
 * Changes a market's prices: by hand (odds per selection; the market is then 'manual'), or by a new
 * margin and/or new true probabilities (repriced by the model: odds = 1 / (p × (1 + margin))). A
 * repriced market is open again if a goal had suspended it.
 * Placed bets keep the odds they were placed at.
 */
export async function setOdds(
  deps: TSportsDeps,
  site: TSportsSite,
  marketId: bigint,
  input: TOddsInput,
  audit?: TAudit,
) {
  return deps.db.transaction(async (tx) => {
    const market = await lockMarket(tx, site.id, marketId);
    if (market.status === 'settled') throw new AppError('MARKET_CLOSED');
    const selections = await findMarketSelections(tx, marketId);
    const known = new Set(selections.map((row) => row.id));
    const foreign = [...(input.selections ?? []), ...(input.probabilities ?? [])].find(
      (row) => !known.has(row.selection_id),
    );
    if (foreign) throw new AppError('NOT_FOUND');
    if (input.selections) {
      for (const row of input.selections) {
        const odds = parseOdds(row.odds);
        if (odds === null || odds < 101n || odds > 100_000n) throw new AppError('VALIDATION_FAILED');
        await updateSelectionOdds(tx, row.selection_id, formatOdds(odds));
      }
      await markMarketOddsSet(tx, marketId, input.source ?? 'manual');
    } else {
      const marginBp = input.margin === undefined ? parseMargin(market.margin) : parseMargin(input.margin);
      const probabilities = new Map(selections.map((row) => [row.id, parseProbability(row.probability)]));
      for (const row of input.probabilities ?? []) {
        const p = parseProbability(row.probability);
        if (p <= 0n || p >= 1_000_000n) throw new AppError('VALIDATION_FAILED');
        probabilities.set(row.selection_id, p);
      }
      for (const row of selections) {
        const p = probabilities.get(row.id)!;
        await updateSelectionPrice(tx, row.id, {
          probabilityText: formatProbability(p),
          oddsText: formatOdds(priceFromProbability(p, marginBp)),
        });
      }
      await markMarketRepriced(tx, marketId, formatMarginText(marginBp));
    }
    const after = await pushMarket(tx, site.id, market.event_id, market.id);
    await audit?.(tx, after);
    return { event: after, bets_settled: 0 };
  });
}

const formatMarginText = (bp: bigint) => `${bp / 10_000n}.${(bp % 10_000n).toString().padStart(4, '0')}`;

// ---------------------------------------------------------------------------------------------
// Creating events (feed import, tests)

export interface TNewEvent {
  externalRef: string;
  round: number | null;
  home: string;
  away: string;
  kickoffAt: Date;
  /** True probabilities per market type and selection code (millionths). */
  probabilities: Record<TSportsMarketType, Record<string, bigint>>;
  /** Odds a feed supplies (hundredths) instead of the house model, per market type and code. */
  odds?: Partial<Record<TSportsMarketType, Record<string, bigint>>>;
}

/**
 * Inserts events with their four markets (priced from true probabilities + the site profile's margin
 * per market type) in three statements; events already there (same competition and external ref) are
 * left as they are. Returns the ids of the new events by external ref.
 */
export async function insertEvents(
  executor: Executor,
  site: TSportsSite,
  competitionId: bigint,
  events: TNewEvent[],
): Promise<Map<string, bigint>> {
  const created = new Map<string, bigint>();
  if (events.length === 0) return created;
  const profile = sportsProfile(site.jurisdiction);
  const rows = await insertEventRows(executor, site.id, competitionId, events);
  if (rows.length === 0) return created;
  for (const row of rows) created.set(row.external_ref, BigInt(row.id));
  const byRef = new Map(events.map((event) => [event.externalRef, event]));
  const types = Object.keys(SPORTS_SELECTION_CODES) as TSportsMarketType[];
  const markets = await insertMarketRows(
    executor,
    site.id,
    rows.flatMap((row) =>
      types.map((type) => ({
        eventId: row.id,
        type,
        marginText: formatMarginText(profile.marginBp[type]),
        oddsSource: byRef.get(row.external_ref)!.odds?.[type] ? 'feed' : 'model',
      })),
    ),
  );
  const refOf = new Map(rows.map((row) => [row.id, row.external_ref]));
  const selections = markets.flatMap((market) => {
    const event = byRef.get(refOf.get(market.event_id)!)!;
    return SPORTS_SELECTION_CODES[market.type].map((code, position) => {
      const p = event.probabilities[market.type][code]!;
      const odds =
        event.odds?.[market.type]?.[code] ?? priceFromProbability(p, profile.marginBp[market.type]);
      return {
        marketId: market.id,
        code,
        position,
        probabilityText: formatProbability(p),
        oddsText: formatOdds(odds),
      };
    });
  });
  await insertSelectionRows(executor, selections);
  return created;
}

/**
 * Records played results on events nobody bet on yet (the import of past rounds): events finished,
 * markets settled from the score, in four statements; no money moves.
 */
export async function recordPastResults(
  executor: Executor,
  results: { eventId: bigint; score: { home: number; away: number } }[],
): Promise<void> {
  if (results.length === 0) return;
  const finished = await finishUnbetEvents(executor, results);
  if (finished.length === 0) return;
  const scores = new Map(finished.map((row) => [row.id, { home: row.home_goals, away: row.away_goals }]));
  const markets = await findEventsMarkets(executor, [...scores.keys()]);
  await updateSelectionResults(
    executor,
    markets.flatMap((market) =>
      Object.entries(settleMarket(market.type, scores.get(market.event_id)!)).map(([code, outcome]) => ({
        marketId: market.id,
        code,
        outcome,
      })),
    ),
  );
  await markEventsMarketsSettled(executor, [...scores.keys()]);
}
