import { eq } from 'drizzle-orm';
import type { TJob } from '../../jobs/runner.ts';
import { sites } from '../sites/sites.schema.ts';
import { rainDue } from './chat.service.ts';

/** The chat job: the rain of each slot is paid to the eligible members of the room (ADR 017). */
export const chatJobs: TJob[] = [
  {
    name: 'chat-rain',
    does: "pays the latest slot's rain (and any rain left half paid) on every site with rain on",
    everyMs: 60_000,
    claim: { keyed: 'a rain is unique per (site, slot) and each share is paid under its own key' },
    runAtStart: true,
    enabled: (config) => config.COMMUNITY_JOBS,
    run: async (app) => {
      const active = await app.services.db.select().from(sites).where(eq(sites.status, 1));
      await rainDue(app.services.db, active);
    },
  },
];
