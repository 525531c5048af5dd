import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BINGO_LIMITS, BINGO_PAYTABLE, BINGO_RTP, bingoLineWithinBalls } from './games/bingo.ts';
import { CRASH_LIMITS, CRASH_MAX_HUNDREDTHS, crashWinProbability } from './games/crash.ts';
import { DICE_LIMITS, type DiceBet, diceMultiplier } from './games/dice.ts';
import { HILO_LIMITS, hiloCashOutMultiplier, hiloStepMultiplier } from './games/hilo.ts';
import { KENO_LIMITS, KENO_PAYTABLES } from './games/keno.ts';
import { LIMBO_LIMITS, LIMBO_MAX_TARGET_HUNDREDTHS, limboWinProbability } from './games/limbo.ts';
import { binomial, MINES_LIMITS, MINES_MAX, MINES_MIN, minesMultiplier } from './games/mines.ts';
import { PLINKO_LIMITS, PLINKO_PAYTABLES, PLINKO_RISKS } from './games/plinko.ts';
import { ROULETTE_LIMITS, type RouletteBet, rouletteMultiplier } from './games/roulette.ts';
import {
  fillGrid,
  gridPayInLineBets,
  SLOT_LIMITS,
  SLOT_PAYLINES,
  SLOT_RTP,
  SLOT_STRIP_LENGTH,
} from './games/slot.ts';
import {
  type BetLimits,
  fromHundredths,
  type Multiplier,
  multiply,
  payoutMinor,
  ratio,
} from './multiplier.ts';
import {
  checkStake,
  crashCapCashOut,
  fitsUnderCap,
  nextAcceptedStake,
  SLOT_STAKE_RULE,
  type StakeCheck,
  smallestStakeOf,
  stakeRuleOf,
  type TStakeChoice,
} from './stake-rules.ts';

/**
 * The promise of issue 10 item 7, proven per game over the whole accepted range: for every stake and
 * choice the game accepts, the exact expected value of the integer-centavo payout — computed here from
 * the game's own multipliers and `payoutMinor`, the function the server pays with — divided by the
 * stake is within 0.1 percentage point of the RTP shown, and at least 85 % (Brazil's floor). Every
 * refusal carries the code of its reason. Stakes from R$ 10 on cannot miss (the floor takes under one
 * centavo per paying outcome), so the exhaustive passes cover stakes up to R$ 11 and random ones the
 * rest of the range.
 */

const BRAZIL_MIN_RTP: Multiplier = { num: 85n, den: 100n };
const NINETY_NINE: Multiplier = { num: 99n, den: 100n };

/** An exact sum of weight × payout over a common total, divided by the stake. */
function returnOf(stakeMinor: bigint, outcomes: { weight: Multiplier; pays: bigint }[]): Multiplier {
  let num = 0n;
  let den = 1n;
  for (const { weight, pays } of outcomes) {
    // num/den + weight × pays
    num = num * weight.den + weight.num * pays * den;
    den *= weight.den;
  }
  return ratio(num, den * stakeMinor);
}

function within(actual: Multiplier, shown: Multiplier): boolean {
  const difference = actual.num * shown.den - shown.num * actual.den;
  const absolute = difference < 0n ? -difference : difference;
  return absolute * 1_000n <= actual.den * shown.den;
}

const atLeast = (a: Multiplier, b: Multiplier) => a.num * b.den >= b.num * a.den;

/** What an accepted bet must satisfy. */
function expectFair(actual: Multiplier, shown: Multiplier, context: unknown): void {
  if (!within(actual, shown) || !atLeast(actual, BRAZIL_MIN_RTP)) {
    throw new Error(
      `accepted bet pays RTP ${Number(actual.num) / Number(actual.den)} vs shown ${Number(shown.num) / Number(shown.den)}: ${JSON.stringify(context)}`,
    );
  }
}

