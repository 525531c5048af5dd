import { SPORTS_MAX_LEGS } from '@sorte/contract';
import { createStore, useStore } from '../../../lib/store.ts';
import { combinedOddsText, compareDecimal, potentialReturn, sumMoney } from './odds-math.ts';

/**
 * The bet slip: the selections a player tapped, the stakes typed for them and the prices the player
 * agreed to. Kept in memory for the visit (the browser keeps only the token and the language), as
 * pure functions over one state so the slip's rules are tested without a screen.
 */

/** Which price changes the server may take without asking again (sent with the bet). */
export const ODDS_POLICIES = ['none', 'higher', 'any'] as const;
export type TOddsPolicy = (typeof ODDS_POLICIES)[number];
export type TSlipTab = 'single' | 'accumulator';

export interface TSlipPick {
  selectionId: string;
  eventId: string;
  /** "Flamengo x Palmeiras", as the event was shown when tapped. */
  eventName: string;
  homeTeam: string;
  awayTeam: string;
  marketKind: string;
  selectionCode: string;
  /** The price the player agreed to: the one sent with the bet. */
  odds: string;
  /** The price offered now; differs from `odds` while a change waits for the player. */
  currentOdds: string;
  /** Which way the last change went, for the flash and the banner. */
  moved: 'up' | 'down' | null;
  suspended: boolean;
}

export interface TSlipState {
  picks: TSlipPick[];
  tab: TSlipTab;
  /** What the player typed per selection (the reader's own digits, "10,50" in pt). */
  singleStakes: Record<string, string>;
  accumulatorStake: string;
  policy: TOddsPolicy;
}

export const EMPTY_SLIP: TSlipState = {
  picks: [],
  tab: 'single',
  singleStakes: {},
  accumulatorStake: '',
  policy: 'none',
};

/** At most this many selections: the book's longest accumulator. */
export const MAX_PICKS = SPORTS_MAX_LEGS;

export type TNewPick = Omit<TSlipPick, 'currentOdds' | 'moved' | 'suspended'> & { suspended?: boolean };

/** Taps a selection in or out; the second selection turns the slip to the accumulator. */
export function togglePick(state: TSlipState, pick: TNewPick): TSlipState {
  if (state.picks.some((item) => item.selectionId === pick.selectionId)) {
    return removePick(state, pick.selectionId);
  }
  if (state.picks.length >= MAX_PICKS) return state;
  const picks = [
    ...state.picks,
    { ...pick, currentOdds: pick.odds, moved: null, suspended: pick.suspended ?? false },
  ];
  return { ...state, picks, tab: picks.length === 2 ? 'accumulator' : state.tab };
}

export function removePick(state: TSlipState, selectionId: string): TSlipState {
  const picks = state.picks.filter((item) => item.selectionId !== selectionId);
  const { [selectionId]: _removed, ...singleStakes } = state.singleStakes;
  return { ...state, picks, singleStakes, tab: picks.length < 2 ? 'single' : state.tab };
}

export function clearSlip(state: TSlipState): TSlipState {
  return { ...EMPTY_SLIP, policy: state.policy };
}

/** Whether the policy lets a move from `agreed` to `offered` through without asking the player. */
export function policyAccepts(policy: TOddsPolicy, agreed: string, offered: string): boolean {
  if (policy === 'any') return true;
  if (policy === 'higher') return compareDecimal(offered, agreed) >= 0;
  return compareDecimal(offered, agreed) === 0;
}

/**
 * A new price (or suspension) for a selection, from the live socket, a refetch or a PRICE_CHANGED
 * refusal. A move the player's policy accepts becomes the agreed price at once; any other waits in
 * `currentOdds` for the banner's accept or refuse.
 */
export function updatePrice(
  state: TSlipState,
  selectionId: string,
  change: { odds?: string; suspended?: boolean },
): TSlipState {
  let touched = false;
  const picks = state.picks.map((pick) => {
    if (pick.selectionId !== selectionId) return pick;
    const odds = change.odds ?? pick.currentOdds;
    const suspended = change.suspended ?? pick.suspended;
    if (odds === pick.currentOdds && suspended === pick.suspended) return pick;
    touched = true;
    const direction = compareDecimal(odds, pick.currentOdds);
    const moved = direction > 0 ? 'up' : direction < 0 ? 'down' : pick.moved;
    const agreed = policyAccepts(state.policy, pick.odds, odds) ? odds : pick.odds;
    return { ...pick, currentOdds: odds, odds: agreed, moved, suspended };
  });
  return touched ? { ...state, picks } : state;
}

