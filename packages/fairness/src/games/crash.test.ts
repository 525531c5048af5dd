import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chiSquareTest } from '../chi-square.ts';
import { FairnessInputError } from '../seeds.ts';
import {
  CRASH_MAX_HUNDREDTHS,
  CRASH_RTP,
  CRASH_SALT_MAX_SEEDS,
  crashHundredthsFromInteger,
  crashPointHundredths,
  crashSaltFromSeeds,
  crashWinProbability,
  createHashChain,
  isCashOutWinning,
  isNextRoundHash,
  verifyCrashChain,
  verifyCrashRound,
  verifyCrashSalt,
} from './crash.ts';

const TERMINAL_SEED = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
/** Any fixed salt, for the tests of the crash point's distribution. */
const SALT = '0000000000000000000fa3b65e43e4240d71762a5bf397d5304b2596d116859a';

/** Published vectors (recomputed by the tests with node:crypto as well). */
const TERMINATING_VECTOR = '7a7a41b2066e2d6d790cf8322879f6ae4470de37f20b4c628a9f104648052e17';
/** The salt ceremony over that chain with the client seeds "sorte-player-1" and "lucky 7". */
const CEREMONY_SEEDS = ['sorte-player-1', 'lucky 7'];
const CEREMONY_SALT_VECTOR = '4a9abc589c40fe02bd8b5b040c4d9f6d5d483a6f76bb63ec8af8b131b1c5d1f8';
/** Round 1 of that chain is 1f02d5bd…e505 and, with the ceremony's salt, crashes at 10.55×. */
const FIRST_ROUND_CRASH_VECTOR = 1055;

/** The crash point recomputed with node:crypto and plain bigint maths, independently of the package. */
function referenceCrash(roundHash: string, salt: string): number {
  const hex = createHmac('sha256', roundHash).update(salt).digest('hex');
  const h = BigInt(`0x${hex.slice(0, 13)}`);
  const e = 2n ** 52n;
  const value = (99n * e) / (e - h);
  return Math.min(Math.max(Number(value), 100), CRASH_MAX_HUNDREDTHS);
}

describe('crash hash chain', () => {
  const chain = createHashChain(TERMINAL_SEED, 1000);

  it('links each round hash to the SHA-256 of the next one, ending at the terminal seed', () => {
    expect(chain.hashes).toHaveLength(1000);
    expect(chain.hashes.at(-1)).toBe(TERMINAL_SEED);
    expect(chain.terminatingHash).toBe(createHash('sha256').update(chain.hashes[0]!).digest('hex'));
    for (let i = 0; i + 1 < chain.hashes.length; i++) {
      expect(
        createHash('sha256')
          .update(chain.hashes[i + 1]!)
          .digest('hex'),
      ).toBe(chain.hashes[i]);
      expect(isNextRoundHash(chain.hashes[i]!, chain.hashes[i + 1]!)).toBe(true);
    }
  });

  it('verifies every round against the published terminating hash and tells its number', () => {
    for (const round of [1, 2, 500, 1000]) {
      expect(verifyCrashChain(chain.hashes[round - 1]!, chain.terminatingHash)).toEqual({
        valid: true,
        roundNumber: round,
      });
    }
  });

  it('rejects a tampered hash, a foreign chain and malformed input', () => {
    const genuine = chain.hashes[10]!;
    const tampered = `${genuine.slice(0, 63)}${genuine.endsWith('0') ? '1' : '0'}`;
    expect(verifyCrashChain(tampered, chain.terminatingHash, 2000).valid).toBe(false);
    const foreign = createHashChain('ab'.repeat(32), 20);
    expect(verifyCrashChain(foreign.hashes[3]!, chain.terminatingHash, 2000).valid).toBe(false);
    expect(verifyCrashChain('XYZ', chain.terminatingHash).valid).toBe(false);
    expect(isNextRoundHash(chain.hashes[0]!, chain.hashes[2]!)).toBe(false);
  });

  it('publishes fixed test vectors', () => {
    expect(chain.terminatingHash).toBe(TERMINATING_VECTOR);
    expect(crashSaltFromSeeds(TERMINATING_VECTOR, CEREMONY_SEEDS)).toBe(CEREMONY_SALT_VECTOR);
    expect(crashPointHundredths(chain.hashes[0]!, CEREMONY_SALT_VECTOR)).toBe(FIRST_ROUND_CRASH_VECTOR);
    expect(referenceCrash(chain.hashes[0]!, CEREMONY_SALT_VECTOR)).toBe(FIRST_ROUND_CRASH_VECTOR);
  });
});

