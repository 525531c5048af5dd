import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CAPTCHA_TEXT, seededDatabase } from '../../../test/app.ts';
import { crashClockStart } from '../../../test/crash.ts';
import { buildApp } from '../../app.ts';
import { loadConfig, testConfig } from '../../config.ts';
import { rowsOf } from '../../db/sql.ts';

describe('crash engine start', () => {
  const apps: { close: () => Promise<unknown> }[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('runs rounds by default, but not in a test app that listens (they share one database)', async () => {
    expect(loadConfig({}).CRASH_ENGINE).toBe(true);
    const app = await buildApp({
      config: testConfig(),
      database: await seededDatabase('pglite'),
      captchaGenerator: () => ({ text: CAPTCHA_TEXT, svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
    });
    apps.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    // onListen hooks finish after listen() resolves: watch for a while that no engine comes up.
    const deadline = Date.now() + 1_000;
    while (Date.now() < deadline && !app.crash.active)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.crash.active).toBe(false);
  });

  it('answers /readyz 503 "starting" until the crash engine has started, then ready with a round taking bets', async () => {
    // The integration files share this process's database: the engine runs on the test's clock,
    // without stepping, and what it opens is removed afterwards (a round of a real-time engine left
    // behind would be one another file's engine finds closed in its own time).
    const database = await seededDatabase('pglite');
    const { db } = database;
    const now = await crashClockStart(db);
    const [before] = await rowsOf<{ round: string; chain: string }>(
      db,
      sql`SELECT (SELECT coalesce(max(id), 0) FROM crash_rounds)::text AS round,
            (SELECT coalesce(max(id), 0) FROM crash_chains)::text AS chain`,
    );
    const positions = await rowsOf<{ id: string; position: number }>(
      db,
      sql`SELECT id::text, position FROM crash_chains`,
    );
    const app = await buildApp({
      config: testConfig({ CRASH_ENGINE: true }),
      database,
      captchaGenerator: () => ({ text: CAPTCHA_TEXT, svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
    });
    try {
      // The engine's start is held until the test lets it go (a slow database at boot).
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const start = app.crash.start.bind(app.crash);
      vi.spyOn(app.crash, 'start').mockImplementation(async (options) => {
        await held;
        return start({ ...options, clock: () => now, autoRun: false });
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const readyz = () => app.inject({ method: 'GET', url: '/readyz', headers: { host: 'lb.internal' } });
      const first = await readyz();
      expect(first.statusCode).toBe(503);
      expect(first.json()).toEqual({ status: 'starting', starting: ['crash'] });
      expect(app.crash.active).toBe(false);

      release();
      await expect.poll(async () => (await readyz()).statusCode, { timeout: 20_000 }).toBe(200);
      // Ready means a crash bet sent now finds a round.
      expect(app.crash.active).toBe(true);
      expect((await app.crash.state(null)).phase).toMatch(/^(betting|running|crashed)$/);
    } finally {
      await app.close();
      await db.execute(sql`DELETE FROM crash_rounds WHERE id > ${before!.round}::bigint`);
      await db.execute(sql`DELETE FROM crash_chains WHERE id > ${before!.chain}::bigint`);
      for (const { id, position } of positions) {
        await db.execute(sql`UPDATE crash_chains SET position = ${position} WHERE id = ${id}::bigint`);
      }
    }
  });
});
