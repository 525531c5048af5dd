/**
 * The layout of the regulator's files behind an adapter (ADR 039). The official layout of the
 * SPA's reporting system (SIGAP) is not available to us; `sorte-v1` is our own, documented field by
 * field in docs/regulator-layout.md. An official layout plugs in as another TRegulatorLayout named
 * in regulator_profiles.layout. A layout decides the bytes only: which records, their order and the
 * split into files are the service's.
 */

export type TFileKind = 'bets' | 'transactions';

/** A bet-side ledger movement of a player: a stake, a win or a refund of any product. */
export type TBetRecord = {
  recordType: 'bet' | 'win' | 'refund';
  transferId: string;
  /** UTC instant of the ledger entry, ISO 8601 with microseconds. */
  occurredAt: string;
  playerId: string;
  playerCpf: string | null;
  product: TProduct;
  /** The ledger reference that ties the entry to its round, bet or game call. */
  reference: string;
  wallet: 'cash' | 'bonus';
  amountMinor: string;
};

/** A financial transaction of a player: a credited deposit or a paid withdrawal. */
export type TTransactionRecord = {
  recordType: 'deposit' | 'withdrawal';
  transferId: string;
  occurredAt: string;
  playerId: string;
  playerCpf: string | null;
  reference: string;
  amountMinor: string;
};

export type TRecordOf<K extends TFileKind> = K extends 'bets' ? TBetRecord : TTransactionRecord;

export const PRODUCTS = ['casino_original', 'crash', 'sportsbook', 'third_party', 'other'] as const;
export type TProduct = (typeof PRODUCTS)[number];

/** Which product a ledger reference's prefix names (the prefix each product's module writes). */
const PRODUCT_OF_PREFIX: Readonly<Record<string, TProduct>> = {
  round: 'casino_original',
  'crash-round': 'crash',
  'sports-bet': 'sportsbook',
  'provider-round': 'third_party',
};

export function productOf(reference: string): TProduct {
  const prefix = reference.split(':', 1)[0] ?? '';
  return PRODUCT_OF_PREFIX[prefix] ?? 'other';
}

/** What a file or a manifest is about. */
export type TReportContext = {
  siteCode: string;
  /** The local day, YYYY-MM-DD. */
  day: string;
  timeZone: string;
  currency: string;
  /** The day's bounds as UTC instants, ISO 8601. */
  periodStart: string;
  periodEnd: string;
  maxRecordsPerFile: number;
};

export type TFileEntry = {
  name: string;
  kind: TFileKind;
  sequence: number;
  records: number;
  bytes: number;
  sha256: string;
};

export interface TRegulatorLayout {
  readonly name: string;
  fileName(context: TReportContext, kind: TFileKind, sequence: number): string;
  manifestName(context: TReportContext): string;
  /** A data file's exact text from its records, in the order given. */
  file<K extends TFileKind>(context: TReportContext, kind: K, records: readonly TRecordOf<K>[]): string;
  manifest(context: TReportContext, files: readonly TFileEntry[]): string;
  /** The structure problems of a data file (none: it conforms), `records` the count it must hold. */
  validateFile(context: TReportContext, kind: TFileKind, content: string, records: number): string[];
  /** The structure problems of a manifest against the files it must list. */
  validateManifest(context: TReportContext, content: string, files: readonly TFileEntry[]): string[];
}

const DIGITS = /^[0-9]{1,19}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const CPF = /^[0-9]{11}$/;
const REFERENCE = /^[\s\S]{0,128}$/;

type TFieldRule = (value: unknown, context: TReportContext) => boolean;

const isString =
  (pattern: RegExp): TFieldRule =>
  (value) =>
    typeof value === 'string' && pattern.test(value);
const oneOf =
  (values: readonly string[]): TFieldRule =>
  (value) =>
    typeof value === 'string' && values.includes(value);
const inPeriod: TFieldRule = (value, context) =>
  typeof value === 'string' &&
  INSTANT.test(value) &&
  value >= context.periodStart.replace('Z', '000Z').slice(0, 27) &&
  value < context.periodEnd.replace('Z', '000Z').slice(0, 27);

