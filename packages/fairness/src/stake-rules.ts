import { BINGO_LIMITS, BINGO_PAYTABLE, bingoLineWithinBalls } from './games/bingo.ts';
import {
  CRASH_LIMITS,
  CRASH_MAX_HUNDREDTHS,
  CRASH_MIN_TARGET_HUNDREDTHS,
  crashWinProbability,
} from './games/crash.ts';
import {
  assertDiceBet,
  DICE_LIMITS,
  DICE_OUTCOMES,
  type DiceBet,
  diceMultiplier,
  diceWinningRolls,
} from './games/dice.ts';
import { HILO_LIMITS, HILO_RANKS } from './games/hilo.ts';
import { assertKenoPicks, KENO_DRAWN, KENO_LIMITS, KENO_NUMBERS, KENO_PAYTABLES } from './games/keno.ts';
import { LIMBO_LIMITS, LIMBO_MAX_TARGET_HUNDREDTHS, limboWinProbability } from './games/limbo.ts';
import { binomial, MINES_LIMITS, MINES_TILES, minesMultiplier } from './games/mines.ts';
import { getPlinkoPaytable, PLINKO_LIMITS, type PlinkoRisk } from './games/plinko.ts';
import { ROULETTE_LIMITS } from './games/roulette.ts';
import { SLOT_LIMITS } from './games/slot.ts';
import { type BetLimits, fromHundredths, type Multiplier, ratio } from './multiplier.ts';
import { FairnessInputError } from './seeds.ts';

/**
 * Which stakes each in-house game accepts, so that the RTP a player gets is the RTP shown.
 *
 * Payouts are whole centavos, floor(stake × multiplier). At a small stake and a multiplier that is
 * not a whole number of centavos the floor eats a visible share of the return: dice at 90.01% for
 * R$ 0,10 pays R$ 0,10 on a win (RTP 90.01%, not 99%). No deterministic rounding can fix that: the
 * payout g must satisfy chance × g / stake ∈ RTP ± 0.1 pp, an interval narrower than one centavo at
 * such stakes (docs/decisions/009-stakes-that-pay-the-rtp-shown.md). So a bet is accepted only where
 * its exact expected return, computed on the integer-centavo payouts, is within RTP_TOLERANCE of the
 * RTP shown. For each choice (target, mines, rows and risk…) that gives a rule players can read:
 *
 * - every stake from `minAnyMinor` up to the game's maximum pays within the tolerance;
 * - below it, a stake that is a multiple of `stepMinor` pays every outcome to the centavo, so exactly
 *   the RTP shown (dice at 49.50%, ×2: any stake; plinko: multiples of R$ 0,10; slot: of R$ 0,20);
 * - a win above the game's max-win cap is never paid short: a limbo (or crash auto cash-out) target
 *   whose win at this stake passes the cap is refused, and stepped games refuse the step.
 *
 * Stepped games (Mines, Hi-Lo) and crash let the player choose when to cash out, so every cash-out
 * state must pay within the tolerance on its own: if each does, so does every strategy, because the
 * running multiplier is a fair martingale scaled by the RTP. The one function `checkStake` decides
 * for the server (refuse before any money moves) and the web (explain before sending).
 */

/** 0.1 percentage point: the most an accepted bet's real RTP may differ from the RTP shown. */
export const RTP_TOLERANCE: Multiplier = { num: 1n, den: 1_000n };

/** What sets a bet's payouts, per game (the stake aside). */
export type TStakeChoice =
  | { game: 'dice'; bet: DiceBet }
  | { game: 'limbo'; targetHundredths: number }
  | { game: 'crash'; autoCashOutHundredths: number | null }
  | { game: 'mines'; mines: number }
  | { game: 'hilo' }
  | { game: 'plinko'; rows: number; risk: PlinkoRisk }
  | { game: 'keno'; picks: number }
  | { game: 'roulette' }
  | { game: 'slot' }
  | { game: 'bingo' };

export type TStakeGame = TStakeChoice['game'];

export interface StakeRule {
  /** Every stake from this one up to the game's maximum pays within RTP_TOLERANCE of the RTP shown. */
  minAnyMinor: bigint;
  /**
   * Below `minAnyMinor`, a stake that is a multiple of this pays every outcome in whole centavos.
   * Null when no such step is smaller than `minAnyMinor` (then `minAnyMinor` is simply the minimum).
   */
  stepMinor: bigint | null;
}

