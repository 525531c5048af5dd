import type { TJob } from '../../jobs/runner.ts';
import { buildDueReports } from './regulator.service.ts';

const MINUTE_MS = 60_000;

/** The regulator's jobs (ADR 039). */
export const regulatorJobs: TJob[] = [
  {
    name: 'regulator-daily-files',
    does: "writes each reporting site's files of the days that have none (yesterday's after local midnight)",
    // Every quarter hour: a profile's build_after_minutes past local midnight is reached within 15
    // minutes, hours before its due_hour; a restart catches up the days missed.
    everyMs: 15 * MINUTE_MS,
    claim: {
      keyed:
        'one report per (site, day): the insert into regulator_reports is ON CONFLICT DO NOTHING, so a second process building the same day writes nothing',
    },
    runAtStart: true,
    level: 'warn',
    run: (app, now) => buildDueReports(app.services.db, now),
  },
];
