import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase } from '../../test/app.ts';
import { databaseKinds } from '../../test/databases.ts';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { rowsOf } from '../db/sql.ts';
import { ALL_JOBS } from './all-jobs.ts';
import type { TJob } from './runner.ts';

const kinds = await databaseKinds();
const HOUR_MS = 60 * 60_000;

/**
 * A second "process" on the same database: its own pool on PostgreSQL (PGlite has one anyway), as
 * large as a server's, since each LISTEN channel of an app holds one of its connections.
 */
async function secondConnection(database: Database): Promise<Database> {
  if (database.kind === 'pglite') return { ...database, close: async () => undefined };
  const pool = (database.db as unknown as { $client: { options: { connectionString: string } } }).$client;
  return openDatabase({ kind: 'postgres', url: pool.options.connectionString, poolMax: 20 });
}

describe.each(kinds)('the job runner across two app instances on %s', (kind) => {
  const runs: { app: string; at: Date }[] = [];
  // Each run of the test file claims its own job name, so an earlier run's claims are not in the way.
  const name = `claim-test-${Date.now().toString(36)}-${randomInt(1_000_000)}`;
  const hourly = (app: string): TJob => ({
    name,
    does: 'counts its runs',
    everyMs: HOUR_MS / 4,
    claim: { periodMs: HOUR_MS },
    run: async (_app, at) => {
      runs.push({ app, at });
    },
  });
  let one: FastifyInstance;
  let two: FastifyInstance;
  let second: Database;

  beforeAll(async () => {
    const database = await seededDatabase(kind);
    second = await secondConnection(database);
    one = await buildApp({ config: testConfig(), database, jobs: [hourly('one')] });
    two = await buildApp({ config: testConfig(), database: second, jobs: [hourly('two')] });
    await Promise.all([one.ready(), two.ready()]);
  }, 120_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await second?.close();
  });

  it('runs a claimed job once per period however many instances tick it, and again the next period', async () => {
    const at = new Date('2026-12-02T03:10:00.000Z');
    const ticks = await Promise.all([
      one.jobs.tick(name, at),
      two.jobs.tick(name, at),
      one.jobs.tick(name, new Date('2026-12-02T03:40:00.000Z')),
    ]);
    // The same instance's second tick meets its own run still going or the claim taken.
    expect(ticks.filter((t) => t === 'ran')).toHaveLength(1);
    expect(
      ticks.filter((t) => t === 'ran' || t === 'claimed-elsewhere' || t === 'still-running'),
    ).toHaveLength(3);
    expect(runs).toHaveLength(1);
    expect(await two.jobs.tick(name, new Date('2026-12-02T03:59:59.999Z'))).toBe('claimed-elsewhere');
    expect(await one.jobs.tick(name, new Date('2026-12-02T03:20:00.000Z'))).toBe('claimed-elsewhere');

    // The next hour is a new period: one instance runs it, the other finds it claimed.
    const next = new Date('2026-12-02T04:00:00.000Z');
    const [a, b] = [await two.jobs.tick(name, next), await one.jobs.tick(name, next)];
    expect([a, b]).toEqual(['ran', 'claimed-elsewhere']);
    expect(runs.map((r) => r.app)).toEqual([runs[0]!.app, 'two']);

    const claims = await rowsOf<{ period: unknown }>(
      one.services.db,
      sql`SELECT period FROM job_claims WHERE job = ${name} ORDER BY period`,
    );
    expect(claims.map((c) => new Date(String(c.period)).toISOString())).toEqual([
      '2026-12-02T03:00:00.000Z',
      '2026-12-02T04:00:00.000Z',
    ]);
  });

  it('prunes claims older than a week when a new period is claimed', async () => {
    const old = new Date('2026-11-20T10:00:00.000Z');
    expect(await one.jobs.tick(name, old)).toBe('ran');
    expect(await two.jobs.tick(name, new Date('2026-12-03T10:00:00.000Z'))).toBe('ran');
    const left = await rowsOf<{ n: number }>(
      one.services.db,
      sql`SELECT count(*)::int AS n FROM job_claims WHERE job = ${name} AND period < '2026-11-26'`,
    );
    expect(Number(left[0]!.n)).toBe(0);
  });

  it('the server declares every job once, with a claim or the reason it needs none', () => {
    const names = ALL_JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'deposit-expiry',
        'pix-reconciliation',
        'payout-sync',
        'promotions',
        'agency-settlement',
        'chat-rain',
        'sports-collection',
        'registry-recheck',
        'reality-checks',
        'mail-outbox',
        'regulator-daily-files',
        'kyc-documents-fetch',
        'kyc-documents-retention',
      ]),
    );
    for (const job of ALL_JOBS) {
      if ('keyed' in job.claim) expect(job.claim.keyed.length).toBeGreaterThan(10);
      else expect(job.claim.periodMs).toBeGreaterThanOrEqual(job.everyMs);
    }
  });
});
