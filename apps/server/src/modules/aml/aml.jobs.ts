import type { TJob } from '../../jobs/runner.ts';
import { pruneOutbox } from './aml.retention.ts';
import { runScreening } from './aml.screening.ts';

/** How often the screening drains the outbox: well under the 60 s from commit to alert (ADR 040). */
export const SCREENING_EVERY_MS = 5_000;

/** How often the outbox's retention runs. */
const OUTBOX_PRUNE_EVERY_MS = 86_400_000;

/** Compliance's jobs (ADR 040). */
export const amlJobs: TJob[] = [
  {
    name: 'aml-screening',
    does: 'screens the deposits, withdrawals and logins of the AML outbox and the large wins of the ledger, and opens alerts',
    everyMs: SCREENING_EVERY_MS,
    // One run per period across processes; a run slower than its period overlapping another
    // process's is still safe: outbox rows are taken FOR NO KEY UPDATE SKIP LOCKED, the ledger cursor row
    // is locked, and an alert is unique per (rule, what it is about).
    claim: { periodMs: SCREENING_EVERY_MS },
    runAtStart: true,
    level: 'error',
    run: (app) => runScreening(app.services.db),
  },
  {
    name: 'aml-outbox-retention',
    does: 'deletes the screened AML outbox rows older than the longest window a rule reads, plus a day',
    everyMs: OUTBOX_PRUNE_EVERY_MS,
    // One run a day across processes; two overlapping runs delete disjoint or already deleted rows.
    claim: { periodMs: OUTBOX_PRUNE_EVERY_MS },
    runAtStart: true,
    level: 'error',
    run: (app) => pruneOutbox(app.services.db),
  },
];