/** The fields of each record, in the order the file writes them, with their check. */
const FIELDS: Record<TFileKind, readonly (readonly [string, TFieldRule])[]> = {
  bets: [
    ['record_type', oneOf(['bet', 'win', 'refund'])],
    ['transfer_id', isString(DIGITS)],
    ['occurred_at', inPeriod],
    ['local_date', (value, context) => value === context.day],
    ['player_id', isString(DIGITS)],
    ['player_cpf', (value) => value === null || isString(CPF)(value, {} as TReportContext)],
    ['product', oneOf(PRODUCTS)],
    ['reference', isString(REFERENCE)],
    ['wallet', oneOf(['cash', 'bonus'])],
    ['amount_minor', isString(DIGITS)],
    ['currency', (value, context) => value === context.currency],
  ],
  transactions: [
    ['record_type', oneOf(['deposit', 'withdrawal'])],
    ['transfer_id', isString(DIGITS)],
    ['occurred_at', inPeriod],
    ['local_date', (value, context) => value === context.day],
    ['player_id', isString(DIGITS)],
    ['player_cpf', (value) => value === null || isString(CPF)(value, {} as TReportContext)],
    ['reference', isString(REFERENCE)],
    ['amount_minor', isString(DIGITS)],
    ['currency', (value, context) => value === context.currency],
  ],
};

function lineOf(context: TReportContext, kind: TFileKind, record: TBetRecord | TTransactionRecord): string {
  const common = {
    record_type: record.recordType,
    transfer_id: record.transferId,
    occurred_at: record.occurredAt,
    local_date: context.day,
    player_id: record.playerId,
    player_cpf: record.playerCpf,
  };
  const fields =
    kind === 'bets'
      ? {
          ...common,
          product: (record as TBetRecord).product,
          reference: record.reference,
          wallet: (record as TBetRecord).wallet,
          amount_minor: record.amountMinor,
          currency: context.currency,
        }
      : {
          ...common,
          reference: record.reference,
          amount_minor: record.amountMinor,
          currency: context.currency,
        };
  return JSON.stringify(fields);
}

const compact = (day: string) => day.replaceAll('-', '');

/**
 * Our own layout: JSON Lines (one record per line, UTF-8, LF, a final LF, keys in the order of
 * FIELDS), a JSON manifest. No instant of the run appears anywhere: the same ledger gives the same
 * bytes.
 */
export const SORTE_V1: TRegulatorLayout = {
  name: 'sorte-v1',
  fileName: (context, kind, sequence) =>
    `${context.siteCode}_${compact(context.day)}_${kind}_${String(sequence).padStart(4, '0')}.jsonl`,
  manifestName: (context) => `${context.siteCode}_${compact(context.day)}_manifest.json`,
  file(context, kind, records) {
    return records.map((record) => `${lineOf(context, kind, record)}\n`).join('');
  },
  manifest(context, files) {
    const count = (kind: TFileKind) =>
      files.filter((file) => file.kind === kind).reduce((sum, file) => sum + file.records, 0);
    return `${JSON.stringify(
      {
        layout: 'sorte-v1',
        site_code: context.siteCode,
        local_date: context.day,
        time_zone: context.timeZone,
        period_start: context.periodStart,
        period_end: context.periodEnd,
        currency: context.currency,
        max_records_per_file: context.maxRecordsPerFile,
        totals: { bets: count('bets'), transactions: count('transactions') },
        files: files.map((file) => ({
          name: file.name,
          kind: file.kind,
          sequence: file.sequence,
          records: file.records,
          bytes: file.bytes,
          sha256: file.sha256,
        })),
      },
      null,
      2,
    )}\n`;
  },
  validateFile(context, kind, content, records) {
    const problems: string[] = [];
    if (content !== '' && !content.endsWith('\n')) problems.push('the file does not end with a line feed');
    const lines = content === '' ? [] : content.slice(0, -1).split('\n');
    if (lines.length !== records) problems.push(`${lines.length} records, ${records} expected`);
    if (lines.length > context.maxRecordsPerFile) {
      problems.push(`${lines.length} records, more than ${context.maxRecordsPerFile}`);
    }
    const fields = FIELDS[kind];
    const names = fields.map(([name]) => name).join(',');
    lines.forEach((line, index) => {
      const at = `line ${index + 1}`;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        problems.push(`${at}: not JSON`);
        return;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        problems.push(`${at}: not an object`);
        return;
      }
      const record = parsed as Record<string, unknown>;
      if (Object.keys(record).join(',') !== names) problems.push(`${at}: fields are not ${names}`);
      for (const [name, rule] of fields) {
        if (!rule(record[name], context)) problems.push(`${at}: ${name} is not valid`);
      }
    });
    return problems.slice(0, 50);
  },
  validateManifest(context, content, files) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      return ['the manifest is not JSON'];
    }
    return content === SORTE_V1.manifest(context, files) && parsed !== null
      ? []
      : ['the manifest does not list the files as they are'];
  },
};

/** The layouts a profile may name (regulator_profiles.layout). */
export const LAYOUTS: Readonly<Record<string, TRegulatorLayout>> = { [SORTE_V1.name]: SORTE_V1 };