export type StakeCheck =
  | { ok: true }
  | { ok: false; code: 'BET_OUT_OF_RANGE'; minMinor: bigint; maxMinor: bigint }
  | { ok: false; code: 'STAKE_TOO_SMALL_FOR_TARGET'; minAnyMinor: bigint; stepMinor: bigint | null }
  | { ok: false; code: 'TARGET_ABOVE_CAP'; maxTargetHundredths: number; maxWinMinor: bigint };

export const STAKE_LIMITS: Readonly<Record<TStakeGame, BetLimits>> = {
  dice: DICE_LIMITS,
  limbo: LIMBO_LIMITS,
  crash: CRASH_LIMITS,
  mines: MINES_LIMITS,
  hilo: HILO_LIMITS,
  plinko: PLINKO_LIMITS,
  keno: KENO_LIMITS,
  roulette: ROULETTE_LIMITS,
  slot: SLOT_LIMITS,
  bingo: BINGO_LIMITS,
};

// ---------------------------------------------------------------------------------------------
// Exact arithmetic

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

const lcm = (a: bigint, b: bigint) => (a / gcd(a, b)) * b;

/** |a − b| ≤ RTP_TOLERANCE, exactly. */
export function isWithinTolerance(a: Multiplier, b: Multiplier): boolean {
  const difference = a.num * b.den - b.num * a.den;
  const absolute = difference < 0n ? -difference : difference;
  return absolute * RTP_TOLERANCE.den <= RTP_TOLERANCE.num * a.den * b.den;
}

/** The centavos paid for `stakeMinor` at multiplier `m`, as the server pays them (floor, capped). */
function paid(stakeMinor: bigint, m: Multiplier, capMinor: bigint): bigint {
  const raw = (stakeMinor * m.num) / m.den;
  return raw > capMinor ? capMinor : raw;
}

// ---------------------------------------------------------------------------------------------
// One-shot bets: a lottery of outcomes

/** A bet settled in one go: outcome i has weight weights[i] out of `total` and pays multipliers[i]. */
export interface PayoutLottery {
  weights: readonly bigint[];
  total: bigint;
  multipliers: readonly Multiplier[];
  /** The RTP the game shows for this choice, exactly. */
  shown: Multiplier;
}

/** The RTP actually paid at this stake: Σ weight × floor(stake × multiplier, capped) / (total × stake). */
export function lotteryReturn(stakeMinor: bigint, lottery: PayoutLottery, capMinor: bigint): Multiplier {
  let sum = 0n;
  lottery.weights.forEach((weight, i) => {
    if (weight > 0n) sum += weight * paid(stakeMinor, lottery.multipliers[i]!, capMinor);
  });
  return ratio(sum, lottery.total * stakeMinor);
}

/** The exact theoretical RTP of a lottery (payouts not rounded): what the game shows. */
function theoreticalReturn(weights: readonly bigint[], total: bigint, multipliers: readonly Multiplier[]) {
  let den = 1n;
  for (const m of multipliers) den = lcm(den, m.den);
  let num = 0n;
  weights.forEach((weight, i) => {
    const m = multipliers[i]!;
    num += weight * m.num * (den / m.den);
  });
  return ratio(num, total * den);
}

function diceLottery(bet: DiceBet): PayoutLottery {
  assertDiceBet(bet);
  const wins = BigInt(diceWinningRolls(bet));
  const total = BigInt(DICE_OUTCOMES);
  return {
    weights: [wins, total - wins],
    total,
    multipliers: [diceMultiplier(bet), ratio(0n, 1n)],
    shown: ratio(99n, 100n),
  };
}

function limboLottery(targetHundredths: number): PayoutLottery {
  const p = limboWinProbability(targetHundredths);
  return {
    weights: [p.num, p.den - p.num],
    total: p.den,
    multipliers: [ratio(BigInt(targetHundredths), 100n), ratio(0n, 1n)],
    shown: ratio(99n, 100n),
  };
}

