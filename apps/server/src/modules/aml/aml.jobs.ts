import type { TJob } from '../../jobs/runner.ts';
import { runScreening } from './aml.screening.ts';

/** How often the screening drains the outbox: well under the 60 s from commit to alert (ADR 040). */
export const SCREENING_EVERY_MS = 5_000;

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
];
