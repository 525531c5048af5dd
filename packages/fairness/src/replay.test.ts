import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { playBingo } from './games/bingo.ts';
import { playDice } from './games/dice.ts';
import { playHilo } from './games/hilo.ts';
import { KENO_PAYTABLES, playKeno } from './games/keno.ts';
import { playLimbo } from './games/limbo.ts';
import { placeMines, settleMines } from './games/mines.ts';
import { dropPlinko, PLINKO_PAYTABLES } from './games/plinko.ts';
import { playRoulette, ROULETTE_LIMITS } from './games/roulette.ts';
import { SLOT_MAX_MULTIPLIER, spinSlot } from './games/slot.ts';
import { type BetInput, GAME_RULES, replayBet } from './replay.ts';
import { fixedFloats } from './test-support.ts';

const SEEDS = {
  serverSeed: '5f0c1b7e2a9d4c3b8e6f1a0d9c2b7e4f3a8d1c6b0e9f2a7d4c1b8e3f6a0d9c2b',
  clientSeed: 'sorte-player-1',
  nonce: 42,
};

/** The bet's floats from node:crypto, so the vectors do not depend on the package's own hashing. */
function referenceFloats(count: number): number[] {
  const floats: number[] = [];
  for (let round = 0; floats.length < count; round++) {
    const digest = createHmac('sha256', SEEDS.serverSeed)
      .update(`${SEEDS.clientSeed}:${SEEDS.nonce}:${round}`)
      .digest();
    for (let i = 0; i < 32; i += 4) floats.push(digest.readUInt32BE(i) / 2 ** 32);
  }
  return floats;
}

describe('replayBet', () => {
  const floats = referenceFloats(120);
  const reference = () => fixedFloats(floats);

  it('reproduces every game from node:crypto floats', () => {
    const cases: [BetInput, unknown][] = [
      [
        { game: 'dice', bet: { direction: 'over', target: 2500 } },
        playDice({ direction: 'over', target: 2500 }, reference()),
      ],
      [{ game: 'limbo', targetHundredths: 150 }, playLimbo(150, reference())],
      [{ game: 'mines', mines: 3, picks: [0, 6, 12] }, settleMines(placeMines(3, reference()), [0, 6, 12])],
      [{ game: 'plinko', rows: 16, risk: 'high' }, dropPlinko(16, 'high', reference())],
      [{ game: 'keno', picks: [1, 5, 9, 13, 17] }, playKeno([1, 5, 9, 13, 17], reference())],
      [
        { game: 'roulette', bets: [{ type: 'red', numbers: [], stakeMinor: 100n }] },
        playRoulette([{ type: 'red', numbers: [], stakeMinor: 100n }], reference()),
      ],
      [{ game: 'slot' }, spinSlot(reference())],
      [{ game: 'hilo', calls: ['higher', 'lower'] }, playHilo(['higher', 'lower'], reference())],
      [{ game: 'bingo' }, playBingo(reference())],
    ];
    for (const [input, expected] of cases) expect(replayBet(SEEDS, input).result).toEqual(expected);
  });

  it('matches the published outcome vectors', () => {
    const dice = replayBet(SEEDS, { game: 'dice', bet: { direction: 'over', target: 2500 } });
    const mines = replayBet(SEEDS, { game: 'mines', mines: 3, picks: [0] });
    const plinko = replayBet(SEEDS, { game: 'plinko', rows: 8, risk: 'low' });
    const keno = replayBet(SEEDS, { game: 'keno', picks: [1] });
    const roulette = replayBet(SEEDS, {
      game: 'roulette',
      bets: [{ type: 'straight', numbers: [0], stakeMinor: 1n }],
    });
    const slot = replayBet(SEEDS, { game: 'slot' });
    const hilo = replayBet(SEEDS, { game: 'hilo', calls: [] });
    const limbo = replayBet(SEEDS, { game: 'limbo', targetHundredths: 200 });
    const bingo = replayBet(SEEDS, { game: 'bingo' });
    expect({
      dice: dice.game === 'dice' && dice.result.roll,
      limbo: limbo.game === 'limbo' && limbo.result.resultHundredths,
      mines: mines.game === 'mines' && mines.result.mines,
      plinko: plinko.game === 'plinko' && plinko.result.path.join(''),
      keno: keno.game === 'keno' && keno.result.drawn,
      roulette: roulette.game === 'roulette' && roulette.result.pocket,
      slot: slot.game === 'slot' && slot.result.stops,
      hilo: hilo.game === 'hilo' && hilo.result.start,
      bingo: bingo.game === 'bingo' && bingo.result.balls.length,
    }).toEqual(PUBLISHED);
  });

  it('lists every game with an RTP between 96% and 99% and sane limits', () => {
    for (const rules of Object.values(GAME_RULES)) {
      expect(rules.rtpMin).toBeGreaterThanOrEqual(0.96);
      expect(rules.rtpMax).toBeLessThanOrEqual(0.99);
      expect(rules.rtpMin).toBeLessThanOrEqual(rules.rtpMax);
      expect(rules.limits.minBetMinor).toBeGreaterThan(0n);
      expect(rules.limits.maxBetMinor).toBeGreaterThan(rules.limits.minBetMinor);
      expect(rules.limits.maxWinMinor).toBeGreaterThan(rules.limits.maxBetMinor);
    }
  });
});

/** Published vectors for server seed 5f0c…9c2b, client seed "sorte-player-1", nonce 42. */
describe('max-win caps', () => {
  it('never bind for games with a bounded top multiplier, so their RTP holds at every stake', () => {
    const top = (hundredths: number[]) => BigInt(Math.max(...hundredths));
    const plinkoTop = top(
      Object.values(PLINKO_PAYTABLES).flatMap((r) => Object.values(r).flatMap((t) => [...t.hundredths])),
    );
    const kenoTop = top(Object.values(KENO_PAYTABLES).flatMap((t) => [...t.hundredths]));
    const cases: [keyof typeof GAME_RULES, bigint][] = [
      ['dice', 9_900n],
      ['plinko', plinkoTop],
      ['keno', kenoTop],
      ['roulette', 3_600n],
      ['slot', BigInt(Math.round(SLOT_MAX_MULTIPLIER * 100))],
      ['bingo', 10_000n],
    ];
    for (const [game, topHundredths] of cases) {
      const { maxBetMinor, maxWinMinor } = GAME_RULES[game].limits;
      expect((maxBetMinor * topHundredths) / 100n).toBeLessThanOrEqual(maxWinMinor);
    }
    expect(ROULETTE_LIMITS.maxWinMinor).toBe(18_000_000n);
  });
});

const PUBLISHED = {
  dice: 4454,
  limbo: 178,
  mines: [11, 6, 10],
  plinko: 'LLLRRLRR',
  keno: [18, 10, 17, 28, 37, 3, 30, 32, 4, 26],
  roulette: 16,
  slot: [8, 4, 7, 13, 18],
  hilo: { index: 23, rank: 11, suit: 1 },
  bingo: 57,
};
