import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import type { TFileEntry, TFileKind } from './layout.ts';

/** SQL of the regulator's files; every function takes the executor (or transaction) it runs in. */

export type TRegulatorProfile = {
  layout: string;
  timeZone: string;
  currency: string;
  maxRecordsPerFile: number;
  dueHour: number;
  buildAfterMinutes: number;
  catchUpDays: number;
  legalBasis: string;
};

export type TReportingSite = { id: bigint; code: string; profile: TRegulatorProfile };

/** Active sites whose jurisdiction profile reports to a regulator, with that profile's row. */
export async function findReportingSites(executor: Executor, siteId?: bigint): Promise<TReportingSite[]> {
  const only = siteId === undefined ? sql`` : sql` AND s.id = ${siteId.toString()}::bigint`;
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT s.id::text AS id, s.code, p.layout, p.time_zone, p.currency, p.max_records_per_file,
               p.due_hour, p.build_after_minutes, p.catch_up_days, p.legal_basis
        FROM sites s JOIN regulator_profiles p ON p.jurisdiction = s.jurisdiction
        WHERE s.status = 1${only}
        ORDER BY s.id`,
  );
  return rows.map((row) => ({
    id: BigInt(String(row.id)),
    code: String(row.code),
    profile: {
      layout: String(row.layout),
      timeZone: String(row.time_zone),
      currency: String(row.currency),
      maxRecordsPerFile: Number(row.max_records_per_file),
      dueHour: Number(row.due_hour),
      buildAfterMinutes: Number(row.build_after_minutes),
      catchUpDays: Number(row.catch_up_days),
      legalBasis: String(row.legal_basis),
    },
  }));
}

/** A ledger movement the files report, member side resolved. */
export type TLedgerRow = {
  id: string;
  kind: string;
  amount: string;
  reference: string;
  at: string;
  member_id: string;
  cpf: string | null;
  account: string;
};

const LEDGER_KINDS: Record<TFileKind, readonly string[]> = {
  bets: ['bet', 'win', 'refund'],
  transactions: ['deposit', 'withdrawal_payout'],
};

/**
 * A site's player movements of `kind` in [start, end), in ledger order: stakes, wins and refunds of
 * every product, or credited deposits and paid withdrawals. The member side is the debit account
 * of a stake or a payout and the credit account of the others.
 */
export async function findLedgerRows(
  executor: Executor,
  siteId: bigint,
  kind: TFileKind,
  period: { start: Date; end: Date },
): Promise<TLedgerRow[]> {
  const kinds: SQL[] = LEDGER_KINDS[kind].map((name) => sql`${name}`);
  return rowsOf<TLedgerRow>(
    executor,
    sql`SELECT t.id::text AS id, t.kind, t.amount_minor::text AS amount, t.reference,
               to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
               m.id::text AS member_id, m.cpf, pa.kind AS account
        FROM wallet_transfers t
        JOIN wallet_accounts pa ON pa.id = CASE WHEN t.kind IN ('bet', 'withdrawal_payout')
                                              THEN t.debit_account_id ELSE t.credit_account_id END
        JOIN members m ON m.id = pa.member_id
        WHERE t.site_id = ${siteId.toString()}::bigint
          AND t.kind IN (${sql.join(kinds, sql`, `)})
          AND t.created_at >= ${period.start.toISOString()}::timestamptz
          AND t.created_at < ${period.end.toISOString()}::timestamptz
        ORDER BY t.id`,
  );
}

export type TReportRow = {
  id: string;
  day: string;
  layout: string;
  status: 'building' | 'ready' | 'invalid';
  problems: string[];
  manifestName: string;
  manifestSha256: string;
  manifestBytes: number;
  betRecords: number;
  transactionRecords: number;
  builtAt: string;
};

const problemsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : value ? [String(value)] : [];

function reportOf(row: Record<string, unknown>): TReportRow {
  return {
    id: String(row.id),
    day: String(row.day),
    layout: String(row.layout),
    status: row.status as TReportRow['status'],
    problems: problemsOf(row.problems),
    manifestName: String(row.manifest_name),
    manifestSha256: String(row.manifest_sha256),
    manifestBytes: Number(row.manifest_bytes),
    betRecords: Number(row.bet_records),
    transactionRecords: Number(row.transaction_records),
    builtAt: String(row.built_at),
  };
}

const REPORT_COLUMNS = sql`id::text AS id, to_char(day, 'YYYY-MM-DD') AS day, layout, status, problems,
  manifest_name, manifest_sha256, octet_length(manifest) AS manifest_bytes, bet_records, transaction_records,
  to_char(built_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS built_at`;

/** The days of a site that have a report among `days`. */
export async function findReportDays(
  executor: Executor,
  siteId: bigint,
  days: readonly string[],
): Promise<Set<string>> {
  if (days.length === 0) return new Set();
  const rows = await rowsOf<{ day: string }>(
    executor,
    sql`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM regulator_reports
        WHERE site_id = ${siteId.toString()}::bigint
          AND day IN (${sql.join(
            days.map((day) => sql`${day}::date`),
            sql`, `,
          )})`,
  );
  return new Set(rows.map((row) => row.day));
}

/** Removes a site-day's report and its files (a rebuild replaces them). */
export async function deleteReport(executor: Executor, siteId: bigint, day: string): Promise<void> {
  await executor.execute(
    sql`DELETE FROM regulator_reports WHERE site_id = ${siteId.toString()}::bigint AND day = ${day}::date`,
  );
}

/**
 * Inserts a report in status 'building'; null when the site-day already has one (another process
 * built it first: the unique (site_id, day) decides).
 */
export async function insertReport(
  executor: Executor,
  input: {
    siteId: bigint;
    day: string;
    layout: string;
    manifestName: string;
    manifest: string;
    manifestSha256: string;
    betRecords: number;
    transactionRecords: number;
  },
): Promise<string | null> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`INSERT INTO regulator_reports
          (site_id, day, layout, status, manifest_name, manifest, manifest_sha256, bet_records, transaction_records)
        VALUES (${input.siteId.toString()}::bigint, ${input.day}::date, ${input.layout}, 'building',
          ${input.manifestName}, ${input.manifest}, ${input.manifestSha256}, ${input.betRecords}, ${input.transactionRecords})
        ON CONFLICT (site_id, day) DO NOTHING
        RETURNING id::text AS id`,
  );
  return rows[0]?.id ?? null;
}

export async function insertFile(
  executor: Executor,
  reportId: string,
  file: TFileEntry & { content: string },
): Promise<void> {
  await executor.execute(
    sql`INSERT INTO regulator_files (report_id, name, kind, sequence, records, bytes, sha256, content)
        VALUES (${reportId}::bigint, ${file.name}, ${file.kind}, ${file.sequence}, ${file.records},
          ${file.bytes}, ${file.sha256}, ${file.content})`,
  );
}

export async function markReport(
  executor: Executor,
  reportId: string,
  status: 'ready' | 'invalid',
  problems: readonly string[],
): Promise<void> {
  const list =
    problems.length === 0
      ? sql`'{}'::text[]`
      : sql`ARRAY[${sql.join(
          problems.map((p) => sql`${p}`),
          sql`, `,
        )}]::text[]`;
  await executor.execute(
    sql`UPDATE regulator_reports SET status = ${status}, problems = ${list} WHERE id = ${reportId}::bigint`,
  );
}

export type TStoredFile = TFileEntry & { content: string };

/** A report's data files as stored, in order (bets first, then transactions, by sequence). */
export async function findFiles(executor: Executor, reportId: string): Promise<TStoredFile[]> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT name, kind, sequence, records, bytes, sha256, content FROM regulator_files
        WHERE report_id = ${reportId}::bigint
        ORDER BY CASE kind WHEN 'bets' THEN 0 ELSE 1 END, sequence`,
  );
  return rows.map((row) => ({
    name: String(row.name),
    kind: row.kind as TFileKind,
    sequence: Number(row.sequence),
    records: Number(row.records),
    bytes: Number(row.bytes),
    sha256: String(row.sha256),
    content: String(row.content),
  }));
}

