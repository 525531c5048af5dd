import {
  formatMinor,
  parseMinor,
  STEPPED_ORIGINALS,
  type TInstantOriginal,
  type TOriginal,
  type TSteppedOriginal,
  type ZBingoBet,
  type ZDiceBet,
  type ZHiloStart,
  type ZKenoBet,
  type ZLimboBet,
  type ZMinesStart,
  type ZPlinkoBet,
  type ZRouletteBet,
  type ZSlotBet,
} from '@sorte/contract';
import {
  type BetInput,
  type BetSeeds,
  BINGO_PAYTABLE,
  checkStake,
  createFloatStream,
  FairnessInputError,
  GAME_RULES,
  KENO_PAYTABLES,
  MINES_TILES,
  type Multiplier,
  minesMultiplier,
  PLINKO_PAYTABLES,
  payoutMinor,
  placeMines,
  ratio,
  replayBet,
  SLOT_LINE_PAYS,
  SLOT_PAYLINES,
  SLOT_SCATTER_PAYS,
  type StakeCheck,
  type TStakeChoice,
  ZERO,
} from '@sorte/fairness';
import type { z } from 'zod';
import { AppError } from '../../errors.ts';

/**
 * The in-house games as the server plays them: each bet body becomes the exact `replayBet` input
 * (stored with the round, so the verifier replays the same thing), and a settled outcome becomes a
 * payout under the game's max-win cap. All maths lives in @sorte/fairness; this file only maps.
 */

export type TBetBodies = {
  dice: z.infer<typeof ZDiceBet>;
  limbo: z.infer<typeof ZLimboBet>;
  plinko: z.infer<typeof ZPlinkoBet>;
  keno: z.infer<typeof ZKenoBet>;
  roulette: z.infer<typeof ZRouletteBet>;
  slot: z.infer<typeof ZSlotBet>;
  bingo: z.infer<typeof ZBingoBet>;
  mines: z.infer<typeof ZMinesStart>;
  hilo: z.infer<typeof ZHiloStart>;
};

/** A bet ready to play: the stake, the replayBet input and its JSON form for the round record. */
export type TPreparedBet = {
  stakeMinor: bigint;
  input: BetInput;
  params: Record<string, unknown>;
};

export type TSettlement = {
  payoutMinor: bigint;
  multiplier: Multiplier;
  outcome: Record<string, unknown>;
};

/** JSON-safe copy: bigints become decimal strings (the verifier turns them back with BigInt). */
export function toJson(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  }
  return value;
}

/** A multiplier for display, floored to 4 decimals ("1.9800"). */
export function formatMultiplier(m: Multiplier): string {
  const tenThousandths = (m.num * 10_000n) / m.den;
  return `${tenThousandths / 10_000n}.${(tenThousandths % 10_000n).toString().padStart(4, '0')}`;
}

function stakeOf(amount: string): bigint {
  const minor = parseMinor(amount);
  if (minor === null || minor <= 0n) {
    throw new AppError('VALIDATION_FAILED', {
      messageKey: 'validation.amount_invalid',
      fieldErrors: { amount: 'validation.amount_invalid' },
    });
  }
  return minor;
}

