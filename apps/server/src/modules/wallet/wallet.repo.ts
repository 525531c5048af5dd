import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { preparedRowsOf, rowsOf } from '../../db/sql.ts';
import type { TransferResult } from './wallet.schema.ts';
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
 * Locks the member's named accounts FOR NO KEY UPDATE in id order. Every transfer locks in the same
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
    .for('no key update');
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

export async function findAccountById(
  executor: Executor,
  accountId: bigint,
): Promise<TWalletAccountRow | undefined> {
  const rows = await executor.select().from(walletAccounts).where(eq(walletAccounts.id, accountId)).limit(1);
  return rows[0];
}

/** A transfer row as `TRANSFER_COLUMNS` reads it (bigints as text, created_at as epoch ms). */
export type TTransferRaw = {
  id: string;
  site_id: string;
  kind: TTransferKind;
  debit_account_id: string;
  credit_account_id: string;
  amount_minor: string;
  debit_balance_after_minor: string | null;
  credit_balance_after_minor: string | null;
  wagering_delta_minor: string;
  hold_transfer_id: string | null;
  reference: string;
  metadata: Record<string, unknown>;
  idempotency_key: string;
  request_hash: string;
  created_ms: string;
};

/** The columns of a transfer read as raw JSON-safe values (TTransferRaw). */
export const TRANSFER_COLUMNS = sql`id::text, site_id::text, kind, debit_account_id::text, credit_account_id::text,
  amount_minor::text, debit_balance_after_minor::text, credit_balance_after_minor::text,
  wagering_delta_minor::text, hold_transfer_id::text, reference, metadata, idempotency_key, request_hash,
  floor(extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms`;

/** A stored transfer as the wallet answers it (a replay, or the group's earlier transfer). */
export function transferResultOf(row: TTransferRaw, replayed: boolean): TransferResult {
  return {
    transferId: BigInt(row.id),
    siteId: BigInt(row.site_id),
    kind: row.kind,
    debitAccountId: BigInt(row.debit_account_id),
    creditAccountId: BigInt(row.credit_account_id),
    amountMinor: BigInt(row.amount_minor),
    debitBalanceAfterMinor:
      row.debit_balance_after_minor === null ? null : BigInt(row.debit_balance_after_minor),
    creditBalanceAfterMinor:
      row.credit_balance_after_minor === null ? null : BigInt(row.credit_balance_after_minor),
    wageringDeltaMinor: BigInt(row.wagering_delta_minor),
    holdTransferId: row.hold_transfer_id === null ? null : BigInt(row.hold_transfer_id),
    reference: row.reference,
    metadata: row.metadata,
    idempotencyKey: row.idempotency_key,
    createdAt: new Date(Number(row.created_ms)),
    replayed,
  };
}

/** A transfer to append, as column values (bigints as decimal text). */
export type TTransferWrite = {
  site_id: string;
  kind: TTransferKind;
  debit: string;
  credit: string;
  amount: string;
  debit_after: string | null;
  credit_after: string | null;
  wagering_account: string | null;
  wagering_delta: string;
  hold: string | null;
  reference: string | null;
  metadata: unknown;
  key: string;
  hash: string;
};

/** What a locked player account moves by (balance and wagering), as decimal text. */
export type TBalanceDelta = { id: string; balance: string; wagering: string };

export type TWrittenTransfer = {
  id: bigint;
  siteId: bigint;
  idempotencyKey: string;
  metadata: Record<string, unknown>;
  createdAt: Date;
};

/** What `writeTransfers` wrote: the transfers inserted and each moved account's balances after. */
export type TTransferWrites = {
  inserted: TWrittenTransfer[];
  balances: Map<bigint, { balanceMinor: bigint; wageringMinor: bigint }>;
};

/**
 * The writes of a posting as CTEs (`planned`, `ins`, `deltas`, `upd`) and the rows that report them
 * (`what` 'ins' or 'upd'): `writeTransfers` runs them as one statement, and group commit of bets
 * goes on after them in the same statement (its rounds read their transfer ids from `ins`).
 * Appends the transfers (in the given order) and moves the balances of the player accounts the
 * caller has locked. The database still re-checks every balance (>= 0) and every key (unique).
 * With `skipTaken` a transfer whose (site, key) is taken is not inserted (ON CONFLICT DO NOTHING
 * waits for a concurrent writer of the key and never aborts the caller's transaction) and then no
 * balance moves at all: the caller resolves the key. Without it a taken key fails the statement
 * (group commit rolls back and posts one by one).
 */
