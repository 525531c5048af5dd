import { eq } from 'drizzle-orm';
import type { TJob } from '../../jobs/runner.ts';
import { sites } from '../sites/sites.schema.ts';
import { REALITY_CHECK } from './reality-check.ts';
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
  {
    name: 'reality-checks',
    does: "sends the due reality-check reminders on this process's live sockets",
    // Read when the app starts: reminders are whole minutes, so a tick of a sixth of one keeps each
    // within ten seconds of its time (tests shorten the minute before they build the app).
    get everyMs() {
      return REALITY_CHECK.minuteMs / 6;
    },
    claim: { keyed: 'each process reminds only the sockets connected to it' },
    level: 'warn',
    run: (app, now) => app.realityChecks.due(now.getTime()),
  },
];
