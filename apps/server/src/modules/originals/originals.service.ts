import { createHash, randomUUID } from 'node:crypto';
import { formatMinor, type TInstantOriginal, type TRound, type TSteppedOriginal } from '@sorte/contract';
import {
  type BetSeeds,
  createFloatStream,
  GAME_RULES,
  HILO_MAX_STEPS,
  type HiloCall,
  MINES_TILES,
  type Multiplier,
  minesMultiplier,
  payoutMinor,
  placeMines,
  ZERO,
} from '@sorte/fairness';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { findGame, touchRecentGame } from '../games/games.repo.ts';
import type { TSeedPairRow } from '../games/games.schema.ts';
import { activePair } from './fairness.service.ts';
import {
  fairly,
  formatMultiplier,
  prepareBet,
  replay,
  settleInstant,
  type TBetBodies,
  type TPreparedBet,
  toJson,
} from './originals.games.ts';
import { payWinnings, playableBalance, takeStake } from './originals.money.ts';
import {
  advanceNonce,
  findActiveRound,
  findRound,
  findRoundByKey,
  insertRound,
  type TPlayer,
  type TRoundWithGame,
  updateActiveRound,
} from './originals.repo.ts';
import { toRoundView } from './rounds.service.ts';

/**
 * Bets on the in-house games. Every bet runs in ONE database transaction:
 *   lock the player's seed pair → replay check on the idempotency key → take the nonce → play
 *   (@sorte/fairness) → insert the round → stake (cash → house) → winnings (house → cash) → round
 *   updated with the transfer ids.
 * A refusal anywhere (insufficient funds, bad bet) rolls everything back: no nonce used, no round,
 * no money moved. Mines and Hi-Lo are stepped: the stake is taken at the start, each step locks the
 * round row, and settlement flips it from 'active' to 'settled' exactly once.
 */

export type TBetResult = { round: TRound; balance: string; replayed: boolean };

function requestHash(game: string, bet: TPreparedBet): string {
  return createHash('sha256')
    .update(JSON.stringify({ game, stake: bet.stakeMinor.toString(), params: bet.params }))
    .digest('hex');
}

function seedsOf(pair: { serverSeed: string; clientSeed: string }, nonce: bigint): BetSeeds {
  return { serverSeed: pair.serverSeed, clientSeed: pair.clientSeed, nonce: Number(nonce) };
}

async function gameRow(tx: Tx, player: TPlayer, code: string) {
  const game = await findGame(tx, player.siteId, { name: code, providerCode: 'sorte' });
  if (!game?.isInhouse) throw new AppError('GAME_UNAVAILABLE');
  return game;
}

async function result(db: Db, player: TPlayer, roundId: bigint, replayed: boolean): Promise<TBetResult> {
  const round = await findRound(db, player, roundId);
  if (!round) throw new Error(`round ${roundId} missing after commit`);
  return { round: toRoundView(round), balance: formatMinor(await playableBalance(db, player)), replayed };
}

/**
 * Common opening of a bet: lock the pair, answer a retry from its round, take the nonce and
 * insert the round. Returns null for a retry (the caller answers with the existing round).
 */
async function openRound(
  tx: Tx,
  player: TPlayer,
  game: string,
  bet: TPreparedBet,
  idempotencyKey: string,
): Promise<{ roundId: bigint; replayOf: null; pair: TSeedPairRow; nonce: bigint } | { replayOf: bigint }> {
  const pair = await activePair(tx, player, true);
  const hash = requestHash(game, bet);
  const previous = await findRoundByKey(tx, player, idempotencyKey);
  if (previous) {
    if (previous.requestHash !== hash) throw new AppError('IDEMPOTENCY_CONFLICT');
    return { replayOf: previous.id };
  }
  const row = await gameRow(tx, player, game);
  if (game === 'mines' || game === 'hilo') {
    if (await findActiveRound(tx, player, game)) throw new AppError('ROUND_IN_PROGRESS');
  }
  const nonce = pair.nextNonce;
  await advanceNonce(tx, pair.id);
  const roundId = await insertRound(tx, player, {
    gameId: row.id,
    gameCode: game,
    idempotencyKey,
    requestHash: hash,
    stakeMinor: bet.stakeMinor,
    params: bet.params,
    seedPairId: pair.id,
    nonce,
  });
  if (player.kind === 'member') await touchRecentGame(tx, player.memberId, row.id);
  return { roundId, replayOf: null, pair, nonce };
}

export function idempotencyKeyOf(bodyKey: string | undefined, headerKey: string | undefined): string {
  return bodyKey ?? headerKey ?? randomUUID();
}

