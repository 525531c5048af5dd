import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { createMemberSession } from '../../apps/server/src/modules/sessions/sessions.service.ts';
import { createTestMember } from '../../apps/server/src/modules/wallet/wallet.fixtures.ts';
import { transfer } from '../../apps/server/src/modules/wallet/wallet.service.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo-data.ts';
import { postgresReachable, withThrowawayDatabase } from '../support/report.ts';

/**
 * Counts the SQL statements (= round trips) of one authenticated HTTP dice bet on PostgreSQL, and
 * prints them in order with their time, so the bet path can be tuned statement by statement:
 * `node --import tsx bench/bets/bet-queries.ts`. Every statement of node-postgres (BEGIN, COMMIT
 * and SAVEPOINTs included) passes through `Client.prototype.query`, which is wrapped here.
 */

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const MEASURED_BETS = 3;

type Logged = { text: string; ms: number };
let log: Logged[] | null = null;

function recordStatements(): void {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function query(this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : String((first as { text?: unknown } | null)?.text ?? '');
    const started = performance.now();
    const entry = log;
    // The pool answers its own `query` through a callback; a client's transaction statements are promises.
    const callback = args.at(-1);
    if (entry && typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
        entry.push({ text: error ? `(failed) ${text}` : text, ms: performance.now() - started });
        return callback(error, ...rest);
      };
    }
    const result = original.apply(this, args);
    if (entry && result instanceof Promise) {
      void result.then(
        () => entry.push({ text, ms: performance.now() - started }),
        () => entry.push({ text: `(failed) ${text}`, ms: performance.now() - started }),
      );
    }
    return result;
  };
}

async function main(): Promise<void> {
  if (!(await postgresReachable(ADMIN_URL))) throw new Error(`PostgreSQL not reachable at ${ADMIN_URL}`);
  await withThrowawayDatabase(new URL(ADMIN_URL), 'sorte_betq', async (url) => {
    recordStatements();
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 8 });
    try {
      await migrate(database);
      await seedDemoData(database.db);
      const app = await buildApp({ config: testConfig(), database });
      const site = await app.services.sites.byCode('sorte');
      if (!site) throw new Error('demo site sorte missing');
      const memberId = await createTestMember(database.db, site.id);
      await transfer(database.db, {
        siteId: site.id,
        kind: 'deposit',
        from: { system: 'psp_clearing' },
        to: { memberId, account: 'cash' },
        amountMinor: 100_000n,
        idempotencyKey: `bet-queries-fund-${memberId}`,
      });
      const { token } = await createMemberSession(database.db, site, memberId, { ip: null, userAgent: null });
      const bet = () =>
        app.inject({
          method: 'POST',
          url: '/api/originals/dice/bet',
          headers: { host: 'localhost', authorization: `Bearer ${token}` },
          payload: { amount: '0.10', direction: 'under', target: 4950 },
        });
      const first = await bet(); // warm-up: first seed pair, caches, JIT
      if (first.statusCode !== 200) throw new Error(`warm-up bet: ${first.statusCode} ${first.body}`);
      for (let i = 1; i <= MEASURED_BETS; i++) {
        log = [];
        const started = performance.now();
        const response = await bet();
        const ms = performance.now() - started;
        const statements = log;
        log = null;
        if (response.statusCode !== 200) throw new Error(`bet ${i}: ${response.statusCode} ${response.body}`);
        console.log(`bet ${i}: ${statements.length} statements, ${ms.toFixed(1)} ms in all`);
        for (const s of statements) {
          console.log(`  ${s.ms.toFixed(2).padStart(7)} ms  ${s.text.replace(/\s+/g, ' ').slice(0, 150)}`);
        }
      }
      await app.close();
    } finally {
      await database.close();
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
