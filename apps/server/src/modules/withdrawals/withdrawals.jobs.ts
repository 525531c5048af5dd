import type { TJob } from '../../jobs/runner.ts';
import { syncPayouts } from './withdrawals.service.ts';

/** The withdrawal job: payouts whose webhook never came are asked about at the PSP. */
export const withdrawalJobs: TJob[] = [
  {
    name: 'payout-sync',
    does: 'asks the PSP about payouts paying for over a minute and settles, fails or resends them',
    everyMs: 60_000,
    claim: { keyed: "each answer is applied under the order's row lock, once per status change" },
    start: 'ready',
    level: 'warn',
    run: (app) =>
      syncPayouts({
        db: app.services.db,
        psp: app.psp,
        realtime: app.realtime,
        throttle: app.services.throttle,
        log: app.log,
      }),
  },
];
