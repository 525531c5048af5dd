import type { TJob } from '../../jobs/runner.ts';
import { settleDuePeriods } from './agency.service.ts';

/** The agency job: yesterday's commission period of each site is settled if it was not (ADR 017). */
export const agencyJobs: TJob[] = [
  {
    name: 'agency-settlement',
    does: "settles yesterday's commission period (site time zone) on every active site",
    everyMs: 60_000,
    claim: { keyed: 'a settlement is unique per (site, period) and each commission is paid under its key' },
    runAtStart: true,
    enabled: (config) => config.COMMUNITY_JOBS,
    run: (app, now) => settleDuePeriods(app.services.db, now),
  },
];
