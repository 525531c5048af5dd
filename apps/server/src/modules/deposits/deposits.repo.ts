import { and, asc, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { keysetPage } from '../../db/keyset.ts';
import { rowsOf } from '../../db/sql.ts';
import {
  depositOrders,
  memberMoneyProfile,
  paymentChannels,
  type TDepositOrderRow,
  type TDepositStatus,
  type TPaymentChannelRow,
} from './deposits.schema.ts';

/** SQL of the deposits module; every function takes the executor it runs in. */

/**
 * The channels a site offers: its own rows when it has any, otherwise the defaults (site_id NULL).
 * Switched-off channels are left out.
 */
export async function findSiteChannels(executor: Executor, siteId: bigint): Promise<TPaymentChannelRow[]> {
  const rows = await executor
    .select()
    .from(paymentChannels)
    .where(or(eq(paymentChannels.siteId, siteId), isNull(paymentChannels.siteId)))
    .orderBy(asc(paymentChannels.position), asc(paymentChannels.id));
  const own = rows.filter((row) => row.siteId === siteId);
  return (own.length > 0 ? own : rows).filter((row) => row.status === 1);
}

export async function findMemberProfile(executor: Executor, siteId: bigint, memberId: bigint, lock = false) {
  const query = executor
    .select()
    .from(memberMoneyProfile)
    .where(and(eq(memberMoneyProfile.id, memberId), eq(memberMoneyProfile.siteId, siteId)));
  const rows = lock ? await query.for('no key update') : await query;
  return rows[0] ?? null;
}

export type TPayerCheck = 'none' | 'own_cpf';

/** How the site's jurisdiction profile wants a deposit's payer proven (ADR 031). */
export async function findDepositPayerCheck(executor: Executor, siteId: bigint): Promise<TPayerCheck> {
  const rows = await rowsOf<{ payer_check: string }>(
    executor,
    sql`SELECT p.deposit_payer_check AS payer_check FROM sites s
        JOIN jurisdiction_profiles p ON p.jurisdiction = s.jurisdiction WHERE s.id = ${siteId.toString()}::bigint`,
  );
  return rows[0]?.payer_check === 'own_cpf' ? 'own_cpf' : 'none';
}

/** The order of a txid, unlocked (to prepare PSP queries before the locking transaction). */
export async function findOrderByTxid(executor: Executor, txid: string): Promise<TDepositOrderRow | null> {
  const rows = await executor.select().from(depositOrders).where(eq(depositOrders.txid, txid));
  return rows[0] ?? null;
}

/** Claims (job, period) for this process; false when another one already has it. */
export async function claimReconcileRun(executor: Executor, job: string, period: string): Promise<boolean> {
  const rows = await rowsOf<{ job: string }>(
    executor,
    sql`INSERT INTO psp_reconcile_runs (job, period) VALUES (${job}, ${period})
        ON CONFLICT DO NOTHING RETURNING job`,
  );
  return rows.length > 0;
}

export async function finishReconcileRun(
  executor: Executor,
  input: { job: string; period: string; seen: number; credited: number },
): Promise<void> {
  await executor.execute(sql`
    UPDATE psp_reconcile_runs SET finished_at = now(), seen = ${input.seen}, credited = ${input.credited}
    WHERE job = ${input.job} AND period = ${input.period}`);
}

export async function insertDepositOrder(
  executor: Executor,
  values: typeof depositOrders.$inferInsert,
): Promise<TDepositOrderRow> {
  const rows = await executor.insert(depositOrders).values(values).returning();
  return rows[0]!;
}

export async function updateDepositOrder(
  executor: Executor,
  id: bigint,
  values: Partial<typeof depositOrders.$inferInsert>,
): Promise<TDepositOrderRow> {
  const rows = await executor
    .update(depositOrders)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(depositOrders.id, id))
    .returning();
  return rows[0]!;
}

/** The order of a txid, locked for the rest of the transaction (one notification at a time). */
export async function lockOrderByTxid(executor: Executor, txid: string): Promise<TDepositOrderRow | null> {
  const rows = await executor
    .select()
    .from(depositOrders)
    .where(eq(depositOrders.txid, txid))
    .for('no key update');
  return rows[0] ?? null;
}

export async function findMemberOrder(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  orderNo: string,
): Promise<TDepositOrderRow | null> {
  const rows = await executor
    .select()
    .from(depositOrders)
    .where(
      and(
        eq(depositOrders.orderNo, orderNo),
        eq(depositOrders.memberId, memberId),
        eq(depositOrders.siteId, siteId),
      ),
    );
  return rows[0] ?? null;
}

export async function markRefundSettled(
  executor: Executor,
  endToEndId: string,
  refundId: string,
  status: 'returned' | 'failed',
): Promise<void> {
  await executor
    .update(depositOrders)
    .set({ refundStatus: status, updatedAt: sql`now()` })
    .where(and(eq(depositOrders.endToEndId, endToEndId), eq(depositOrders.refundId, refundId)));
}

/**
 * Marks unpaid charges past their expiry as expired. With `memberId` only that member's (the lazy
 * path of a read); without, all of them (the job). Returns how many changed.
 */
export async function expirePendingOrders(executor: Executor, memberId?: bigint): Promise<number> {
  const rows = await executor
    .update(depositOrders)
    .set({ status: 'expired', updatedAt: sql`now()` })
    .where(
      and(
        eq(depositOrders.status, 'pending'),
        lt(depositOrders.expiresAt, sql`now()`),
        memberId === undefined ? undefined : eq(depositOrders.memberId, memberId),
      ),
    )
    .returning({ id: depositOrders.id });
  return rows.length;
}

export interface OrderPageQuery {
  siteId: bigint;
  memberId: bigint;
  before: bigint | null;
  after: bigint | null;
  limit: number;
  since: Date | null;
  status: TDepositStatus | null;
}

/** A keyset page, newest first, plus whether older / newer rows exist beyond it. */
export async function findMemberOrders(executor: Executor, q: OrderPageQuery) {
  const filters = and(
    eq(depositOrders.siteId, q.siteId),
    eq(depositOrders.memberId, q.memberId),
    q.since ? gte(depositOrders.createdAt, q.since) : undefined,
    q.status ? eq(depositOrders.status, q.status) : undefined,
  );
  return keysetPage(
    q,
    depositOrders.id,
    (bound, order, limit) =>
      executor.select().from(depositOrders).where(and(filters, bound)).orderBy(order).limit(limit),
    async (bound) =>
      (
        await executor
          .select({ id: depositOrders.id })
          .from(depositOrders)
          .where(and(filters, bound))
          .limit(1)
      ).length > 0,
    (row) => row.id,
  );
}

/** Takes the transaction-scoped advisory lock `key` if no other transaction holds it. */
export async function tryExpiryLock(tx: Executor, key: number): Promise<boolean> {
  const locked = (await tx.execute(sql`SELECT pg_try_advisory_xact_lock(${key}) AS locked`)) as unknown as {
    rows: { locked: boolean }[];
  };
  return locked.rows[0]?.locked === true;
}