/** What a refusal must say: the limits, the cap, or a stake under the rule (and not a multiple of its step). */
function expectRightRefusal(
  check: StakeCheck,
  stakeMinor: bigint,
  choice: TStakeChoice,
  limits: BetLimits,
  aboveCap = false,
): void {
  if (check.ok) return;
  const outOfLimits = stakeMinor < limits.minBetMinor || stakeMinor > limits.maxBetMinor;
  if (outOfLimits) {
    expect(check.code).toBe('BET_OUT_OF_RANGE');
    return;
  }
  if (aboveCap) {
    expect(check.code).toBe('TARGET_ABOVE_CAP');
    return;
  }
  expect(check.code).toBe('STAKE_TOO_SMALL_FOR_TARGET');
  if (check.code !== 'STAKE_TOO_SMALL_FOR_TARGET') return;
  const rule = stakeRuleOf(choice);
  expect(check.minAnyMinor).toBe(rule.minAnyMinor);
  expect(stakeMinor < rule.minAnyMinor).toBe(true);
  if (rule.stepMinor !== null) expect(stakeMinor % rule.stepMinor).not.toBe(0n);
}

const stakes = (from: bigint, to: bigint) => {
  const out: bigint[] = [];
  for (let s = from; s <= to; s++) out.push(s);
  return out;
};
/** Every stake where rounding can matter (up to R$ 11), then the rest of the range at random. */
const lowStakes = (limits: BetLimits) =>
  stakes(limits.minBetMinor, 1_100n < limits.maxBetMinor ? 1_100n : limits.maxBetMinor);
const anyStake = (limits: BetLimits) =>
  fc.oneof(
    fc.bigInt({ min: limits.minBetMinor, max: 1_100n }),
    fc.bigInt({ min: limits.minBetMinor, max: limits.maxBetMinor }),
  );

// ---------------------------------------------------------------------------------------------

function diceReturn(stakeMinor: bigint, bet: DiceBet): Multiplier {
  const wins = BigInt(bet.direction === 'under' ? bet.target : 9_999 - bet.target);
  const pays = payoutMinor(stakeMinor, diceMultiplier(bet), DICE_LIMITS.maxWinMinor);
  return returnOf(stakeMinor, [{ weight: ratio(wins, 10_000n), pays }]);
}