/** A site's reports, newest day first. */
export async function listReports(
  executor: Executor,
  siteId: bigint,
  limit: number,
): Promise<(TReportRow & { files: TFileEntry[] })[]> {
  const reports = (
    await rowsOf<Record<string, unknown>>(
      executor,
      sql`SELECT ${REPORT_COLUMNS} FROM regulator_reports
          WHERE site_id = ${siteId.toString()}::bigint ORDER BY day DESC LIMIT ${limit}`,
    )
  ).map(reportOf);
  if (reports.length === 0) return [];
  const files = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT report_id::text AS report_id, name, kind, sequence, records, bytes, sha256 FROM regulator_files
        WHERE report_id IN (${sql.join(
          reports.map((report) => sql`${report.id}::bigint`),
          sql`, `,
        )})
        ORDER BY CASE kind WHEN 'bets' THEN 0 ELSE 1 END, sequence`,
  );
  return reports.map((report) => ({
    ...report,
    files: files
      .filter((file) => String(file.report_id) === report.id)
      .map((file) => ({
        name: String(file.name),
        kind: file.kind as TFileKind,
        sequence: Number(file.sequence),
        records: Number(file.records),
        bytes: Number(file.bytes),
        sha256: String(file.sha256),
      })),
  }));
}

/** One file of a site's day (a data file or the manifest), with its checksum; null if none. */
export async function findDownload(
  executor: Executor,
  siteId: bigint,
  day: string,
  name: string,
): Promise<{ content: string; sha256: string; status: string } | null> {
  const rows = await rowsOf<{ content: string; sha256: string; status: string }>(
    executor,
    sql`SELECT f.content, f.sha256, r.status FROM regulator_reports r
        JOIN regulator_files f ON f.report_id = r.id
        WHERE r.site_id = ${siteId.toString()}::bigint AND r.day = ${day}::date AND f.name = ${name}
        UNION ALL
        SELECT r.manifest, r.manifest_sha256, r.status FROM regulator_reports r
        WHERE r.site_id = ${siteId.toString()}::bigint AND r.day = ${day}::date AND r.manifest_name = ${name}`,
  );
  return rows[0] ?? null;
}
