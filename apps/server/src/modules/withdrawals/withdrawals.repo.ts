import type { TWithdrawalStatus } from '@sorte/contract';
import { and, asc, desc, eq, gte, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { keysetPage } from '../../db/keyset.ts';
import { memberMoneyProfile } from '../deposits/deposits.schema.ts';
import {
  type TWithdrawalChannelFeeRow,
  type TWithdrawalOrderRow,
  type TWithdrawalSettingsRow,
  withdrawalChannelFees,
  withdrawalOrders,
  withdrawalSettings,
  withdrawPasswordFailures,
} from './withdrawals.schema.ts';

/** SQL of the withdrawals module; every function takes the executor it runs in. */

/** The site's withdrawal rule, or the default one (site_id NULL). */
export async function findSettings(executor: Executor, siteId: bigint): Promise<TWithdrawalSettingsRow> {
  const rows = await executor
    .select()
    .from(withdrawalSettings)
    .where(or(eq(withdrawalSettings.siteId, siteId), isNull(withdrawalSettings.siteId)));
  const row = rows.find((r) => r.siteId === siteId) ?? rows.find((r) => r.siteId === null);
  if (!row) throw new Error('withdrawal_settings has no default row');
  return row;
}

/**
 * The fee rule of a payout channel on the site: the site's own row, else the default row, else
 * none at all (a channel nobody priced is free, the way the default PIX row is).
 */
export async function findChannelFee(
  executor: Executor,
  siteId: bigint,
  channel: string,
): Promise<Pick<TWithdrawalChannelFeeRow, 'feeBps' | 'feeMinMinor'>> {
  const rows = await executor
    .select()
    .from(withdrawalChannelFees)
    .where(
      and(
        eq(withdrawalChannelFees.channel, channel),
        or(eq(withdrawalChannelFees.siteId, siteId), isNull(withdrawalChannelFees.siteId)),
      ),
    );
  const row = rows.find((r) => r.siteId === siteId) ?? rows.find((r) => r.siteId === null);
  return row ?? { feeBps: 0, feeMinMinor: 0n };
}

/** The newest failures of the member inside the window, newest first (at most `limit`). */
export async function findRecentFailures(executor: Executor, memberId: bigint, since: Date, limit: number) {
  return executor
    .select({ createdAt: withdrawPasswordFailures.createdAt })
    .from(withdrawPasswordFailures)
    .where(
      and(eq(withdrawPasswordFailures.memberId, memberId), gte(withdrawPasswordFailures.createdAt, since)),
    )
    .orderBy(desc(withdrawPasswordFailures.createdAt))
    .limit(limit);
}

export async function insertFailure(executor: Executor, memberId: bigint): Promise<void> {
  await executor.insert(withdrawPasswordFailures).values({ memberId });
}

export async function clearFailures(executor: Executor, memberId: bigint): Promise<void> {
  await executor.delete(withdrawPasswordFailures).where(eq(withdrawPasswordFailures.memberId, memberId));
}

/**
 * Locks the member row: one withdrawal request of a member at a time (daily count, hold). NO KEY
 * UPDATE: the member's bets, deposits and notifications written meanwhile take KEY SHARE on this
 * row through their foreign keys while they hold the member's accounts, which this request locks
 * next; an UPDATE-strength lock would make the two wait on each other (docs/decisions/029-one-lock-order.md).
 */
export async function lockMemberRow(executor: Executor, siteId: bigint, memberId: bigint) {
  const rows = await executor
    .select()
    .from(memberMoneyProfile)
    .where(and(eq(memberMoneyProfile.id, memberId), eq(memberMoneyProfile.siteId, siteId)))
    .for('no key update');
  return rows[0] ?? null;
}

export async function findMemberProfile(executor: Executor, siteId: bigint, memberId: bigint) {
  const rows = await executor
    .select()
    .from(memberMoneyProfile)
    .where(and(eq(memberMoneyProfile.id, memberId), eq(memberMoneyProfile.siteId, siteId)));
  return rows[0] ?? null;
}

/** Stores the member's first withdrawal password (set with the first withdrawal request). */
export async function setWithdrawPasswordHash(
  executor: Executor,
  memberId: bigint,
  hash: string,
): Promise<void> {
  await executor
    .update(memberMoneyProfile)
    .set({ qkPwdHash: hash })
    .where(and(eq(memberMoneyProfile.id, memberId), isNull(memberMoneyProfile.qkPwdHash)));
}

/** Requests since `since` that still count against the daily limit (rejected and cancelled ones do not). */
/** What the member has asked to withdraw so far (amounts of every order not rejected, failed or cancelled). */
export async function sumWithdrawnMinor(executor: Executor, memberId: bigint): Promise<bigint> {
  const rows = await executor
    .select({ total: sql<string>`coalesce(sum(${withdrawalOrders.amountMinor}), 0)::text` })
    .from(withdrawalOrders)
    .where(
      and(
        eq(withdrawalOrders.memberId, memberId),
        notInArray(withdrawalOrders.status, ['rejected', 'failed', 'cancelled']),
      ),
    );
  return BigInt(rows[0]?.total ?? '0');
}

export async function countRequestsSince(executor: Executor, memberId: bigint, since: Date): Promise<number> {
  const rows = await executor
    .select({ n: sql<string>`count(*)` })
    .from(withdrawalOrders)
    .where(
      and(
        eq(withdrawalOrders.memberId, memberId),
        gte(withdrawalOrders.createdAt, since),
        notInArray(withdrawalOrders.status, ['rejected', 'cancelled']),
      ),
    );
  return Number(rows[0]?.n ?? 0);
}

export async function insertOrder(
  executor: Executor,
  values: typeof withdrawalOrders.$inferInsert,
): Promise<TWithdrawalOrderRow> {
  const rows = await executor.insert(withdrawalOrders).values(values).returning();
  return rows[0]!;
}

export async function updateOrder(
  executor: Executor,
  id: bigint,
  values: Partial<typeof withdrawalOrders.$inferInsert>,
): Promise<TWithdrawalOrderRow> {
  const rows = await executor
    .update(withdrawalOrders)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(withdrawalOrders.id, id))
    .returning();
  return rows[0]!;
}

