import type { BetLimits } from '../multiplier.ts';
import { FairnessInputError, isClientSeed } from '../seeds.ts';
import { HmacSha256, sha256Hex, toHex } from '../sha256.ts';

/**
 * Crash: one shared round for every player, outcomes fixed in advance by a hash chain.
 *
 * Chain: x₀ = a secret terminal seed (64 hex), xₖ = SHA-256(text of xₖ₋₁). The operator publishes
 * x_N (the terminating hash) before round 1; round 1 plays x_{N−1}, round 2 x_{N−2}, … round N plays
 * x₀. So each round's hash is the SHA-256 of the next round's hash, and hashing any revealed round
 * hash forward must reach the published terminating hash: the operator could not have changed it.
 *
 * Crash point: h = first 52 bits of HMAC-SHA256(key = round hash text, message = public salt). The
 * salt stops the operator from choosing a chain with good outcomes, so it must be fixed AFTER the
 * terminating hash is published, from inputs the operator does not choose: Sorte's ceremony takes
 * the client seeds of the first bets on the chain (crashSaltFromSeeds, ADR 008). With e = 2⁵²,
 *   crash × 100 = floor(99 · e / (e − h)), at least 100 (1.00×), at most CRASH_MAX_HUNDREDTHS.
 * Hence P(crash ≥ m) = floor(99·e/(100·m)) / e ≈ 0.99 / m for every cash-out target m ≥ 1.01, and a
 * player's RTP is 99% (house edge 1%) whatever target they choose, within 2⁻⁵²·m.
 */

export const CRASH_HOUSE_EDGE = 0.01;
export const CRASH_RTP = 0.99;
/** Largest crash point (and auto cash-out target): 1,000,000.00×. */
export const CRASH_MAX_HUNDREDTHS = 100_000_000;
/** Smallest cash-out target a player may set: 1.01×. */
export const CRASH_MIN_TARGET_HUNDREDTHS = 101;
/** From R$ 1,00: below it no stake pays every cash-out point within 0.1 pp of 99 % (stake-rules.ts). */
export const CRASH_LIMITS: BetLimits = {
  minBetMinor: 100n,
  maxBetMinor: 500_000n,
  maxWinMinor: 100_000_000n,
};
export const MAX_CHAIN_LENGTH = 1_000_000;

const HASH_PATTERN = /^[0-9a-f]{64}$/;
const E = 1n << 52n;

export interface HashChain {
  /** Round hashes in play order: hashes[0] is round 1. Keep secret until each round ends. */
  hashes: string[];
  /** Publish this before round 1: SHA-256 of round 1's hash. */
  terminatingHash: string;
}

/** Builds a chain of `length` rounds from a secret 64-hex terminal seed. */
export function createHashChain(terminalSeed: string, length: number): HashChain {
  if (!HASH_PATTERN.test(terminalSeed)) {
    throw new FairnessInputError(
      'INVALID_SERVER_SEED',
      'The terminal seed must be 64 lowercase hex characters.',
    );
  }
  if (!Number.isSafeInteger(length) || length < 1 || length > MAX_CHAIN_LENGTH) {
    throw new FairnessInputError('INVALID_BET', `A chain has 1 to ${MAX_CHAIN_LENGTH} rounds.`);
  }
  const forward: string[] = [terminalSeed];
  for (let i = 1; i <= length; i++) forward.push(sha256Hex(forward[i - 1]!));
  const terminatingHash = forward.pop()!;
  return { hashes: forward.reverse(), terminatingHash };
}

export function createTerminalSeed(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return toHex(bytes);
}

export interface ChainVerification {
  valid: boolean;
  /** 1-based round number of the hash in the chain (how many hashes lead to the terminating hash). */
  roundNumber: number | null;
}

/**
 * Hashes `roundHash` forward until it meets the published terminating hash, at most `maxRounds`
 * times. Any tampered hash never meets it.
 */
export function verifyCrashChain(roundHash: string, terminatingHash: string, maxRounds = MAX_CHAIN_LENGTH) {
  if (!HASH_PATTERN.test(roundHash) || !HASH_PATTERN.test(terminatingHash)) {
    return { valid: false, roundNumber: null } satisfies ChainVerification;
  }
  let hash = roundHash;
  for (let round = 1; round <= Math.min(maxRounds, MAX_CHAIN_LENGTH); round++) {
    hash = sha256Hex(hash);
    if (hash === terminatingHash) return { valid: true, roundNumber: round } satisfies ChainVerification;
  }
  return { valid: false, roundNumber: null } satisfies ChainVerification;
}

/** True when `previousHash` (round n) is SHA-256 of `nextHash` (round n + 1). */
export function isNextRoundHash(previousHash: string, nextHash: string): boolean {
  return HASH_PATTERN.test(nextHash) && sha256Hex(nextHash) === previousHash;
}

