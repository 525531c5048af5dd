import {
  BINGO_BALLS,
  BINGO_RTP,
  bingoFirstLineDistribution,
  CRASH_RTP,
  crashPointHundredths,
  crashWinProbability,
  DICE_RTP,
  dropPlinko,
  type FloatSource,
  getPlinkoPaytable,
  HILO_RTP,
  type HiloCall,
  KENO_PAYTABLES,
  LIMBO_RTP,
  limboWinProbability,
  MINES_RTP,
  type Multiplier,
  PLINKO_MAX_ROWS,
  PLINKO_MIN_ROWS,
  PLINKO_RISKS,
  placeMines,
  playBingo,
  playDice,
  playHilo,
  playKeno,
  playLimbo,
  playRoulette,
  ROULETTE_POCKETS,
  ROULETTE_RTP,
  type RouletteBet,
  SLOT_RTP,
  settleMines,
  settleRoulette,
  spinSlot,
  toNumber,
} from '@sorte/fairness';
import {
  add,
  bingoRtp,
  diceRtp,
  hiloRtp,
  kenoProbabilities,
  kenoRtp,
  minesBestRtp,
  minesRtp,
  plinkoRtp,
  thresholdRtp,
  toDouble,
} from './exact.ts';

/**
 * Every game and mode the pack certifies. A mode plays one round from the game's own code (the
 * same functions the server settles with) and reports the outcome bin (for χ², runs and serial
 * tests) and the payout as a multiple of the stake (for the RTP). `probabilities` are the exact
 * outcome distribution; `exactRtp` is the enumerated return, `declaredRtp` what the game shows.
 */
export interface GameMode {
  id: string;
  game: string;
  mode: string;
  probabilities: number[];
  declaredRtp: number;
  exactRtp: number;
  /** For games with choices: the best strategy's exact RTP and what it is. */
  best?: { rtp: number; strategy: string };
  /** Seeded games draw from the bet's float stream; crash from a round hash of the chain. */
  source: 'seeded' | 'chain';
  /** Seeded modes get a function that opens the bet's float stream (from its start each call). */
  play: (input: (() => FloatSource) | string) => [bin: number, payout: number];
}

const pay = (m: Multiplier) => toNumber(m);
const seeded = (f: (next: FloatSource) => [number, number]) => (input: (() => FloatSource) | string) =>
  f((input as () => FloatSource)());

function diceModes(): GameMode[] {
  const bets = [
    { direction: 'under', target: 100 },
    { direction: 'under', target: 5000 },
    { direction: 'over', target: 5000 },
    { direction: 'under', target: 9800 },
  ] as const;
  return bets.map((bet) => ({
    id: `dice:${bet.direction}-${bet.target}`,
    game: 'dice',
    mode: `${bet.direction} ${(bet.target / 100).toFixed(2)}`,
    probabilities: new Array<number>(100).fill(0.01),
    declaredRtp: DICE_RTP,
    exactRtp: toDouble(diceRtp(bet.direction === 'under' ? bet.target : 9999 - bet.target)),
    source: 'seeded',
    play: seeded((next) => {
      const r = playDice(bet, next);
      return [Math.floor(r.roll / 100), pay(r.multiplier)];
    }),
  }));
}

/** Result bins for limbo and crash: below 1.01×, then each threshold up (hundredths). */
const THRESHOLDS = [101, 150, 200, 300, 500, 1000, 2000, 10_000, 100_000];
const binOf = (hundredths: number) => THRESHOLDS.filter((t) => hundredths >= t).length;

function thresholdProbabilities(p: (t: number) => { num: bigint; den: bigint }): number[] {
  const atLeast = THRESHOLDS.map((t) => toDouble(p(t)));
  return [1 - atLeast[0]!, ...atLeast.map((q, i) => q - (atLeast[i + 1] ?? 0))];
}

function limboModes(): GameMode[] {
  return [101, 200, 1000, 1_000_000].map((target) => ({
    id: `limbo:${target}`,
    game: 'limbo',
    mode: `target ${(target / 100).toFixed(2)}×`,
    probabilities: thresholdProbabilities(limboWinProbability),
    declaredRtp: LIMBO_RTP,
    exactRtp: toDouble(thresholdRtp('limbo', target)),
    source: 'seeded',
    play: seeded((next) => {
      const r = playLimbo(target, next);
      return [binOf(r.resultHundredths), pay(r.multiplier)];
    }),
  }));
}

