import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createFloatStream,
  createSeedPair,
  createServerSeed,
  FairnessInputError,
  generateFloats,
  hashServerSeed,
  isClientSeed,
  MAX_ROUNDS_PER_BET,
  type RevealedSeedPair,
  rotateSeeds,
  sampleWithoutReplacement,
  verifyRotation,
  verifySeedChain,
  verifyServerSeed,
} from './seeds.ts';

/** The published vector: anyone can recompute these with any HMAC-SHA256 tool. */
const VECTOR = {
  serverSeed: '5f0c1b7e2a9d4c3b8e6f1a0d9c2b7e4f3a8d1c6b0e9f2a7d4c1b8e3f6a0d9c2b',
  clientSeed: 'sorte-player-1',
  nonce: 42,
};

/** First bytes of round 0: 72 09 28 98 | 36 d1 37 82 | 61 f0 2d d4 (HMAC 7209289836d13782…). */
const PUBLISHED_FIRST_FLOATS = [0.44545224867761135, 0.21412989543750882, 0.38257109094411135];

/** Floats recomputed here with node:crypto, independently of the package's own SHA-256. */
function referenceFloats(serverSeed: string, clientSeed: string, nonce: number, count: number): number[] {
  const floats: number[] = [];
  for (let round = 0; floats.length < count; round++) {
    const digest = createHmac('sha256', serverSeed).update(`${clientSeed}:${nonce}:${round}`).digest();
    for (let i = 0; i < 32 && floats.length < count; i += 4) {
      floats.push(digest.readUInt32BE(i) / 2 ** 32);
    }
  }
  return floats;
}

describe('server seed commitment', () => {
  it('is SHA-256 of the 64-character seed text', () => {
    expect(hashServerSeed(VECTOR.serverSeed)).toBe(
      createHash('sha256').update(VECTOR.serverSeed).digest('hex'),
    );
    expect(hashServerSeed(VECTOR.serverSeed)).toBe(
      'bb21f9ec3fd9058cbb857d9f601cdaa5f86aa19c94c72e7d6884ceea3a2c04c6',
    );
  });

  it('verifies the revealed seed against the commitment and rejects any other seed', () => {
    const commitment = hashServerSeed(VECTOR.serverSeed);
    expect(verifyServerSeed(VECTOR.serverSeed, commitment)).toBe(true);
    expect(verifyServerSeed(`${VECTOR.serverSeed.slice(0, 63)}0`, commitment)).toBe(false);
    expect(verifyServerSeed('not-a-seed', commitment)).toBe(false);
  });

  it('creates 64-hex-character seeds that differ each time', () => {
    const a = createServerSeed();
    const b = createServerSeed();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
  });
});

describe('client seed validation', () => {
  it('accepts 1 to 64 printable characters', () => {
    expect(isClientSeed('a')).toBe(true);
    expect(isClientSeed('lucky seed #7 ~!')).toBe(true);
    expect(isClientSeed('x'.repeat(64))).toBe(true);
  });

  it('refuses empty, too long, control and non-ASCII seeds', () => {
    expect(isClientSeed('')).toBe(false);
    expect(isClientSeed('x'.repeat(65))).toBe(false);
    expect(isClientSeed('line\nbreak')).toBe(false);
    expect(isClientSeed('sorte☘')).toBe(false);
  });
});

