import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import {
  expectLoggedIn,
  expectLoggedOut,
  loginFromModal,
  logout,
  newPlayer,
  register,
} from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * "Keep me signed in" (issue 41, point 6): the bearer token lives in the tab's sessionStorage, so
 * closing the page (or the installed app) used to log the player out. A remembered device opens a
 * new page still signed in, through its httpOnly refresh cookie; after a logout it does not.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('keep-signed-in');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Closes every page of the context and opens a fresh one (a cold start: empty sessionStorage). */
async function reopen(context: BrowserContext, url: string) {
  for (const open of context.pages()) await open.close();
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

describe('keep me signed in', () => {
  it('a remembered player opens a new page signed in; after logout, or without it, signed out', async () => {
    const context = await newPhoneContext(browser);
    try {
      let page = await context.newPage();
      await page.goto(server.url);
      const player = newPlayer('keep');
      await register(page, player);
      await expectLoggedIn(page);

      // Not remembered: closing the page ends the session here, as the spec's token rule says.
      page = await reopen(context, server.url);
      await expectLoggedOut(page);

      const body = await loginFromModal(page, player, { remember: true });
      expect(body.status, body.message).toBe('success');
      await page.getByTestId('login-modal').waitFor({ state: 'hidden' });
      const cookies = await context.cookies();
      const refresh = cookies.find((cookie) => cookie.name === 'sorte_refresh');
      expect(refresh?.httpOnly).toBe(true);
      expect(refresh?.sameSite).toBe('Lax');
      expect(await page.evaluate(() => document.cookie)).not.toContain('sorte_refresh');

      page = await reopen(context, server.url);
      await expectLoggedIn(page);
      await screenshot(page, 'keep-01-reopened-signed-in');
      // Twice: each start rotates the cookie, and the rotated one keeps working.
      page = await reopen(context, server.url);
      await expectLoggedIn(page);

      await logout(page);
      page = await reopen(context, server.url);
      await expectLoggedOut(page);
      await screenshot(page, 'keep-02-after-logout');
    } finally {
      await context.close();
    }
  });
});
