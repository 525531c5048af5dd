import { HmacSha256, sha256Hex, toHex } from './sha256.ts';

/**
 * Seeds, nonces and the float stream every in-house game draws from.
 *
 * - The server seed is 32 random bytes written as 64 lowercase hex characters. Before any bet the
 *   player sees only its commitment: SHA-256 of that 64-character text.
 * - The client seed is chosen (and editable) by the player, so the server cannot pick outcomes alone.
 * - The server seed of the next pair is drawn and its hash shown while the current pair is in use,
 *   so it is fixed before the player picks the client seed it will be paired with.
 * - Every bet uses the next nonce. Bytes for a bet are HMAC-SHA256(key = server seed text,
 *   message = `${clientSeed}:${nonce}:${round}`), round = 0, 1, 2 … when a game needs more than 8 floats.
 * - Each 4 bytes b0..b3 of a digest become one float b0/256 + b1/256² + b2/256³ + b3/256⁴ in [0, 1).
 */

export const SERVER_SEED_PATTERN = /^[0-9a-f]{64}$/;
export const CLIENT_SEED_MAX_LENGTH = 64;
/** Printable ASCII only: a seed must look the same on every screen and in every verifier. */
const CLIENT_SEED_PATTERN = /^[\x20-\x7e]{1,64}$/;
/** Nonces stay exact integers in every language a verifier may be written in. */
export const MAX_NONCE = Number.MAX_SAFE_INTEGER;
/** The float stream refuses to go on forever: the biggest game (bingo) needs 80 floats = 10 rounds. */
export const MAX_ROUNDS_PER_BET = 1024;

export interface BetSeeds {
  serverSeed: string;
  clientSeed: string;
  nonce: number;
}

/** A source of uniform floats in [0, 1). Games take one, so simulations and verifiers share the code. */
export type FloatSource = () => number;

export class FairnessInputError extends Error {
  constructor(
    readonly code:
      | 'INVALID_SERVER_SEED'
      | 'INVALID_CLIENT_SEED'
      | 'INVALID_NONCE'
      | 'INVALID_BET'
      | 'RNG_EXHAUSTED',
    message: string,
  ) {
    super(message);
    this.name = 'FairnessInputError';
  }
}

export function isServerSeed(value: string): boolean {
  return SERVER_SEED_PATTERN.test(value);
}

export function isClientSeed(value: string): boolean {
  return CLIENT_SEED_PATTERN.test(value);
}

