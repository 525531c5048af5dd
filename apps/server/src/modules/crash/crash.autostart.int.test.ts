import { afterAll, describe, expect, it } from 'vitest';
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
});
