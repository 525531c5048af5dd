import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { isoOf, rowsOf } from '../../db/sql.ts';

/**
 * SQL of AML screening (ADR 040): the outbox, the rules, the facts the rules weigh, alerts and the
 * cases they gather into. Every function takes the executor (or transaction) it runs in. The SQL
 * of the compliance screens is in aml-cases.repo.ts.
 */

const id = (value: bigint | string) => sql`${value.toString()}::bigint`;
const at = (value: Date) => sql`${value.toISOString()}::timestamptz`;
/**
 * An event's time read back as ISO text has whole milliseconds, the column microseconds: an upper
 * bound "up to the event" is the next millisecond, exclusive, so the event itself and what its own
 * transaction wrote (a round's stake beside its win) are inside.
 */
const upTo = (value: Date) => sql`${new Date(value.getTime() + 1).toISOString()}::timestamptz`;

/** What an outbox row records: a money event, a session opened, or a KYC flag (a PEP). */
export type TOutboxKind = 'deposit' | 'withdrawal' | 'login' | 'kyc';
export type TIdentifierKind = 'device' | 'ip' | 'pix_key' | 'payer_cpf';

/** One outbox row, written in the transaction that commits the event. */
export async function insertOutbox(
  executor: Executor,
  row: {
    siteId: bigint;
    memberId: bigint;
    kind: TOutboxKind;
    amountMinor: bigint;
    reference: string;
    identifiers: Partial<Record<TIdentifierKind, string>>;
  },
): Promise<void> {
  await executor.execute(
    sql`INSERT INTO aml_outbox (site_id, member_id, kind, amount_minor, reference, identifiers)
        VALUES (${id(row.siteId)}, ${id(row.memberId)}, ${row.kind}, ${row.amountMinor.toString()}::bigint,
                ${row.reference.slice(0, 100)}, ${JSON.stringify(row.identifiers)}::jsonb)`,
  );
}

export type TOutboxRow = {
  id: bigint;
  siteId: bigint;
  memberId: bigint;
  jurisdiction: string;
  kind: TOutboxKind;
  amountMinor: bigint;
  reference: string;
  identifiers: Partial<Record<TIdentifierKind, string>>;
  createdAt: Date;
};

/**
 * Up to `limit` unscreened rows, oldest first, locked for this transaction; rows another process
 * holds are skipped (PostgreSQL), so two screeners never take the same row.
 */
export async function claimOutbox(executor: Executor, limit: number): Promise<TOutboxRow[]> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT o.id::text AS id, o.site_id::text AS site_id, o.member_id::text AS member_id,
               s.jurisdiction, o.kind, o.amount_minor::text AS amount_minor, o.reference, o.identifiers,
               ${isoOf(sql`o.created_at`)} AS created_at
        FROM aml_outbox o JOIN sites s ON s.id = o.site_id
        WHERE o.screened_at IS NULL
        ORDER BY o.id
        LIMIT ${limit}
        FOR NO KEY UPDATE OF o SKIP LOCKED`,
  );
  return rows.map((row) => ({
    id: BigInt(String(row.id)),
    siteId: BigInt(String(row.site_id)),
    memberId: BigInt(String(row.member_id)),
    jurisdiction: String(row.jurisdiction),
    kind: row.kind as TOutboxKind,
    amountMinor: BigInt(String(row.amount_minor)),
    reference: String(row.reference),
    identifiers: (typeof row.identifiers === 'string'
      ? JSON.parse(row.identifiers)
      : row.identifiers) as TOutboxRow['identifiers'],
    createdAt: new Date(String(row.created_at)),
  }));
}

export async function markScreened(executor: Executor, ids: readonly bigint[]): Promise<void> {
  if (ids.length === 0) return;
  await executor.execute(
    sql`UPDATE aml_outbox SET screened_at = now()
        WHERE id IN (${sql.join(
          ids.map((value) => id(value)),
          sql`, `,
        )})`,
  );
}

export type TRuleRow = {
  jurisdiction: string;
  rule: string;
  params: Record<string, unknown>;
  legalBasis: string;
};

/**
 * Deletes up to `limit` outbox rows screened and created before `before`, oldest first; returns how
 * many. An unscreened row is never deleted, however old.
 */
export async function deleteScreenedOutbox(executor: Executor, before: Date, limit: number): Promise<number> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`DELETE FROM aml_outbox WHERE id IN (
          SELECT id FROM aml_outbox
          WHERE screened_at IS NOT NULL AND created_at < ${before.toISOString()}::timestamptz
          ORDER BY id LIMIT ${limit})
        RETURNING id::text AS id`,
  );
  return rows.length;
}

/** Every enabled rule of every profile. */
export async function findEnabledRules(executor: Executor): Promise<TRuleRow[]> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT jurisdiction, rule, params, legal_basis FROM aml_rules WHERE enabled ORDER BY jurisdiction, rule`,
  );
  return rows.map((row) => ({
    jurisdiction: String(row.jurisdiction),
    rule: String(row.rule),
    params: (typeof row.params === 'string' ? JSON.parse(row.params) : row.params) as Record<string, unknown>,
    legalBasis: String(row.legal_basis),
  }));
}