/** The selections whose offered price differs from the agreed one (the banner lists them). */
export function pendingChanges(state: TSlipState): TSlipPick[] {
  return state.picks.filter((pick) => compareDecimal(pick.currentOdds, pick.odds) !== 0);
}

/** The player takes the new prices. */
export function acceptChanges(state: TSlipState): TSlipState {
  return {
    ...state,
    picks: state.picks.map((pick) => ({ ...pick, odds: pick.currentOdds })),
  };
}

/** The player refuses the new prices: those selections leave the slip, the rest stay as agreed. */
export function refuseChanges(state: TSlipState): TSlipState {
  return pendingChanges(state).reduce((next, pick) => removePick(next, pick.selectionId), state);
}

export function setTab(state: TSlipState, tab: TSlipTab): TSlipState {
  if (tab === 'accumulator' && state.picks.length < 2) return state;
  return { ...state, tab };
}

export function setSingleStake(state: TSlipState, selectionId: string, text: string): TSlipState {
  return { ...state, singleStakes: { ...state.singleStakes, [selectionId]: text } };
}

export function setAccumulatorStake(state: TSlipState, text: string): TSlipState {
  return { ...state, accumulatorStake: text };
}

export function setPolicy(state: TSlipState, policy: TOddsPolicy): TSlipState {
  return { ...state, policy };
}

/** Two selections of one event cannot share an accumulator (their outcomes depend on each other). */
export function sameEventConflict(state: TSlipState): boolean {
  const events = new Set(state.picks.map((pick) => pick.eventId));
  return events.size !== state.picks.length;
}

const STAKE_TEXT = /^\d{1,13}(?:\.\d{1,2})?$/;

/** A stake as money text when it is an amount above zero, else null. */
export function stakeValue(parsed: string): string | null {
  if (!STAKE_TEXT.test(parsed)) return null;
  const [whole = '0', fraction = ''] = parsed.split('.');
  const money = `${whole.replace(/^0+(?=\d)/, '')}.${fraction.padEnd(2, '0')}`;
  return /^0\.00$/.test(money) ? null : money;
}

export interface TSlipSummary {
  /** The bets the slip would place now: one per single with a stake, or the one accumulator. */
  bets: { legs: TSlipPick[]; stake: string; odds: string; potentialReturn: string }[];
  totalStake: string;
  totalReturn: string;
  /** Accumulator's total odds (two places), null on the singles tab. */
  combinedOdds: string | null;
}

/**
 * What the slip would place, given stakes already read from the player's digits
 * (`parse` = the format module's parseAmountInput in the reader's language).
 */
export function summarise(state: TSlipState, parse: (text: string) => string): TSlipSummary {
  const bets: TSlipSummary['bets'] = [];
  if (state.tab === 'accumulator') {
    const stake = stakeValue(parse(state.accumulatorStake));
    const odds = state.picks.map((pick) => pick.odds);
    const back = stake ? potentialReturn(stake, odds) : null;
    if (stake && back && state.picks.length >= 2) {
      bets.push({ legs: state.picks, stake, odds: combinedOddsText(odds) ?? '', potentialReturn: back });
    }
  } else {
    for (const pick of state.picks) {
      const stake = stakeValue(parse(state.singleStakes[pick.selectionId] ?? ''));
      const back = stake ? potentialReturn(stake, [pick.odds]) : null;
      if (stake && back) bets.push({ legs: [pick], stake, odds: pick.odds, potentialReturn: back });
    }
  }
  return {
    bets,
    totalStake: sumMoney(bets.map((bet) => bet.stake)),
    totalReturn: sumMoney(bets.map((bet) => bet.potentialReturn)),
    combinedOdds: state.tab === 'accumulator' ? combinedOddsText(state.picks.map((pick) => pick.odds)) : null,
  };
}

/** The one slip of the visit. */
export const slipStore = createStore<TSlipState>(EMPTY_SLIP);

export function updateSlip(change: (state: TSlipState) => TSlipState): void {
  slipStore.set(change(slipStore.get()));
}

export function useSlip(): TSlipState {
  return useStore(slipStore);
}
