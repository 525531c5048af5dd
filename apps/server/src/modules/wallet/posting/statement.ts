import { type SQL, sql } from 'drizzle-orm';
import { commitWithNextStatement, type Executor, type Tx } from '../../../db/client.ts';
import { groupLedgerOf, membersLockParts, plannedWrites, type TWrittenPlans } from '../wallet.group.ts';
import { preparedRowsOf, readTransferWrites, transferWrites } from '../wallet.repo.ts';
import { fedGrantWrites, type TFedGrant } from './grant-parts.ts';
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
  /** The grants the stakes feed (ADR 028); present when the caller's stakes can feed one. */
  fed?: readonly { fed: TFedGrant | null }[];
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
