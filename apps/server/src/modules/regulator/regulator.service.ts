import { createHash } from 'node:crypto';
import { zonedMidnight, zonedParts } from '../../core/periods.ts';
import type { Executor } from '../../db/client.ts';
import { atomically, inSnapshot } from '../../db/sql.ts';
import {
  LAYOUTS,
  productOf,
  type TBetRecord,
  type TFileEntry,
  type TFileKind,
  type TRecordOf,
  type TRegulatorLayout,
  type TReportContext,
  type TTransactionRecord,
} from './layout.ts';
import {
  deleteReport,
  findFiles,
  findLedgerRows,
  findReportDays,
  findReportingSites,
  insertFile,
  insertReport,
  markReport,
  type TLedgerRow,
  type TReportingSite,
} from './regulator.repo.ts';

/**
 * The daily files for the regulator (issue 36 §4, ADR 039): each reporting site's bets and
 * financial transactions of a local day, split into files of at most the profile's records, each
 * with its SHA-256, a manifest listing them, checked for structure as stored before the report is
 * marked ready.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export const sha256 = (content: string) => createHash('sha256').update(content, 'utf8').digest('hex');

/** The local day of `instant` and its local hour and minute. */
function localClock(instant: Date, timeZone: string): { day: string; minutes: number } {
  const p = zonedParts(instant, timeZone);
  return {
    day: `${pad(p.year!, 4)}-${pad(p.month!)}-${pad(p.day!)}`,
    minutes: (p.hour! % 24) * 60 + p.minute!,
  };
}

export function addDays(day: string, offset: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d + offset));
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function contextOf(site: TReportingSite, day: string): TReportContext {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const { timeZone } = site.profile;
  return {
    siteCode: site.code,
    day,
    timeZone,
    currency: site.profile.currency,
    periodStart: zonedMidnight(y, m, d, timeZone).toISOString(),
    periodEnd: zonedMidnight(y, m, d + 1, timeZone).toISOString(),
    maxRecordsPerFile: site.profile.maxRecordsPerFile,
  };
}

function betRecord(row: TLedgerRow): TBetRecord {
  return {
    recordType: row.kind as TBetRecord['recordType'],
    transferId: row.id,
    occurredAt: row.at,
    playerId: row.member_id,
    playerCpf: row.cpf,
    product: productOf(row.reference),
    reference: row.reference,
    wallet: row.account === 'bonus' ? 'bonus' : 'cash',
    amountMinor: row.amount,
  };
}

function transactionRecord(row: TLedgerRow): TTransactionRecord {
  return {
    recordType: row.kind === 'deposit' ? 'deposit' : 'withdrawal',
    transferId: row.id,
    occurredAt: row.at,
    playerId: row.member_id,
    playerCpf: row.cpf,
    reference: row.reference,
    amountMinor: row.amount,
  };
}

/** Records split into chunks of at most `size`; an empty day still gives one (empty) file. */
function chunks<T>(records: readonly T[], size: number): T[][] {
  if (records.length === 0) return [[]];
  const out: T[][] = [];
  for (let at = 0; at < records.length; at += size) out.push(records.slice(at, at + size));
  return out;
}

export type TBuiltFile = TFileEntry & { content: string };

/** The files of one kind, named and checksummed by the layout. */
function filesOf<K extends TFileKind>(
  layout: TRegulatorLayout,
  context: TReportContext,
  kind: K,
  records: readonly TRecordOf<K>[],
): TBuiltFile[] {
  return chunks(records, context.maxRecordsPerFile).map((part, index) => {
    const content = layout.file(context, kind, part);
    return {
      name: layout.fileName(context, kind, index + 1),
      kind,
      sequence: index + 1,
      records: part.length,
      bytes: Buffer.byteLength(content, 'utf8'),
      sha256: sha256(content),
      content,
    };
  });
}