function crashModes(): GameMode[] {
  const salt = 'sorte-certify-crash-salt';
  return [101, 200, 1000, 10_000].map((target) => ({
    id: `crash:${target}`,
    game: 'crash',
    mode: `cash out ${(target / 100).toFixed(2)}×`,
    probabilities: thresholdProbabilities(crashWinProbability),
    declaredRtp: CRASH_RTP,
    exactRtp: toDouble(thresholdRtp('crash', target)),
    source: 'chain',
    play: (input) => {
      const point = crashPointHundredths(input as string, salt);
      return [binOf(point), point >= target ? target / 100 : 0];
    },
  }));
}

function minesModes(): GameMode[] {
  const plans = [
    [1, 5],
    [3, 3],
    [5, 2],
    [10, 1],
    [24, 1],
  ] as const;
  return plans.map(([mines, picks]) => {
    const best = minesBestRtp(mines);
    const tiles = Array.from({ length: picks }, (_, i) => i);
    return {
      id: `mines:${mines}-${picks}`,
      game: 'mines',
      mode: `${mines} mines, cash out after ${picks}`,
      probabilities: new Array<number>(25).fill(1 / 25),
      declaredRtp: MINES_RTP,
      exactRtp: toDouble(minesRtp(mines, picks)),
      best: { rtp: toDouble(best.rtp), strategy: `cash out after ${best.picks} (every k gives the same)` },
      source: 'seeded',
      play: seeded((next) => {
        const placed = placeMines(mines, next);
        return [placed[0]!, pay(settleMines(placed, tiles).multiplier)];
      }),
    } satisfies GameMode;
  });
}

function plinkoModes(): GameMode[] {
  const modes: GameMode[] = [];
  for (const risk of PLINKO_RISKS) {
    for (let rows = PLINKO_MIN_ROWS; rows <= PLINKO_MAX_ROWS; rows++) {
      const table = getPlinkoPaytable(rows, risk);
      modes.push({
        id: `plinko:${rows}-${risk}`,
        game: 'plinko',
        mode: `${rows} rows, ${risk}`,
        probabilities: Array.from({ length: rows + 1 }, (_, s) => binomialP(rows, s)),
        declaredRtp: table.rtp,
        exactRtp: toDouble(plinkoRtp(rows, table.hundredths)),
        source: 'seeded',
        play: seeded((next) => {
          const r = dropPlinko(rows, risk, next);
          return [r.slot, pay(r.multiplier)];
        }),
      });
    }
  }
  return modes;
}

function binomialP(n: number, k: number): number {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return c / 2 ** n;
}

function kenoModes(): GameMode[] {
  return Object.keys(KENO_PAYTABLES).map((key) => {
    const count = Number(key);
    const picks = Array.from({ length: count }, (_, i) => i * 4 + 1);
    return {
      id: `keno:${count}`,
      game: 'keno',
      mode: `${count} picks`,
      probabilities: kenoProbabilities(count).map(toDouble),
      declaredRtp: KENO_PAYTABLES[count]!.rtp,
      exactRtp: toDouble(kenoRtp(count)),
      source: 'seeded',
      play: seeded((next) => {
        const r = playKeno(picks, next);
        return [r.hits.length, pay(r.multiplier)];
      }),
    } satisfies GameMode;
  });
}

