import { BINGO_LIMITS, BINGO_RTP, type BingoResult, playBingo } from './games/bingo.ts';
import { CRASH_LIMITS, CRASH_RTP } from './games/crash.ts';
import { DICE_LIMITS, DICE_RTP, type DiceBet, type DiceResult, playDice } from './games/dice.ts';
import { HILO_LIMITS, HILO_RTP, type HiloCall, type HiloRound, playHilo } from './games/hilo.ts';
import { KENO_LIMITS, KENO_PAYTABLES, type KenoResult, playKeno } from './games/keno.ts';
import { LIMBO_LIMITS, LIMBO_RTP, type LimboResult, playLimbo } from './games/limbo.ts';
import { MINES_LIMITS, MINES_RTP, type MinesRound, placeMines, settleMines } from './games/mines.ts';
import {
  dropPlinko,
  PLINKO_LIMITS,
  PLINKO_PAYTABLES,
  type PlinkoResult,
  type PlinkoRisk,
} from './games/plinko.ts';
import {
  playRoulette,
  ROULETTE_LIMITS,
  ROULETTE_RTP,
  type RouletteBet,
  type RouletteBetResult,
} from './games/roulette.ts';
import { SLOT_LIMITS, SLOT_RTP, type SlotResult, spinSlot } from './games/slot.ts';
import type { BetLimits } from './multiplier.ts';
import { type BetSeeds, createFloatStream } from './seeds.ts';

/**
 * One entry point that recomputes any settled in-house bet from its seeds. The server settles with it
 * and the browser verifier calls the very same function, so both always agree.
 */

export type SeededGameId =
  | 'dice'
  | 'limbo'
  | 'mines'
  | 'plinko'
  | 'keno'
  | 'roulette'
  | 'slot'
  | 'hilo'
  | 'bingo';
export type GameId = SeededGameId | 'crash';

export type BetInput =
  | { game: 'dice'; bet: DiceBet }
  | { game: 'limbo'; targetHundredths: number }
  | { game: 'mines'; mines: number; picks: readonly number[] }
  | { game: 'plinko'; rows: number; risk: PlinkoRisk }
  | { game: 'keno'; picks: readonly number[] }
  | { game: 'roulette'; bets: readonly RouletteBet[] }
  | { game: 'slot' }
  | { game: 'hilo'; calls: readonly HiloCall[] }
  | { game: 'bingo' };

export type BetOutcome =
  | { game: 'dice'; result: DiceResult }
  | { game: 'limbo'; result: LimboResult }
  | { game: 'mines'; result: MinesRound }
  | { game: 'plinko'; result: PlinkoResult }
  | { game: 'keno'; result: KenoResult }
  | { game: 'roulette'; result: { pocket: number; results: RouletteBetResult[] } }
  | { game: 'slot'; result: SlotResult }
  | { game: 'hilo'; result: HiloRound }
  | { game: 'bingo'; result: BingoResult };

/** Recomputes a bet's outcome from the revealed server seed, the client seed, the nonce and the bet. */
export function replayBet(seeds: BetSeeds, input: BetInput): BetOutcome {
  const next = createFloatStream(seeds);
  switch (input.game) {
    case 'dice':
      return { game: 'dice', result: playDice(input.bet, next) };
    case 'limbo':
      return { game: 'limbo', result: playLimbo(input.targetHundredths, next) };
    case 'mines':
      return { game: 'mines', result: settleMines(placeMines(input.mines, next), input.picks) };
    case 'plinko':
      return { game: 'plinko', result: dropPlinko(input.rows, input.risk, next) };
    case 'keno':
      return { game: 'keno', result: playKeno(input.picks, next) };
    case 'roulette':
      return { game: 'roulette', result: playRoulette(input.bets, next) };
    case 'slot':
      return { game: 'slot', result: spinSlot(next) };
    case 'hilo':
      return { game: 'hilo', result: playHilo(input.calls, next) };
    case 'bingo':
      return { game: 'bingo', result: playBingo(next) };
  }
}

export interface GameRules {
  id: GameId;
  /** Lowest and highest theoretical RTP over the game's options (equal when every bet has the same). */
  rtpMin: number;
  rtpMax: number;
  limits: BetLimits;
}

const plinkoRtps = Object.values(PLINKO_PAYTABLES).flatMap((byRows) =>
  Object.values(byRows).map((t) => t.rtp),
);
const kenoRtps = Object.values(KENO_PAYTABLES).map((t) => t.rtp);

/** RTP and limits of every in-house game, for the catalogue and the rules screens. */
export const GAME_RULES: Readonly<Record<GameId, GameRules>> = {
  crash: { id: 'crash', rtpMin: CRASH_RTP, rtpMax: CRASH_RTP, limits: CRASH_LIMITS },
  dice: { id: 'dice', rtpMin: DICE_RTP, rtpMax: DICE_RTP, limits: DICE_LIMITS },
  limbo: { id: 'limbo', rtpMin: LIMBO_RTP, rtpMax: LIMBO_RTP, limits: LIMBO_LIMITS },
  mines: { id: 'mines', rtpMin: MINES_RTP, rtpMax: MINES_RTP, limits: MINES_LIMITS },
  plinko: {
    id: 'plinko',
    rtpMin: Math.min(...plinkoRtps),
    rtpMax: Math.max(...plinkoRtps),
    limits: PLINKO_LIMITS,
  },
  keno: { id: 'keno', rtpMin: Math.min(...kenoRtps), rtpMax: Math.max(...kenoRtps), limits: KENO_LIMITS },
  roulette: { id: 'roulette', rtpMin: ROULETTE_RTP, rtpMax: ROULETTE_RTP, limits: ROULETTE_LIMITS },
  slot: { id: 'slot', rtpMin: SLOT_RTP, rtpMax: SLOT_RTP, limits: SLOT_LIMITS },
  hilo: { id: 'hilo', rtpMin: HILO_RTP, rtpMax: HILO_RTP, limits: HILO_LIMITS },
  bingo: { id: 'bingo', rtpMin: BINGO_RTP, rtpMax: BINGO_RTP, limits: BINGO_LIMITS },
};