describe('floats', () => {
  it('match the published test vector', () => {
    const floats = generateFloats(VECTOR, 10);
    expect(floats).toEqual(referenceFloats(VECTOR.serverSeed, VECTOR.clientSeed, VECTOR.nonce, 10));
    expect(floats.slice(0, 3)).toEqual(PUBLISHED_FIRST_FLOATS);
  });

  it('agree with node:crypto across seeds, nonces and rounds', () => {
    for (let nonce = 0; nonce < 50; nonce++) {
      const seeds = { serverSeed: VECTOR.serverSeed, clientSeed: `client-${nonce % 7}`, nonce };
      expect(generateFloats(seeds, 20)).toEqual(
        referenceFloats(seeds.serverSeed, seeds.clientSeed, nonce, 20),
      );
    }
  });

  it('are deterministic and change with every input', () => {
    const base = generateFloats(VECTOR, 8);
    expect(generateFloats(VECTOR, 8)).toEqual(base);
    expect(generateFloats({ ...VECTOR, nonce: 43 }, 8)).not.toEqual(base);
    expect(generateFloats({ ...VECTOR, clientSeed: 'other' }, 8)).not.toEqual(base);
    expect(generateFloats({ ...VECTOR, serverSeed: createServerSeed() }, 8)).not.toEqual(base);
  });

  it('all lie in [0, 1) and have a mean near 1/2', () => {
    let sum = 0;
    let outside = 0;
    const count = 200_000;
    for (let nonce = 0; nonce < count / 40; nonce++) {
      const next = createFloatStream({ ...VECTOR, nonce });
      for (let i = 0; i < 40; i++) {
        const f = next();
        if (!(f >= 0 && f < 1)) outside++;
        sum += f;
      }
    }
    expect(outside).toBe(0);
    // The standard deviation of the mean is sqrt(1/12/count) ≈ 0.00065; 5 sigma is a safe bound.
    expect(Math.abs(sum / count - 0.5)).toBeLessThan(0.0033);
  }, 30_000);

  it('stops with a typed error instead of producing endless bytes for one bet', () => {
    const next = createFloatStream(VECTOR);
    for (let i = 0; i < MAX_ROUNDS_PER_BET * 8; i++) next();
    expect(() => next()).toThrow(FairnessInputError);
  });

  it('refuses bad seeds and nonces with a typed error', () => {
    expect(() => generateFloats({ ...VECTOR, serverSeed: 'abc' }, 1)).toThrow(FairnessInputError);
    expect(() => generateFloats({ ...VECTOR, clientSeed: '' }, 1)).toThrow(FairnessInputError);
    expect(() => generateFloats({ ...VECTOR, nonce: -1 }, 1)).toThrow(FairnessInputError);
    expect(() => generateFloats({ ...VECTOR, nonce: 1.5 }, 1)).toThrow(FairnessInputError);
  });
});

