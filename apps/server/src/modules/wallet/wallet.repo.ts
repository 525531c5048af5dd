import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Executor, Tx } from '../../db/client.ts';
import {
  PLAYER_ACCOUNT_KINDS,
  SYSTEM_ACCOUNT_KINDS,
  type TPlayerAccountKind,
  type TSystemAccountKind,
  type TTransferKind,
  type TWalletAccountRow,
  type TWalletTransferRow,
  walletAccounts,
  walletTransfers,
} from './wallet.schema.ts';

/**
 * SQL of the wallet. Every function takes the executor (database or open transaction) it runs in;
 * none of them decides anything about money: that is wallet.service.ts.
 */

/**
 * Runs `work` atomically: in a new transaction on a database, or as part of the caller's open
 * transaction, committing or rolling back with the caller's other writes (e.g. a bet and its round
 * record). No savepoint is needed there: every wallet refusal (insufficient funds, conflict, …) is
 * decided from rows read before the wallet writes anything and is thrown in JavaScript, never as an
 * SQL error, so after a refusal the caller's transaction is untouched and usable. Two round trips
 * (SAVEPOINT, RELEASE) fewer per transfer on the bet path.
 */
export function atomically<T>(executor: Executor, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (executor instanceof PgTransaction) return work(executor as Tx);
  return executor.transaction(work);
}