describe('crash salt ceremony', () => {
  /** The documented formula with node:crypto, independently of the package. */
  const referenceSalt = (terminatingHash: string, seeds: string[]) =>
    createHash('sha256')
      .update([terminatingHash, ...seeds].join(':'))
      .digest('hex');

  it('derives the salt as SHA-256 of the terminating hash and the seeds joined by ":"', () => {
    expect(referenceSalt(TERMINATING_VECTOR, CEREMONY_SEEDS)).toBe(CEREMONY_SALT_VECTOR);
    for (const seeds of [
      ['a'],
      ['x'.repeat(64), ' ~!', '0'],
      Array.from({ length: 32 }, (_, i) => `s${i}`),
    ]) {
      expect(crashSaltFromSeeds(TERMINATING_VECTOR, seeds)).toBe(referenceSalt(TERMINATING_VECTOR, seeds));
    }
  });

  it('depends on every input and on their order', () => {
    const salts = new Set([
      crashSaltFromSeeds(TERMINATING_VECTOR, CEREMONY_SEEDS),
      crashSaltFromSeeds(TERMINATING_VECTOR, [...CEREMONY_SEEDS].reverse()),
      crashSaltFromSeeds(TERMINATING_VECTOR, ['sorte-player-1']),
      crashSaltFromSeeds(TERMINATING_VECTOR, ['sorte-player-1', 'lucky 8']),
      crashSaltFromSeeds(createHashChain('ab'.repeat(32), 10).terminatingHash, CEREMONY_SEEDS),
    ]);
    expect(salts.size).toBe(5);
  });

  it('lets a verifier recompute the salt from the published inputs and catches any tampering', () => {
    const published = {
      terminatingHash: TERMINATING_VECTOR,
      clientSeeds: CEREMONY_SEEDS,
      salt: CEREMONY_SALT_VECTOR,
    };
    expect(verifyCrashSalt(published)).toBe(true);
    expect(verifyCrashSalt({ ...published, salt: SALT })).toBe(false);
    expect(verifyCrashSalt({ ...published, clientSeeds: ['sorte-player-1'] })).toBe(false);
    expect(verifyCrashSalt({ ...published, clientSeeds: ['sorte-player-1', 'lucky 7', 'house'] })).toBe(
      false,
    );
    expect(verifyCrashSalt({ ...published, terminatingHash: 'ab'.repeat(32) })).toBe(false);
    expect(verifyCrashSalt({ ...published, clientSeeds: [] })).toBe(false);
    const round = {
      roundHash: chain().hashes[0]!,
      terminatingHash: TERMINATING_VECTOR,
      publicSalt: CEREMONY_SALT_VECTOR,
    };
    expect(verifyCrashRound({ ...round, saltSeeds: CEREMONY_SEEDS })).toMatchObject({
      chain: { valid: true, roundNumber: 1 },
      crashHundredths: FIRST_ROUND_CRASH_VECTOR,
      saltVerified: true,
    });
    expect(verifyCrashRound({ ...round, saltSeeds: ['lucky 7'] }).saltVerified).toBe(false);
    expect(verifyCrashRound(round).saltVerified).toBeNull();
  });

  it('refuses malformed inputs: no seeds, too many, a bad seed or a bad terminating hash', () => {
    expect(() => crashSaltFromSeeds(TERMINATING_VECTOR, [])).toThrow(FairnessInputError);
    const tooMany = Array.from({ length: CRASH_SALT_MAX_SEEDS + 1 }, (_, i) => `s${i}`);
    expect(() => crashSaltFromSeeds(TERMINATING_VECTOR, tooMany)).toThrow(FairnessInputError);
    expect(() => crashSaltFromSeeds(TERMINATING_VECTOR, ['ok', ''])).toThrow(FairnessInputError);
    expect(() => crashSaltFromSeeds(TERMINATING_VECTOR, ['ação'])).toThrow(FairnessInputError);
    expect(() => crashSaltFromSeeds('XYZ', ['ok'])).toThrow(FairnessInputError);
  });

  function chain() {
    return createHashChain(TERMINAL_SEED, 1000);
  }
});