describe('seed rotation', () => {
  const NEXT_SEED = 'e3b7c5a1d9f20486b1c3e5a7d9f1b3c5e7a9d1f3b5c7e9a1d3f5b7c9e1a3d5f7';

  it('reveals the old pair and commits to a new server seed with the nonce reset', () => {
    const pair = { ...createSeedPair('my-seed', VECTOR.serverSeed), nextNonce: 17 };
    const { revealed, current } = rotateSeeds(pair, 'new-seed');
    expect(revealed.serverSeed).toBe(VECTOR.serverSeed);
    expect(revealed.nextNonce).toBe(17);
    expect(verifyServerSeed(revealed.serverSeed, pair.serverSeedHash)).toBe(true);
    expect(current.serverSeed).not.toBe(VECTOR.serverSeed);
    expect(current.serverSeedHash).toBe(hashServerSeed(current.serverSeed));
    expect(current.clientSeed).toBe('new-seed');
    expect(current.nextNonce).toBe(0);
  });

  it('commits the next server seed with the pair, before any client seed is chosen for it', () => {
    const pair = createSeedPair('my-seed', VECTOR.serverSeed, NEXT_SEED);
    expect(pair.nextServerSeedHash).toBe(createHash('sha256').update(NEXT_SEED).digest('hex'));
    const fresh = createSeedPair();
    expect(fresh.nextServerSeed).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh.nextServerSeed).not.toBe(fresh.serverSeed);
    expect(fresh.nextServerSeedHash).toBe(hashServerSeed(fresh.nextServerSeed));
  });

  it('activates exactly the committed next seed, whatever client seed the player then picks', () => {
    const pair = createSeedPair('my-seed', VECTOR.serverSeed, NEXT_SEED);
    for (const clientSeed of ['new-seed', 'another one', 'my-seed']) {
      const { revealed, current } = rotateSeeds(pair, clientSeed);
      expect(current.serverSeed).toBe(NEXT_SEED);
      expect(current.serverSeedHash).toBe(pair.nextServerSeedHash);
      expect(current.clientSeed).toBe(clientSeed);
      // A new next seed is committed at once, and the revealed pair keeps no copy of the active seed.
      expect(current.nextServerSeed).not.toBe(NEXT_SEED);
      expect(current.nextServerSeedHash).toBe(hashServerSeed(current.nextServerSeed));
      expect(revealed).not.toHaveProperty('nextServerSeed');
      expect(revealed.nextServerSeedHash).toBe(pair.nextServerSeedHash);
      expect(verifyRotation(pair, { revealed, current })).toEqual({
        revealedMatches: true,
        activatedAsCommitted: true,
      });
    }
  });

  it('chains the commitments: each rotation uses the seed committed by the one before', () => {
    let pair = createSeedPair('a', VECTOR.serverSeed, NEXT_SEED);
    const revealedPairs: RevealedSeedPair[] = [];
    for (let i = 0; i < 4; i++) {
      const rotation = rotateSeeds(pair, `seed-${i}`);
      revealedPairs.push(rotation.revealed);
      pair = rotation.current;
    }
    const links = verifySeedChain(revealedPairs);
    expect(links).toEqual([
      { seedMatches: true, linked: null },
      { seedMatches: true, linked: true },
      { seedMatches: true, linked: true },
      { seedMatches: true, linked: true },
    ]);
    // A seed swapped after its hash was shown as "next" no longer links to its predecessor.
    const swapped = {
      ...revealedPairs[2]!,
      serverSeed: NEXT_SEED,
      serverSeedHash: hashServerSeed(NEXT_SEED),
    };
    expect(verifySeedChain([revealedPairs[0]!, revealedPairs[1]!, swapped])[2]).toEqual({
      seedMatches: true,
      linked: false,
    });
  });

  it('detects a rotation that did not activate the shown next seed or revealed another seed', () => {
    const pair = createSeedPair('my-seed', VECTOR.serverSeed, NEXT_SEED);
    const honest = rotateSeeds(pair, 'new-seed');
    const ground = createSeedPair('new-seed');
    expect(verifyRotation(pair, { revealed: honest.revealed, current: ground })).toEqual({
      revealedMatches: true,
      activatedAsCommitted: false,
    });
    expect(
      verifyRotation(pair, { revealed: { serverSeed: createServerSeed() }, current: honest.current }),
    ).toEqual({ revealedMatches: false, activatedAsCommitted: true });
  });

  it('refuses a next seed that does not match its commitment', () => {
    const pair = createSeedPair('my-seed', VECTOR.serverSeed, NEXT_SEED);
    expect(() => rotateSeeds({ ...pair, nextServerSeed: createServerSeed() }, 'x')).toThrow(
      FairnessInputError,
    );
  });

  it('refuses to rotate to the same server seed or to an invalid client seed', () => {
    const pair = createSeedPair('my-seed', VECTOR.serverSeed);
    expect(() => rotateSeeds(pair, 'ok', VECTOR.serverSeed)).toThrow(FairnessInputError);
    expect(() => rotateSeeds(pair, '')).toThrow(FairnessInputError);
    expect(() => createSeedPair('my-seed', VECTOR.serverSeed, VECTOR.serverSeed)).toThrow(FairnessInputError);
  });
});

describe('sampleWithoutReplacement', () => {
  it('returns distinct values in range', () => {
    const next = createFloatStream(VECTOR);
    for (let i = 0; i < 200; i++) {
      const sample = sampleWithoutReplacement(next, 40, 10);
      expect(new Set(sample).size).toBe(10);
      for (const value of sample) expect(value >= 0 && value < 40).toBe(true);
    }
  });
});
