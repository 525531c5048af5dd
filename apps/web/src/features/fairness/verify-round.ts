import type { TCrashChain, TRound } from '@sorte/contract';
import {
  type BetInput,
  replayBet,
  sha256Hex,
  verifyCrashRound,
  verifyCrashSalt,
  verifyRotation,
  verifySeedChain,
  verifyServerSeed,
} from '@sorte/fairness';

export type TVerification =
  | { status: 'match'; recomputed: unknown }
  | { status: 'mismatch'; recomputed: unknown }
  /** The round's server seed is still secret: rotate the seed pair to reveal it. */
  | { status: 'unrevealed' }
  /** Not a settled in-house round this page can replay (active, third-party, unknown game). */
  | { status: 'unsupported' };

const REPLAYABLE = ['dice', 'limbo', 'mines', 'plinko', 'keno', 'roulette', 'slot', 'hilo', 'bingo'];

/** The server stores bigints as decimal strings (JSON); the same turn is applied to the replay. */
function toJson(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, toJson(child)]));
  }
  return value;
}

/** Stable text of a JSON value with sorted keys: the database may store keys in another order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonical(child)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The round's stored parameters as replayBet's input (roulette chip stakes back to bigint). */
export function betInputOf(round: Pick<TRound, 'game' | 'params'>): BetInput {
  const params = round.params as Record<string, unknown>;
  if (round.game === 'roulette') {
    const bets = (Array.isArray(params.bets) ? params.bets : []).map((chip) => {
      const { stakeMinor, ...rest } = chip as Record<string, unknown>;
      return { ...rest, stakeMinor: BigInt(String(stakeMinor ?? '0')) };
    });
    return { game: 'roulette', bets } as unknown as BetInput;
  }
  return { ...params, game: round.game } as BetInput;
}

/**
 * Recomputes a settled round in the browser from its revealed seeds with the same code the server
 * settled it with, and says whether the result equals the stored outcome.
 */
export function verifyRound(
  round: Pick<TRound, 'game' | 'status' | 'params' | 'outcome' | 'fairness'>,
): TVerification {
  if (round.game === 'crash' && round.status === 'settled') return verifyCrashBet(round.outcome);
  if (round.status !== 'settled' || !REPLAYABLE.includes(round.game) || !round.fairness) {
    return { status: 'unsupported' };
  }
  const { server_seed: serverSeed, client_seed: clientSeed, nonce } = round.fairness;
  if (!serverSeed) return { status: 'unrevealed' };
  // The revealed seed must be the one committed (by its hash) before the round was played.
  if (!verifyServerSeed(serverSeed, round.fairness.server_seed_hash)) {
    return { status: 'mismatch', recomputed: { server_seed_hash: sha256Hex(serverSeed) } };
  }
  let recomputed: unknown;
  try {
    recomputed = toJson(replayBet({ serverSeed, clientSeed, nonce }, betInputOf(round)).result);
  } catch {
    return { status: 'mismatch', recomputed: null };
  }
  return canonical(recomputed) === canonical(round.outcome)
    ? { status: 'match', recomputed }
    : { status: 'mismatch', recomputed };
}

/** "2.35" from hundredths, as the record shows a crash point. */
function hundredthsText(hundredths: number): string {
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}

/**
 * A crash bet is fair by the hash chain, not a seed pair: the round hash must lead to the chain's
 * published terminating hash in exactly its position's number of SHA-256 steps, hash to the
 * commitment shown before the round, and give the recorded crash point with the public salt. On a
 * chain salted by the ceremony (ADR 008) the salt must also be the one its published client seeds
 * give; a chain from before it (`salt_source: "server"`) has no such inputs to check.
 */