/** The structure problems of a report's files as read back from the database. */
function problemsOf(
  layout: TRegulatorLayout,
  context: TReportContext,
  manifest: string,
  stored: readonly TBuiltFile[],
): string[] {
  const problems: string[] = [];
  const entries: TFileEntry[] = stored.map((file) => {
    const bytes = Buffer.byteLength(file.content, 'utf8');
    const checksum = sha256(file.content);
    if (checksum !== file.sha256) problems.push(`${file.name}: checksum does not match its content`);
    if (bytes !== file.bytes) problems.push(`${file.name}: size does not match its content`);
    for (const problem of layout.validateFile(context, file.kind, file.content, file.records)) {
      problems.push(`${file.name}: ${problem}`);
    }
    return { ...file, bytes, sha256: checksum };
  });
  problems.push(...layout.validateManifest(context, manifest, entries));
  return problems;
}

export type TBuildOutcome = { day: string; status: 'ready' | 'invalid' | 'exists'; files: number };

/**
 * Builds a site's files of `day`: reads the ledger in one snapshot, writes the report and its
 * files, reads them back, checks them and marks the report ready (or invalid, with its problems),
 * in one transaction. `replace` rebuilds a day that has files (the same ledger gives the same
 * bytes); without it a day that has a report is left as it is.
 */
export async function buildReport(
  executor: Executor,
  site: TReportingSite,
  day: string,
  options: { replace?: boolean } = {},
): Promise<TBuildOutcome> {
  const layout = LAYOUTS[site.profile.layout];
  if (!layout) throw new Error(`regulator layout ${site.profile.layout} is not known`);
  const context = contextOf(site, day);
  const period = { start: new Date(context.periodStart), end: new Date(context.periodEnd) };
  const { bets, transactions } = await inSnapshot(executor, async (tx) => ({
    bets: (await findLedgerRows(tx, site.id, 'bets', period)).map(betRecord),
    transactions: (await findLedgerRows(tx, site.id, 'transactions', period)).map(transactionRecord),
  }));
  const files = [
    ...filesOf(layout, context, 'bets', bets),
    ...filesOf(layout, context, 'transactions', transactions),
  ];
  const manifest = layout.manifest(context, files);
  return atomically(executor, async (tx) => {
    if (options.replace) await deleteReport(tx, site.id, day);
    const reportId = await insertReport(tx, {
      siteId: site.id,
      day,
      layout: layout.name,
      manifestName: layout.manifestName(context),
      manifest,
      manifestSha256: sha256(manifest),
      betRecords: bets.length,
      transactionRecords: transactions.length,
    });
    if (!reportId) return { day, status: 'exists', files: 0 };
    for (const file of files) await insertFile(tx, reportId, file);
    const problems = problemsOf(layout, context, manifest, await findFiles(tx, reportId));
    const status = problems.length === 0 ? 'ready' : 'invalid';
    await markReport(tx, reportId, status, problems);
    return { day, status, files: files.length };
  });
}

/**
 * What the daily job does at `now`: for every reporting site, each closed local day of the last
 * `catch_up_days` without files gets them (yesterday's once the local clock passes
 * `build_after_minutes` after midnight, well before the profile's `due_hour`).
 */
export async function buildDueReports(
  executor: Executor,
  now: Date,
): Promise<{ siteId: bigint; outcomes: TBuildOutcome[] }[]> {
  const done: { siteId: bigint; outcomes: TBuildOutcome[] }[] = [];
  for (const site of await findReportingSites(executor)) {
    const clock = localClock(now, site.profile.timeZone);
    const newest = clock.minutes >= site.profile.buildAfterMinutes ? 1 : 2;
    const days: string[] = [];
    for (let back = site.profile.catchUpDays; back >= newest; back -= 1) days.push(addDays(clock.day, -back));
    const existing = await findReportDays(executor, site.id, days);
    const outcomes: TBuildOutcome[] = [];
    for (const day of days.filter((d) => !existing.has(d)))
      outcomes.push(await buildReport(executor, site, day));
    done.push({ siteId: site.id, outcomes });
  }
  return done;
}

/** A site's reporting profile, or null when its jurisdiction sends nothing to a regulator. */
export async function reportingSite(executor: Executor, siteId: bigint): Promise<TReportingSite | null> {
  return (await findReportingSites(executor, siteId))[0] ?? null;
}
