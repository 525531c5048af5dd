import type { TJob } from '../../jobs/runner.ts';
import { collectUnrecovered, sitesOwed, type TSportsDeps } from './sports.service.ts';

/** The sportsbook job: what corrected results could not take back is collected as cash comes in. */
export const sportsJobs: TJob[] = [
  {
    name: 'sports-collection',
    does: 'collects unrecovered resettlements from the players who owe them',
    everyMs: 5 * 60_000,
    claim: { keyed: "the bet row's lock serialises collectors and each collection has its own key" },
    enabled: (config) => config.COMMUNITY_JOBS,
    run: async (app) => {
      const deps: TSportsDeps = {
        db: app.services.db,
        publishBalance: (siteId, memberId, reason) =>
          void app.realtime.publishBalance(siteId, memberId, reason),
      };
      for (const site of await sitesOwed(app.services.db)) await collectUnrecovered(deps, site);
    },
  },
];