export function isNonce(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

export function assertBetSeeds(seeds: BetSeeds): void {
  if (!isServerSeed(seeds.serverSeed)) {
    throw new FairnessInputError(
      'INVALID_SERVER_SEED',
      'The server seed must be 64 lowercase hex characters.',
    );
  }
  if (!isClientSeed(seeds.clientSeed)) {
    throw new FairnessInputError(
      'INVALID_CLIENT_SEED',
      'The client seed must be 1 to 64 printable characters.',
    );
  }
  if (!isNonce(seeds.nonce)) {
    throw new FairnessInputError('INVALID_NONCE', 'The nonce must be a non-negative safe integer.');
  }
}

/** A fresh server seed from the platform's CSPRNG (Web Crypto exists in Node 20 and every browser). */
export function createServerSeed(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return toHex(bytes);
}

/** A default client seed for a new player (they may replace it at any time). */
export function createClientSeed(): string {
  const bytes = new Uint8Array(10);
  globalThis.crypto.getRandomValues(bytes);
  return toHex(bytes);
}

/** The public commitment to a server seed: SHA-256 of its 64-character hex text, as hex. */
export function hashServerSeed(serverSeed: string): string {
  if (!isServerSeed(serverSeed)) {
    throw new FairnessInputError(
      'INVALID_SERVER_SEED',
      'The server seed must be 64 lowercase hex characters.',
    );
  }
  return sha256Hex(serverSeed);
}

export function verifyServerSeed(serverSeed: string, commitment: string): boolean {
  return isServerSeed(serverSeed) && sha256Hex(serverSeed) === commitment.toLowerCase();
}

export interface SeedPair {
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  /** The nonce of the next bet under this pair. */
  nextNonce: number;
  /**
   * The server seed of the NEXT pair, drawn with this one. Only its hash is shown, and it is shown
   * before the player chooses the client seed that will go with it, so the operator cannot draw a
   * server seed to suit that choice: a rotation activates exactly this committed seed.
   */
  nextServerSeed: string;
  nextServerSeedHash: string;
}

/** A pair once rotated: its server seed is public; its next seed is the new active one, so it stays secret. */
export type RevealedSeedPair = Omit<SeedPair, 'nextServerSeed'>;

export interface SeedRotation {
  /** The pair that was in use, now safe to show in full: every bet under it is settled. */
  revealed: RevealedSeedPair;
  /** The new pair: its server seed is the committed next seed; a fresh next seed is committed. */
  current: SeedPair;
}

function assertClientSeed(clientSeed: string): void {
  if (!isClientSeed(clientSeed)) {
    throw new FairnessInputError(
      'INVALID_CLIENT_SEED',
      'The client seed must be 1 to 64 printable characters.',
    );
  }
}

/**
 * Ends a seed pair: the old server seed is revealed so the player can verify every bet made with it,
 * the committed next server seed becomes the active one (with the player's client seed), and a new
 * next seed is committed. The nonce restarts at 0 because the key changed.
 */
export function rotateSeeds(
  current: SeedPair,
  nextClientSeed: string = current.clientSeed,
  newNextServerSeed: string = createServerSeed(),
): SeedRotation {
  assertClientSeed(nextClientSeed);
  if (!verifyServerSeed(current.nextServerSeed, current.nextServerSeedHash)) {
    throw new FairnessInputError(
      'INVALID_SERVER_SEED',
      'The committed next server seed does not match its hash.',
    );
  }
  if (newNextServerSeed === current.serverSeed) {
    throw new FairnessInputError('INVALID_SERVER_SEED', 'A rotation must commit to a different server seed.');
  }
  const { nextServerSeed, ...revealed } = current;
  return { revealed, current: createSeedPair(nextClientSeed, nextServerSeed, newNextServerSeed) };
}

/** Builds a fresh seed pair (first visit) with its next server seed already committed. */
export function createSeedPair(
  clientSeed: string = createClientSeed(),
  serverSeed: string = createServerSeed(),
  nextServerSeed: string = createServerSeed(),
): SeedPair {
  assertClientSeed(clientSeed);
  if (nextServerSeed === serverSeed) {
    throw new FairnessInputError(
      'INVALID_SERVER_SEED',
      'The next server seed must differ from the active one.',
    );
  }
  return {
    serverSeed,
    serverSeedHash: hashServerSeed(serverSeed),
    clientSeed,
    nextNonce: 0,
    nextServerSeed,
    nextServerSeedHash: hashServerSeed(nextServerSeed),
  };
}

/** The hashes a player was shown for a pair: its active commitment and the next one. */
export interface ShownCommitments {
  serverSeedHash: string;
  nextServerSeedHash: string;
}

export interface RotationCheck {
  /** The revealed seed hashes to the active commitment shown before the rotation. */
  revealedMatches: boolean;
  /** The new active commitment is the next-seed hash shown before the rotation (before the client seed was chosen). */
  activatedAsCommitted: boolean;
}

/**
 * What a player's browser checks after a rotation, from what it showed before: the revealed server
 * seed is the one committed by the active hash, and the pair now in use is the one whose hash was
 * shown as "next" before the player picked their client seed.
 */
export function verifyRotation(
  before: ShownCommitments,
  after: { revealed: { serverSeed: string }; current: { serverSeedHash: string } },
): RotationCheck {
  return {
    revealedMatches: verifyServerSeed(after.revealed.serverSeed, before.serverSeedHash),
    activatedAsCommitted: after.current.serverSeedHash === before.nextServerSeedHash.toLowerCase(),
  };
}

export interface RevealedLink {
  serverSeed: string;
  serverSeedHash: string;
  /** The next-seed hash the pair showed while it was active (null for pairs from before it existed). */
  nextServerSeedHash: string | null;
}

/**
 * Checks a player's revealed pairs in the order they were used (oldest first): every seed hashes to
 * its commitment, and every commitment after the first is the next-seed hash its predecessor
 * showed. One entry per pair; `linked` is null where the predecessor showed no next hash.
 */
export function verifySeedChain(
  pairs: readonly RevealedLink[],
): { seedMatches: boolean; linked: boolean | null }[] {
  return pairs.map((pair, i) => {
    const previous = i > 0 ? pairs[i - 1]!.nextServerSeedHash : null;
    return {
      seedMatches: verifyServerSeed(pair.serverSeed, pair.serverSeedHash),
      linked: previous === null ? null : previous === pair.serverSeedHash,
    };
  });
}

/** The 32 bytes of one round of one bet. */
export function betBytes(seeds: BetSeeds, round: number): Uint8Array {
  assertBetSeeds(seeds);
  return hmacFor(seeds.serverSeed).digest(`${seeds.clientSeed}:${seeds.nonce}:${round}`);
}

/** Four bytes as a float in [0, 1); exact, since the result has only 32 significant bits. */
export function bytesToFloat(bytes: Uint8Array, offset: number): number {
  return (
    bytes[offset]! / 256 +
    bytes[offset + 1]! / 65_536 +
    bytes[offset + 2]! / 16_777_216 +
    bytes[offset + 3]! / 4_294_967_296
  );
}

/**
 * The keyed HMAC of the most recent server seed. A player's bets share one seed until rotation, so
 * reusing the prepared key saves two of the four SHA-256 blocks per bet. Sharing is safe: digests are
 * synchronous and each stream writes into its own buffer.
 */
let lastKey = '';
let lastHmac: HmacSha256 | null = null;

function hmacFor(serverSeed: string): HmacSha256 {
  if (lastHmac === null || lastKey !== serverSeed) {
    lastHmac = new HmacSha256(serverSeed);
    lastKey = serverSeed;
  }
  return lastHmac;
}

/**
 * The float stream of one bet: floats 0–7 come from round 0, 8–15 from round 1, and so on. Throws
 * rather than wrapping when a (buggy) game asks for more than MAX_ROUNDS_PER_BET rounds.
 */
export function createFloatStream(seeds: BetSeeds): FloatSource {
  assertBetSeeds(seeds);
  const hmac = hmacFor(seeds.serverSeed);
  const prefix = `${seeds.clientSeed}:${seeds.nonce}:`;
  const digest = new Uint8Array(32);
  let round = 0;
  let index = 8;
  return () => {
    if (index === 8) {
      if (round >= MAX_ROUNDS_PER_BET) {
        throw new FairnessInputError(
          'RNG_EXHAUSTED',
          'A bet asked for more random floats than any game needs.',
        );
      }
      hmac.digest(prefix + round, digest);
      round++;
      index = 0;
    }
    const value = bytesToFloat(digest, index * 4);
    index++;
    return value;
  };
}

/** The first `count` floats of a bet, for verifiers and test vectors. */
export function generateFloats(seeds: BetSeeds, count: number): number[] {
  if (!Number.isSafeInteger(count) || count < 0 || count > MAX_ROUNDS_PER_BET * 8) {
    throw new FairnessInputError('INVALID_BET', 'The float count is out of range.');
  }
  const next = createFloatStream(seeds);
  return Array.from({ length: count }, () => next());
}

/**
 * An integer in [0, n) from one float. Used by every game so the mapping is written once:
 * floor(float × n), which is uniform up to 2⁻³² per value.
 */
export function floatToInt(float: number, n: number): number {
  return Math.floor(float * n);
}

/**
 * The first `count` values of a Fisher–Yates shuffle of 0..size-1 (a uniformly random ordered sample
 * without replacement). Step i swaps position i with i + floor(float × (size − i)).
 */
export function sampleWithoutReplacement(next: FloatSource, size: number, count: number): number[] {
  if (count > size) throw new FairnessInputError('INVALID_BET', 'Cannot draw more items than exist.');
  const items = Array.from({ length: size }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + floatToInt(next(), size - i);
    const held = items[i]!;
    items[i] = items[j]!;
    items[j] = held;
  }
  return items.slice(0, count);
}