export async function lockOrderByNo(
  executor: Executor,
  siteId: bigint,
  orderNo: string,
): Promise<TWithdrawalOrderRow | null> {
  const rows = await executor
    .select()
    .from(withdrawalOrders)
    .where(and(eq(withdrawalOrders.orderNo, orderNo), eq(withdrawalOrders.siteId, siteId)))
    .for('no key update');
  return rows[0] ?? null;
}

/** The member's order made under an Idempotency-Key, if any. */
export async function findOrderByKey(
  executor: Executor,
  memberId: bigint,
  idempotencyKey: string,
): Promise<TWithdrawalOrderRow | null> {
  const rows = await executor
    .select()
    .from(withdrawalOrders)
    .where(and(eq(withdrawalOrders.memberId, memberId), eq(withdrawalOrders.idempotencyKey, idempotencyKey)));
  return rows[0] ?? null;
}

export async function lockOrderByPayoutId(
  executor: Executor,
  payoutId: string,
): Promise<TWithdrawalOrderRow | null> {
  const rows = await executor
    .select()
    .from(withdrawalOrders)
    .where(eq(withdrawalOrders.payoutId, payoutId))
    .for('no key update');
  return rows[0] ?? null;
}

/** Orders waiting for the PSP longer than `olderThan` (the payout sync job). */
export async function findStalePaying(executor: Executor, olderThan: Date, limit: number) {
  return executor
    .select()
    .from(withdrawalOrders)
    .where(and(eq(withdrawalOrders.status, 'paying'), lt(withdrawalOrders.updatedAt, olderThan)))
    .orderBy(asc(withdrawalOrders.id))
    .limit(limit);
}

export interface WithdrawalPageQuery {
  siteId: bigint;
  memberId: bigint | null;
  before: bigint | null;
  after: bigint | null;
  limit: number;
  since: Date | null;
  statuses: TWithdrawalStatus[] | null;
}

/** A keyset page, newest first, plus whether older / newer rows exist beyond it. */
export async function findOrders(executor: Executor, q: WithdrawalPageQuery) {
  const filters = and(
    eq(withdrawalOrders.siteId, q.siteId),
    q.memberId !== null ? eq(withdrawalOrders.memberId, q.memberId) : undefined,
    q.since ? gte(withdrawalOrders.createdAt, q.since) : undefined,
    q.statuses ? inArray(withdrawalOrders.status, q.statuses) : undefined,
  );
  return keysetPage(
    q,
    withdrawalOrders.id,
    (bound, order, limit) =>
      executor
        .select({ order: withdrawalOrders, username: memberMoneyProfile.username })
        .from(withdrawalOrders)
        .innerJoin(memberMoneyProfile, eq(memberMoneyProfile.id, withdrawalOrders.memberId))
        .where(and(filters, bound))
        .orderBy(order)
        .limit(limit),
    async (bound) =>
      (
        await executor
          .select({ id: withdrawalOrders.id })
          .from(withdrawalOrders)
          .where(and(filters, bound))
          .limit(1)
      ).length > 0,
    (row) => row.order.id,
  );
}
