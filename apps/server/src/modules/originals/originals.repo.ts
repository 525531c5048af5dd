import { and, desc, eq, gt, gte, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import {
  demoSessions,
  fairnessSeedPairs,
  gameProviders,
  gameRounds,
  games,
  memberRecentGames,
  type TDemoSessionRow,
  type TGameRoundRow,
  type TSeedPairRow,
} from '../games/games.schema.ts';

/** Who is playing: a logged-in member (real money) or a guest's demo session (fun money). */
export type TPlayer =
  | { kind: 'member'; siteId: bigint; memberId: bigint }
  | { kind: 'demo'; siteId: bigint; demoSessionId: bigint };

function ownedBy(table: { memberId: AnyPgColumn; demoSessionId: AnyPgColumn }, player: TPlayer): SQL {
  return player.kind === 'member'
    ? eq(table.memberId, player.memberId)
    : eq(table.demoSessionId, player.demoSessionId);
}

function ownerColumns(player: TPlayer) {
  return player.kind === 'member'
    ? { memberId: player.memberId, demoSessionId: null }
    : { memberId: null, demoSessionId: player.demoSessionId };
}

// ---------------------------------------------------------------------------------------------
// Seed pairs

export async function findActivePair(
  executor: Executor,
  player: TPlayer,
  options: { lock: boolean },
): Promise<TSeedPairRow | null> {
  const query = executor
    .select()
    .from(fairnessSeedPairs)
    .where(and(ownedBy(fairnessSeedPairs, player), isNull(fairnessSeedPairs.revealedAt)))
    .limit(1);
  const [row] = options.lock ? await query.for('no key update') : await query;
  return row ?? null;
}

/** Inserts a pair unless the player already has an active one (the partial unique index decides). */
export async function insertPairIfNone(
  executor: Executor,
  player: TPlayer,
  pair: {
    serverSeed: string;
    serverSeedHash: string;
    clientSeed: string;
    nextServerSeed: string;
    nextServerSeedHash: string;
  },
): Promise<void> {
  await executor
    .insert(fairnessSeedPairs)
    .values({
      siteId: player.siteId,
      ...ownerColumns(player),
      serverSeed: pair.serverSeed,
      serverSeedHash: pair.serverSeedHash,
      clientSeed: pair.clientSeed,
      nextServerSeed: pair.nextServerSeed,
      nextServerSeedHash: pair.nextServerSeedHash,
    })
    .onConflictDoNothing();
}

/**
 * Commits a next server seed to an active pair that has none (pairs from before migration 0014).
 * Null when the pair already has one (a concurrent request committed it first) or was revealed.
 */
export async function commitNextSeed(
  executor: Executor,
  pairId: bigint,
  next: { nextServerSeed: string; nextServerSeedHash: string },
): Promise<TSeedPairRow | null> {
  const [row] = await executor
    .update(fairnessSeedPairs)
    .set(next)
    .where(
      and(
        eq(fairnessSeedPairs.id, pairId),
        isNull(fairnessSeedPairs.nextServerSeed),
        isNull(fairnessSeedPairs.revealedAt),
      ),
    )
    .returning();
  return row ?? null;
}

/** Reveals a pair; its next seed (now the new pair's active seed) is cleared, its hash kept. */
export async function revealPair(executor: Executor, pairId: bigint): Promise<TSeedPairRow> {
  const [row] = await executor
    .update(fairnessSeedPairs)
    .set({ revealedAt: sql`now()`, nextServerSeed: null })
    .where(and(eq(fairnessSeedPairs.id, pairId), isNull(fairnessSeedPairs.revealedAt)))
    .returning();
  if (!row) throw new Error(`seed pair ${pairId} was not active`);
  return row;
}

export async function findPairById(executor: Executor, pairId: bigint): Promise<TSeedPairRow | null> {
  const [row] = await executor.select().from(fairnessSeedPairs).where(eq(fairnessSeedPairs.id, pairId));
  return row ?? null;
}

export async function findRevealedPairs(
  executor: Executor,
  player: TPlayer,
  page: { offset: number; limit: number },
): Promise<{ rows: TSeedPairRow[]; total: number }> {
  const where = and(ownedBy(fairnessSeedPairs, player), isNotNull(fairnessSeedPairs.revealedAt));
  const rows = await executor
    .select()
    .from(fairnessSeedPairs)
    .where(where)
    .orderBy(desc(fairnessSeedPairs.id))
    .limit(page.limit)
    .offset(page.offset);
  const [count] = await executor.select({ n: sql<string>`count(*)` }).from(fairnessSeedPairs).where(where);
  return { rows, total: Number(count?.n ?? 0) };
}

// ---------------------------------------------------------------------------------------------
// Demo sessions

export async function insertDemoSession(
  executor: Executor,
  input: { siteId: bigint; tokenHash: string; balanceMinor: bigint; expiresAt: Date },
): Promise<TDemoSessionRow> {
  const [row] = await executor.insert(demoSessions).values(input).returning();
  if (!row) throw new Error('demo session insert returned nothing');
  return row;
}

/**
 * Deletes up to `limit` sessions that expired over a day ago (their rounds and seed pairs go with
 * them: demo play is not recorded for the long term). Called as new sessions start, so the table
 * stays bounded without a separate job.
 */
export async function deleteExpiredDemoSessions(executor: Executor, limit: number): Promise<void> {
  await executor.execute(sql`DELETE FROM demo_sessions WHERE id IN (
    SELECT id FROM demo_sessions WHERE expires_at < now() - interval '1 day' LIMIT ${limit})`);
}

export async function findDemoSession(
  executor: Executor,
  siteId: bigint,
  tokenHash: string,
): Promise<TDemoSessionRow | null> {
  const [row] = await executor
    .select()
    .from(demoSessions)
    .where(
      and(
        eq(demoSessions.siteId, siteId),
        eq(demoSessions.tokenHash, tokenHash),
        gt(demoSessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function findDemoBalance(executor: Executor, demoSessionId: bigint): Promise<bigint> {
  const [row] = await executor
    .select({ balanceMinor: demoSessions.balanceMinor })
    .from(demoSessions)
    .where(eq(demoSessions.id, demoSessionId));
  return row?.balanceMinor ?? 0n;
}

/** Takes fun money; null when the session holds less than the amount (nothing changes). */
export async function debitDemo(executor: Executor, demoSessionId: bigint, amountMinor: bigint) {
  const [row] = await executor
    .update(demoSessions)
    .set({ balanceMinor: sql`${demoSessions.balanceMinor} - ${amountMinor.toString()}::bigint` })
    .where(and(eq(demoSessions.id, demoSessionId), gte(demoSessions.balanceMinor, amountMinor)))
    .returning({ balanceMinor: demoSessions.balanceMinor });
  return row?.balanceMinor ?? null;
}

export async function creditDemo(executor: Executor, demoSessionId: bigint, amountMinor: bigint) {
  const [row] = await executor
    .update(demoSessions)
    .set({ balanceMinor: sql`${demoSessions.balanceMinor} + ${amountMinor.toString()}::bigint` })
    .where(eq(demoSessions.id, demoSessionId))
    .returning({ balanceMinor: demoSessions.balanceMinor });
  if (!row) throw new Error(`demo session ${demoSessionId} vanished`);
  return row.balanceMinor;
}

// ---------------------------------------------------------------------------------------------
// Rounds

export type TRoundWithGame = TGameRoundRow & {
  gameName: string;
  providerName: string;
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  pairRevealed: boolean;
};

function selectRounds(executor: Executor) {
  return executor
    .select({
      round: gameRounds,
      gameName: games.name,
      providerName: gameProviders.name,
      serverSeed: fairnessSeedPairs.serverSeed,
      serverSeedHash: fairnessSeedPairs.serverSeedHash,
      clientSeed: fairnessSeedPairs.clientSeed,
      revealedAt: fairnessSeedPairs.revealedAt,
    })
    .from(gameRounds)
    .innerJoin(games, eq(games.id, gameRounds.gameId))
    .innerJoin(gameProviders, eq(gameProviders.id, games.providerId))
    .innerJoin(fairnessSeedPairs, eq(fairnessSeedPairs.id, gameRounds.seedPairId));
}

type TSelectedRound = Awaited<ReturnType<ReturnType<typeof selectRounds>['where']>>[number];

function flattenRound(row: TSelectedRound): TRoundWithGame {
  return {
    ...row.round,
    gameName: row.gameName,
    providerName: row.providerName,
    serverSeed: row.serverSeed,
    serverSeedHash: row.serverSeedHash,
    clientSeed: row.clientSeed,
    pairRevealed: row.revealedAt !== null,
  };
}

export async function findRoundByKey(
  executor: Executor,
  player: TPlayer,
  idempotencyKey: string,
): Promise<TRoundWithGame | null> {
  const [row] = await selectRounds(executor)
    .where(and(ownedBy(gameRounds, player), eq(gameRounds.idempotencyKey, idempotencyKey)))
    .limit(1);
  return row ? flattenRound(row) : null;
}

export async function findRound(
  executor: Executor,
  player: TPlayer,
  roundId: bigint,
  options: { lock?: boolean } = {},
): Promise<TRoundWithGame | null> {
  const query = selectRounds(executor)
    .where(and(ownedBy(gameRounds, player), eq(gameRounds.id, roundId)))
    .limit(1);
  const [row] = options.lock ? await query.for('no key update', { of: gameRounds }) : await query;
  return row ? flattenRound(row) : null;
}

export async function findActiveRound(
  executor: Executor,
  player: TPlayer,
  gameCode: string,
): Promise<TRoundWithGame | null> {
  const [row] = await selectRounds(executor)
    .where(
      and(ownedBy(gameRounds, player), eq(gameRounds.gameCode, gameCode), eq(gameRounds.status, 'active')),
    )
    .limit(1);
  return row ? flattenRound(row) : null;
}

export async function countActiveRoundsOfPair(executor: Executor, pairId: bigint): Promise<number> {
  const [row] = await executor
    .select({ n: sql<string>`count(*)` })
    .from(gameRounds)
    .where(and(eq(gameRounds.seedPairId, pairId), eq(gameRounds.status, 'active')));
  return Number(row?.n ?? 0);
}

export type TNewRound = {
  gameId: bigint;
  gameCode: string;
  idempotencyKey: string;
  requestHash: string;
  stakeMinor: bigint;
  params: Record<string, unknown>;
  seedPairId: bigint;
  nonce: bigint;
};

/** The seed pair a new round was opened under, with the nonce it took. */
export type TOpenedPair = {
  id: bigint;
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  nonce: bigint;
};

/**
 * Opens a round in ONE statement: takes the next nonce of the player's active seed pair (the
 * UPDATE locks the pair until commit, so the player's bets queue here one nonce each), inserts the
 * round under that nonce, and marks a member's game as recently played. Returns null when the
 * player has no active pair yet, and `roundId: null` when the round was not inserted because a
 * unique index refused it: the idempotency key is taken (a retry) or, for Mines and Hi-Lo, the
 * player already has an open round of the game. Either way the caller rolls back (the nonce too).
 */
export async function openRoundOnce(
  executor: Executor,
  player: TPlayer,
  round: Omit<TNewRound, 'seedPairId' | 'nonce'>,
  /** Reads to make in the same statement (e.g. the responsible-gaming gate), answered in `also`. */
  also?: { ctes: SQL; columns: SQL },
): Promise<{ pair: TOpenedPair; roundId: bigint | null; also: Record<string, unknown> } | null> {
  const member = player.kind === 'member' ? player.memberId.toString() : null;
  const demo = player.kind === 'demo' ? player.demoSessionId.toString() : null;
  const owner = member !== null ? sql`member_id = ${member}::bigint` : sql`demo_session_id = ${demo}::bigint`;
  const recent =
    member !== null
      ? sql`, recent AS (
          INSERT INTO ${memberRecentGames} (member_id, game_id)
          SELECT ${member}::bigint, ${round.gameId.toString()}::bigint FROM inserted
          ON CONFLICT (member_id, game_id) DO UPDATE SET played_at = now())`
      : sql``;
  const rows = await rowsOf<{
    id: unknown;
    server_seed: string;
    server_seed_hash: string;
    client_seed: string;
    next_nonce: unknown;
    round_id: unknown;
  }>(
    executor,
    sql`WITH pair AS (
          UPDATE ${fairnessSeedPairs} SET next_nonce = next_nonce + 1
          WHERE ${owner} AND revealed_at IS NULL
          RETURNING id, server_seed, server_seed_hash, client_seed, next_nonce),
        inserted AS (
          INSERT INTO ${gameRounds} (site_id, member_id, demo_session_id, game_id, game_code, status,
            idempotency_key, request_hash, stake_minor, params, seed_pair_id, nonce)
          SELECT ${player.siteId.toString()}::bigint, ${member}::bigint, ${demo}::bigint,
            ${round.gameId.toString()}::bigint, ${round.gameCode}, 'active', ${round.idempotencyKey},
            ${round.requestHash}, ${round.stakeMinor.toString()}::bigint, ${JSON.stringify(round.params)}::jsonb,
            pair.id, pair.next_nonce - 1
          FROM pair
          ON CONFLICT DO NOTHING
          RETURNING id)${recent}${also ? sql`, ${also.ctes}` : sql``}
        SELECT pair.*, (SELECT id FROM inserted) AS round_id${also ? sql`, ${also.columns}` : sql``} FROM pair`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    pair: {
      id: BigInt(String(row.id)),
      serverSeed: row.server_seed,
      serverSeedHash: row.server_seed_hash,
      clientSeed: row.client_seed,
      nonce: BigInt(String(row.next_nonce)) - 1n,
    },
    roundId: row.round_id === null || row.round_id === undefined ? null : BigInt(String(row.round_id)),
    also: row as Record<string, unknown>,
  };
}

/** Rows of a raw query, identical on node-postgres and PGlite (both answer `{ rows }`). */
async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  return ((await executor.execute(query)) as unknown as { rows: T[] }).rows;
}

export type TRoundUpdate = {
  settle: boolean;
  payoutMinor: bigint;
  multiplierNum: bigint;
  multiplierDen: bigint;
  multiplier: string;
  params: Record<string, unknown>;
  steps: unknown[];
  outcome: Record<string, unknown>;
  betTransferId?: bigint | null;
  winTransferId?: bigint | null;
};

function roundChanges(update: TRoundUpdate) {
  return {
    ...(update.settle ? { status: 'settled' as const, settledAt: sql`now()` } : {}),
    payoutMinor: update.payoutMinor,
    multiplierNum: update.multiplierNum.toString(),
    multiplierDen: update.multiplierDen.toString(),
    multiplier: update.multiplier,
    params: update.params,
    steps: update.steps,
    outcome: update.outcome,
    ...(update.betTransferId !== undefined ? { betTransferId: update.betTransferId } : {}),
    ...(update.winTransferId !== undefined ? { winTransferId: update.winTransferId } : {}),
  };
}

/**
 * Updates an ACTIVE round and returns it as stored (so the answer needs no read after commit);
 * null when it was already settled (so nothing settles twice).
 */
export async function updateActiveRound(
  executor: Executor,
  roundId: bigint,
  update: TRoundUpdate,
): Promise<TGameRoundRow | null> {
  const [row] = await executor
    .update(gameRounds)
    .set(roundChanges(update))
    .where(and(eq(gameRounds.id, roundId), eq(gameRounds.status, 'active')))
    .returning();
  return row ?? null;
}