export type TMemberFacts = { cpf: string | null; pep: boolean; createdAt: Date };

export async function findMemberFacts(executor: Executor, memberId: bigint): Promise<TMemberFacts | null> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT m.cpf, coalesce(k.pep, false) AS pep, ${isoOf(sql`m.created_at`)} AS created_at
        FROM members m LEFT JOIN member_kyc k ON k.member_id = m.id
        WHERE m.id = ${id(memberId)}`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    cpf: row.cpf === null ? null : String(row.cpf),
    pep: row.pep === true,
    createdAt: new Date(String(row.created_at)),
  };
}

/** Count and sum of a member's outbox events of `kind` in [from, to], amounts in [min, max). */
export async function sumOutbox(
  executor: Executor,
  memberId: bigint,
  kind: TOutboxKind,
  range: { from: Date; to: Date; minAmount?: bigint; belowAmount?: bigint },
): Promise<{ count: number; sumMinor: bigint; first: Date | null }> {
  const min =
    range.minAmount === undefined ? sql`` : sql` AND amount_minor >= ${range.minAmount.toString()}::bigint`;
  const below =
    range.belowAmount === undefined
      ? sql``
      : sql` AND amount_minor < ${range.belowAmount.toString()}::bigint`;
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT count(*)::int AS count, coalesce(sum(amount_minor), 0)::text AS sum, ${isoOf(sql`min(created_at)`)} AS first
        FROM aml_outbox
        WHERE member_id = ${id(memberId)} AND kind = ${kind}
          AND created_at >= ${at(range.from)} AND created_at < ${upTo(range.to)}${min}${below}`,
  );
  const row = rows[0]!;
  return {
    count: Number(row.count),
    sumMinor: BigInt(String(row.sum)),
    first: row.first ? new Date(String(row.first)) : null,
  };
}

/** What the member staked (bets from their cash and bonus accounts) in [since, until]. */
export async function sumWagered(
  executor: Executor,
  memberId: bigint,
  since: Date,
  until: Date,
): Promise<bigint> {
  const rows = await rowsOf<{ sum: string }>(
    executor,
    sql`SELECT coalesce(sum(t.amount_minor), 0)::text AS sum
        FROM wallet_accounts a
        JOIN wallet_transfers t ON t.debit_account_id = a.id
        WHERE a.member_id = ${id(memberId)} AND a.kind IN ('cash', 'bonus')
          AND t.kind = 'bet' AND t.created_at >= ${at(since)} AND t.created_at < ${upTo(until)}`,
  );
  return BigInt(rows[0]!.sum);
}

/** The stake of a round: the member's bets under the win's reference in the day before it. */
export async function sumStake(
  executor: Executor,
  memberId: bigint,
  reference: string,
  until: Date,
): Promise<bigint> {
  const since = new Date(until.getTime() - 86_400_000);
  const rows = await rowsOf<{ sum: string }>(
    executor,
    sql`SELECT coalesce(sum(t.amount_minor), 0)::text AS sum
        FROM wallet_accounts a
        JOIN wallet_transfers t ON t.debit_account_id = a.id
        WHERE a.member_id = ${id(memberId)} AND a.kind IN ('cash', 'bonus')
          AND t.kind = 'bet' AND t.reference = ${reference}
          AND t.created_at >= ${at(since)} AND t.created_at < ${upTo(until)}`,
  );
  return BigInt(rows[0]!.sum);
}