function plinkoLottery(rows: number, risk: PlinkoRisk): PayoutLottery {
  const table = getPlinkoPaytable(rows, risk);
  const weights = table.hundredths.map((_, slot) => binomial(rows, slot));
  const total = 1n << BigInt(rows);
  const multipliers = table.hundredths.map(fromHundredths);
  return { weights, total, multipliers, shown: theoreticalReturn(weights, total, multipliers) };
}

function kenoLottery(picks: number): PayoutLottery {
  const table = KENO_PAYTABLES[picks];
  if (!table) throw new FairnessInputError('INVALID_BET', 'Pick 1 to 10 different numbers from 1 to 40.');
  const weights = table.hundredths.map((_, hits) =>
    hits > KENO_DRAWN ? 0n : binomial(picks, hits) * binomial(KENO_NUMBERS - picks, KENO_DRAWN - hits),
  );
  const total = binomial(KENO_NUMBERS, KENO_DRAWN);
  const multipliers = table.hundredths.map(fromHundredths);
  return { weights, total, multipliers, shown: theoreticalReturn(weights, total, multipliers) };
}

let bingoCache: PayoutLottery | null = null;
function bingoLottery(): PayoutLottery {
  if (bingoCache) return bingoCache;
  // Each paytable row pays when the first line comes after the previous row's balls and within its own.
  const within = BINGO_PAYTABLE.map((row) => bingoLineWithinBalls(row.maxBalls));
  let total = 1n;
  for (const p of within) total = lcm(total, p.den);
  const cumulative = within.map((p) => p.num * (total / p.den));
  const weights = cumulative.map((c, i) => c - (i === 0 ? 0n : cumulative[i - 1]!));
  weights.push(total - cumulative[cumulative.length - 1]!);
  const multipliers = [...BINGO_PAYTABLE.map((row) => fromHundredths(row.hundredths)), ratio(0n, 1n)];
  bingoCache = { weights, total, multipliers, shown: theoreticalReturn(weights, total, multipliers) };
  return bingoCache;
}

/** The lottery of a one-shot bet (dice, limbo, plinko, keno, bingo); null for the others. */
export function payoutLottery(choice: TStakeChoice): PayoutLottery | null {
  switch (choice.game) {
    case 'dice':
      return diceLottery(choice.bet);
    case 'limbo':
      return limboLottery(choice.targetHundredths);
    case 'plinko':
      return plinkoLottery(choice.rows, choice.risk);
    case 'keno':
      return kenoLottery(choice.picks);
    case 'bingo':
      return bingoLottery();
    default:
      return null;
  }
}

/**
 * The smallest stake from which every stake up to `maxBetMinor` passes `ok`, scanning down from
 * `safeMinor`, a stake from which `ok` is known to hold (the scan is at most ~1,000 stakes).
 */
function lowestStakeFromWhichAllPass(limits: BetLimits, safeMinor: bigint, ok: (stake: bigint) => boolean) {
  const top = safeMinor < limits.maxBetMinor ? safeMinor : limits.maxBetMinor;
  for (let stake = top; stake >= limits.minBetMinor; stake--) if (!ok(stake)) return stake + 1n;
  return limits.minBetMinor;
}

function ruleWithStep(minAnyMinor: bigint, stepMinor: bigint | null, limits: BetLimits): StakeRule {
  // A step no smaller than the lowest stake that needs it explains nothing.
  const useful =
    stepMinor !== null &&
    stepMinor < minAnyMinor &&
    firstMultiple(limits.minBetMinor, stepMinor) < minAnyMinor;
  return { minAnyMinor, stepMinor: useful ? stepMinor : null };
}

function firstMultiple(from: bigint, step: bigint): bigint {
  return ((from + step - 1n) / step) * step;
}

function lotteryRule(lottery: PayoutLottery, limits: BetLimits): StakeRule {
  // The floor takes less than one centavo per paying outcome, so from 1,000 × P(a fractional payout)
  // centavos on, the loss is under 0.1 pp.
  let fractional = 0n;
  let step = 1n;
  lottery.weights.forEach((weight, i) => {
    const m = lottery.multipliers[i]!;
    if (weight > 0n && m.den > 1n) {
      fractional += weight;
      step = lcm(step, m.den);
    }
  });
  const perMille = RTP_TOLERANCE.den / RTP_TOLERANCE.num;
  const safe = (fractional * perMille + lottery.total - 1n) / lottery.total;
  const minAny = lowestStakeFromWhichAllPass(limits, safe, (stake) =>
    isWithinTolerance(lotteryReturn(stake, lottery, limits.maxWinMinor), lottery.shown),
  );
  return ruleWithStep(minAny, step, limits);
}

