import { type SQL, sql } from 'drizzle-orm';
import { commitWithNextStatement, type Executor, type Tx } from '../../../db/client.ts';
import { preparedRowsOf } from '../../../db/sql.ts';
import { assertInvariant } from '../wallet.errors.ts';
import {
  readTransferWrites,
  type TBalanceDelta,
  type TTransferWrite,
  type TTransferWrites,
  transferWrites,
  writeTransfers,
} from '../wallet.repo.ts';
import type { TransferResult } from '../wallet.schema.ts';
import { fedGrantWrites, type TFedGrant, type TGrantMove } from './grant-parts.ts';
import { groupLedgerOf, keyOf, membersLockParts } from './ledger.ts';
import type { GroupLedger, PlannedTransfer } from './plan.ts';

/**
 * The statements of a posting (ADR 033). A caller hands the wallet typed parts and the wallet
 * builds and runs the one statement: its own ledger CTEs (lock, or insert and move) together with
 * the caller's side rows, so no module outside the wallet holds ledger SQL.
 *
 * A side part is SQL of the caller's own tables, produced by its repo: `ctes` are one or more
 * `name AS (…)` joined by commas, `rows` one or more `SELECT what, row …` joined by UNION ALL
 * (a trailing `UNION ALL …` part, such as the VIP check, may end it). The wallet's rows follow the
 * caller's: in a read the caller's rows are locked first (its round, bet, market, seed pair), then
 * the accounts, then the grants (ADR 029).
 */

/** A caller's own rows in a wallet statement. */
export type TSidePart = { ctes: SQL; rows: SQL };

/** A row of a posting statement: `what` names the part it answers. */
export type TPostingRow = { what: string; row: Record<string, unknown> };

type TMember = { siteId: bigint; memberId: bigint };

/** What a read locks: the members' cash and bonus accounts (and their active grants) after `side`. */
export type TLedgerRead = {
  /** The prepared statement's name, unique to its text (ADR 024). */
  name: string;
  members: readonly TMember[];
  grants?: boolean;
  side?: TSidePart;
};

/**
 * ONE statement: the caller's side rows, then the members' accounts locked in id order with their
 * sites' system accounts, then (with `grants`) their active grants. The promise is made at once, so
 * a caller may pipeline it with another statement.
 */
export async function readLedger(
  tx: Executor,
  read: TLedgerRead,
): Promise<{ rows: TPostingRow[]; ledger: GroupLedger }> {
  const lock = membersLockParts(read.members, { grants: read.grants });
  const query = read.side
    ? sql`WITH ${read.side.ctes},
        ${lock.ctes}
        ${read.side.rows}
        UNION ALL ${lock.rows}`
    : sql`WITH ${lock.ctes} ${lock.rows}`;
  const rows = await preparedRowsOf<TPostingRow>(tx, read.name, query);
  return { rows, ledger: groupLedgerOf(rows) };
}

/** The ledger of a posting that locks nothing (no member account moves). */
export function emptyLedger(): GroupLedger {
  return groupLedgerOf([]);
}

/** A caller's rows of `what` in its order (`ord`), from a read's rows. */
export function sideRowsOf<T extends { ord: number }>(rows: readonly TPostingRow[], what: string): T[] {
  const reads = rows.filter((r) => r.what === what).map((r) => r.row as unknown as T);
  reads.sort((a, b) => a.ord - b.ord);
  return reads;
}

/** What a posting writes: the planned transfers, the grants they feed, the caller's side rows. */
export type TPosting = {
  name: string;
  ledger: GroupLedger;
  plans: readonly PlannedTransfer[];
  /** The grants the stakes feed and their parts move (ADR 028); present when stakes can feed one. */
  fed?: readonly { fed: TFedGrant | null; moves?: readonly TGrantMove[] }[];
  side: TSidePart;
  /** Nothing follows the write but answering: COMMIT is sent right behind it (ADR 025). */
  commitWithIt: boolean;
};

/**
 * ONE statement: every planned transfer inserted and every touched balance moved (checked against
 * the plan), each fed grant's wagering, and the caller's side writes, which may read the transfers'
 * ids (`postedTransferId`). Answers the statement's rows and how to answer each planned transfer.
 */
export async function writePosting(
  tx: Executor,
  posting: TPosting,
): Promise<{ rows: TPostingRow[]; answer: TWrittenPlans }> {
  const { transfers, deltas, answers } = plannedWrites(posting.ledger, posting.plans);
  const writes = transferWrites(transfers, deltas, { skipTaken: false });
  const fed = posting.fed ? fedGrantWrites(posting.fed) : null;
  const { side } = posting;
  // Outside a transaction the database commits each statement itself: nothing to send.
  if (posting.commitWithIt) commitWithNextStatement(tx as Tx);
  const rows = await preparedRowsOf<TPostingRow>(
    tx,
    posting.name,
    sql`WITH ${writes.ctes},
        ${side.ctes}${
          fed
            ? sql`,
        ${fed.cte}`
            : sql``
        }
        ${writes.rows}
        UNION ALL ${side.rows}${
          fed
            ? sql`
        UNION ALL ${fed.rows}`
            : sql``
        }`,
  );
  fed?.check(rows);
  return { rows, answer: answers(readTransferWrites(rows)) };
}