function verifyCrashBet(outcome: unknown): TVerification {
  const o = (outcome ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof o[key] === 'string' ? (o[key] as string) : null);
  const roundHash = text('round_hash');
  const terminatingHash = text('terminating_hash');
  const publicSalt = text('public_salt');
  if (!roundHash) return { status: 'unrevealed' };
  if (!terminatingHash || !publicSalt) return { status: 'unsupported' };
  const length = Number(o.chain_length);
  const fromBets = o.salt_source === 'bets';
  const saltSeeds = Array.isArray(o.salt_inputs) ? o.salt_inputs.map(String) : [];
  const verified = verifyCrashRound({
    roundHash,
    terminatingHash,
    publicSalt,
    ...(fromBets ? { saltSeeds } : {}),
    ...(Number.isSafeInteger(length) && length > 0 ? { maxRounds: length } : {}),
  });
  const recomputed = {
    crash_point: hundredthsText(verified.crashHundredths),
    chain_position: verified.chain.valid ? verified.chain.roundNumber : null,
    hash_commitment: sha256Hex(roundHash),
    salt_verified: verified.saltVerified,
  };
  const matches =
    verified.chain.valid &&
    verified.saltVerified !== false &&
    recomputed.chain_position === o.chain_position &&
    recomputed.crash_point === o.crash_point &&
    recomputed.hash_commitment === o.hash_commitment;
  return { status: matches ? 'match' : 'mismatch', recomputed };
}

/** The seed pair as the page showed it: the active commitment and the next one. */
export type TShownSeeds = { server_seed_hash: string; next_server_seed_hash: string };

/**
 * After a rotation (or a new client seed), checked against what the page showed before it: the
 * revealed seed hashes to the active commitment, and the pair now in use is the one whose hash was
 * shown as "next" before the player chose the client seed.
 */
export function verifySeedRotation(
  before: TShownSeeds,
  after: { revealed: { server_seed: string }; current: { server_seed_hash: string } },
): 'match' | 'mismatch' {
  const check = verifyRotation(
    { serverSeedHash: before.server_seed_hash, nextServerSeedHash: before.next_server_seed_hash },
    {
      revealed: { serverSeed: after.revealed.server_seed },
      current: { serverSeedHash: after.current.server_seed_hash },
    },
  );
  return check.revealedMatches && check.activatedAsCommitted ? 'match' : 'mismatch';
}

export type TRevealedLink = {
  server_seed: string;
  server_seed_hash: string;
  next_server_seed_hash: string | null;
};

/**
 * The revealed pairs as the history lists them (newest first), each checked: 'linked' when its seed
 * matches its hash and that hash is the next-seed hash the pair before it showed; 'match' when the
 * seed matches but the pair before is not in the list (or showed no next hash); 'mismatch' otherwise.
 */
export function verifySeedHistory(pairs: readonly TRevealedLink[]): ('linked' | 'match' | 'mismatch')[] {
  const oldestFirst = [...pairs].reverse().map((pair) => ({
    serverSeed: pair.server_seed,
    serverSeedHash: pair.server_seed_hash,
    nextServerSeedHash: pair.next_server_seed_hash,
  }));
  return verifySeedChain(oldestFirst)
    .map(({ seedMatches, linked }) => {
      if (!seedMatches || linked === false) return 'mismatch' as const;
      return linked ? ('linked' as const) : ('match' as const);
    })
    .reverse();
}

/**
 * A published crash chain's salt, recomputed in the browser from its published client seeds:
 * 'pending' before the ceremony fixed it, 'server' for a chain from before the ceremony.
 */
export function verifyChainSalt(
  chain: Pick<TCrashChain, 'terminating_hash' | 'salt' | 'salt_source' | 'salt_inputs'>,
): 'match' | 'mismatch' | 'pending' | 'server' {
  if (chain.salt_source === 'server') return 'server';
  if (chain.salt === null) return 'pending';
  const clientSeeds = chain.salt_inputs.map((input) => input.client_seed);
  return verifyCrashSalt({ terminatingHash: chain.terminating_hash, clientSeeds, salt: chain.salt })
    ? 'match'
    : 'mismatch';
}
