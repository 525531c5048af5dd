import type { TJob } from '../../jobs/runner.ts';

/** The mail job: what a commit's kick did not send (a failure, another process's crash) is retried. */
export const mailJobs: TJob[] = [
  {
    name: 'mail-outbox',
    does: 'sends the due messages of the mail outbox (a no-op until a sender is attached)',
    everyMs: 15_000,
    claim: { keyed: 'rows are claimed with SKIP LOCKED, so no message is sent twice' },
    start: 'ready',
    run: (app) => app.mail.kick(),
  },
];
