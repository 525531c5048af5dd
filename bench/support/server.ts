import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { type TConfig, testConfig } from '../../apps/server/src/config.ts';
import type { Database } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo-data.ts';

export type TSite = NonNullable<Awaited<ReturnType<FastifyInstance['services']['sites']['byCode']>>>;
export type Started = {
  database: Database;
  app: FastifyInstance;
  port: number;
  close: () => Promise<void>;
  siteId: bigint;
  site: TSite;
};

/**
 * The real app of a benchmark on a migrated, seeded database, listening on loopback, with the demo
 * site `sorte`; the per-address rate limits are lifted (every simulated player comes from 127.0.0.1).
 */
export async function startServer(database: Database, overrides: Partial<TConfig> = {}): Promise<Started> {
  await migrate(database);
  await seedDemoData(database.db);
  const app = await buildApp({
    config: testConfig({
      RATE_LIMIT_PER_MINUTE: 1_000_000,
      AUTH_RATE_LIMIT_PER_MINUTE: 1_000_000,
      ...overrides,
    }),
    database,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const site = await app.services.sites.byCode('sorte');
  if (!site) throw new Error('demo site sorte missing');
  return {
    database,
    app,
    port: (app.server.address() as { port: number }).port,
    siteId: site.id,
    site,
    close: () => app.close(),
  };
}