/** A consistent read-only snapshot for reports (repeatable read when we open the transaction). */
export function inSnapshot<T>(executor: Executor, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (executor instanceof PgTransaction) return executor.transaction(work);
  return executor.transaction(work, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** Rows of a raw query, identical on node-postgres and PGlite (both answer `{ rows }`). */
export async function rowsOf<T>(executor: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function memberExists(executor: Executor, siteId: bigint, memberId: bigint): Promise<boolean> {
  const rows = await rowsOf<{ found: number }>(
    executor,
    sql`SELECT 1 AS found FROM members WHERE id = ${memberId.toString()}::bigint
        AND site_id = ${siteId.toString()}::bigint`,
  );
  return rows.length > 0;
}

export async function siteExists(executor: Executor, siteId: bigint): Promise<boolean> {
  const rows = await rowsOf<{ found: number }>(
    executor,
    sql`SELECT 1 AS found FROM sites WHERE id = ${siteId.toString()}::bigint`,
  );
  return rows.length > 0;
}

/** Creates the member's cash, bonus and withdrawal-hold accounts if missing (idempotent). */
export async function insertMemberAccounts(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
): Promise<void> {
  await executor
    .insert(walletAccounts)
    .values(
      PLAYER_ACCOUNT_KINDS.map((kind) => ({
        siteId,
        memberId,
        kind,
        balanceMinor: 0n,
        wageringRequiredMinor: kind === 'cash' ? 0n : null,
      })),
    )
    .onConflictDoNothing();
}

/** Creates the site's system accounts if missing (idempotent). They carry no stored balance. */
export async function insertSystemAccounts(executor: Executor, siteId: bigint): Promise<void> {
  await executor
    .insert(walletAccounts)
    .values(SYSTEM_ACCOUNT_KINDS.map((kind) => ({ siteId, memberId: null, kind })))
    .onConflictDoNothing();
}

export function findMemberAccounts(executor: Executor, memberId: bigint): Promise<TWalletAccountRow[]> {
  return executor
    .select()
    .from(walletAccounts)
    .where(eq(walletAccounts.memberId, memberId))
    .orderBy(asc(walletAccounts.id));
}

/**
 * Locks the member's named accounts FOR UPDATE in id order. Every transfer locks in the same
 * (ascending id) order, so two transfers touching the same accounts queue instead of deadlocking.
 */
export function lockMemberAccounts(
  tx: Tx,
  siteId: bigint,
  memberId: bigint,
  kinds: readonly TPlayerAccountKind[],
): Promise<TWalletAccountRow[]> {
  return tx
    .select()
    .from(walletAccounts)
    .where(
      and(
        eq(walletAccounts.siteId, siteId),
        eq(walletAccounts.memberId, memberId),
        inArray(walletAccounts.kind, [...kinds]),
      ),
    )
    .orderBy(asc(walletAccounts.id))
    .for('update');
}

type TAccountRaw = {
  id: string;
  site_id: string;
  member_id: string | null;
  kind: TPlayerAccountKind | TSystemAccountKind;
  balance_minor: string | null;
  wagering_required_minor: string | null;
  created_at: string | Date;
  locked: boolean;
};

/**
 * One round trip for a transfer between a member and the system: locks the member's named accounts
 * FOR UPDATE in id order (as lockMemberAccounts) and reads the site's named system accounts, which
 * are never locked. `locked` tells the two apart.
 */
export async function lockMemberWithSystemAccounts(
  tx: Tx,
  siteId: bigint,
  memberId: bigint,
  kinds: readonly TPlayerAccountKind[],
  systemKinds: readonly TSystemAccountKind[],
): Promise<{ member: TWalletAccountRow[]; system: TWalletAccountRow[] }> {
  const site = sql`${siteId.toString()}::bigint`;
  const columns = sql`id::text, site_id::text, member_id::text, kind, balance_minor::text,
    wagering_required_minor::text, created_at`;
  const rows = await rowsOf<TAccountRaw>(
    tx,
    sql`WITH locked AS (
          SELECT ${columns} FROM wallet_accounts
          WHERE site_id = ${site} AND member_id = ${memberId.toString()}::bigint
            AND kind IN (${sql.join(
              kinds.map((k) => sql`${k}`),
              sql`, `,
            )})
          ORDER BY wallet_accounts.id FOR UPDATE)
        SELECT *, true AS locked FROM locked
        UNION ALL
        SELECT ${columns}, false AS locked FROM wallet_accounts
        WHERE site_id = ${site} AND member_id IS NULL AND kind IN (${sql.join(
          systemKinds.map((k) => sql`${k}`),
          sql`, `,
        )})`,
  );
  const row = (r: TAccountRaw): TWalletAccountRow => ({
    id: BigInt(r.id),
    siteId: BigInt(r.site_id),
    memberId: r.member_id === null ? null : BigInt(r.member_id),
    kind: r.kind,
    balanceMinor: r.balance_minor === null ? null : BigInt(r.balance_minor),
    wageringRequiredMinor: r.wagering_required_minor === null ? null : BigInt(r.wagering_required_minor),
    createdAt: new Date(r.created_at),
  });
  const member = rows.filter((r) => r.locked === true).map(row);
  member.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { member, system: rows.filter((r) => r.locked !== true).map(row) };
}

export function findSystemAccounts(
  executor: Executor,
  siteId: bigint,
  kinds: readonly TSystemAccountKind[],
): Promise<TWalletAccountRow[]> {
  return executor
    .select()
    .from(walletAccounts)
    .where(
      and(
        eq(walletAccounts.siteId, siteId),
        isNull(walletAccounts.memberId),
        inArray(walletAccounts.kind, [...kinds]),
      ),
    );
}

export async function findTransferByKey(
  executor: Executor,
  siteId: bigint,
  idempotencyKey: string,
): Promise<TWalletTransferRow | undefined> {
  const rows = await executor
    .select()
    .from(walletTransfers)
    .where(and(eq(walletTransfers.siteId, siteId), eq(walletTransfers.idempotencyKey, idempotencyKey)))
    .limit(1);
  return rows[0];
}

export async function findTransferById(
  executor: Executor,
  siteId: bigint,
  transferId: bigint,
): Promise<TWalletTransferRow | undefined> {
  const rows = await executor
    .select()
    .from(walletTransfers)
    .where(and(eq(walletTransfers.siteId, siteId), eq(walletTransfers.id, transferId)))
    .limit(1);
  return rows[0];
}

export async function findHoldResolution(
  executor: Executor,
  holdTransferId: bigint,
): Promise<TWalletTransferRow | undefined> {
  const rows = await executor
    .select()
    .from(walletTransfers)
    .where(eq(walletTransfers.holdTransferId, holdTransferId))
    .limit(1);
  return rows[0];
}

export async function findAccountById(
  executor: Executor,
  accountId: bigint,
): Promise<TWalletAccountRow | undefined> {
  const rows = await executor.select().from(walletAccounts).where(eq(walletAccounts.id, accountId)).limit(1);
  return rows[0];
}

export type TNewTransfer = typeof walletTransfers.$inferInsert;

/**
 * Appends a transfer unless its (site, idempotency key) exists already; returns undefined then.
 * ON CONFLICT DO NOTHING waits for a concurrent writer of the same key and never aborts the
 * caller's transaction with a unique violation.
 */
export async function insertTransfer(
  executor: Executor,
  row: TNewTransfer,
): Promise<TWalletTransferRow | undefined> {
  const rows = await executor
    .insert(walletTransfers)
    .values(row)
    .onConflictDoNothing({ target: [walletTransfers.siteId, walletTransfers.idempotencyKey] })
    .returning();
  return rows[0];
}

/** Moves a locked player account's balance (and wagering) by deltas; returns the new values. */
export async function applyToPlayerAccount(
  tx: Tx,
  accountId: bigint,
  balanceDeltaMinor: bigint,
  wageringDeltaMinor: bigint,
): Promise<{ balanceMinor: bigint | null; wageringRequiredMinor: bigint | null }> {
  const rows = await tx
    .update(walletAccounts)
    .set({
      balanceMinor: sql`${walletAccounts.balanceMinor} + ${balanceDeltaMinor.toString()}::bigint`,
      wageringRequiredMinor: sql`${walletAccounts.wageringRequiredMinor} + ${wageringDeltaMinor.toString()}::bigint`,
    })
    .where(eq(walletAccounts.id, accountId))
    .returning({
      balanceMinor: walletAccounts.balanceMinor,
      wageringRequiredMinor: walletAccounts.wageringRequiredMinor,
    });
  const row = rows[0];
  if (!row) throw new Error(`wallet invariant violated: locked account ${accountId} vanished`);
  return row;
}

/** Balances of a site's system accounts, derived from their transfers (see the migration). */
export async function sumSystemBalances(
  executor: Executor,
  siteId: bigint,
): Promise<{ accountId: bigint; kind: TSystemAccountKind; balanceMinor: bigint }[]> {
  const rows = await rowsOf<{ id: unknown; kind: TSystemAccountKind; balance: unknown }>(
    executor,
    sql`SELECT a.id, a.kind,
          (COALESCE((SELECT sum(t.amount_minor) FROM wallet_transfers t WHERE t.credit_account_id = a.id), 0)
         - COALESCE((SELECT sum(t.amount_minor) FROM wallet_transfers t WHERE t.debit_account_id = a.id), 0)
          )::text AS balance
        FROM wallet_accounts a
        WHERE a.site_id = ${siteId.toString()}::bigint AND a.member_id IS NULL
        ORDER BY a.id`,
  );
  return rows.map((r) => ({
    accountId: BigInt(String(r.id)),
    kind: r.kind,
    balanceMinor: BigInt(String(r.balance)),
  }));
}

export interface MemberTransferFilter {
  memberId: bigint;
  siteId: bigint | null;
  kinds: readonly TTransferKind[] | null;
  since: Date | null;
  until: Date | null;
  beforeId: bigint | null;
  afterId: bigint | null;
  limit: number;
}

/**
 * One page of the transfers touching any of a member's accounts, newest first. Keyset paging on
 * the id: `beforeId` gives the next (older) page, `afterId` the previous (newer) one, so pages stay
 * stable while new transfers arrive.
 */
export async function findMemberTransfers(
  executor: Executor,
  filter: MemberTransferFilter,
): Promise<TWalletTransferRow[]> {
  const accounts = await executor
    .select({ id: walletAccounts.id })
    .from(walletAccounts)
    .where(
      and(
        eq(walletAccounts.memberId, filter.memberId),
        filter.siteId === null ? undefined : eq(walletAccounts.siteId, filter.siteId),
      ),
    );
  if (accounts.length === 0) return [];
  const newestFirst = filter.afterId === null;
  const direction = newestFirst ? sql`DESC` : sql`ASC`;
  const conditions: ReturnType<typeof sql>[] = [];
  if (filter.kinds !== null) {
    if (filter.kinds.length === 0) return [];
    conditions.push(
      sql`t.kind IN (${sql.join(
        filter.kinds.map((k) => sql`${k}`),
        sql`, `,
      )})`,
    );
  }
  if (filter.since !== null) conditions.push(sql`t.created_at >= ${filter.since.toISOString()}::timestamptz`);
  if (filter.until !== null) conditions.push(sql`t.created_at < ${filter.until.toISOString()}::timestamptz`);
  if (filter.beforeId !== null) conditions.push(sql`t.id < ${filter.beforeId.toString()}::bigint`);
  if (filter.afterId !== null) conditions.push(sql`t.id > ${filter.afterId.toString()}::bigint`);
  const ids = sql.join(
    accounts.map((a) => sql`${a.id.toString()}::bigint`),
    sql`, `,
  );
  // The debit side and the credit side each walk their own (account, id) index only as far as one
  // page; an OR of both would walk the whole table's primary key, which grows with every player.
  const side = (column: ReturnType<typeof sql>) =>
    sql`(SELECT t.id FROM wallet_transfers t WHERE ${column} IN (${ids})
        ${conditions.length > 0 ? sql`AND ${sql.join(conditions, sql` AND `)}` : sql``}
        ORDER BY t.id ${direction} LIMIT ${filter.limit})`;
  const pageIds = sql`SELECT u.id FROM (${side(sql`t.debit_account_id`)} UNION ${side(sql`t.credit_account_id`)}) u
    ORDER BY u.id ${direction} LIMIT ${filter.limit}`;
  const rows = await executor
    .select()
    .from(walletTransfers)
    .where(sql`${walletTransfers.id} IN (${pageIds})`)
    .orderBy(newestFirst ? desc(walletTransfers.id) : asc(walletTransfers.id));
  return filter.afterId === null ? rows : rows.reverse();
}

export async function findAccountKinds(
  executor: Executor,
  accountIds: bigint[],
): Promise<Map<bigint, TWalletAccountRow['kind']>> {
  if (accountIds.length === 0) return new Map();
  const rows = await executor
    .select({ id: walletAccounts.id, kind: walletAccounts.kind })
    .from(walletAccounts)
    .where(inArray(walletAccounts.id, accountIds));
  return new Map(rows.map((r) => [r.id, r.kind]));
}
