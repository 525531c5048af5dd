import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { jobClaims } from './jobs.schema.ts';

const KEEP_CLAIMS_MS = 7 * 24 * 60 * 60_000;

/**
 * Claims (job, period) for this process: true for the one process whose insert lands, false for
 * every other. A week of a job's claims is kept; older ones are pruned by the winner.
 */
export async function claimPeriod(executor: Executor, job: string, period: Date): Promise<boolean> {
  const won = await executor
    .insert(jobClaims)
    .values({ job, period })
    .onConflictDoNothing()
    .returning({ job: jobClaims.job });
  if (won.length === 0) return false;
  await executor
    .delete(jobClaims)
    .where(and(eq(jobClaims.job, job), lt(jobClaims.period, new Date(period.getTime() - KEEP_CLAIMS_MS))));
  return true;
}