/** Records that the member was seen with this identifier (the latest time wins). */
export async function upsertIdentifier(
  executor: Executor,
  row: { siteId: bigint; kind: TIdentifierKind; value: string; memberId: bigint; seenAt: Date },
): Promise<void> {
  await executor.execute(
    sql`INSERT INTO aml_identifiers (site_id, kind, value, member_id, last_seen)
        VALUES (${id(row.siteId)}, ${row.kind}, ${row.value.slice(0, 200)}, ${id(row.memberId)}, ${at(row.seenAt)})
        ON CONFLICT (site_id, kind, value, member_id)
        DO UPDATE SET last_seen = greatest(aml_identifiers.last_seen, EXCLUDED.last_seen)`,
  );
}

/** The other members of the site seen with this identifier since `since` (up to 20 ids) and how many. */
export async function findOthersWith(
  executor: Executor,
  row: { siteId: bigint; kind: TIdentifierKind; value: string; memberId: bigint; since: Date },
): Promise<{ count: number; memberIds: string[] }> {
  const rows = await rowsOf<{ member_id: string; total: number }>(
    executor,
    sql`SELECT member_id::text AS member_id, (count(*) OVER ())::int AS total
        FROM aml_identifiers
        WHERE site_id = ${id(row.siteId)} AND kind = ${row.kind} AND value = ${row.value.slice(0, 200)}
          AND member_id <> ${id(row.memberId)} AND last_seen >= ${at(row.since)}
        ORDER BY member_id
        LIMIT 20`,
  );
  return { count: rows[0]?.total ?? 0, memberIds: rows.map((r) => r.member_id) };
}

/** The last ledger id the screening read from `source`, locked until the transaction ends. */
export async function lockCursor(executor: Executor, source: string): Promise<bigint> {
  const rows = await rowsOf<{ last_id: string }>(
    executor,
    sql`SELECT last_id::text AS last_id FROM aml_cursors WHERE source = ${source} FOR NO KEY UPDATE`,
  );
  return BigInt(rows[0]?.last_id ?? '0');
}

export async function moveCursor(executor: Executor, source: string, lastId: bigint): Promise<void> {
  await executor.execute(
    sql`UPDATE aml_cursors SET last_id = greatest(last_id, ${lastId.toString()}::bigint) WHERE source = ${source}`,
  );
}

export type TLedgerWin = {
  id: bigint;
  siteId: bigint;
  memberId: bigint;
  jurisdiction: string;
  amountMinor: bigint;
  reference: string;
  createdAt: Date;
  /** Older than the settle margin: every transfer up to it has committed or never will. */
  settled: boolean;
};

/**
 * The ledger after `afterId` in id order, up to `limit` transfers: the wins of at least `minMinor`
 * credited to a player, and of what was scanned its count, its highest id and the highest id of its
 * settled prefix (every transfer up to it older than the margin). Only the wins and one row of
 * bounds come back: the scan itself stays in the database.
 */
