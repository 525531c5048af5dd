import { createSeedPair, rotateSeeds } from '@sorte/fairness';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { TSeedPairRow } from '../games/games.schema.ts';
import {
  countActiveRoundsOfPair,
  findActivePair,
  findRevealedPairs,
  insertPairIfNone,
  revealPair,
  type TPlayer,
} from './originals.repo.ts';

/**
 * The player's provably-fair seed pair: the server seed is committed by its SHA-256 before any bet,
 * the client seed is the player's, every bet takes the next nonce. Changing the client seed rotates
 * the pair, which reveals the old server seed (the commitment can then be checked) and commits a
 * new one; a stepped round still open under the pair would be exposed by the reveal, so it blocks.
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

/** Commits a first seed pair for a player who has none (a no-op when one exists). */
export async function ensurePair(executor: Executor, player: TPlayer): Promise<void> {
  await insertPairIfNone(executor, player, createSeedPair());
}

export function pairView(pair: TSeedPairRow) {
  return {
    server_seed_hash: pair.serverSeedHash,
    client_seed: pair.clientSeed,
    nonce: Number(pair.nextNonce),
  };
}

export function revealedView(pair: TSeedPairRow) {
  return {
    server_seed: pair.serverSeed,
    server_seed_hash: pair.serverSeedHash,
    client_seed: pair.clientSeed,
    bets: Number(pair.nextNonce),
    created_at: pair.createdAt.toISOString(),
    revealed_at: (pair.revealedAt ?? new Date()).toISOString(),
  };
}

export async function getSeeds(db: Executor, player: TPlayer) {
  return db.transaction(async (tx) => pairView(await activePair(tx, player, false)));
}

/** Reveals the current server seed and starts a new pair (with a new client seed when given). */
export async function rotate(db: Executor, player: TPlayer, clientSeed: string | undefined) {
  return db.transaction(async (tx) => {
    const current = await activePair(tx, player, true);
    if ((await countActiveRoundsOfPair(tx, current.id)) > 0) throw new AppError('ROUND_IN_PROGRESS');
    const next = rotateSeeds(
      {
        serverSeed: current.serverSeed,
        serverSeedHash: current.serverSeedHash,
        clientSeed: current.clientSeed,
        nextNonce: Number(current.nextNonce),
      },
      clientSeed ?? current.clientSeed,
    );
    const revealed = await revealPair(tx, current.id);
    await insertPairIfNone(tx, player, next.current);
    const fresh = await activePair(tx, player, false);
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