describe('crash point', () => {
  it('matches an independent node:crypto computation over many rounds', () => {
    const chain = createHashChain(TERMINAL_SEED, 2000);
    for (const hash of chain.hashes)
      expect(crashPointHundredths(hash, SALT)).toBe(referenceCrash(hash, SALT));
  });

  it('is always between 1.00× and the cap', () => {
    expect(crashHundredthsFromInteger(0n)).toBe(100);
    expect(crashHundredthsFromInteger((1n << 52n) - 1n)).toBe(CRASH_MAX_HUNDREDTHS);
    expect(crashHundredthsFromInteger(1n << 51n)).toBe(198);
  });

  it('gives exactly P(crash ≥ m) = floor(99·e/m)/e, proven by enumerating every h of a 16-bit version', () => {
    const bits = 16;
    const e = 1 << bits;
    const counts = new Map<number, number>();
    for (let h = 0; h < e; h++) {
      const c = crashHundredthsFromInteger(BigInt(h), bits);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    for (const target of [101, 150, 199, 200, 333, 1000, 5000, 10000]) {
      let wins = 0;
      for (const [point, count] of counts) if (point >= target) wins += count;
      expect(wins).toBe(Math.floor((99 * e) / target));
    }
  });

  it('has RTP 99% within 1e-9 for every cash-out target up to the cap', () => {
    for (const target of [101, 102, 150, 200, 1000, 12345, 100_000, 1_000_000, CRASH_MAX_HUNDREDTHS]) {
      const { num, den } = crashWinProbability(target);
      const rtp = (Number(num) / Number(den)) * (target / 100);
      expect(Math.abs(rtp - CRASH_RTP)).toBeLessThan(1e-9);
      expect(rtp).toBeGreaterThanOrEqual(0.96);
      expect(rtp).toBeLessThanOrEqual(0.99);
    }
  });

  it('follows the theoretical distribution over 100,000 rounds (chi-square 99%)', () => {
    const edges = [100, 101, 120, 150, 200, 300, 500, 1000, 10_000];
    const observed = new Array(edges.length).fill(0);
    const chain = createHashChain(TERMINAL_SEED, 100_000);
    for (const hash of chain.hashes) {
      const c = crashPointHundredths(hash, SALT);
      let bucket = edges.length - 1;
      while (c < edges[bucket]!) bucket--;
      observed[bucket]++;
    }
    // P(crash ≥ m) = 0.99/m for m ≥ 1.01; P(crash ≥ 1.00) = 1.
    const survival = (m: number) => (m <= 100 ? 1 : 0.99 / (m / 100));
    const probabilities = edges.map(
      (edge, i) => survival(edge) - (i + 1 < edges.length ? survival(edges[i + 1]!) : 0),
    );
    const result = chiSquareTest(observed, probabilities);
    expect(result.statistic).toBeLessThan(result.critical);
  }, 30_000);

  it('pays a cash-out only at or below the crash point and never at 1.00×', () => {
    expect(isCashOutWinning(200, 200)).toBe(true);
    expect(isCashOutWinning(201, 200)).toBe(false);
    expect(isCashOutWinning(100, 100)).toBe(false);
  });

  it('verifies a finished round in one call', () => {
    const chain = createHashChain(TERMINAL_SEED, 50);
    const result = verifyCrashRound({
      roundHash: chain.hashes[7]!,
      terminatingHash: chain.terminatingHash,
      publicSalt: SALT,
    });
    expect(result.chain).toEqual({ valid: true, roundNumber: 8 });
    expect(result.crashHundredths).toBe(referenceCrash(chain.hashes[7]!, SALT));
  });
});