export async function readLedgerWins(
  executor: Executor,
  afterId: bigint,
  minMinor: bigint,
  limit: number,
  settleMarginMs: number,
): Promise<{ wins: TLedgerWin[]; settledUpTo: bigint | null; scanned: number; lastId: bigint }> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`WITH scanned AS (
          SELECT id, kind, amount_minor, credit_account_id, reference, created_at,
                 created_at < now() - ${`${settleMarginMs} milliseconds`}::interval AS settled
          FROM wallet_transfers WHERE id > ${afterId.toString()}::bigint ORDER BY id LIMIT ${limit}
        ),
        bounds AS (
          SELECT count(*) AS scanned, max(id) AS last_id,
                 (SELECT min(id) FROM scanned WHERE NOT settled) AS first_unsettled
          FROM scanned
        )
        SELECT 'win' AS what, t.id::text AS id, t.amount_minor::text AS amount_minor, t.reference,
               ${isoOf(sql`t.created_at`)} AS created_at, t.settled,
               a.member_id::text AS member_id, a.site_id::text AS site_id, s.jurisdiction,
               NULL AS scanned, NULL AS last_id, NULL AS settled_up_to
        FROM scanned t
        JOIN wallet_accounts a ON a.id = t.credit_account_id AND a.member_id IS NOT NULL
        JOIN sites s ON s.id = a.site_id
        WHERE t.kind = 'win' AND t.amount_minor >= ${minMinor.toString()}::bigint
        UNION ALL
        SELECT 'bounds', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
               b.scanned::text, b.last_id::text,
               (CASE WHEN b.first_unsettled IS NULL THEN b.last_id
                     ELSE (SELECT max(id) FROM scanned WHERE id < b.first_unsettled) END)::text
        FROM bounds b`,
  );
  const wins: TLedgerWin[] = [];
  let bounds: Record<string, unknown> | undefined;
  for (const row of rows) {
    if (row.what === 'bounds') {
      bounds = row;
      continue;
    }
    wins.push({
      id: BigInt(String(row.id)),
      siteId: BigInt(String(row.site_id)),
      memberId: BigInt(String(row.member_id)),
      jurisdiction: String(row.jurisdiction),
      amountMinor: BigInt(String(row.amount_minor)),
      reference: String(row.reference),
      createdAt: new Date(String(row.created_at)),
      settled: row.settled === true,
    });
  }
  wins.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const scanned = Number(bounds?.scanned ?? 0);
  const settled = bounds?.settled_up_to;
  return {
    wins,
    settledUpTo: settled === null || settled === undefined ? null : BigInt(String(settled)),
    scanned,
    lastId: scanned > 0 ? BigInt(String(bounds!.last_id)) : afterId,
  };
}

/** Whether this rule already alerted on this key (screening the same event twice opens nothing). */
export async function alertExists(
  executor: Executor,
  siteId: bigint,
  rule: string,
  key: string,
): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    executor,
    sql`SELECT 1 AS one FROM aml_alerts WHERE site_id = ${id(siteId)} AND rule = ${rule} AND dedupe_key = ${key}`,
  );
  return rows.length > 0;
}

/** The member's open case, opened now when there is none. */
export async function openCaseOf(executor: Executor, siteId: bigint, memberId: bigint): Promise<bigint> {
  await executor.execute(
    sql`INSERT INTO aml_cases (site_id, member_id) VALUES (${id(siteId)}, ${id(memberId)})
        ON CONFLICT (member_id) WHERE status = 'open' DO NOTHING`,
  );
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`UPDATE aml_cases SET updated_at = now()
        WHERE member_id = ${id(memberId)} AND status = 'open'
        RETURNING id::text AS id`,
  );
  return BigInt(rows[0]!.id);
}

export async function insertAlert(
  executor: Executor,
  alert: {
    siteId: bigint;
    memberId: bigint;
    caseId: bigint;
    rule: string;
    dedupeKey: string;
    amountMinor: bigint;
    evidence: Record<string, unknown>;
    legalBasis: string;
    eventAt: Date;
  },
): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`INSERT INTO aml_alerts (site_id, member_id, case_id, rule, dedupe_key, amount_minor, evidence, legal_basis, event_at)
        VALUES (${id(alert.siteId)}, ${id(alert.memberId)}, ${id(alert.caseId)}, ${alert.rule}, ${alert.dedupeKey},
                ${alert.amountMinor.toString()}::bigint, ${JSON.stringify(alert.evidence)}::jsonb,
                ${alert.legalBasis}, ${at(alert.eventAt)})
        ON CONFLICT ON CONSTRAINT aml_alerts_once DO NOTHING
        RETURNING id::text AS id`,
  );
  return rows.length > 0;
}

/** Whether compliance holds the member's withdrawals. */
export async function isHeld(executor: Executor, siteId: bigint, memberId: bigint): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    executor,
    sql`SELECT 1 AS one FROM aml_holds WHERE member_id = ${id(memberId)} AND site_id = ${id(siteId)}`,
  );
  return rows.length > 0;
}