/**
 * In a side write of `writePosting`: the id of the transfer the statement inserts under (site, key),
 * both SQL of the caller's rows (null when no transfer of the statement has that key).
 */
export function postedTransferId(site: SQL, key: SQL): SQL {
  return sql`(SELECT ins.id FROM ins WHERE ins.site_id = ${site} AND ins.idempotency_key = ${key})`;
}

/** In a caller's read: whether the stake transfer `transferId` took a bonus part (ADR 028). */
export function stakeTookBonus(transferId: SQL): SQL {
  return sql`(SELECT t.metadata ? 'bonusParts' FROM wallet_transfers t WHERE t.id = ${transferId})`;
}

/**
 * In a caller's read: what refunding the stake transfer `transferId` depends on (a rollback of a
 * third-party bet, ADR 038), as jsonb: whether it took a bonus part (`bonus`), fed a grant (`fed`),
 * and the wagering it changed (`wagering`, text).
 */
export function stakeRefundFacts(transferId: SQL): SQL {
  return sql`(SELECT jsonb_build_object('bonus', st.metadata ? 'bonusParts', 'fed', st.metadata ? 'fedGrantId',
      'wagering', st.wagering_delta_minor::text) FROM wallet_transfers st WHERE st.id = ${transferId})`;
}

/** How to answer each planned transfer once the group's writes are done. */
export type TWrittenPlans = (plan: PlannedTransfer, replayed: boolean) => TransferResult;

/**
 * The group's writes for `writeTransfers` (or `transferWrites`): every planned transfer and every
 * touched balance, and how to answer each planned transfer once they are written (the balances
 * checked against the plan).
 */
export function plannedWrites(
  ledger: GroupLedger,
  plans: readonly PlannedTransfer[],
): {
  transfers: TTransferWrite[];
  deltas: TBalanceDelta[];
  answers: (written: TTransferWrites) => TWrittenPlans;
} {
  const transfers = plans.map((p): TTransferWrite => {
    const { posting, hash } = p.prepared;
    return {
      site_id: String(posting.siteId),
      kind: posting.kind,
      debit: String(p.debitId),
      credit: String(p.creditId),
      amount: String(posting.amountMinor),
      debit_after: p.debitAfter === null ? null : String(p.debitAfter),
      credit_after: p.creditAfter === null ? null : String(p.creditAfter),
      wagering_account: p.wageringAccountId === null ? null : String(p.wageringAccountId),
      wagering_delta: String(p.wageringDelta),
      hold: posting.holdTransferId === null ? null : String(posting.holdTransferId),
      reference: posting.reference,
      metadata: posting.metadata,
      key: posting.idempotencyKey,
      hash,
    };
  });
  const deltas = [...ledger.touched].map(([id, t]) => ({
    id: String(id),
    balance: String(t.balance - t.start.balance!),
    wagering: String(t.wagering - t.start.wagering),
  }));
  return { transfers, deltas, answers: (written) => answersOf(ledger, plans, written) };
}

function answersOf(
  ledger: GroupLedger,
  plans: readonly PlannedTransfer[],
  written: TTransferWrites,
): TWrittenPlans {
  const inserted = new Map<string, { id: bigint; createdAt: Date; metadata: Record<string, unknown> }>();
  for (const row of written.inserted) inserted.set(keyOf(row.siteId, row.idempotencyKey), row);
  for (const [id, after] of written.balances) {
    const t = ledger.touched.get(id);
    assertInvariant(t && after.balanceMinor === t.balance, `account ${id} balance as planned`);
    assertInvariant(after.wageringMinor === t.wagering, `account ${id} wagering as planned`);
  }
  assertInvariant(inserted.size === plans.length, 'every planned transfer was inserted');
  return (p, replayed) => {
    const { posting } = p.prepared;
    const row = inserted.get(keyOf(posting.siteId, posting.idempotencyKey));
    assertInvariant(row, `transfer ${posting.idempotencyKey} inserted`);
    return {
      transferId: row.id,
      siteId: posting.siteId,
      kind: posting.kind,
      debitAccountId: p.debitId,
      creditAccountId: p.creditId,
      amountMinor: posting.amountMinor,
      debitBalanceAfterMinor: p.debitAfter,
      creditBalanceAfterMinor: p.creditAfter,
      wageringDeltaMinor: p.wageringDelta,
      holdTransferId: posting.holdTransferId,
      reference: posting.reference,
      metadata: row.metadata,
      idempotencyKey: posting.idempotencyKey,
      createdAt: row.createdAt,
      replayed,
    };
  };
}

/**
 * ONE statement: inserts every planned transfer and moves every touched balance (checked against
 * the plan). Returns how to answer each planned transfer.
 */
export async function writePlanned(
  tx: Tx,
  ledger: GroupLedger,
  plans: readonly PlannedTransfer[],
): Promise<TWrittenPlans> {
  const { transfers, deltas, answers } = plannedWrites(ledger, plans);
  if (plans.length === 0) return answers({ inserted: [], balances: new Map() });
  return answers(await writeTransfers(tx, transfers, deltas, { skipTaken: false }));
}
