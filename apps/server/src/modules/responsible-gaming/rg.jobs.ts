import { eq } from 'drizzle-orm';
import type { TJob } from '../../jobs/runner.ts';
import { sites } from '../sites/sites.schema.ts';
import { recheckRegistry } from './registry.service.ts';

const HOUR_MS = 60 * 60_000;

/** The responsible-gaming jobs. */
export const responsibleGamingJobs: TJob[] = [
  {
    name: 'registry-recheck',
    does: 'asks the self-exclusion registry again about members whose last answer is due',
    // Ticks four times an hour so some process's tick falls in every hour; the claim runs one.
    everyMs: HOUR_MS / 4,
    claim: { periodMs: HOUR_MS },
    level: 'warn',
    run: async (app) => {
      const active = await app.services.db.select().from(sites).where(eq(sites.status, 1));
      await recheckRegistry(app.services.db, app.registry, active);
    },
  },
];
