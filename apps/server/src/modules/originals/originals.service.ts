import { randomUUID } from 'node:crypto';
import { formatMinor, type TInstantOriginal, type TRound, type TSteppedOriginal } from '@sorte/contract';
import { type BetSeeds, GAME_RULES, payoutMinor } from '@sorte/fairness';
import { sha256OfJson } from '../../core/hash.ts';
import { type Db, type Executor, perDatabase, type Tx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { findGame, type TCatalogueGame } from '../games/games.repo.ts';
import type { TGameRoundRow } from '../games/games.schema.ts';
import { gateOf } from '../responsible-gaming/rg.repo.ts';
import { assertPlayAllowed, playGateParts } from '../responsible-gaming/rg.service.ts';
import { ensurePair } from './fairness.service.ts';
import {
  dealStepped,
  formatMultiplier,
  prepareBet,
  settleInstant,
  type TBetBodies,
  type TPreparedBet,
} from './originals.games.ts';
import { payWinnings, playableBalance, takeStake } from './originals.money.ts';
import {
  findActiveRound,
  findRound,
  findRoundByKey,
  openRoundOnce,
  type TOpenedPair,
  type TPlayer,
  type TRoundUpdate,
  type TRoundWithGame,
  updateActiveRound,
} from './originals.repo.ts';
import { toRoundView } from './rounds.service.ts';
import { decideStep, type TSettleStep, type TStepAction } from './stepped.decide.ts';

/**
 * Bets on the in-house games. Every bet runs in ONE database transaction:
 *   take the nonce (locks the player's seed pair) → insert the round (a taken idempotency key means
 *   a retry) → play (@sorte/fairness) → stake (cash → house) → winnings (house → cash) → round
 *   updated with the transfer ids, returned as stored.
 * A refusal anywhere (insufficient funds, bad bet) rolls everything back: no nonce used, no round,
 * no money moved. A retry rolls back too and is answered from the round its first request placed.
 * Mines and Hi-Lo are stepped: the stake is taken at the start, each step locks the round row, and
 * settlement flips it from 'active' to 'settled' exactly once.
 *
 * The answer (round and balance) is built from what the transaction's statements returned, so a
 * bet costs no read after commit; the balance is the one right after this bet's own transfers.
 */

export type TBetResult = { round: TRound; balance: string; replayed: boolean };

export function requestHash(game: string, bet: TPreparedBet): string {
  return sha256OfJson({ game, stake: bet.stakeMinor.toString(), params: bet.params });
}

export function seedsOf(pair: { serverSeed: string; clientSeed: string }, nonce: bigint): BetSeeds {
  return { serverSeed: pair.serverSeed, clientSeed: pair.clientSeed, nonce: Number(nonce) };
}

const GAME_CACHE_TTL_MS = 30_000;
const GAME_CACHE_MAX_ENTRIES = 1_000;
const gameCacheOf = perDatabase(() => new Map<string, { game: TCatalogueGame; until: number }>());

/**
 * The in-house game a bet plays on the site, or null. Every bet needs the row and catalogue rows
 * change rarely, so found rows are kept per database for 30 s, as resolved sites are (an operator's
 * change reaches bets within that time). The cache is bounded (sites × in-house games in practice).
 */
export async function gameRow(
  db: Db,
  tx: Executor,
  player: TPlayer,
  code: string,
): Promise<TCatalogueGame | null> {
  const cache = gameCacheOf(db);
  const key = `${player.siteId}:${code}`;
  const now = Date.now();
  const cached = cache.get(key);
  if (cached && cached.until > now) return cached.game;
  const game = await findGame(tx, player.siteId, { name: code, providerCode: 'sorte' });
  if (!game?.isInhouse) return null;
  if (cache.size >= GAME_CACHE_MAX_ENTRIES) cache.clear();
  cache.set(key, { game, until: now + GAME_CACHE_TTL_MS });
  return game;
}

/**
 * Thrown inside a bet's transaction when a unique index refused its round: the idempotency key
 * placed a round already (a retry), or a Mines/Hi-Lo round of the game is still open. Rolls back.
 */
class RoundRefused extends Error {
  constructor() {
    super('the round was refused by a unique index');
  }
}

type TOpenedRound = { roundId: bigint; pair: TOpenedPair; nonce: bigint; game: TCatalogueGame };

/** A round row with what its view shows beside it: game and provider names, the seeds. */
export function withGame(
  row: TGameRoundRow,
  opened: { pair: TOpenedPair; game: { name: string; providerName: string } },
): TRoundWithGame {
  return {
    ...row,
    gameName: opened.game.name,
    providerName: opened.game.providerName,
    serverSeed: opened.pair.serverSeed,
    serverSeedHash: opened.pair.serverSeedHash,
    clientSeed: opened.pair.clientSeed,
    // The pair was active when the nonce was taken, and rotation waits for the pair's lock.
    pairRevealed: false,
  };
}

/**
 * Common opening of a bet: check the game, then take the nonce and insert the round (one
 * statement; a first bet commits the player's first seed pair). Throws RoundRefused for a retry
 * or a second open stepped round (the caller rolls back and answers).
 */
async function openRound(
  db: Db,
  tx: Tx,
  player: TPlayer,
  game: string,
  bet: TPreparedBet,
  requestHashHex: string,
  idempotencyKey: string,
): Promise<TOpenedRound> {
  const row = await gameRow(db, tx, player, game);
  if (!row) {
    // A retry of a bet placed before the game was withdrawn still gets its round.
    if (await findRoundByKey(tx, player, idempotencyKey)) throw new RoundRefused();
    throw new AppError('GAME_UNAVAILABLE');
  }
  const round = {
    gameId: row.id,
    gameCode: game,
    idempotencyKey,
    requestHash: requestHashHex,
    stakeMinor: bet.stakeMinor,
    params: bet.params,
  };
  // A member's responsible-gaming gate is read by the same statement (one round trip fewer).
  const gate = player.kind === 'member' ? await playGateParts(tx, player) : undefined;
  let opened = await openRoundOnce(tx, player, round, gate);
  if (!opened) {
    await ensurePair(tx, player);
    opened = await openRoundOnce(tx, player, round, gate);
    if (!opened) throw new Error('seed pair missing right after insert');
  }
  if (opened.roundId === null) throw new RoundRefused();
  if (player.kind === 'member') await assertPlayAllowed(tx, player, bet.stakeMinor, gateOf(opened.also));
  return { roundId: opened.roundId, pair: opened.pair, nonce: opened.pair.nonce, game: row };
}

/**
 * Runs a new bet in one transaction. When a unique index refused its round, the key's round (if
 * any) answers: the same request gets it, a different one IDEMPOTENCY_CONFLICT; without one the
 * refusal was an open round of a stepped game, ROUND_IN_PROGRESS.
 */
async function betOnce(
  db: Db,
  player: TPlayer,
  idempotencyKey: string,
  requestHashHex: string,
  work: (tx: Tx) => Promise<TBetResult>,
): Promise<TBetResult> {
  try {
    return await db.transaction(work);
  } catch (error) {
    if (!(error instanceof RoundRefused)) throw error;
  }
  const previous = await findRoundByKey(db, player, idempotencyKey);
  if (!previous) throw new AppError('ROUND_IN_PROGRESS');
  if (previous.requestHash !== requestHashHex) throw new AppError('IDEMPOTENCY_CONFLICT');
  return {
    round: toRoundView(previous),
    balance: formatMinor(await playableBalance(db, player)),
    replayed: true,
  };
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
  const hash = requestHash(game, bet);
  return betOnce(db, player, idempotencyKey, hash, async (tx) => {
    const opened = await openRound(db, tx, player, game, bet, hash, idempotencyKey);
    const settlement = settleInstant(game, seedsOf(opened.pair, opened.nonce), bet);
    const stake = await takeStake(tx, player, {
      id: opened.roundId,
      gameCode: game,
      stakeMinor: bet.stakeMinor,
    });
    const win = await payWinnings(tx, player, {
      id: opened.roundId,
      gameCode: game,
      payoutMinor: settlement.payoutMinor,
    });
    const settled = await updateActiveRound(tx, opened.roundId, {
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
    if (!settled) throw new Error(`round ${opened.roundId} was not active at settlement`);
    return {
      round: toRoundView(withGame(settled, opened)),
      balance: formatMinor((win ?? stake).balanceMinor),
      replayed: false,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Stepped games

export async function startSteppedRound<G extends TSteppedOriginal>(
  db: Db,
  player: TPlayer,
  game: G,
  body: TBetBodies[G],
  idempotencyKey: string,
): Promise<TBetResult> {
  const bet = prepareBet(game, body);
  const hash = requestHash(game, bet);
  return betOnce(db, player, idempotencyKey, hash, async (tx) => {
    const opened = await openRound(db, tx, player, game, bet, hash, idempotencyKey);
    const view = dealStepped(game, seedsOf(opened.pair, opened.nonce), bet);
    const stake = await takeStake(tx, player, {
      id: opened.roundId,
      gameCode: game,
      stakeMinor: bet.stakeMinor,
    });
    const started = await updateActiveRound(tx, opened.roundId, {
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
    if (!started) throw new Error(`round ${opened.roundId} was not active right after its insert`);
    return {
      round: toRoundView(withGame(started, opened)),
      balance: formatMinor(stake.balanceMinor),
      replayed: false,
    };
  });
}

async function lockActiveRound(tx: Tx, player: TPlayer, game: TSteppedOriginal, roundId: bigint) {
  const round = await findRound(tx, player, roundId, { lock: true });
  if (!round || round.gameCode !== game) throw new AppError('NOT_FOUND');
  if (round.status !== 'active') throw new AppError('ROUND_NOT_ACTIVE');
  return round;
}

/**
 * The answer to a step: the locked round as the step left it, and the balance (the winnings'
 * transfer tells it when one was paid; otherwise it is read, in the step's transaction).
 */
async function stepResult(
  tx: Tx,
  player: TPlayer,
  locked: TRoundWithGame,
  stored: TGameRoundRow,
  balanceMinor: bigint | null,
): Promise<TBetResult> {
  return {
    round: toRoundView({ ...locked, ...stored }),
    balance: formatMinor(balanceMinor ?? (await playableBalance(tx, player))),
    replayed: false,
  };
}

async function settleStepped(
  tx: Tx,
  player: TPlayer,
  round: TRoundWithGame,
  settled: TSettleStep,
): Promise<TBetResult> {
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
  return stepResult(tx, player, round, updated, win?.balanceMinor ?? null);
}

/** Updates a locked active round after a step that does not end it. */
async function continueStepped(
  tx: Tx,
  player: TPlayer,
  round: TRoundWithGame,
  step: Omit<TRoundUpdate, 'settle' | 'payoutMinor'>,
): Promise<TBetResult> {
  const updated = await updateActiveRound(tx, round.id, { ...step, settle: false, payoutMinor: 0n });
  if (!updated) throw new AppError('ROUND_NOT_ACTIVE');
  return stepResult(tx, player, round, updated, null);
}

/**
 * A pick, call or cash-out on the player's open round of `game`, one by one: locks the round,
 * decides the step (`decideStep`), then settles it (paying its win) or moves it on. A second
 * cash-out is ROUND_NOT_ACTIVE.
 */
export async function stepRound(
  db: Db,
  player: TPlayer,
  game: TSteppedOriginal,
  roundId: bigint,
  action: TStepAction,
): Promise<TBetResult> {
  return db.transaction(async (tx) => {
    const round = await lockActiveRound(tx, player, game, roundId);
    const decided = decideStep(round, action);
    if ('settle' in decided) return settleStepped(tx, player, round, decided.settle);
    return continueStepped(tx, player, round, decided.continue);
  });
}

export async function getActiveRound(db: Db, player: TPlayer, game: TSteppedOriginal) {
  const round = await findActiveRound(db, player, game);
  return {
    round: round ? toRoundView(round) : null,
    balance: formatMinor(await playableBalance(db, player)),
  };
}
