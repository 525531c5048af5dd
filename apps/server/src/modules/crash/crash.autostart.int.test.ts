import { afterAll, describe, expect, it, vi } from 'vitest';
import { CAPTCHA_TEXT, seededDatabase } from '../../../test/app.ts';
import { buildApp } from '../../app.ts';
import { loadConfig, testConfig } from '../../config.ts';

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
    const app = await buildApp({
      config: testConfig({ CRASH_ENGINE: true }),
      database: await seededDatabase('pglite'),
      captchaGenerator: () => ({ text: CAPTCHA_TEXT, svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
    });
    apps.push(app);
    // The engine's start is held until the test lets it go (a slow database at boot).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const start = app.crash.start.bind(app.crash);
    vi.spyOn(app.crash, 'start').mockImplementation(async (options) => {
      await held;
      return start(options);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const readyz = () => app.inject({ method: 'GET', url: '/readyz', headers: { host: 'lb.internal' } });
    const before = await readyz();
    expect(before.statusCode).toBe(503);
    expect(before.json()).toEqual({ status: 'starting', starting: ['crash'] });
    expect(app.crash.active).toBe(false);

    release();
    await expect.poll(async () => (await readyz()).statusCode, { timeout: 20_000 }).toBe(200);
    // Ready means a crash bet sent now finds a round.
    expect(app.crash.active).toBe(true);
    expect((await app.crash.state(null)).phase).toBe('betting');
  });
});