export async function placeInstantBet<G extends TInstantOriginal>(
  db: Db,
  player: TPlayer,
  game: G,
  body: TBetBodies[G],
  idempotencyKey: string,
): Promise<TBetResult> {
  const bet = prepareBet(game, body);
  const opened = await db.transaction(async (tx) => {
    const round = await openRound(tx, player, game, bet, idempotencyKey);
    if (round.replayOf !== null) return round;
    const settlement = settleInstant(game, seedsOf(round.pair, round.nonce), bet);
    const stake = await takeStake(tx, player, {
      id: round.roundId,
      gameCode: game,
      stakeMinor: bet.stakeMinor,
    });
    const win = await payWinnings(tx, player, {
      id: round.roundId,
      gameCode: game,
      payoutMinor: settlement.payoutMinor,
    });
    await updateActiveRound(tx, round.roundId, {
      settle: true,
      payoutMinor: settlement.payoutMinor,
      multiplierNum: settlement.multiplier.num,
      multiplierDen: settlement.multiplier.den,
      multiplier: formatMultiplier(settlement.multiplier),
      params: bet.params,
      steps: [],
      outcome: settlement.outcome,
      betTransferId: stake.transferId,
      winTransferId: win?.transferId ?? null,
    });
    return round;
  });
  const roundId = opened.replayOf ?? (opened as { roundId: bigint }).roundId;
  return result(db, player, roundId, opened.replayOf !== null);
}

// ---------------------------------------------------------------------------------------------
// Stepped games

type TSteppedView = { outcome: Record<string, unknown>; multiplier: Multiplier };

function minesView(mines: number, picks: number[], multiplier: Multiplier): TSteppedView {
  const safeLeft = MINES_TILES - mines - picks.length;
  return {
    multiplier,
    outcome: {
      mines_count: mines,
      picks,
      multiplier: formatMultiplier(multiplier),
      next_multiplier: safeLeft > 0 ? formatMultiplier(minesMultiplier(mines, picks.length + 1)) : null,
    },
  };
}

export async function startSteppedRound<G extends TSteppedOriginal>(
  db: Db,
  player: TPlayer,
  game: G,
  body: TBetBodies[G],
  idempotencyKey: string,
): Promise<TBetResult> {
  const bet = prepareBet(game, body);
  const opened = await db.transaction(async (tx) => {
    const round = await openRound(tx, player, game, bet, idempotencyKey);
    if (round.replayOf !== null) return round;
    // Dealing the round checks its parameters: Hi-Lo shows the first card, Mines places the
    // mines (kept secret until settlement; every step recomputes them from the seeds).
    const seeds = seedsOf(round.pair, round.nonce);
    let view: TSteppedView;
    if (game === 'hilo') {
      const first = replay(seeds, { game: 'hilo', calls: [] });
      view = { outcome: toJson(first.result) as Record<string, unknown>, multiplier: ZERO };
    } else {
      const { mines } = body as TBetBodies['mines'];
      fairly(() => placeMines(mines, createFloatStream(seeds)));
      view = minesView(mines, [], ZERO);
    }
    const stake = await takeStake(tx, player, {
      id: round.roundId,
      gameCode: game,
      stakeMinor: bet.stakeMinor,
    });
    await updateActiveRound(tx, round.roundId, {
      settle: false,
      payoutMinor: 0n,
      multiplierNum: view.multiplier.num,
      multiplierDen: view.multiplier.den,
      multiplier: formatMultiplier(view.multiplier),
      params: bet.params,
      steps: [],
      outcome: view.outcome,
      betTransferId: stake.transferId,
    });
    return round;
  });
  const roundId = opened.replayOf ?? (opened as { roundId: bigint }).roundId;
  return result(db, player, roundId, opened.replayOf !== null);
}

async function lockActiveRound(tx: Tx, player: TPlayer, game: TSteppedOriginal, roundId: bigint) {
  const round = await findRound(tx, player, roundId, { lock: true });
  if (!round || round.gameCode !== game) throw new AppError('NOT_FOUND');
  if (round.status !== 'active') throw new AppError('ROUND_NOT_ACTIVE');
  return round;
}

async function settleStepped(
  tx: Tx,
  player: TPlayer,
  round: TRoundWithGame,
  settled: {
    multiplier: Multiplier;
    outcome: Record<string, unknown>;
    params: Record<string, unknown>;
    steps: unknown[];
  },
): Promise<void> {
  const game = round.gameCode as TSteppedOriginal;
  const payout = payoutMinor(round.stakeMinor, settled.multiplier, GAME_RULES[game].limits.maxWinMinor);
  const win = await payWinnings(tx, player, { id: round.id, gameCode: game, payoutMinor: payout });
  const updated = await updateActiveRound(tx, round.id, {
    settle: true,
    payoutMinor: payout,
    multiplierNum: settled.multiplier.num,
    multiplierDen: settled.multiplier.den,
    multiplier: formatMultiplier(settled.multiplier),
    params: settled.params,
    steps: settled.steps,
    outcome: settled.outcome,
    winTransferId: win?.transferId ?? null,
  });
  // The row is locked and was active, so this cannot fail; if it ever did, roll the payment back.
  if (!updated) throw new AppError('ROUND_NOT_ACTIVE');
}

