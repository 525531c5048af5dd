import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { preparedRowsOf } from '../../../db/sql.ts';
import { TRANSFER_COLUMNS, type TTransferRaw } from '../wallet.repo.ts';
import type { TWalletAccountRow } from '../wallet.schema.ts';
import { groupGrantRows, groupGrantsOf } from './grant-parts.ts';
import { type GroupLedger, memberKey, memberKindsOf } from './plan.ts';
import type { PreparedTransfer } from './request.ts';

/**
 * The ledger a posting reads (ADR 033): the SQL parts that lock the members' cash and bonus
 * accounts in id order and read their sites' system accounts and the transfers holding the
 * posting's keys (and, for bets, the members' active grants), and the in-memory ledger built from
 * their rows, which the planner decides on.
 */

type AccountRow = {
  id: string;
  site_id: string;
  member_id: string | null;
  kind: string;
  balance_minor: string | null;
  wagering_required_minor: string | null;
};

export const keyOf = (siteId: bigint, key: string) => `${siteId}:${key}`;

/** What a group locks and reads: its members' accounts, its sites' system accounts, its keys. */
export type GroupLockTargets = {
  members: readonly { siteId: bigint; memberId: bigint }[];
  sites: readonly bigint[];
  keys: readonly { siteId: bigint; key: string }[];
};

/** The rows of the lock parts (`groupLockParts`), as `groupLedgerOf` reads them. */
export type GroupLockRow = { what: 'account' | 'system' | 'prior'; row: AccountRow | TTransferRaw };

/**
 * The CTEs and result rows that lock the cash and bonus accounts of every member of a group (id
 * order: no deadlock between groups) and read the sites' system accounts and the transfers already
 * holding one of the keys; part of ONE statement (`lockGroup`, or the bet group's read). Members and
 * keys are matched by `= ANY(array)` (index lookups): matched only against the JSON record set, the
 * planner (guessing 100 rows for it) chose a hash join over the whole accounts and transfers
 * tables, a scan per group that grew with the ledger.
 */
export function groupLockParts({ members, sites, keys }: GroupLockTargets): { ctes: SQL; rows: SQL } {
  const siteIds = `{${sites.join(',')}}`;
  return {
    ctes: sql`wanted AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(members.map((m) => ({ site_id: String(m.siteId), member_id: String(m.memberId) })))}::jsonb)
            AS w(site_id bigint, member_id bigint)),
        locked AS (
          SELECT a.id::text, a.site_id::text, a.member_id::text, a.kind, a.balance_minor::text,
                 a.wagering_required_minor::text
          FROM wallet_accounts a
          WHERE a.member_id = ANY(${`{${members.map((m) => m.memberId).join(',')}}`}::bigint[])
            AND (a.site_id, a.member_id) IN (SELECT site_id, member_id FROM wanted)
            AND a.kind IN ('cash', 'bonus')
          ORDER BY a.id
          FOR NO KEY UPDATE OF a),
        system AS (
          SELECT id::text, site_id::text, NULL::text AS member_id, kind, NULL::text AS balance_minor,
                 NULL::text AS wagering_required_minor
          FROM wallet_accounts
          WHERE site_id = ANY(${siteIds}::bigint[]) AND member_id IS NULL),
        prior AS (
          SELECT ${TRANSFER_COLUMNS} FROM wallet_transfers
          WHERE site_id = ANY(${siteIds}::bigint[])
            AND idempotency_key = ANY(ARRAY(
              SELECT jsonb_array_elements_text(${JSON.stringify(keys.map((k) => k.key))}::jsonb)))
            AND (site_id, idempotency_key) IN (
              SELECT site_id, key FROM jsonb_to_recordset(${JSON.stringify(keys.map((k) => ({ site_id: String(k.siteId), key: k.key })))}::jsonb)
                AS k(site_id bigint, key text)))`,
    rows: sql`SELECT 'account' AS what, to_jsonb(locked) AS row FROM locked
        UNION ALL SELECT 'system', to_jsonb(system) FROM system
        UNION ALL SELECT 'prior', to_jsonb(prior) FROM prior`,
  };
}

/**
 * `groupLockParts` of a group of members' bets: their accounts and their sites' system accounts;
 * with `grants`, then their active bonus grants (a stake feeds one: `groupStake`, ADR 028).
 */
export function membersLockParts(
  members: readonly { siteId: bigint; memberId: bigint }[],
  options: { grants?: boolean } = {},
): {
  ctes: SQL;
  rows: SQL;
} {
  const parts = groupLockParts({
    members: members.map(({ siteId, memberId }) => ({ siteId, memberId })),
    sites: [...new Set(members.map(({ siteId }) => siteId))],
    keys: [],
  });
  if (!options.grants) return parts;
  const grants = groupGrantRows(members.map(({ memberId }) => memberId));
  return { ctes: parts.ctes, rows: sql`${parts.rows} UNION ALL ${grants}` };
}