describe('dice', () => {
  it('refuses R$ 0,10 under 90.01 (it would pay R$ 0,10, RTP 90.01 %) and names the minimum stake', () => {
    const bet: DiceBet = { direction: 'under', target: 9_001 };
    expect(Number(diceReturn(10n, bet).num) / Number(diceReturn(10n, bet).den)).toBeCloseTo(0.9001, 6);
    const check = checkStake(10n, { game: 'dice', bet });
    expect(check).toEqual({
      ok: false,
      code: 'STAKE_TOO_SMALL_FOR_TARGET',
      minAnyMinor: 892n,
      stepMinor: null,
    });
    expect(checkStake(892n, { game: 'dice', bet })).toEqual({ ok: true });
    expect(within(diceReturn(891n, bet), NINETY_NINE)).toBe(false);
  });

  it('takes any stake at ×2 (49.50 %), and multiples of R$ 0,50 at 50 %', () => {
    expect(smallestStakeOf({ game: 'dice', bet: { direction: 'under', target: 4_950 } })).toBe(10n);
    expect(stakeRuleOf({ game: 'dice', bet: { direction: 'over', target: 4_999 } })).toEqual({
      minAnyMinor: 455n,
      stepMinor: 50n,
    });
  });

  it('pays every accepted bet within 0.1 pp of 99 % — every win chance, every stake to R$ 11', () => {
    for (let wins = 100; wins <= 9_800; wins++) {
      const bet: DiceBet = { direction: 'under', target: wins };
      const choice = { game: 'dice' as const, bet };
      const rule = stakeRuleOf(choice);
      for (let s = 10; s <= 1_100; s++) {
        // Exact in doubles (all below 2^53): expected payout × 10,000 = wins × floor(9,900 s / wins).
        const expected = wins * Math.floor((9_900 * s) / wins);
        const fair = Math.abs(expected - 9_900 * s) <= 10 * s;
        const accepted =
          s >= rule.minAnyMinor || (rule.stepMinor !== null && BigInt(s) % rule.stepMinor === 0n);
        if (accepted && !fair)
          throw new Error(`dice ${wins} wins at ${s} accepted but pays ${expected / s / 10_000}`);
      }
      // The rule is the smallest of its kind: the stake just below it misses the RTP.
      if (rule.minAnyMinor > DICE_LIMITS.minBetMinor) {
        expect(within(diceReturn(rule.minAnyMinor - 1n, bet), NINETY_NINE)).toBe(false);
      }
    }
  });

  it('accepts or refuses with the right code across the whole range, both directions (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'under' | 'over'>('under', 'over'),
        fc.integer({ min: 100, max: 9_800 }),
        fc.oneof(anyStake(DICE_LIMITS), fc.bigInt({ min: 0n, max: 600_000n })),
        (direction, wins, stakeMinor) => {
          const bet: DiceBet = { direction, target: direction === 'under' ? wins : 9_999 - wins };
          const choice: TStakeChoice = { game: 'dice', bet };
          const check = checkStake(stakeMinor, choice);
          if (check.ok) expectFair(diceReturn(stakeMinor, bet), NINETY_NINE, { bet, stakeMinor });
          expectRightRefusal(check, stakeMinor, choice, DICE_LIMITS);
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

function limboReturn(stakeMinor: bigint, target: number): Multiplier {
  const p = limboWinProbability(target);
  const pays = payoutMinor(stakeMinor, ratio(BigInt(target), 100n), LIMBO_LIMITS.maxWinMinor);
  return returnOf(stakeMinor, [{ weight: ratio(p.num, p.den), pays }]);
}

describe('limbo', () => {
  it('refuses R$ 0,10 at 1.09× (it would pay R$ 0,10) with the minimum stake and its step', () => {
    expect(Number(limboReturn(10n, 109).num) / Number(limboReturn(10n, 109).den)).toBeCloseTo(0.9083, 3);
    expect(checkStake(10n, { game: 'limbo', targetHundredths: 109 })).toEqual({
      ok: false,
      code: 'STAKE_TOO_SMALL_FOR_TARGET',
      minAnyMinor: 856n,
      stepMinor: 100n,
    });
    expect(checkStake(100n, { game: 'limbo', targetHundredths: 109 })).toEqual({ ok: true });
  });

  it('refuses R$ 500,00 at 1,000,000× (the cap pays at most 1,000× of it) and names the highest target', () => {
    expect(checkStake(50_000n, { game: 'limbo', targetHundredths: 100_000_000 })).toEqual({
      ok: false,
      code: 'TARGET_ABOVE_CAP',
      maxTargetHundredths: 100_000,
      maxWinMinor: 50_000_000n,
    });
    expect(checkStake(50_000n, { game: 'limbo', targetHundredths: 100_000 })).toEqual({ ok: true });
    expect(checkStake(50_000n, { game: 'limbo', targetHundredths: 100_001 }).ok).toBe(false);
    // At R$ 0,50 the top target's win is exactly the cap.
    expect(checkStake(50n, { game: 'limbo', targetHundredths: 100_000_000 })).toEqual({ ok: true });
  });

  it('pays every accepted bet within 0.1 pp of 99 % — every target to 3×, every stake to R$ 11', () => {
    for (let target = 101; target <= 300; target++) {
      const choice: TStakeChoice = { game: 'limbo', targetHundredths: target };
      for (const s of lowStakes(LIMBO_LIMITS)) {
        const check = checkStake(s, choice);
        if (check.ok) expectFair(limboReturn(s, target), NINETY_NINE, { target, s });
        expectRightRefusal(check, s, choice, LIMBO_LIMITS);
      }
      const { minAnyMinor } = stakeRuleOf(choice);
      if (minAnyMinor > LIMBO_LIMITS.minBetMinor) {
        expect(within(limboReturn(minAnyMinor - 1n, target), NINETY_NINE)).toBe(false);
      }
    }
  });

  it('accepts or refuses with the right code for any target and stake (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 101, max: 20_000 }),
          fc.integer({ min: 101, max: LIMBO_MAX_TARGET_HUNDREDTHS }),
          fc.constant(LIMBO_MAX_TARGET_HUNDREDTHS),
        ),
        anyStake(LIMBO_LIMITS),
        (target, stakeMinor) => {
          const choice: TStakeChoice = { game: 'limbo', targetHundredths: target };
          const check = checkStake(stakeMinor, choice);
          const aboveCap = stakeMinor * BigInt(target) > 100n * LIMBO_LIMITS.maxWinMinor;
          if (check.ok) {
            expect(aboveCap).toBe(false);
            expectFair(limboReturn(stakeMinor, target), NINETY_NINE, { target, stakeMinor });
          }
          expectRightRefusal(check, stakeMinor, choice, LIMBO_LIMITS, aboveCap);
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

/** Crash: cashing out at T (by hand or automatically) pays floor(stake × T/100) when the crash is ≥ T. */
function crashReturn(stakeMinor: bigint, target: number): Multiplier {
  const p = crashWinProbability(target);
  const pays = payoutMinor(stakeMinor, ratio(BigInt(target), 100n), CRASH_LIMITS.maxWinMinor);
  return returnOf(stakeMinor, [{ weight: ratio(p.num, p.den), pays }]);
}

describe('crash', () => {
  const choice: TStakeChoice = { game: 'crash', autoCashOutHundredths: null };

  it('takes whole reais, or any stake from R$ 9,50: every cash-out point then pays 99 % ± 0.1 pp', () => {
    expect(stakeRuleOf(choice)).toEqual({ minAnyMinor: 950n, stepMinor: 100n });
    expect(checkStake(10n, choice).ok).toBe(false);
    expect(checkStake(100n, choice).ok).toBe(true);
    // The whole reais pay exactly at every point where rounding could matter…
    for (let s = 100n; s < 950n; s += 100n) {
      for (let target = 101; target <= 9_900; target++)
        expectFair(crashReturn(s, target), NINETY_NINE, { s, target });
    }
    // …and so does every stake from the minimum, at the cash-out points that can miss.
    for (const s of stakes(950n, 1_100n)) {
      for (let target = 101; target <= 2_000; target++)
        expectFair(crashReturn(s, target), NINETY_NINE, { s, target });
    }
    // R$ 9,49 at 1.02× pays R$ 9,67 of 9.6798: 0.12 pp short.
    expect(within(crashReturn(949n, 102), NINETY_NINE)).toBe(false);
  });

  it('cashes a bet out where its win reaches the cap, and refuses an auto cash-out above it', () => {
    // R$ 5.000 reaches the R$ 1.000.000 cap at 200×: the bet is cashed out there, paid in full.
    expect(crashCapCashOut(500_000n)).toBe(20_000);
    expect(payoutMinor(500_000n, ratio(20_000n, 100n), CRASH_LIMITS.maxWinMinor)).toBe(
      CRASH_LIMITS.maxWinMinor,
    );
    expect(crashCapCashOut(100n)).toBeNull();
    expect(checkStake(500_000n, { game: 'crash', autoCashOutHundredths: 20_001 })).toEqual({
      ok: false,
      code: 'TARGET_ABOVE_CAP',
      maxTargetHundredths: 20_000,
      maxWinMinor: CRASH_LIMITS.maxWinMinor,
    });
  });

  it('accepts or refuses with the right code for any stake and cash-out point (property)', () => {
    fc.assert(
      fc.property(
        anyStake(CRASH_LIMITS),
        fc.oneof(fc.integer({ min: 101, max: 3_000 }), fc.integer({ min: 101, max: CRASH_MAX_HUNDREDTHS })),
        fc.boolean(),
        (stakeMinor, target, auto) => {
          const bet: TStakeChoice = { game: 'crash', autoCashOutHundredths: auto ? target : null };
          const check = checkStake(stakeMinor, bet);
          const cap = crashCapCashOut(stakeMinor);
          const aboveCap = cap !== null && target > cap;
          if (check.ok) {
            // Cashing out at T, or at the cap's point when T is past it.
            expectFair(crashReturn(stakeMinor, aboveCap ? cap! : target), NINETY_NINE, {
              stakeMinor,
              target,
            });
          }
          expectRightRefusal(check, stakeMinor, bet, CRASH_LIMITS, auto && aboveCap);
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

/** A stepped game's cash-out state: reached with probability `reach`, it pays floor(stake × M). */
function stateReturnOf(stakeMinor: bigint, multiplier: Multiplier, reach: Multiplier, capMinor: bigint) {
  return returnOf(stakeMinor, [{ weight: reach, pays: payoutMinor(stakeMinor, multiplier, capMinor) }]);
}

describe('hi-lo', () => {
  const choice: TStakeChoice = { game: 'hilo' };
  const cap = HILO_LIMITS.maxWinMinor;

  it('refuses R$ 0,10: a call that cannot lose, then cash-out, would pay R$ 0,09', () => {
    const sure = hiloStepMultiplier(1, 'higher');
    expect(sure).toEqual(ratio(1n, 1n));
    expect(payoutMinor(10n, hiloCashOutMultiplier(sure), cap)).toBe(9n);
    // No Hi-Lo stake below R$ 9,10 pays every cash-out fairly, so that is the game's minimum bet.
    expect(stakeRuleOf(choice)).toEqual({ minAnyMinor: 910n, stepMinor: null });
    expect(checkStake(10n, choice)).toEqual({
      ok: false,
      code: 'BET_OUT_OF_RANGE',
      minMinor: 910n,
      maxMinor: 500_000n,
    });
    // R$ 9,09: the same cash-out pays R$ 8,99 of 8.9991, 0.1009 pp short; R$ 9,10 pays R$ 9,00 of 9.009.
    expect(within(stateReturnOf(909n, hiloCashOutMultiplier(sure), ratio(1n, 1n), cap), NINETY_NINE)).toBe(
      false,
    );
    expect(checkStake(910n, choice)).toEqual({ ok: true });
  });

  it('pays every cash-out state within 0.1 pp at every stake from R$ 9,10 to R$ 11 (all states that can miss)', () => {
    for (const s of stakes(910n, 1_100n)) {
      // States reached with chance ≤ s/1000 cannot miss (the floor takes under a centavo): walk the rest.
      const seen = new Set<string>(['1/1']);
      const queue: Multiplier[] = [ratio(1n, 1n)];
      while (queue.length > 0) {
        const fair = queue.pop()!;
        expectFair(
          stateReturnOf(s, hiloCashOutMultiplier(fair), ratio(fair.den, fair.num), cap),
          NINETY_NINE,
          {
            s,
            fair,
          },
        );
        for (let rank = 2; rank <= 13; rank++) {
          const next = multiply(fair, hiloStepMultiplier(rank, 'higher'));
          if (next.num * s >= next.den * 1_000n || seen.has(`${next.num}/${next.den}`)) continue;
          seen.add(`${next.num}/${next.den}`);
          queue.push(next);
        }
      }
    }
  });

  it('pays every reachable cash-out within 0.1 pp for random stakes and calls; past the cap a state is unreachable (property)', () => {
    fc.assert(
      fc.property(
        anyStake(HILO_LIMITS),
        fc.array(
          fc.record({
            rank: fc.integer({ min: 1, max: 13 }),
            call: fc.constantFrom<'higher' | 'lower'>('higher', 'lower'),
          }),
          {
            minLength: 1,
            maxLength: 100,
          },
        ),
        (stakeMinor, calls) => {
          const check = checkStake(stakeMinor, choice);
          expectRightRefusal(check, stakeMinor, choice, HILO_LIMITS);
          if (!check.ok) return;
          let fair: Multiplier = ratio(1n, 1n);
          for (const { rank, call } of calls) {
            const next = multiply(fair, hiloStepMultiplier(rank, call));
            // The server refuses a call whose win would pass the cap.
            if (!fitsUnderCap(stakeMinor, hiloCashOutMultiplier(next), cap)) break;
            fair = next;
            expectFair(
              stateReturnOf(stakeMinor, hiloCashOutMultiplier(fair), ratio(fair.den, fair.num), cap),
              NINETY_NINE,
              {
                stakeMinor,
                fair,
              },
            );
          }
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

describe('mines', () => {
  const cap = MINES_LIMITS.maxWinMinor;

  it('pays every cash-out state within 0.1 pp for every mine count, every stake to R$ 11, and refuses the rest', () => {
    for (let mines = MINES_MIN; mines <= MINES_MAX; mines++) {
      const choice: TStakeChoice = { game: 'mines', mines };
      const rule = stakeRuleOf(choice);
      for (const s of lowStakes(MINES_LIMITS)) {
        const check = checkStake(s, choice);
        expectRightRefusal(check, s, choice, MINES_LIMITS);
        if (!check.ok) continue;
        for (let picks = 1; picks <= 25 - mines; picks++) {
          const m = minesMultiplier(mines, picks);
          if (!fitsUnderCap(s, m, cap)) continue;
          const reach = ratio(binomial(25 - mines, picks), binomial(25, picks));
          expectFair(stateReturnOf(s, m, reach, cap), NINETY_NINE, { mines, s, picks });
        }
      }
      if (rule.minAnyMinor > MINES_LIMITS.minBetMinor) {
        const s = rule.minAnyMinor - 1n;
        const missed = Array.from({ length: 25 - mines }, (_, i) => i + 1).some((picks) => {
          const m = minesMultiplier(mines, picks);
          const reach = ratio(binomial(25 - mines, picks), binomial(25, picks));
          return fitsUnderCap(s, m, cap) && !within(stateReturnOf(s, m, reach, cap), NINETY_NINE);
        });
        expect(missed).toBe(true);
      }
    }
  });

  it('at R$ 1,00 with 3 mines would pay R$ 1,12 for a 1.125× first tile, so it is refused', () => {
    expect(payoutMinor(100n, minesMultiplier(3, 1), cap)).toBe(112n);
    expect(checkStake(100n, { game: 'mines', mines: 3 })).toMatchObject({
      code: 'STAKE_TOO_SMALL_FOR_TARGET',
    });
  });

  it('accepts or refuses with the right code across the whole range (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MINES_MIN, max: MINES_MAX }),
        anyStake(MINES_LIMITS),
        (mines, stakeMinor) => {
          const choice: TStakeChoice = { game: 'mines', mines };
          const check = checkStake(stakeMinor, choice);
          expectRightRefusal(check, stakeMinor, choice, MINES_LIMITS);
          if (!check.ok) return;
          for (let picks = 1; picks <= 25 - mines; picks++) {
            const m = minesMultiplier(mines, picks);
            if (!fitsUnderCap(stakeMinor, m, cap)) break;
            const reach = ratio(binomial(25 - mines, picks), binomial(25, picks));
            expectFair(stateReturnOf(stakeMinor, m, reach, cap), NINETY_NINE, { mines, stakeMinor, picks });
          }
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Paytable games: plinko, keno, bingo, slot, roulette

function tableReturn(
  stakeMinor: bigint,
  weights: Multiplier[],
  hundredths: readonly number[],
  capMinor: bigint,
) {
  return returnOf(
    stakeMinor,
    weights.map((weight, i) => ({
      weight,
      pays: payoutMinor(stakeMinor, fromHundredths(hundredths[i]!), capMinor),
    })),
  );
}

function tableShown(weights: Multiplier[], hundredths: readonly number[]): Multiplier {
  let num = 0n;
  let den = 1n;
  weights.forEach((w, i) => {
    num = num * w.den + w.num * BigInt(hundredths[i]!) * den;
    den *= w.den;
  });
  return ratio(num, den * 100n);
}

function expectPaytableGame(
  choice: TStakeChoice,
  limits: BetLimits,
  weights: Multiplier[],
  hundredths: readonly number[],
  published: number,
) {
  const shown = tableShown(weights, hundredths);
  expect(Math.abs(Number(shown.num) / Number(shown.den) - published)).toBeLessThan(1e-12);
  // The cap never cuts a win short at these limits.
  expect(limits.maxBetMinor * BigInt(Math.max(...hundredths))).toBeLessThanOrEqual(limits.maxWinMinor * 100n);
  for (const s of lowStakes(limits)) {
    const check = checkStake(s, choice);
    if (check.ok) expectFair(tableReturn(s, weights, hundredths, limits.maxWinMinor), shown, { choice, s });
    expectRightRefusal(check, s, choice, limits);
  }
  const rule = stakeRuleOf(choice);
  if (rule.minAnyMinor > limits.minBetMinor) {
    expect(within(tableReturn(rule.minAnyMinor - 1n, weights, hundredths, limits.maxWinMinor), shown)).toBe(
      false,
    );
  }
  fc.assert(
    fc.property(anyStake(limits), (s) => {
      const check = checkStake(s, choice);
      if (check.ok) expectFair(tableReturn(s, weights, hundredths, limits.maxWinMinor), shown, { choice, s });
      expectRightRefusal(check, s, choice, limits);
    }),
    { numRuns: 300 },
  );
}

describe('paytable games', () => {
  it('plinko: every rows × risk, every stake (multiples of R$ 0,10 always pay exactly)', () => {
    for (const risk of PLINKO_RISKS) {
      for (let rows = 8; rows <= 16; rows++) {
        const table = PLINKO_PAYTABLES[risk][rows]!;
        const weights = table.hundredths.map((_, k) => ratio(binomial(rows, k), 1n << BigInt(rows)));
        expectPaytableGame(
          { game: 'plinko', rows, risk },
          PLINKO_LIMITS,
          weights,
          table.hundredths,
          table.rtp,
        );
        expect(smallestStakeOf({ game: 'plinko', rows, risk })).toBe(10n);
      }
    }
  });

  it('keno: every number of picks, every stake', () => {
    for (let picks = 1; picks <= 10; picks++) {
      const table = KENO_PAYTABLES[picks]!;
      const weights = table.hundredths.map((_, hits) =>
        ratio(binomial(picks, hits) * binomial(40 - picks, 10 - hits), binomial(40, 10)),
      );
      expectPaytableGame({ game: 'keno', picks }, KENO_LIMITS, weights, table.hundredths, table.rtp);
    }
  });

  it('bingo: every stake (a line within 42 balls pays, 0.15× included)', () => {
    const within = BINGO_PAYTABLE.map((row) => bingoLineWithinBalls(row.maxBalls));
    const weights = within.map((p, i) => {
      const previous = i === 0 ? { num: 0n, den: 1n } : within[i - 1]!;
      return ratio(p.num * previous.den - previous.num * p.den, p.den * previous.den);
    });
    expectPaytableGame(
      { game: 'bingo' },
      BINGO_LIMITS,
      weights,
      BINGO_PAYTABLE.map((r) => r.hundredths),
      BINGO_RTP,
    );
    expect(checkStake(10n, { game: 'bingo' }).ok).toBe(false);
    expect(checkStake(20n, { game: 'bingo' }).ok).toBe(true);
  });

  it('slot: SLOT_STAKE_RULE holds over all 20⁵ reel stops and is the smallest such rule', () => {
    const counts = new Map<number, bigint>();
    const grid = new Uint8Array(15);
    const stops = [0, 0, 0, 0, 0];
    for (stops[0] = 0; stops[0] < SLOT_STRIP_LENGTH; stops[0]++)
      for (stops[1] = 0; stops[1] < SLOT_STRIP_LENGTH; stops[1]++)
        for (stops[2] = 0; stops[2] < SLOT_STRIP_LENGTH; stops[2]++)
          for (stops[3] = 0; stops[3] < SLOT_STRIP_LENGTH; stops[3]++)
            for (stops[4] = 0; stops[4] < SLOT_STRIP_LENGTH; stops[4]++) {
              fillGrid(stops, grid);
              const pay = gridPayInLineBets(grid);
              counts.set(pay, (counts.get(pay) ?? 0n) + 1n);
            }
    const total = BigInt(SLOT_STRIP_LENGTH ** 5);
    const lines = BigInt(SLOT_PAYLINES.length);
    const shown = ratio(310_913n, 320_000n);
    expect(Number(shown.num) / Number(shown.den)).toBe(SLOT_RTP);
    const slotReturn = (s: bigint) =>
      returnOf(
        s,
        [...counts].map(([pay, count]) => ({
          weight: ratio(count, total),
          pays: payoutMinor(s, ratio(BigInt(pay), lines), SLOT_LIMITS.maxWinMinor),
        })),
      );
    const choice: TStakeChoice = { game: 'slot' };
    for (const s of lowStakes(SLOT_LIMITS)) {
      const check = checkStake(s, choice);
      if (check.ok) expectFair(slotReturn(s), shown, { s });
      expectRightRefusal(check, s, choice, SLOT_LIMITS);
    }
    expect(within(slotReturn(SLOT_STAKE_RULE.minAnyMinor - 1n), shown)).toBe(false);
    fc.assert(
      fc.property(anyStake(SLOT_LIMITS), (s) => {
        if (checkStake(s, choice).ok) expectFair(slotReturn(s), shown, { s });
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('roulette: every bet pays whole centavos at any stake, so every stake is accepted', () => {
    const bets: RouletteBet[] = [
      { type: 'straight', numbers: [7], stakeMinor: 1n },
      { type: 'split', numbers: [1, 2], stakeMinor: 1n },
      { type: 'street', numbers: [1], stakeMinor: 1n },
      { type: 'trio', numbers: [1], stakeMinor: 1n },
      { type: 'corner', numbers: [1], stakeMinor: 1n },
      { type: 'first_four', numbers: [], stakeMinor: 1n },
      { type: 'line', numbers: [1], stakeMinor: 1n },
      { type: 'dozen', numbers: [1], stakeMinor: 1n },
      { type: 'red', numbers: [], stakeMinor: 1n },
    ];
    fc.assert(
      fc.property(fc.constantFrom(...bets), anyStake(ROULETTE_LIMITS), (bet, s) => {
        const m = rouletteMultiplier(bet);
        expect(m.den).toBe(1n);
        const covered = 36n / m.num;
        const actual = returnOf(s, [
          { weight: ratio(covered, 37n), pays: payoutMinor(s, m, ROULETTE_LIMITS.maxWinMinor) },
        ]);
        expect(checkStake(s, { game: 'roulette' })).toEqual({ ok: true });
        expectFair(actual, ratio(36n, 37n), { bet, s });
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('the minimum bet each game shows', () => {
  it('is the smallest stake it accepts for some choice', () => {
    const smallest = (choices: TStakeChoice[]) =>
      choices.map(smallestStakeOf).reduce((a, b) => (b < a ? b : a));
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const byGame: Record<string, TStakeChoice[]> = {
      dice: range(100, 9_800).map((target) => ({ game: 'dice', bet: { direction: 'under', target } })),
      limbo: range(101, 2_000).map((targetHundredths) => ({ game: 'limbo', targetHundredths })),
      crash: [{ game: 'crash', autoCashOutHundredths: null }],
      mines: range(MINES_MIN, MINES_MAX).map((mines) => ({ game: 'mines', mines })),
      hilo: [{ game: 'hilo' }],
      plinko: PLINKO_RISKS.flatMap((risk) =>
        range(8, 16).map((rows) => ({ game: 'plinko' as const, rows, risk })),
      ),
      keno: range(1, 10).map((picks) => ({ game: 'keno', picks })),
      roulette: [{ game: 'roulette' }],
      slot: [{ game: 'slot' }],
      bingo: [{ game: 'bingo' }],
    };
    const limits: Record<string, BetLimits> = {
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
    for (const [game, choices] of Object.entries(byGame)) {
      expect(smallest(choices), game).toBe(limits[game]!.minBetMinor);
    }
    expect(HILO_LIMITS.minBetMinor).toBe(910n);
    expect(CRASH_LIMITS.minBetMinor).toBe(100n);
    expect(MINES_LIMITS.minBetMinor).toBe(12n);
    expect(BINGO_LIMITS.minBetMinor).toBe(20n);
  });
});

describe('the stake to offer instead', () => {
  it('is the next stake the rule accepts: a multiple of the step, else the minimum', () => {
    const fifty: TStakeChoice = { game: 'dice', bet: { direction: 'under', target: 5_000 } };
    expect(nextAcceptedStake(10n, fifty)).toBe(50n);
    expect(nextAcceptedStake(420n, fifty)).toBe(450n);
    expect(nextAcceptedStake(451n, fifty)).toBe(455n);
    expect(nextAcceptedStake(600n, fifty)).toBe(600n);
    expect(nextAcceptedStake(10n, { game: 'hilo' })).toBe(910n);
    expect(nextAcceptedStake(1n, { game: 'slot' })).toBe(20n);
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 9_800 }), fc.bigInt({ min: 1n, max: 600_000n }), (wins, s) => {
        const choice: TStakeChoice = { game: 'dice', bet: { direction: 'under', target: wins } };
        const next = nextAcceptedStake(s, choice);
        if (next === null) return;
        expect(checkStake(next, choice)).toEqual({ ok: true });
        for (let below = next - 1n; below >= s && below >= next - 50n && below >= 10n; below--) {
          expect(checkStake(below, choice).ok).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('invalid choices', () => {
  it('are refused as the game refuses them (INVALID_BET), never given a rule', () => {
    expect(() => stakeRuleOf({ game: 'dice', bet: { direction: 'under', target: 99 } })).toThrow(
      /dice target/,
    );
    expect(() => stakeRuleOf({ game: 'limbo', targetHundredths: 100 })).toThrow(/limbo target/);
    expect(() => stakeRuleOf({ game: 'mines', mines: 25 })).toThrow(/mines/);
    expect(() => stakeRuleOf({ game: 'keno', picks: 11 })).toThrow(/Pick 1 to 10/);
    expect(() => stakeRuleOf({ game: 'keno', picks: 1e9 })).toThrow(/Pick 1 to 10/);
    expect(() => stakeRuleOf({ game: 'plinko', rows: 7, risk: 'low' })).toThrow(/Plinko/);
    expect(() => checkStake(100n, { game: 'crash', autoCashOutHundredths: 100 })).toThrow(/target/);
  });
});