function minesOf(round: TRoundWithGame): { mines: number; picks: number[] } {
  return { mines: Number(round.params.mines), picks: (round.steps as number[]).map(Number) };
}

/** Opens a tile; a mine ends the round (nothing paid), the last safe tile cashes out by itself. */
export async function pickMine(db: Db, player: TPlayer, roundId: bigint, tile: number): Promise<TBetResult> {
  await db.transaction(async (tx) => {
    const round = await lockActiveRound(tx, player, 'mines', roundId);
    const { mines, picks: before } = minesOf(round);
    if (before.includes(tile)) throw new AppError('INVALID_BET');
    const picks = [...before, tile];
    const played = replay(seedsOf(round, round.nonce), { game: 'mines', mines, picks });
    if (played.game !== 'mines') throw new Error('mines replay returned another game');
    const { result: r } = played;
    const finished = r.hitMine || picks.length === MINES_TILES - mines;
    if (finished) {
      await settleStepped(tx, player, round, {
        multiplier: r.multiplier,
        outcome: toJson(r) as Record<string, unknown>,
        params: { mines, picks },
        steps: picks,
      });
      return;
    }
    const view = minesView(mines, picks, r.multiplier);
    await updateActiveRound(tx, round.id, {
      settle: false,
      payoutMinor: 0n,
      multiplierNum: view.multiplier.num,
      multiplierDen: view.multiplier.den,
      multiplier: formatMultiplier(view.multiplier),
      params: { mines, picks },
      steps: picks,
      outcome: view.outcome,
    });
  });
  return result(db, player, roundId, false);
}

/** Makes a Hi-Lo call; a wrong call ends the round with nothing paid. */
export async function callHilo(
  db: Db,
  player: TPlayer,
  roundId: bigint,
  call: HiloCall,
): Promise<TBetResult> {
  await db.transaction(async (tx) => {
    const round = await lockActiveRound(tx, player, 'hilo', roundId);
    const calls = [...(round.steps as HiloCall[]), call];
    if (calls.length > HILO_MAX_STEPS) throw new AppError('INVALID_BET');
    const played = replay(seedsOf(round, round.nonce), { game: 'hilo', calls });
    if (played.game !== 'hilo') throw new Error('hilo replay returned another game');
    const { result: r } = played;
    const outcome = toJson(r) as Record<string, unknown>;
    if (r.lost) {
      await settleStepped(tx, player, round, { multiplier: ZERO, outcome, params: { calls }, steps: calls });
      return;
    }
    await updateActiveRound(tx, round.id, {
      settle: false,
      payoutMinor: 0n,
      multiplierNum: r.multiplier.num,
      multiplierDen: r.multiplier.den,
      multiplier: formatMultiplier(r.multiplier),
      params: { calls },
      steps: calls,
      outcome,
    });
  });
  return result(db, player, roundId, false);
}

/** Cashes a stepped round out at its current multiplier. A second cash-out is ROUND_NOT_ACTIVE. */
export async function cashOut(
  db: Db,
  player: TPlayer,
  game: TSteppedOriginal,
  roundId: bigint,
): Promise<TBetResult> {
  await db.transaction(async (tx) => {
    const round = await lockActiveRound(tx, player, game, roundId);
    const seeds = seedsOf(round, round.nonce);
    if (game === 'mines') {
      const { mines, picks } = minesOf(round);
      if (picks.length === 0) throw new AppError('INVALID_BET');
      const played = replay(seeds, { game: 'mines', mines, picks });
      if (played.game !== 'mines' || played.result.hitMine)
        throw new Error('an active mines round hit a mine');
      await settleStepped(tx, player, round, {
        multiplier: played.result.multiplier,
        outcome: toJson(played.result) as Record<string, unknown>,
        params: { mines, picks },
        steps: picks,
      });
      return;
    }
    const calls = round.steps as HiloCall[];
    const played = replay(seeds, { game: 'hilo', calls });
    if (played.game !== 'hilo' || played.result.lost) throw new Error('an active hi-lo round was lost');
    if (!played.result.canCashOut) throw new AppError('INVALID_BET');
    await settleStepped(tx, player, round, {
      multiplier: played.result.multiplier,
      outcome: toJson(played.result) as Record<string, unknown>,
      params: { calls },
      steps: calls,
    });
  });
  return result(db, player, roundId, false);
}

export async function getActiveRound(db: Db, player: TPlayer, game: TSteppedOriginal) {
  const round = await findActiveRound(db, player, game);
  return {
    round: round ? toRoundView(round) : null,
    balance: formatMinor(await playableBalance(db, player)),
  };
}