/** A group's ledger from the rows of its lock parts (other rows are skipped). */
export function groupLedgerOf(read: readonly { what: string; row: unknown }[]): GroupLedger {
  const ledger: GroupLedger = {
    memberAccounts: new Map(),
    systemAccounts: new Map(),
    prior: new Map(),
    grants: groupGrantsOf(read),
    resolutions: new Map(),
    touched: new Map(),
  };
  for (const { what, row } of read) {
    if (what === 'account') {
      const r = row as AccountRow;
      const at = memberKey(BigInt(r.site_id), BigInt(r.member_id!));
      let kinds = ledger.memberAccounts.get(at);
      if (!kinds) {
        kinds = new Map();
        ledger.memberAccounts.set(at, kinds);
      }
      kinds.set(r.kind, {
        id: BigInt(r.id),
        balance: r.balance_minor === null ? null : BigInt(r.balance_minor),
        wagering: BigInt(r.wagering_required_minor ?? '0'),
      });
    } else if (what === 'system') {
      const r = row as AccountRow;
      ledger.systemAccounts.set(`${r.site_id}:${r.kind}`, BigInt(r.id));
    } else if (what === 'prior') {
      const r = row as TTransferRaw;
      ledger.prior.set(keyOf(BigInt(r.site_id), r.idempotency_key), r);
    }
  }
  return ledger;
}

/** ONE statement (`groupLockParts`): locks the members' accounts of the transfers and reads the rest. */
export async function lockGroup(tx: Tx, transfers: readonly PreparedTransfer[]): Promise<GroupLedger> {
  const members = new Map<string, { siteId: bigint; memberId: bigint }>();
  const sites = new Set<bigint>();
  const keys = new Map<string, { siteId: bigint; key: string }>();
  for (const { posting } of transfers) {
    sites.add(posting.siteId);
    keys.set(keyOf(posting.siteId, posting.idempotencyKey), {
      siteId: posting.siteId,
      key: posting.idempotencyKey,
    });
    for (const ref of [posting.from, posting.to]) {
      if ('memberId' in ref) {
        members.set(memberKey(posting.siteId, ref.memberId), {
          siteId: posting.siteId,
          memberId: ref.memberId,
        });
      }
    }
  }
  const parts = groupLockParts({
    members: [...members.values()],
    sites: [...sites],
    keys: [...keys.values()],
  });
  return groupLedgerOf(
    await preparedRowsOf<GroupLockRow>(tx, 'sorte_wallet_group_lock', sql`WITH ${parts.ctes} ${parts.rows}`),
  );
}

/**
 * ONE statement for a single posting (a group of one): locks the member's accounts it moves or
 * checks (`memberKindsOf`, id order, FOR NO KEY UPDATE) and reads the site's system accounts and
 * the transfer already holding its key. Under READ COMMITTED the locked rows are read as the last
 * holder of their lock left them; the key is read from the statement's snapshot, so a request
 * that waited for an earlier one with its key finds it when it writes (or is refused: `transferByKey`).
 */
export async function lockOne(tx: Tx, prepared: PreparedTransfer): Promise<GroupLedger> {
  const { posting } = prepared;
  const member = [posting.from, posting.to].find((ref) => 'memberId' in ref);
  const memberId = member && 'memberId' in member ? String(member.memberId) : null;
  const kinds = `{${[...memberKindsOf(posting)].join(',')}}`;
  const site = String(posting.siteId);
  return groupLedgerOf(
    await preparedRowsOf<GroupLockRow>(
      tx,
      'sorte_wallet_one_lock',
      sql`WITH locked AS (
          SELECT a.id::text, a.site_id::text, a.member_id::text, a.kind, a.balance_minor::text,
                 a.wagering_required_minor::text
          FROM wallet_accounts a
          WHERE a.member_id = ${memberId}::bigint AND a.site_id = ${site}::bigint AND a.kind = ANY(${kinds}::text[])
          ORDER BY a.id
          FOR NO KEY UPDATE OF a),
        system AS (
          SELECT id::text, site_id::text, NULL::text AS member_id, kind, NULL::text AS balance_minor,
                 NULL::text AS wagering_required_minor
          FROM wallet_accounts WHERE site_id = ${site}::bigint AND member_id IS NULL),
        prior AS (
          SELECT ${TRANSFER_COLUMNS} FROM wallet_transfers
          WHERE site_id = ${site}::bigint AND idempotency_key = ${posting.idempotencyKey})
        SELECT 'account' AS what, to_jsonb(locked) AS row FROM locked
        UNION ALL SELECT 'system', to_jsonb(system) FROM system
        UNION ALL SELECT 'prior', to_jsonb(prior) FROM prior`,
    ),
  );
}

/** The system accounts of a site a posting just opened, into its ledger (and a caller's rows). */
export function addSystemAccounts(ledger: GroupLedger, rows: readonly TWalletAccountRow[]): void {
  for (const row of rows) ledger.systemAccounts.set(`${row.siteId}:${row.kind}`, row.id);
}

/** The transfer holding a key, read by a new statement (after this transaction's locks). */
export async function transferByKey(tx: Tx, siteId: bigint, key: string): Promise<TTransferRaw | undefined> {
  const rows = await preparedRowsOf<TTransferRaw>(
    tx,
    'sorte_wallet_transfer_by_key',
    sql`SELECT ${TRANSFER_COLUMNS} FROM wallet_transfers
        WHERE site_id = ${String(siteId)}::bigint AND idempotency_key = ${key}`,
  );
  return rows[0];
}

/** The transfer resolving a withdrawal hold, if any (read after the member's hold account is locked). */
export async function holdResolution(tx: Tx, holdTransferId: bigint): Promise<bigint | undefined> {
  const rows = await preparedRowsOf<{ id: string }>(
    tx,
    'sorte_wallet_hold_resolution',
    sql`SELECT id::text FROM wallet_transfers WHERE hold_transfer_id = ${String(holdTransferId)}::bigint LIMIT 1`,
  );
  return rows[0] ? BigInt(rows[0].id) : undefined;
}
