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
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Inserts a pair unless the player already has an active one (the partial unique index decides). */
export async function insertPairIfNone(
  executor: Executor,
  player: TPlayer,
  pair: { serverSeed: string; serverSeedHash: string; clientSeed: string },
): Promise<void> {
  await executor
    .insert(fairnessSeedPairs)
    .values({ siteId: player.siteId, ...ownerColumns(player), ...pair })
    .onConflictDoNothing();
}

/**
 * Takes the next nonce of the player's active pair in one statement: the UPDATE locks the pair row
 * until commit (so the player's bets queue here, one nonce each) and returns the pair with
 * `nextNonce` already advanced, i.e. the nonce taken is `nextNonce - 1`. Null when the player has
 * no active pair yet.
 */
export async function takeNextNonce(executor: Executor, player: TPlayer): Promise<TSeedPairRow | null> {
  const [row] = await executor
    .update(fairnessSeedPairs)
    .set({ nextNonce: sql`${fairnessSeedPairs.nextNonce} + 1` })
    .where(and(ownedBy(fairnessSeedPairs, player), isNull(fairnessSeedPairs.revealedAt)))
    .returning();
  return row ?? null;
}

export async function advanceNonce(executor: Executor, pairId: bigint): Promise<void> {
  await executor
    .update(fairnessSeedPairs)
    .set({ nextNonce: sql`${fairnessSeedPairs.nextNonce} + 1` })
    .where(eq(fairnessSeedPairs.id, pairId));
}

export async function revealPair(executor: Executor, pairId: bigint): Promise<TSeedPairRow> {
  const [row] = await executor
    .update(fairnessSeedPairs)
    .set({ revealedAt: sql`now()` })
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
  const [row] = options.lock ? await query.for('update', { of: gameRounds }) : await query;
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

/** Inserts an active round; settlement (or the next step) updates it in the same transaction. */
export async function insertRound(executor: Executor, player: TPlayer, round: TNewRound): Promise<bigint> {
  const [row] = await executor
    .insert(gameRounds)
    .values({ siteId: player.siteId, ...ownerColumns(player), status: 'active', ...round })
    .returning({ id: gameRounds.id });
  if (!row) throw new Error('round insert returned nothing');
  return row.id;
}

/**
 * Inserts an active round unless the player already has one under this idempotency key (then null:
 * the caller answers the retry from that round). A member's round also marks the game as recently
 * played, in the same statement: one round trip where the bet path used to spend two.
 */
export async function insertRoundOnce(
  executor: Executor,
  player: TPlayer,
  round: TNewRound,
): Promise<{ id: bigint } | null> {
  const owner = player.kind === 'member' ? gameRounds.memberId : gameRounds.demoSessionId;
  const insert = executor
    .insert(gameRounds)
    .values({ siteId: player.siteId, ...ownerColumns(player), status: 'active', ...round })
    .onConflictDoNothing({ target: [owner, gameRounds.idempotencyKey], where: isNotNull(owner) })
    .returning({ id: gameRounds.id });
  const query =
    player.kind === 'member'
      ? sql`WITH inserted AS (${insert.getSQL()}),
          recent AS (
            INSERT INTO ${memberRecentGames} (member_id, game_id)
            SELECT ${player.memberId.toString()}::bigint, ${round.gameId.toString()}::bigint FROM inserted
            ON CONFLICT (member_id, game_id) DO UPDATE SET played_at = now())
          SELECT id FROM inserted`
      : insert.getSQL();
  const result = (await executor.execute(query)) as unknown as { rows: { id: unknown }[] };
  const row = result.rows[0];
  return row ? { id: BigInt(String(row.id)) } : null;
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