// ---------------------------------------------------------------------------------------------
// Cash-out states: Mines, Hi-Lo, crash

/**
 * One place a player may cash out: it pays `multiplier` and is reached with probability `reach`.
 * The strategy "play to here, then cash out" has RTP reach × payout / stake, and every strategy mixes
 * such states, so each must be within the tolerance on its own.
 */
export interface CashOutState {
  multiplier: Multiplier;
  reach: Multiplier;
}

export function stateReturn(stakeMinor: bigint, state: CashOutState, capMinor: bigint): Multiplier {
  return ratio(state.reach.num * paid(stakeMinor, state.multiplier, capMinor), state.reach.den * stakeMinor);
}

/** Whether a state's win fits under the cap: beyond it the state is not reachable (see checkStake). */
export function fitsUnderCap(stakeMinor: bigint, multiplier: Multiplier, capMinor: bigint): boolean {
  return stakeMinor * multiplier.num <= capMinor * multiplier.den;
}

/** Mines, Hi-Lo and crash show 99%: a state's exact payout × its reach is 0.99 (crash: within 2⁻⁵²). */
const SHOWN_99: Multiplier = { num: 99n, den: 100n };

/**
 * A state's payout differs from the exact one by under a centavo, so only states reached with
 * probability above stake × tolerance can miss it: those with reach > stake / 1,000.
 */
function statesThatCanMiss(game: 'mines' | 'hilo' | 'crash', choice: TStakeChoice, stakeMinor: bigint) {
  const bound = ratio(stakeMinor * RTP_TOLERANCE.num, RTP_TOLERANCE.den);
  const canMiss = (reach: Multiplier) => reach.num * bound.den > bound.num * reach.den;
  if (game === 'mines')
    return minesStates((choice as { mines: number }).mines).filter((s) => canMiss(s.reach));
  if (game === 'hilo') return hiloStates(bound);
  return crashStates(canMiss);
}

export function minesStates(mines: number): CashOutState[] {
  const states: CashOutState[] = [];
  for (let picks = 1; picks <= MINES_TILES - mines; picks++) {
    states.push({
      multiplier: minesMultiplier(mines, picks),
      reach: ratio(binomial(MINES_TILES - mines, picks), binomial(MINES_TILES, picks)),
    });
  }
  return states;
}

/**
 * Hi-Lo cash-out states reached with probability above `bound`: after correct calls whose fair
 * factors 13 / winning ranks multiply to F, cash-out pays 0.99 × F and the chance to get there is 1/F.
 * A call that cannot lose (13 of 13) leaves F at 1 but makes cash-out possible, so F = 1 counts.
 */
export function hiloStates(bound: Multiplier): CashOutState[] {
  const seen = new Map<string, Multiplier>();
  const queue: Multiplier[] = [{ num: 1n, den: 1n }];
  seen.set('1/1', queue[0]!);
  const ranks = BigInt(HILO_RANKS);
  while (queue.length > 0) {
    const fair = queue.pop()!;
    for (let wins = 1n; wins < ranks; wins++) {
      const next = ratio(fair.num * ranks, fair.den * wins);
      // reach = 1/F > bound ⇔ F × bound < 1
      if (next.num * bound.num >= next.den * bound.den) continue;
      const key = `${next.num}/${next.den}`;
      if (!seen.has(key)) {
        seen.set(key, next);
        queue.push(next);
      }
    }
  }
  return [...seen.values()]
    .filter((fair) => fair.num * bound.num < fair.den * bound.den)
    .map((fair) => ({
      multiplier: ratio(SHOWN_99.num * fair.num, SHOWN_99.den * fair.den),
      reach: ratio(fair.den, fair.num),
    }));
}

/** Crash cash-out at T hundredths: pays T/100, reached when the crash point is at least T. */
export function crashState(targetHundredths: number): CashOutState {
  const p = crashWinProbability(targetHundredths);
  return { multiplier: ratio(BigInt(targetHundredths), 100n), reach: ratio(p.num, p.den) };
}

