import type { FastifyInstance } from 'fastify';
import type { TJob } from '../../jobs/runner.ts';
import { expireDeposits, type TDepositDeps } from './deposits.service.ts';
import { RECONCILE_PERIOD_MS, reconcilePix } from './pix-settlement.ts';

const depositDeps = (app: FastifyInstance): TDepositDeps => ({
  db: app.services.db,
  psp: app.psp,
  realtime: app.realtime,
  log: app.log,
});

/** The deposit jobs: unpaid charges expire, and Pix whose callback never came are credited. */
export const depositJobs: TJob[] = [
  {
    name: 'deposit-expiry',
    // Reads expire a member's own lazily; this catches the rest.
    does: 'expires unpaid charges past their time',
    everyMs: 30_000,
    claim: { keyed: 'one process at a time under an advisory lock; an expired charge is not due again' },
    start: 'ready',
    level: 'warn',
    run: (app) => expireDeposits(app.services.db),
  },
  {
    name: 'pix-reconciliation',
    does: "reads the PSP's list of received Pix and credits those whose callback was missed",
    everyMs: RECONCILE_PERIOD_MS / 5,
    claim: { keyed: 'claims its own period in psp_reconcile_runs; a Pix is credited once per txid' },
    level: 'warn',
    run: (app, now) => reconcilePix(depositDeps(app), { now }),
  },
];
