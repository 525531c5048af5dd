import type { Db, Executor } from '../../db/client.ts';
import {
  alertExists,
  claimOutbox,
  findEnabledRules,
  findMemberFacts,
  insertAlert,
  lockCursor,
  markScreened,
  moveCursor,
  openCaseOf,
  readLedgerWins,
  type TIdentifierKind,
  upsertIdentifier,
} from './aml.repo.ts';
import { compileRule, evaluateRule, type TCompiledRule, type TScreenedEvent } from './aml.rules.ts';

/**
 * The screening (ADR 040): drains the outbox (deposits credited, withdrawals requested, logins)
 * and reads the ledger's wins after its cursor, evaluates the rules of each event's jurisdiction
 * profile and opens alerts, each in its member's open case. Screening an event twice opens no
 * second alert (each alert is keyed by what it is about).
 */

/** Outbox rows per transaction. */
const OUTBOX_BATCH = 200;
/** Ledger transfers read per transaction. */
const LEDGER_BATCH = 5000;
/**
 * The ledger cursor moves past a transfer only once it is this old: a transaction that drew a
 * lower id and commits later is still read (transfers commit within milliseconds; ADR 040).
 */
export const LEDGER_SETTLE_MARGIN_MS = 30_000;
const LEDGER_SOURCE = 'ledger_wins';
/** The largest bigint: no rule reads wins, the cursor still moves. */
const NO_WINS = 9_223_372_036_854_775_807n;

export type TRuleBook = { byJurisdiction: Map<string, TCompiledRule[]>; minWinMinor: bigint };

/** Every profile's enabled rules, compiled (a row that does not parse fails the run). */
export async function loadRuleBook(db: Executor): Promise<TRuleBook> {
  const byJurisdiction = new Map<string, TCompiledRule[]>();
  let minWinMinor = NO_WINS;
  for (const row of await findEnabledRules(db)) {
    const rule = compileRule(row);
    byJurisdiction.set(row.jurisdiction, [...(byJurisdiction.get(row.jurisdiction) ?? []), rule]);
    const params = rule.params as { min_win_minor?: bigint };
    if (row.rule === 'disproportionate_win' && params.min_win_minor !== undefined) {
      minWinMinor = params.min_win_minor < minWinMinor ? params.min_win_minor : minWinMinor;
    }
  }
  return { byJurisdiction, minWinMinor };
}

/** Opens the alerts of one event; returns how many were new. */
async function screenEvent(
  tx: Executor,
  rules: readonly TCompiledRule[],
  event: TScreenedEvent,
): Promise<number> {
  const member = await findMemberFacts(tx, event.memberId);
  if (!member || rules.length === 0) return 0;
  let opened = 0;
  for (const rule of rules) {
    for (const hit of await evaluateRule(rule, { db: tx, event, member })) {
      if (await alertExists(tx, event.siteId, rule.rule, hit.dedupeKey)) continue;
      const caseId = await openCaseOf(tx, event.siteId, event.memberId);
      const inserted = await insertAlert(tx, {
        siteId: event.siteId,
        memberId: event.memberId,
        caseId,
        rule: rule.rule,
        dedupeKey: hit.dedupeKey,
        amountMinor: hit.amountMinor,
        evidence: hit.evidence,
        legalBasis: rule.legalBasis,
        eventAt: event.at,
      });
      if (inserted) opened += 1;
    }
  }
  return opened;
}

/** One batch of the outbox in one transaction: identifiers recorded, rules evaluated, rows marked. */
async function screenOutboxBatch(db: Db, book: TRuleBook): Promise<{ events: number; alerts: number }> {
  return db.transaction(async (tx) => {
    const rows = await claimOutbox(tx, OUTBOX_BATCH);
    let alerts = 0;
    for (const row of rows) {
      for (const [kind, value] of Object.entries(row.identifiers)) {
        if (!value) continue;
        await upsertIdentifier(tx, {
          siteId: row.siteId,
          kind: kind as TIdentifierKind,
          value,
          memberId: row.memberId,
          seenAt: row.createdAt,
        });
      }
      alerts += await screenEvent(tx, book.byJurisdiction.get(row.jurisdiction) ?? [], {
        kind: row.kind,
        siteId: row.siteId,
        memberId: row.memberId,
        amountMinor: row.amountMinor,
        reference: row.reference,
        identifiers: row.identifiers,
        at: row.createdAt,
        sourceKey: `outbox:${row.id}`,
      });
    }
    await markScreened(
      tx,
      rows.map((row) => row.id),
    );
    return { events: rows.length, alerts };
  });
}

/**
 * One batch of the ledger after the cursor: its large wins screened (only the disproportionate-win
 * rule reads wins; a PEP is alerted on their deposits, withdrawals and logins). `more` when the batch was full and settled, so the next one follows now.
 */
/**
 * One batch of the ledger from `scanFrom` (never before the cursor). The cursor moves over the
 * settled prefix only when the batch starts at it; a batch further on screens its wins and leaves
 * the cursor, so a busy ledger's unsettled stretch (more than a batch within the margin) does not
 * hide the wins after it.
 */
async function screenLedgerBatch(
  db: Db,
  book: TRuleBook,
  scanFrom: bigint,
  limit: number,
): Promise<{ wins: number; alerts: number; more: boolean; lastId: bigint }> {
  return db.transaction(async (tx) => {
    const cursor = await lockCursor(tx, LEDGER_SOURCE);
    const from = scanFrom > cursor ? scanFrom : cursor;
    const read = await readLedgerWins(tx, from, book.minWinMinor, limit, LEDGER_SETTLE_MARGIN_MS);
    let alerts = 0;
    for (const win of read.wins) {
      const rules = (book.byJurisdiction.get(win.jurisdiction) ?? []).filter(
        (rule) => rule.rule === 'disproportionate_win',
      );
      alerts += await screenEvent(tx, rules, {
        kind: 'win',
        siteId: win.siteId,
        memberId: win.memberId,
        amountMinor: win.amountMinor,
        reference: win.reference,
        identifiers: {},
        at: win.createdAt,
        sourceKey: `ledger:${win.id}`,
      });
    }
    if (from === cursor && read.settledUpTo !== null) await moveCursor(tx, LEDGER_SOURCE, read.settledUpTo);
    return { wins: read.wins.length, alerts, more: read.scanned === limit, lastId: read.lastId };
  });
}

export type TScreeningRun = { events: number; wins: number; alerts: number };

/** Everything committed so far, screened: the outbox to its end, then the ledger's wins. */
export async function runScreening(
  db: Db,
  options: { book?: TRuleBook; ledgerBatch?: number } = {},
): Promise<TScreeningRun> {
  const rules = options.book ?? (await loadRuleBook(db));
  const ledgerBatch = options.ledgerBatch ?? LEDGER_BATCH;
  const run: TScreeningRun = { events: 0, wins: 0, alerts: 0 };
  for (;;) {
    const batch = await screenOutboxBatch(db, rules);
    run.events += batch.events;
    run.alerts += batch.alerts;
    if (batch.events < OUTBOX_BATCH) break;
  }
  let scanFrom = 0n;
  for (;;) {
    const batch = await screenLedgerBatch(db, rules, scanFrom, ledgerBatch);
    run.wins += batch.wins;
    run.alerts += batch.alerts;
    if (!batch.more) break;
    scanFrom = batch.lastId;
  }
  return run;
}