function crashStates(canMiss: (reach: Multiplier) => boolean): CashOutState[] {
  const states: CashOutState[] = [];
  // The chance to reach T falls as T grows, so the states that can miss are the lowest targets.
  for (let target = CRASH_MIN_TARGET_HUNDREDTHS; target <= CRASH_MAX_HUNDREDTHS; target++) {
    const state = crashState(target);
    if (!canMiss(state.reach)) break;
    states.push(state);
  }
  return states;
}

function statesRule(game: 'mines' | 'hilo' | 'crash', choice: TStakeChoice, limits: BetLimits): StakeRule {
  const cap = limits.maxWinMinor;
  const ok = (stake: bigint) =>
    statesThatCanMiss(game, choice, stake).every(
      (state) =>
        !fitsUnderCap(stake, state.multiplier, cap) ||
        isWithinTolerance(stateReturn(stake, state, cap), SHOWN_99),
    );
  // Every state is reached with probability at most 1, so from 1,000 centavos none can miss.
  const minAny = lowestStakeFromWhichAllPass(limits, RTP_TOLERANCE.den / RTP_TOLERANCE.num, ok);
  let step: bigint | null = null;
  if (game === 'crash') step = 100n;
  if (game === 'mines') {
    step = 1n;
    for (const state of minesStates((choice as { mines: number }).mines))
      step = lcm(step, state.multiplier.den);
  }
  return ruleWithStep(minAny, step, limits);
}

// ---------------------------------------------------------------------------------------------
// The rule and the check

/**
 * The slot's screens (20⁵ reel stops) are too many to weigh on every bet, so its rule is a constant,
 * proven smallest by the exhaustive test in stake-rules.test.ts. Line pays are multiples of the line
 * bet (stake / 20), so multiples of R$ 0,20 pay every screen exactly.
 */
export const SLOT_STAKE_RULE: StakeRule = { minAnyMinor: 320n, stepMinor: 20n };

const ruleCache = new Map<string, StakeRule>();
const RULE_CACHE_MAX = 4_096;

function ruleKey(choice: TStakeChoice): string {
  switch (choice.game) {
    case 'dice':
      return `dice:${diceWinningRolls(choice.bet)}`;
    case 'limbo':
      return `limbo:${choice.targetHundredths}`;
    case 'mines':
      return `mines:${choice.mines}`;
    case 'plinko':
      return `plinko:${choice.rows}:${choice.risk}`;
    case 'keno':
      return `keno:${choice.picks}`;
    default:
      // Crash's auto cash-out changes nothing here: a player may cash out by hand at any point.
      return choice.game;
  }
}

function computeRule(choice: TStakeChoice): StakeRule {
  const limits = STAKE_LIMITS[choice.game];
  switch (choice.game) {
    case 'roulette':
      // Every bet pays 36 / numbers covered ∈ {36, 18, 12, 9, 6, 3, 2}: whole centavos at any stake.
      return { minAnyMinor: limits.minBetMinor, stepMinor: null };
    case 'slot':
      return SLOT_STAKE_RULE;
    case 'mines':
    case 'hilo':
    case 'crash':
      return statesRule(choice.game, choice, limits);
    default:
      return lotteryRule(payoutLottery(choice)!, limits);
  }
}

function assertChoice(choice: TStakeChoice): void {
  switch (choice.game) {
    case 'dice':
      assertDiceBet(choice.bet);
      return;
    case 'limbo':
      limboWinProbability(choice.targetHundredths);
      return;
    case 'mines':
      minesMultiplier(choice.mines, 0);
      return;
    case 'plinko':
      getPlinkoPaytable(choice.rows, choice.risk);
      return;
    case 'keno':
      if (!Number.isInteger(choice.picks) || !KENO_PAYTABLES[choice.picks]) assertKenoPicks([]);
      return;
    case 'crash': {
      const target = choice.autoCashOutHundredths;
      if (target !== null) crashWinProbability(target);
      return;
    }
    default:
      return;
  }
}

/**
 * The stake rule of a choice (memoised: a rule costs at most a scan of ~1,000 stakes). Throws
 * FairnessInputError('INVALID_BET') for a choice the game does not offer.
 */