function rouletteModes(): GameMode[] {
  const bets: RouletteBet[] = [
    { type: 'straight', numbers: [17], stakeMinor: 100n },
    { type: 'split', numbers: [0, 2], stakeMinor: 100n },
    { type: 'corner', numbers: [1], stakeMinor: 100n },
    { type: 'dozen', numbers: [2], stakeMinor: 100n },
    { type: 'column', numbers: [3], stakeMinor: 100n },
    { type: 'red', numbers: [], stakeMinor: 100n },
    { type: 'odd', numbers: [], stakeMinor: 100n },
  ];
  return bets.map((bet) => {
    let exact: Multiplier = { num: 0n, den: 1n };
    for (let pocket = 0; pocket < ROULETTE_POCKETS; pocket++) {
      exact = add(exact, settleRoulette([bet], pocket)[0]!.multiplier);
    }
    return {
      id: `roulette:${bet.type}-${bet.numbers.join('.')}`,
      game: 'roulette',
      mode: `${bet.type} ${bet.numbers.join(' ')}`.trim(),
      probabilities: new Array<number>(ROULETTE_POCKETS).fill(1 / ROULETTE_POCKETS),
      declaredRtp: ROULETTE_RTP,
      exactRtp: toDouble({ num: exact.num, den: exact.den * BigInt(ROULETTE_POCKETS) }),
      source: 'seeded',
      play: seeded((next) => {
        const r = playRoulette([bet], next);
        return [r.pocket, pay(r.results[0]!.multiplier)];
      }),
    } satisfies GameMode;
  });
}

/** Hi-Lo strategies: call the likelier side (or always "higher"), cash out after k correct calls. */
function hiloModes(): GameMode[] {
  const likelier = (rank: number) => (rank <= 7 ? 'higher' : 'lower');
  const plans = [
    { name: 'likelier side', calls: 1, choose: likelier },
    { name: 'likelier side', calls: 3, choose: likelier },
    { name: 'likelier side', calls: 10, choose: likelier },
    { name: 'always higher', calls: 2, choose: () => 'higher' as const },
  ];
  const best = Math.max(...[1, 2, 3, 5, 10].map((k) => toDouble(hiloRtp(k, likelier))));
  return plans.map((plan) => ({
    id: `hilo:${plan.name.replace(' ', '-')}-${plan.calls}`,
    game: 'hilo',
    mode: `${plan.name}, cash out after ${plan.calls}`,
    probabilities: new Array<number>(52).fill(1 / 52),
    declaredRtp: HILO_RTP,
    exactRtp: toDouble(hiloRtp(plan.calls, plan.choose)),
    best: { rtp: best, strategy: 'likelier side, any cash-out point 1–10 (a fair martingale: all equal)' },
    source: 'seeded',
    play: (input) => {
      // The calls depend on the cards, so the round is replayed call by call as the server does.
      const stream = input as () => FloatSource;
      const calls: HiloCall[] = [];
      let round = playHilo(calls, stream());
      for (let i = 0; i < plan.calls && !round.lost; i++) {
        calls.push(plan.choose(round.steps.at(-1)?.card.rank ?? round.start.rank));
        round = playHilo(calls, stream());
      }
      return [round.start.index, round.lost ? 0 : pay(round.multiplier)];
    },
  }));
}

function singleModes(): GameMode[] {
  const slot: GameMode = {
    id: 'slot:20-lines',
    game: 'slot',
    mode: '20 lines',
    probabilities: new Array<number>(20).fill(1 / 20),
    declaredRtp: SLOT_RTP,
    // Filled in by the enumeration part (20⁵ stops); the fairness tests prove it too.
    exactRtp: Number.NaN,
    source: 'seeded',
    play: seeded((next) => {
      const r = spinSlot(next);
      return [r.stops[0]!, pay(r.multiplier)];
    }),
  };
  const distribution = bingoFirstLineDistribution();
  const bingo: GameMode = {
    id: 'bingo:one-card',
    game: 'bingo',
    mode: 'one card, first line',
    probabilities: distribution.slice(0, BINGO_BALLS + 1),
    declaredRtp: BINGO_RTP,
    exactRtp: bingoRtp(),
    source: 'seeded',
    play: seeded((next) => {
      const r = playBingo(next);
      return [r.balls.length, pay(r.multiplier)];
    }),
  };
  return [slot, bingo];
}

export const GAME_MODES: readonly GameMode[] = [
  ...crashModes(),
  ...diceModes(),
  ...limboModes(),
  ...minesModes(),
  ...plinkoModes(),
  ...kenoModes(),
  ...rouletteModes(),
  ...singleModes(),
  ...hiloModes(),
];

export function modeById(id: string): GameMode {
  const mode = GAME_MODES.find((m) => m.id === id);
  if (!mode) throw new Error(`No certified mode ${id}`);
  return mode;
}