const hundredthsText = (h: number) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`;

/** The refusal of a stake the game does not accept for this choice, as the API answers it. */
export function stakeRefusal(check: Exclude<StakeCheck, { ok: true }>): AppError {
  switch (check.code) {
    case 'BET_OUT_OF_RANGE':
      return new AppError('BET_OUT_OF_RANGE', {
        params: { min: formatMinor(check.minMinor), max: formatMinor(check.maxMinor) },
      });
    case 'STAKE_TOO_SMALL_FOR_TARGET': {
      const min = formatMinor(check.minAnyMinor);
      const step = check.stepMinor === null ? null : formatMinor(check.stepMinor);
      return new AppError('STAKE_TOO_SMALL_FOR_TARGET', {
        ...(step === null ? {} : { messageKey: 'errors.STAKE_TOO_SMALL_FOR_TARGET_OR_STEP' }),
        params: step === null ? { min } : { min, step },
        extra: { data: { min_stake: min, stake_step: step } },
      });
    }
    case 'TARGET_ABOVE_CAP': {
      const maxTarget = hundredthsText(check.maxTargetHundredths);
      const maxWin = formatMinor(check.maxWinMinor);
      return new AppError('TARGET_ABOVE_CAP', {
        params: { max_target: maxTarget, max_win: maxWin },
        extra: { data: { max_target: maxTarget, max_win: maxWin } },
      });
    }
  }
}

/**
 * Refuses, before anything is written, a stake the game does not accept for this choice: outside
 * its limits, a target whose win would pass the max-win cap, or a stake whose whole-centavo payouts
 * would return less than the RTP shown (@sorte/fairness checkStake, the rule the web shows too).
 */
export function assertStakeAccepted(stakeMinor: bigint, choice: TStakeChoice): void {
  const check = fairly(() => checkStake(stakeMinor, choice));
  if (!check.ok) throw stakeRefusal(check);
}

/** What sets the payouts of a prepared bet, for the stake rules. */
function stakeChoiceOf(input: BetInput): TStakeChoice {
  switch (input.game) {
    case 'dice':
      return { game: 'dice', bet: input.bet };
    case 'limbo':
      return { game: 'limbo', targetHundredths: input.targetHundredths };
    case 'mines':
      return { game: 'mines', mines: input.mines };
    case 'plinko':
      return { game: 'plinko', rows: input.rows, risk: input.risk };
    case 'keno':
      return { game: 'keno', picks: input.picks.length };
    default:
      return { game: input.game };
  }
}

export function prepareBet<G extends keyof TBetBodies>(game: G, body: TBetBodies[G]): TPreparedBet {
  const prepared = prepare(game, body);
  assertStakeAccepted(prepared.stakeMinor, stakeChoiceOf(prepared.input));
  return prepared;
}

function prepare(game: keyof TBetBodies, body: TBetBodies[keyof TBetBodies]): TPreparedBet {
  switch (game) {
    case 'dice': {
      const b = body as TBetBodies['dice'];
      const bet = { direction: b.direction, target: b.target };
      return { stakeMinor: stakeOf(b.amount), input: { game, bet }, params: { bet } };
    }
    case 'limbo': {
      const b = body as TBetBodies['limbo'];
      const targetHundredths = Number(parseMinor(b.target) ?? -1n);
      return {
        stakeMinor: stakeOf(b.amount),
        input: { game, targetHundredths },
        params: { targetHundredths },
      };
    }
    case 'plinko': {
      const b = body as TBetBodies['plinko'];
      return {
        stakeMinor: stakeOf(b.amount),
        input: { game, rows: b.rows, risk: b.risk },
        params: { rows: b.rows, risk: b.risk },
      };
    }
    case 'keno': {
      const b = body as TBetBodies['keno'];
      return { stakeMinor: stakeOf(b.amount), input: { game, picks: b.picks }, params: { picks: b.picks } };
    }
    case 'roulette': {
      const b = body as TBetBodies['roulette'];
      const bets = b.bets.map((chip) => ({
        type: chip.type,
        numbers: chip.numbers,
        stakeMinor: stakeOf(chip.amount),
      }));
      const stakeMinor = bets.reduce((sum, chip) => sum + chip.stakeMinor, 0n);
      return { stakeMinor, input: { game, bets }, params: { bets: toJson(bets) } };
    }
    case 'slot':
    case 'bingo':
      return { stakeMinor: stakeOf((body as TBetBodies['slot']).amount), input: { game }, params: {} };
    case 'mines': {
      const b = body as TBetBodies['mines'];
      return {
        stakeMinor: stakeOf(b.amount),
        input: { game, mines: b.mines, picks: [] },
        params: { mines: b.mines, picks: [] },
      };
    }
    case 'hilo':
      return {
        stakeMinor: stakeOf((body as TBetBodies['hilo']).amount),
        input: { game, calls: [] },
        params: { calls: [] },
      };
  }
}

/** Runs fairness code; a bet the game itself refuses becomes INVALID_BET (nothing changes). */
export function fairly<T>(play: () => T): T {
  try {
    return play();
  } catch (error) {
    if (error instanceof FairnessInputError && error.code === 'INVALID_BET') {
      throw new AppError('INVALID_BET');
    }
    throw error;
  }
}

export function replay(seeds: BetSeeds, input: BetInput) {
  return fairly(() => replayBet(seeds, input));
}

/** Plays and settles an instant game. */
export function settleInstant(game: TInstantOriginal, seeds: BetSeeds, bet: TPreparedBet): TSettlement {
  const maxWinMinor = GAME_RULES[game].limits.maxWinMinor;
  const outcome = replay(seeds, bet.input);
  if (outcome.game === 'roulette') {
    // Each chip pays on its own; the round's multiplier is what came back over what was staked.
    const raw = outcome.result.results.reduce(
      (sum, r) => sum + payoutMinor(r.bet.stakeMinor, r.multiplier, maxWinMinor * 1000n),
      0n,
    );
    const payout = raw > maxWinMinor ? maxWinMinor : raw;
    return {
      payoutMinor: payout,
      multiplier: ratio(raw, bet.stakeMinor),
      outcome: toJson(outcome.result) as Record<string, unknown>,
    };
  }
  if (outcome.game === 'mines' || outcome.game === 'hilo') throw new Error(`${game} is not an instant game`);
  const { multiplier } = outcome.result;
  return {
    payoutMinor: payoutMinor(bet.stakeMinor, multiplier, maxWinMinor),
    multiplier,
    outcome: toJson(outcome.result) as Record<string, unknown>,
  };
}

const hundredths = (h: number) => formatMultiplier(ratio(BigInt(h), 100n));

/** Paytables for the rules screens, multipliers as display strings. */
export function paytableOf(game: TOriginal): unknown {
  switch (game) {
    case 'plinko':
      return Object.fromEntries(
        Object.entries(PLINKO_PAYTABLES).map(([risk, byRows]) => [
          risk,
          Object.fromEntries(
            Object.entries(byRows).map(([rows, t]) => [
              rows,
              { slots: t.hundredths.map(hundredths), rtp: t.rtp },
            ]),
          ),
        ]),
      );
    case 'keno':
      return Object.fromEntries(
        Object.entries(KENO_PAYTABLES).map(([picks, t]) => [
          picks,
          { hits: t.hundredths.map(hundredths), rtp: t.rtp },
        ]),
      );
    case 'slot':
      return {
        line_pays: SLOT_LINE_PAYS,
        scatter_pays: SLOT_SCATTER_PAYS,
        paylines: SLOT_PAYLINES,
        lines: 20,
      };
    case 'bingo':
      return BINGO_PAYTABLE.map((row) => ({
        max_balls: row.maxBalls,
        multiplier: hundredths(row.hundredths),
      }));
    case 'roulette':
      return {
        straight: '36',
        split: '18',
        street: '12',
        corner: '9',
        line: '6',
        dozen: '3',
        column: '3',
        even_money: '2',
      };
    case 'dice':
      return { multiplier: '99 / win chance (%)', win_chance: '1% – 98%' };
    case 'limbo':
      return { multiplier: 'target', target: '1.01 – 1000000.00', win_chance: '99 / target (%)' };
    case 'mines':
      return { multiplier: '0.99 × C(25, picks) / C(25 − mines, picks)', mines: '1 – 24' };
    case 'hilo':
      return { multiplier: '0.99 × Π 13 / winning ranks', max_steps: 100 };
  }
}

/** A stepped round as the player sees it between steps: its outcome so far and multiplier. */
export type TSteppedView = { outcome: Record<string, unknown>; multiplier: Multiplier };

export function minesView(mines: number, picks: number[], multiplier: Multiplier): TSteppedView {
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

/**
 * Deals a stepped round at its start, which checks its parameters: Hi-Lo shows the first card,
 * Mines places the mines (kept secret until settlement; every step recomputes them from the seeds).
 */
export function dealStepped(game: TSteppedOriginal, seeds: BetSeeds, bet: TPreparedBet): TSteppedView {
  if (game === 'hilo') {
    const first = replay(seeds, { game: 'hilo', calls: [] });
    return { outcome: toJson(first.result) as Record<string, unknown>, multiplier: ZERO };
  }
  const mines = Number(bet.params.mines);
  fairly(() => placeMines(mines, createFloatStream(seeds)));
  return minesView(mines, [], ZERO);
}

export const isStepped = (game: TOriginal): game is TSteppedOriginal =>
  (STEPPED_ORIGINALS as readonly string[]).includes(game);