export function stakeRuleOf(choice: TStakeChoice): StakeRule {
  assertChoice(choice);
  const key = ruleKey(choice);
  const cached = ruleCache.get(key);
  if (cached) return cached;
  const rule = computeRule(choice);
  if (ruleCache.size >= RULE_CACHE_MAX) ruleCache.clear();
  ruleCache.set(key, rule);
  return rule;
}

/** Whether a stake passes a rule: from the lowest any-stake on, or a multiple of the step below it. */
export function isStakeInRule(stakeMinor: bigint, rule: StakeRule): boolean {
  return stakeMinor >= rule.minAnyMinor || (rule.stepMinor !== null && stakeMinor % rule.stepMinor === 0n);
}

/** The smallest stake the game accepts for a choice (what a "min" button sets). */
export function smallestStakeOf(choice: TStakeChoice): bigint {
  const rule = stakeRuleOf(choice);
  const { minBetMinor } = STAKE_LIMITS[choice.game];
  if (rule.stepMinor === null) return rule.minAnyMinor;
  const multiple = firstMultiple(minBetMinor, rule.stepMinor);
  return multiple < rule.minAnyMinor ? multiple : rule.minAnyMinor;
}

/**
 * The smallest stake from `stakeMinor` up that the rule accepts (what a "bet R$ X instead" button
 * offers), or null when none is left under the game's maximum.
 */
export function nextAcceptedStake(stakeMinor: bigint, choice: TStakeChoice): bigint | null {
  const rule = stakeRuleOf(choice);
  const { minBetMinor, maxBetMinor } = STAKE_LIMITS[choice.game];
  const from = stakeMinor < minBetMinor ? minBetMinor : stakeMinor;
  let next = from > rule.minAnyMinor ? from : rule.minAnyMinor;
  if (rule.stepMinor !== null) {
    const multiple = firstMultiple(from, rule.stepMinor);
    if (multiple < next) next = multiple;
  }
  return next <= maxBetMinor ? next : null;
}

/** The highest target (hundredths) whose win at this stake fits under the cap: limbo and crash. */
export function maxTargetForStake(game: 'limbo' | 'crash', stakeMinor: bigint): number {
  const { maxWinMinor } = STAKE_LIMITS[game];
  const highest = game === 'limbo' ? LIMBO_MAX_TARGET_HUNDREDTHS : CRASH_MAX_HUNDREDTHS;
  const fits = (maxWinMinor * 100n) / stakeMinor;
  return fits < BigInt(highest) ? Number(fits) : highest;
}

/**
 * Whether the game accepts this stake for this choice, and why not. Checked in order: the game's
 * stake limits, a target whose win would pass the max-win cap, then the stake rule.
 */
export function checkStake(stakeMinor: bigint, choice: TStakeChoice): StakeCheck {
  const limits = STAKE_LIMITS[choice.game];
  if (stakeMinor < limits.minBetMinor || stakeMinor > limits.maxBetMinor) {
    return {
      ok: false,
      code: 'BET_OUT_OF_RANGE',
      minMinor: limits.minBetMinor,
      maxMinor: limits.maxBetMinor,
    };
  }
  const rule = stakeRuleOf(choice);
  const target =
    choice.game === 'limbo'
      ? choice.targetHundredths
      : choice.game === 'crash'
        ? choice.autoCashOutHundredths
        : null;
  if (target !== null && (choice.game === 'limbo' || choice.game === 'crash')) {
    const maxTarget = maxTargetForStake(choice.game, stakeMinor);
    if (target > maxTarget) {
      return {
        ok: false,
        code: 'TARGET_ABOVE_CAP',
        maxTargetHundredths: maxTarget,
        maxWinMinor: limits.maxWinMinor,
      };
    }
  }
  if (!isStakeInRule(stakeMinor, rule)) {
    return {
      ok: false,
      code: 'STAKE_TOO_SMALL_FOR_TARGET',
      minAnyMinor: rule.minAnyMinor,
      stepMinor: rule.stepMinor,
    };
  }
  return { ok: true };
}

/**
 * Crash: the cash-out point at which a bet's win reaches the max-win cap, so the engine cashes it out
 * there (paying stake × that point, never a win cut short). Null when the cap is above the highest
 * crash point.
 */
export function crashCapCashOut(stakeMinor: bigint): number | null {
  const target = maxTargetForStake('crash', stakeMinor);
  return target < CRASH_MAX_HUNDREDTHS ? target : null;
}
