import type { Executor } from '../../db/client.ts';
import { deleteScreenedOutbox } from './aml.repo.ts';
import { outboxLookbackMs } from './aml.rules.ts';
import { loadRuleBook } from './aml.screening.ts';

/**
 * The outbox's retention (ADR 040). A screened row is kept as long as a rule may still read it as
 * history (structuring's hours, quick cash-out's days, surge's window and history: the longest
 * window of every profile's enabled rules) plus a day's margin, then deleted in batches. The
 * outbox is the screening's queue and its windows' history, not the record: the deposits,
 * withdrawals, sessions and KYC checks it points at, and the alerts, cases and reports it produced,
 * keep their own rows. An unscreened row stays until it is screened.
 */

const DAY_MS = 86_400_000;
/** Kept beyond the longest window: a run late by a day still finds every row it may read. */
export const OUTBOX_MARGIN_MS = DAY_MS;
/** Rows deleted per statement: short transactions beside the screening. */
const PRUNE_BATCH = 5_000;

export type TOutboxPruned = { deleted: number; keptFrom: Date };

/** Deletes the screened outbox rows older than every enabled rule reads, plus the margin. */
export async function pruneOutbox(
  db: Executor,
  options: { now?: Date; batch?: number } = {},
): Promise<TOutboxPruned> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? PRUNE_BATCH;
  const book = await loadRuleBook(db);
  let longest = 0;
  for (const rules of book.byJurisdiction.values()) {
    for (const rule of rules) longest = Math.max(longest, outboxLookbackMs(rule));
  }
  const keptFrom = new Date(now.getTime() - longest - OUTBOX_MARGIN_MS);
  let deleted = 0;
  for (;;) {
    const count = await deleteScreenedOutbox(db, keptFrom, batch);
    deleted += count;
    if (count < batch) return { deleted, keptFrom };
  }
}