export function transferWrites(
  transfers: readonly TTransferWrite[],
  deltas: readonly TBalanceDelta[],
  options: { skipTaken: boolean },
): { ctes: SQL; rows: SQL } {
  const rows = transfers.map((t, ord) => ({ ...t, ord }));
  const onConflict = options.skipTaken ? sql`ON CONFLICT (site_id, idempotency_key) DO NOTHING` : sql``;
  return {
    ctes: sql`planned AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
            ord int, site_id bigint, kind text, debit bigint, credit bigint, amount bigint,
            debit_after bigint, credit_after bigint, wagering_account bigint, wagering_delta bigint,
            hold bigint, reference text, metadata jsonb, key text, hash text)),
        ins AS (
          INSERT INTO wallet_transfers (site_id, kind, debit_account_id, credit_account_id, amount_minor,
            debit_balance_after_minor, credit_balance_after_minor, wagering_account_id,
            wagering_delta_minor, hold_transfer_id, reference, metadata, idempotency_key, request_hash)
          SELECT site_id, kind, debit, credit, amount, debit_after, credit_after, wagering_account,
                 wagering_delta, hold, reference, metadata, key, hash
          FROM planned ORDER BY ord
          ${onConflict}
          RETURNING id, site_id, idempotency_key, metadata,
                    floor(extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms),
        deltas AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(deltas)}::jsonb)
            AS d(id bigint, balance bigint, wagering bigint)),
        upd AS (
          UPDATE wallet_accounts a
          SET balance_minor = a.balance_minor + d.balance,
              wagering_required_minor = a.wagering_required_minor + d.wagering
          FROM deltas d
          -- By primary key (= ANY): joined to the JSON record set alone, the planner (guessing 100
          -- rows for it) scanned the whole accounts table for every write.
          WHERE a.id = ANY(${`{${deltas.map((d) => d.id).join(',')}}`}::bigint[]) AND a.id = d.id
            AND (SELECT count(*) FROM ins) = ${rows.length}
          RETURNING a.id::text, a.balance_minor::text, a.wagering_required_minor::text)`,
    rows: sql`SELECT 'ins' AS what, jsonb_build_object('id', id::text, 'site_id', site_id::text,
          'idempotency_key', idempotency_key, 'metadata', metadata, 'created_ms', created_ms) AS row FROM ins
        UNION ALL SELECT 'upd', to_jsonb(upd) FROM upd`,
  };
}

/** Reads the rows of `transferWrites` (others, of a statement that went on after it, are skipped). */
export function readTransferWrites(
  written: readonly { what: string; row: Record<string, unknown> }[],
): TTransferWrites {
  const inserted: TWrittenTransfer[] = [];
  const balances = new Map<bigint, { balanceMinor: bigint; wageringMinor: bigint }>();
  for (const { what, row } of written) {
    if (what === 'ins') {
      inserted.push({
        id: BigInt(String(row.id)),
        siteId: BigInt(String(row.site_id)),
        idempotencyKey: String(row.idempotency_key),
        metadata: row.metadata as Record<string, unknown>,
        createdAt: new Date(Number(row.created_ms)),
      });
    } else if (what === 'upd') {
      balances.set(BigInt(String(row.id)), {
        balanceMinor: BigInt(String(row.balance_minor)),
        wageringMinor: BigInt(String(row.wagering_required_minor ?? '0')),
      });
    }
  }
  return { inserted, balances };
}

/** ONE statement for the writes of a posting (`transferWrites`). */
export async function writeTransfers(
  tx: Tx,
  transfers: readonly TTransferWrite[],
  deltas: readonly TBalanceDelta[],
  options: { skipTaken: boolean },
): Promise<TTransferWrites> {
  const { ctes, rows } = transferWrites(transfers, deltas, options);
  return readTransferWrites(
    await preparedRowsOf<{ what: 'ins' | 'upd'; row: Record<string, unknown> }>(
      tx,
      options.skipTaken ? 'sorte_write_transfers_skip' : 'sorte_write_transfers',
      sql`WITH ${ctes} ${rows}`,
    ),
  );
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
