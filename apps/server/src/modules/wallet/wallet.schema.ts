import { TRANSACTION_KINDS } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of migrations/0002_wallet.sql (the SQL file is the source of truth; constraints and
 * triggers live there). Only wallet.service.ts / wallet.repo.ts write these tables.
 */

/** Accounts a member owns; created with the member by `openMemberAccounts`. */
export const PLAYER_ACCOUNT_KINDS = ['cash', 'bonus', 'withdrawal_hold'] as const;
export type TPlayerAccountKind = (typeof PLAYER_ACCOUNT_KINDS)[number];

/** One of each per site; their balance is derived from transfers (never a locked hot row). */
export const SYSTEM_ACCOUNT_KINDS = [
  'house',
  'psp_clearing',
  'promotions_expense',
  'provider_settlement',
  'fees',
  'suspense',
] as const;
export type TSystemAccountKind = (typeof SYSTEM_ACCOUNT_KINDS)[number];

/** The ledger's transfer kinds: the contract's list, so the API and the ledger cannot drift apart. */
export const TRANSFER_KINDS = TRANSACTION_KINDS;
export type TTransferKind = (typeof TRANSFER_KINDS)[number];

export const walletAccounts = pgTable(
  'wallet_accounts',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    memberId: bigint('member_id', { mode: 'bigint' }),
    kind: text('kind').$type<TPlayerAccountKind | TSystemAccountKind>().notNull(),
    balanceMinor: bigint('balance_minor', { mode: 'bigint' }),
    wageringRequiredMinor: bigint('wagering_required_minor', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('wallet_accounts_id_site').on(t.id, t.siteId),
    check('wallet_accounts_balance_non_negative', sql`${t.balanceMinor} >= 0`),
  ],
);

export const walletTransfers = pgTable(
  'wallet_transfers',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
    kind: text('kind').$type<TTransferKind>().notNull(),
    debitAccountId: bigint('debit_account_id', { mode: 'bigint' }).notNull(),
    creditAccountId: bigint('credit_account_id', { mode: 'bigint' }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    debitBalanceAfterMinor: bigint('debit_balance_after_minor', { mode: 'bigint' }),
    creditBalanceAfterMinor: bigint('credit_balance_after_minor', { mode: 'bigint' }),
    wageringAccountId: bigint('wagering_account_id', { mode: 'bigint' }),
    wageringDeltaMinor: bigint('wagering_delta_minor', { mode: 'bigint' }).notNull().default(0n),
    holdTransferId: bigint('hold_transfer_id', { mode: 'bigint' }),
    reference: text('reference').notNull().default(''),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('wallet_transfers_idempotency').on(t.siteId, t.idempotencyKey)],
);

export type TWalletAccountRow = typeof walletAccounts.$inferSelect;
export type TWalletTransferRow = typeof walletTransfers.$inferSelect;

/** A transfer as the wallet answers it (`transfer`, `hold`, reads): the row, and whether it was a replay. */
export interface TransferResult {
  transferId: bigint;
  siteId: bigint;
  kind: TTransferKind;
  debitAccountId: bigint;
  creditAccountId: bigint;
  amountMinor: bigint;
  /** Balance of the debited / credited PLAYER account right after the transfer (null: system). */
  debitBalanceAfterMinor: bigint | null;
  creditBalanceAfterMinor: bigint | null;
  /** How this transfer changed the member's wagering requirement (negative: bets reduced it). */
  wageringDeltaMinor: bigint;
  holdTransferId: bigint | null;
  reference: string;
  metadata: Record<string, unknown>;
  idempotencyKey: string;
  createdAt: Date;
  /** True when this call replayed an earlier transfer with the same key and request. */
  replayed: boolean;
}

/** A JSON value, as transfer metadata stores it. */
export type TJson = string | number | boolean | null | TJson[] | { [key: string]: TJson };