/** The crash point from a 52-bit integer h ∈ [0, 2⁵²): pure integer arithmetic, no float rounding. */
export function crashHundredthsFromInteger(h: bigint, bits = 52): number {
  const e = 1n << BigInt(bits);
  if (h < 0n || h >= e) throw new RangeError('h out of range');
  const raw = (99n * e) / (e - h);
  if (raw < 100n) return 100;
  return raw > BigInt(CRASH_MAX_HUNDREDTHS) ? CRASH_MAX_HUNDREDTHS : Number(raw);
}

/** The crash point of a round in hundredths (237 = 2.37×). */
export function crashPointHundredths(roundHash: string, publicSalt: string): number {
  if (!HASH_PATTERN.test(roundHash)) {
    throw new FairnessInputError('INVALID_SERVER_SEED', 'A round hash is 64 lowercase hex characters.');
  }
  const digest = new HmacSha256(roundHash).digest(publicSalt);
  return crashHundredthsFromInteger(BigInt(`0x${toHex(digest.subarray(0, 7)).slice(0, 13)}`));
}

/** The crash point as a display number, e.g. 2.37. */
export function crashPoint(roundHash: string, publicSalt: string): number {
  return crashPointHundredths(roundHash, publicSalt) / 100;
}

/** Exact P(crash ≥ target) as a fraction of 2⁵² (target in hundredths, ≥ 101). */
export function crashWinProbability(targetHundredths: number): { num: bigint; den: bigint } {
  if (
    !Number.isSafeInteger(targetHundredths) ||
    targetHundredths < 101 ||
    targetHundredths > CRASH_MAX_HUNDREDTHS
  ) {
    throw new FairnessInputError('INVALID_BET', 'The target must be between 1.01× and the maximum.');
  }
  return { num: (99n * E) / BigInt(targetHundredths), den: E };
}

/**
 * The salt ceremony (ADR 008). A chain's terminating hash is published first; its salt is fixed
 * later from the client seeds of the first bets placed on the chain (those of its first round, in
 * bet id order, at most CRASH_SALT_MAX_SEEDS):
 *   salt = SHA-256(terminatingHash + ":" + seed₁ + ":" + … + ":" + seedₖ) as 64 lowercase hex.
 * The seeds are players' choices made after the commitment, so the operator could not know the
 * salt when it fixed the chain.
 */
export const CRASH_SALT_MAX_SEEDS = 32;

function assertSaltInputs(terminatingHash: string, clientSeeds: readonly string[]): void {
  if (!HASH_PATTERN.test(terminatingHash)) {
    throw new FairnessInputError('INVALID_SERVER_SEED', 'A terminating hash is 64 lowercase hex characters.');
  }
  if (clientSeeds.length < 1 || clientSeeds.length > CRASH_SALT_MAX_SEEDS) {
    throw new FairnessInputError(
      'INVALID_CLIENT_SEED',
      `A salt takes 1 to ${CRASH_SALT_MAX_SEEDS} client seeds.`,
    );
  }
  if (!clientSeeds.every(isClientSeed)) {
    throw new FairnessInputError('INVALID_CLIENT_SEED', 'A client seed is 1 to 64 printable characters.');
  }
}

/** A chain's public salt from its terminating hash and the client seeds of its first bets. */
export function crashSaltFromSeeds(terminatingHash: string, clientSeeds: readonly string[]): string {
  assertSaltInputs(terminatingHash, clientSeeds);
  return sha256Hex([terminatingHash, ...clientSeeds].join(':'));
}

/** True when `salt` is exactly the ceremony's salt of these published inputs. */
export function verifyCrashSalt(input: {
  terminatingHash: string;
  clientSeeds: readonly string[];
  salt: string;
}): boolean {
  try {
    return crashSaltFromSeeds(input.terminatingHash, input.clientSeeds) === input.salt;
  } catch {
    return false;
  }
}

export interface CrashVerification {
  chain: ChainVerification;
  crashHundredths: number;
  /** Whether the salt is the ceremony's salt of `saltSeeds` (null when no seeds were given). */
  saltVerified: boolean | null;
}

/**
 * What a player's verifier does with a finished round: chain membership, the salt recomputed from
 * its published inputs (when given) and the crash point.
 */
export function verifyCrashRound(input: {
  roundHash: string;
  terminatingHash: string;
  publicSalt: string;
  /** The client seeds the chain's salt was fixed from, as published. */
  saltSeeds?: readonly string[];
  maxRounds?: number;
}): CrashVerification {
  return {
    chain: verifyCrashChain(input.roundHash, input.terminatingHash, input.maxRounds),
    crashHundredths: crashPointHundredths(input.roundHash, input.publicSalt),
    saltVerified:
      input.saltSeeds === undefined
        ? null
        : verifyCrashSalt({
            terminatingHash: input.terminatingHash,
            clientSeeds: input.saltSeeds,
            salt: input.publicSalt,
          }),
  };
}

/** Whether a cash-out at `cashOutHundredths` wins in a round that crashed at `crashHundredths`. */
export function isCashOutWinning(cashOutHundredths: number, crashHundredths: number): boolean {
  return cashOutHundredths >= CRASH_MIN_TARGET_HUNDREDTHS && cashOutHundredths <= crashHundredths;
}
