import {
  createSeedPair,
  createServerSeed,
  hashServerSeed,
  rotateSeeds,
  type SeedPair,
} from '@sorte/fairness';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { TSeedPairRow } from '../games/games.schema.ts';
import {
  commitNextSeed,
  countActiveRoundsOfPair,
  findActivePair,
  findRevealedPairs,
  insertPairIfNone,
  revealPair,
  type TPlayer,
} from './originals.repo.ts';

/**
 * The player's provably-fair seed pair: the server seed is committed by its SHA-256 before any bet,
 * the client seed is the player's, every bet takes the next nonce. The pair also carries the NEXT
 * server seed, drawn in advance with only its hash shown, so it is fixed before the player picks the
 * client seed it will go with. Changing the client seed rotates the pair: the old server seed is
 * revealed (its commitment can be checked), exactly the committed next seed becomes active and a new
 * next seed is committed. A stepped round still open under the pair would be exposed by the reveal,
 * so it blocks.
 */

/** The active pair, created on first use; `lock` holds it (and so the player's nonce) until commit. */
export async function activePair(executor: Executor, player: TPlayer, lock: boolean): Promise<TSeedPairRow> {
  const existing = await findActivePair(executor, player, { lock });
  if (existing) return existing;
  const fresh = createSeedPair();
  await insertPairIfNone(executor, player, fresh);
  const created = await findActivePair(executor, player, { lock });
  if (!created) throw new Error('seed pair missing right after insert');
  return created;
}

type TCommittedPair = TSeedPairRow & { nextServerSeed: string; nextServerSeedHash: string };

function hasNextSeed(pair: TSeedPairRow): pair is TCommittedPair {
  return pair.nextServerSeed !== null && pair.nextServerSeedHash !== null;
}

/**
 * The active pair with its next server seed committed. A pair from before migration 0014 has none:
 * one is drawn and stored here, the first time the pair is shown (or rotated without being shown).
 */
async function committedPair(executor: Executor, player: TPlayer, lock: boolean): Promise<TCommittedPair> {
  const pair = await activePair(executor, player, lock);
  if (hasNextSeed(pair)) return pair;
  let nextServerSeed = createServerSeed();
  while (nextServerSeed === pair.serverSeed) nextServerSeed = createServerSeed();
  const committed = await commitNextSeed(executor, pair.id, {
    nextServerSeed,
    nextServerSeedHash: hashServerSeed(nextServerSeed),
  });
  // Null: a concurrent request committed one first; read the pair again.
  const result = committed ?? (await activePair(executor, player, lock));
  if (!hasNextSeed(result)) throw new Error(`seed pair ${result.id} has no next seed after commit`);
  return result;
}

/** Commits a first seed pair for a player who has none (a no-op when one exists). */
export async function ensurePair(executor: Executor, player: TPlayer): Promise<void> {
  await insertPairIfNone(executor, player, createSeedPair());
}

export function pairView(pair: TCommittedPair) {
  return {
    server_seed_hash: pair.serverSeedHash,
    next_server_seed_hash: pair.nextServerSeedHash,
    client_seed: pair.clientSeed,
    nonce: Number(pair.nextNonce),
  };
}

export function revealedView(pair: TSeedPairRow) {
  return {
    server_seed: pair.serverSeed,
    server_seed_hash: pair.serverSeedHash,
    // The hash this pair showed for its successor (null for pairs revealed before migration 0014).
    next_server_seed_hash: pair.nextServerSeedHash,
    client_seed: pair.clientSeed,
    bets: Number(pair.nextNonce),
    created_at: pair.createdAt.toISOString(),
    revealed_at: (pair.revealedAt ?? new Date()).toISOString(),
  };
}

function seedPairOf(pair: TCommittedPair): SeedPair {
  return {
    serverSeed: pair.serverSeed,
    serverSeedHash: pair.serverSeedHash,
    clientSeed: pair.clientSeed,
    nextNonce: Number(pair.nextNonce),
    nextServerSeed: pair.nextServerSeed,
    nextServerSeedHash: pair.nextServerSeedHash,
  };
}

export async function getSeeds(db: Executor, player: TPlayer) {
  return db.transaction(async (tx) => pairView(await committedPair(tx, player, false)));
}

/**
 * Reveals the current server seed and starts the pair committed as next (with a new client seed
 * when given); a new next seed is committed in the same transaction.
 */
export async function rotate(db: Executor, player: TPlayer, clientSeed: string | undefined) {
  return db.transaction(async (tx) => {
    const current = await committedPair(tx, player, true);
    if ((await countActiveRoundsOfPair(tx, current.id)) > 0) throw new AppError('ROUND_IN_PROGRESS');
    const next = rotateSeeds(seedPairOf(current), clientSeed ?? current.clientSeed);
    const revealed = await revealPair(tx, current.id);
    await insertPairIfNone(tx, player, next.current);
    const fresh = await activePair(tx, player, false);
    // The pair now in use must be the one whose hash was shown as next: nothing else may slip in.
    if (!hasNextSeed(fresh) || fresh.serverSeedHash !== current.nextServerSeedHash) {
      throw new Error(`seed pair ${fresh.id} is not the committed next pair of ${current.id}`);
    }
    return { revealed: revealedView(revealed), current: pairView(fresh) };
  });
}

export async function seedHistory(db: Executor, player: TPlayer, page: number, pageSize: number) {
  const { rows, total } = await findRevealedPairs(db, player, {
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  return { list: rows.map(revealedView), total };
}
