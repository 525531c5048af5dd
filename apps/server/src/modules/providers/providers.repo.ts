import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { games } from '../games/games.schema.ts';
import {
  providerRounds,
  providerSessions,
  providerTransactions,
  type TProviderRoundRow,
  type TProviderSessionRow,
  type TProviderTransactionKind,
  type TProviderTransactionRow,
} from './providers.schema.ts';

export async function insertSession(
  executor: Executor,
  input: {
    aggregator: string;
    tokenHash: string;
    siteId: bigint;
    memberId: bigint;
    gameId: bigint;
    expiresAt: Date;
  },
): Promise<TProviderSessionRow> {
  const [row] = await executor.insert(providerSessions).values(input).returning();
  if (!row) throw new Error('provider session insert returned nothing');
  return row;
}

/**
 * Deletes up to `limit` sessions that expired over a day ago and never carried a round (a launch
 * nobody played); called as sessions open, so the table stays bounded without a separate job.
 */
export async function deleteStaleSessions(executor: Executor, limit: number): Promise<void> {
  await executor.execute(sql`DELETE FROM provider_sessions WHERE id IN (
    SELECT s.id FROM provider_sessions s
    WHERE s.expires_at < now() - interval '1 day'
      AND NOT EXISTS (SELECT 1 FROM provider_rounds r WHERE r.session_id = s.id)
    LIMIT ${limit})`);
}

export type TSessionWithGame = TProviderSessionRow & { gameCode: string; expired: boolean };

/** The session of a token (by its hash), with its game's code and whether it has expired. */
export async function findSessionByTokenHash(
  executor: Executor,
  aggregator: string,
  tokenHash: string,
): Promise<TSessionWithGame | null> {
  const [row] = await executor
    .select({
      session: providerSessions,
      gameCode: games.code,
      expired: sql<boolean>`${providerSessions.expiresAt} <= now()`,
    })
    .from(providerSessions)
    .innerJoin(games, eq(games.id, providerSessions.gameId))
    .where(and(eq(providerSessions.aggregator, aggregator), eq(providerSessions.tokenHash, tokenHash)))
    .limit(1);
  return row ? { ...row.session, gameCode: row.gameCode, expired: row.expired } : null;
}

/**
 * Claims a transaction id for this call: inserts its row unless the id is taken. A concurrent call
 * with the same id waits here for the other transaction, so exactly one of them proceeds; null
 * means the id was already taken (read it with findTransaction).
 */
export async function claimTransaction(
  executor: Executor,
  input: {
    aggregator: string;
    transactionRef: string;
    kind: TProviderTransactionKind;
    siteId: bigint;
    memberId: bigint;
    referenceRef?: string | null;
    amountMinor?: bigint;
    requestHash: string;
  },
): Promise<TProviderTransactionRow | null> {
  const [row] = await executor.insert(providerTransactions).values(input).onConflictDoNothing().returning();
  return row ?? null;
}

export async function findTransaction(
  executor: Executor,
  aggregator: string,
  transactionRef: string,
  options: { lock?: boolean } = {},
): Promise<TProviderTransactionRow | null> {
  const query = executor
    .select()
    .from(providerTransactions)
    .where(
      and(
        eq(providerTransactions.aggregator, aggregator),
        eq(providerTransactions.transactionRef, transactionRef),
      ),
    )
    .limit(1);
  const [row] = options.lock ? await query.for('no key update') : await query;
  return row ?? null;
}

export async function completeTransaction(
  executor: Executor,
  id: bigint,
  update: { roundId?: bigint | null; transferId?: bigint | null; response: Record<string, unknown> },
): Promise<void> {
  await executor.update(providerTransactions).set(update).where(eq(providerTransactions.id, id));
}

export async function markRolledBack(executor: Executor, betId: bigint, rollbackId: bigint): Promise<void> {
  await executor
    .update(providerTransactions)
    .set({ rolledBackBy: rollbackId })
    .where(eq(providerTransactions.id, betId));
}

export async function countWins(executor: Executor, roundId: bigint): Promise<number> {
  const [row] = await executor
    .select({ n: sql<string>`count(*)` })
    .from(providerTransactions)
    .where(and(eq(providerTransactions.roundId, roundId), eq(providerTransactions.kind, 'win')));
  return Number(row?.n ?? 0);
}

/** Opens the round unless it exists (ON CONFLICT), then locks and returns it. */
export async function openRoundForUpdate(
  executor: Executor,
  input: {
    aggregator: string;
    roundRef: string;
    siteId: bigint;
    memberId: bigint;
    gameId: bigint;
    sessionId: bigint;
  },
): Promise<TProviderRoundRow> {
  await executor.insert(providerRounds).values(input).onConflictDoNothing();
  const round = await findRoundForUpdate(executor, input.aggregator, input.roundRef);
  if (!round) throw new Error(`provider round ${input.roundRef} vanished after insert`);
  return round;
}

export async function findRoundForUpdate(
  executor: Executor,
  aggregator: string,
  roundRef: string,
): Promise<TProviderRoundRow | null> {
  const [row] = await executor
    .select()
    .from(providerRounds)
    .where(and(eq(providerRounds.aggregator, aggregator), eq(providerRounds.roundRef, roundRef)))
    .limit(1)
    .for('no key update');
  return row ?? null;
}

export async function findRoundById(executor: Executor, id: bigint): Promise<TProviderRoundRow | null> {
  const [row] = await executor.select().from(providerRounds).where(eq(providerRounds.id, id)).limit(1);
  return row ?? null;
}

export async function updateRound(
  executor: Executor,
  id: bigint,
  update: {
    stakeMinor?: bigint;
    payoutMinor?: bigint;
    refundedMinor?: bigint;
    status?: 'open' | 'settled' | 'rolled_back';
  },
): Promise<void> {
  const closes = update.status !== undefined && update.status !== 'open';
  await executor
    .update(providerRounds)
    .set({ ...update, ...(closes ? { settledAt: sql`now()` } : {}) })
    .where(eq(providerRounds.id, id));
}
