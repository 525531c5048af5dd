import type { TAdminCertificationResponse, TCertificationResponse } from '@sorte/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_VIEWPORT, launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { assertAdminBuilt, DEMO_OPERATOR, unusedTotpCode } from './support/operator.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 37 in the product: a guest opens a game's rules panel and sees the certification figures
 * the server serves from the shipped report; the owner's back office shows the report with the
 * running build's commit and web bundle hash.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  assertAdminBuilt();
  server = await startServer('certification');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('certification figures', () => {
  it("a guest opens Mines' rules and sees the figures of every mode; the owner sees the report and the build", async () => {
    const served = (await (await fetch(`${server.url}/api/originals/certification?game=mines`)).json()) as {
      data: TCertificationResponse;
    };
    const modes = served.data.games[0]?.modes ?? [];
    expect(modes.length).toBeGreaterThan(1);

    const phone = await newPhoneContext(browser);
    const page = await phone.newPage();
    try {
      await page.goto(`${server.url}/gameInfo?game=mines&mode=demo`);
      await page.waitForURL(/\/originals\/mines/);
      await page.getByTestId('certification-open').click();
      const dialog = page.getByTestId('certification-figures');
      await dialog.waitFor({ state: 'visible' });
      await expect.poll(() => page.getByTestId('certification-mode').count()).toBe(modes.length);
      expect(await dialog.textContent()).toContain(served.data.commit.slice(0, 12));
      // The shipped report is a smoke run, and the panel says so in the player's words.
      if (!served.data.sizes.full_sizes) await page.getByTestId('certification-smoke').waitFor();
      await screenshot(page, 'certification-01-rules-panel');
    } finally {
      await phone.close();
    }

    const desk = await browser.newContext({ viewport: DESKTOP_VIEWPORT });
    const admin = await desk.newPage();
    try {
      await admin.goto(`${server.url}/admin/`);
      await admin.getByTestId('login-username').fill(DEMO_OPERATOR.username);
      await admin.getByTestId('login-password').fill(DEMO_OPERATOR.password);
      await admin.getByTestId('login-totp').fill(await unusedTotpCode(DEMO_OPERATOR.totpSecret));
      await admin.getByTestId('login-submit').click();
      const answered = admin.waitForResponse((response) =>
        response.url().includes('/api/admin/certification'),
      );
      await admin.getByRole('link', { name: 'Certification' }).click();
      const envelope = (await (await answered).json()) as { data: TAdminCertificationResponse };
      const rows = envelope.data.report.games.reduce((sum, game) => sum + game.modes.length, 0);
      await expect.poll(() => admin.getByTestId('certification-row').count()).toBe(rows);
      const build = await admin.getByTestId('certification-build').textContent();
      expect(build).toContain(envelope.data.report.commit);
      expect(envelope.data.build.web_manifest_file).toBe('.vite/manifest.json');
      expect(build).toContain(envelope.data.build.web_manifest_sha256);
      await screenshot(admin, 'certification-02-back-office');
    } finally {
      await desk.close();
    }
  });
});
