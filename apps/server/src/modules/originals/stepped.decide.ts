import { formatMinor, type TSteppedOriginal } from '@sorte/contract';
import {
  type BetSeeds,
  fitsUnderCap,
  GAME_RULES,
  HILO_MAX_STEPS,
  type HiloCall,
  hiloStepMultiplier,
  MINES_TILES,
  type Multiplier,
  minesMultiplier,
  multiply,
  ZERO,
} from '@sorte/fairness';
import { AppError } from '../../errors.ts';
import { fairly, formatMultiplier, minesView, replay, toJson } from './originals.games.ts';
import type { TRoundUpdate } from './originals.repo.ts';

/**
 * What a step on an open Mines or Hi-Lo round decides, from the round alone (ADR 023's stepped
 * rounds): a pick, a call or a cash-out either ends the round (a mine, a wrong call, the last safe
 * tile, a cash-out: settled at a multiplier, paid by the caller) or moves it on. Pure: the one-by-one
 * steps and the steps' group both decide here, so a rule is written once.
 */

/** What a player does on an open stepped round. */
export type TStepAction =
  | { kind: 'pick'; tile: number }
  | { kind: 'call'; call: HiloCall }
  | { kind: 'cashout' };

/** The parts of an open round a step reads. */
export type TSteppedRound = {
  gameCode: string;
  stakeMinor: bigint;
  params: Record<string, unknown>;
  steps: unknown;
  serverSeed: string;
  clientSeed: string;
  nonce: bigint;
};

/** The round ends at `multiplier` (zero: nothing paid). */
export type TSettleStep = {
  multiplier: Multiplier;
  outcome: Record<string, unknown>;
  params: Record<string, unknown>;
  steps: unknown[];
};

/** The round moves on: its row as the step leaves it. */
export type TContinueStep = Omit<TRoundUpdate, 'settle' | 'payoutMinor'>;

export type TStepDecision = { settle: TSettleStep } | { continue: TContinueStep };

function seedsOf(round: TSteppedRound): BetSeeds {
  return { serverSeed: round.serverSeed, clientSeed: round.clientSeed, nonce: Number(round.nonce) };
}

function minesOf(round: TSteppedRound): { mines: number; picks: number[] } {
  return { mines: Number(round.params.mines), picks: (round.steps as number[]).map(Number) };
}

/**
 * A pick or call whose win would pass the game's max-win cap is refused (the player cashes out
 * instead), so a stepped round never reaches a state that would pay less than its multiplier.
 */
function assertWithinCap(round: TSteppedRound, next: Multiplier): void {
  const { maxWinMinor } = GAME_RULES[round.gameCode as TSteppedOriginal].limits;
  if (!fitsUnderCap(round.stakeMinor, next, maxWinMinor)) {
    throw new AppError('MAX_WIN_REACHED', { params: { max_win: formatMinor(maxWinMinor) } });
  }
}

/** Opens a tile; a mine ends the round (nothing paid), the last safe tile cashes out by itself. */
function pick(round: TSteppedRound, tile: number): TStepDecision {
  const { mines, picks: before } = minesOf(round);
  if (before.includes(tile)) throw new AppError('INVALID_BET');
  const picks = [...before, tile];
  // Decided on what a safe tile would pay, never on what the tile hides.
  assertWithinCap(
    round,
    fairly(() => minesMultiplier(mines, picks.length)),
  );
  const played = replay(seedsOf(round), { game: 'mines', mines, picks });
  if (played.game !== 'mines') throw new Error('mines replay returned another game');
  const { result: r } = played;
  if (r.hitMine || picks.length === MINES_TILES - mines) {
    const outcome = toJson(r) as Record<string, unknown>;
    return { settle: { multiplier: r.multiplier, outcome, params: { mines, picks }, steps: picks } };
  }
  const view = minesView(mines, picks, r.multiplier);
  return {
    continue: {
      multiplierNum: view.multiplier.num,
      multiplierDen: view.multiplier.den,
      multiplier: formatMultiplier(view.multiplier),
      params: { mines, picks },
      steps: picks,
      outcome: view.outcome,
    },
  };
}

/** Makes a Hi-Lo call; a wrong call ends the round with nothing paid. */
function call(round: TSteppedRound, next: HiloCall): TStepDecision {
  const calls = [...(round.steps as HiloCall[]), next];
  if (calls.length > HILO_MAX_STEPS) throw new AppError('INVALID_BET');
  if (next !== 'skip') {
    // Decided on what a right call would pay from the current card, never on the next card.
    const now = replay(seedsOf(round), { game: 'hilo', calls: calls.slice(0, -1) });
    if (now.game !== 'hilo') throw new Error('hilo replay returned another game');
    const current = now.result.steps.at(-1)?.card ?? now.result.start;
    assertWithinCap(
      round,
      fairly(() => multiply(now.result.multiplier, hiloStepMultiplier(current.rank, next))),
    );
  }
  const played = replay(seedsOf(round), { game: 'hilo', calls });
  if (played.game !== 'hilo') throw new Error('hilo replay returned another game');
  const { result: r } = played;
  const outcome = toJson(r) as Record<string, unknown>;
  if (r.lost) return { settle: { multiplier: ZERO, outcome, params: { calls }, steps: calls } };
  return {
    continue: {
      multiplierNum: r.multiplier.num,
      multiplierDen: r.multiplier.den,
      multiplier: formatMultiplier(r.multiplier),
      params: { calls },
      steps: calls,
      outcome,
    },
  };
}

/** Cashes the round out at its current multiplier (Mines after a pick; Hi-Lo when it allows). */
function cashOut(round: TSteppedRound): TStepDecision {
  if (round.gameCode === 'mines') {
    const { mines, picks } = minesOf(round);
    if (picks.length === 0) throw new AppError('INVALID_BET');
    const played = replay(seedsOf(round), { game: 'mines', mines, picks });
    if (played.game !== 'mines' || played.result.hitMine) throw new Error('an active mines round hit a mine');
    const outcome = toJson(played.result) as Record<string, unknown>;
    return {
      settle: { multiplier: played.result.multiplier, outcome, params: { mines, picks }, steps: picks },
    };
  }
  const calls = round.steps as HiloCall[];
  const played = replay(seedsOf(round), { game: 'hilo', calls });
  if (played.game !== 'hilo' || played.result.lost) throw new Error('an active hi-lo round was lost');
  if (!played.result.canCashOut) throw new AppError('INVALID_BET');
  const outcome = toJson(played.result) as Record<string, unknown>;
  return { settle: { multiplier: played.result.multiplier, outcome, params: { calls }, steps: calls } };
}

/** The game a step action is for (a pick is Mines', a call Hi-Lo's; a cash-out either). */
export function actionFits(game: TSteppedOriginal, action: TStepAction): boolean {
  return action.kind === 'cashout' || (action.kind === 'pick' ? game === 'mines' : game === 'hilo');
}

/** What `action` does to the open `round`; refusals are AppErrors (INVALID_BET, MAX_WIN_REACHED). */
export function decideStep(round: TSteppedRound, action: TStepAction): TStepDecision {
  if (action.kind === 'pick') return pick(round, action.tile);
  if (action.kind === 'call') return call(round, action.call);
  return cashOut(round);
}
