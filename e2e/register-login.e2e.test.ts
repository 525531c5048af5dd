import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import {
  expectLoggedIn,
  expectLoggedOut,
  loginFromModal,
  logout,
  newPlayer,
  register,
  switchLanguage,
} from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 2's story on a phone-sized screen, against the real server on a fresh embedded database:
 * a new player registers, is logged in with a zero balance, stays logged in across a reload, logs
 * out, logs back in, and can install the site as an app that opens offline.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('register-login');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** "0.00" in English, "0,00" in Portuguese: the digits are what must not change. */
const ZERO_BALANCE = /(^|[^\d])0[.,]00($|[^\d])/;

describe('a new player on a phone', () => {
  for (const language of ['en', 'pt'] as const) {
    it(`registers, stays logged in after a reload, logs out and logs back in (${language})`, async () => {
      const context = await newPhoneContext(browser);
      const page = await context.newPage();
      try {
        await page.goto(server.url);
        await page.getByTestId('open-register').first().waitFor({ state: 'visible' });
        await screenshot(page, `${language}-01-home`);

        if (language !== 'en') {
          const englishLabel = await page.getByTestId('open-register').first().textContent();
          await switchLanguage(page, language);
          await expect
            .poll(() => page.getByTestId('open-register').first().textContent(), {
              message: 'the header speaks the new language after the reload',
            })
            .not.toBe(englishLabel);
        }

        const player = newPlayer(language);
        await register(page, player);
        expect(await expectLoggedIn(page)).toMatch(ZERO_BALANCE);
        await screenshot(page, `${language}-02-registered`);

        await page.reload();
        expect(await expectLoggedIn(page), 'still logged in after a reload').toMatch(ZERO_BALANCE);

        await logout(page);
        await screenshot(page, `${language}-03-logged-out`);

        const body = await loginFromModal(page, player);
        expect(body.status, body.message).toBe('success');
        await page.getByTestId('login-modal').waitFor({ state: 'hidden' });
        expect(await expectLoggedIn(page)).toMatch(ZERO_BALANCE);
        await screenshot(page, `${language}-04-logged-in-again`);
      } finally {
        await context.close();
      }
    });
  }
});

describe('the layout', () => {
  it('shows the bottom navigation on a phone and the side menu on a desktop', async () => {
    const phone = await newPhoneContext(browser);
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const onPhone = await phone.newPage();
      await onPhone.goto(server.url);
      await onPhone.getByTestId('bottom-nav').waitFor({ state: 'visible' });
      expect(await onPhone.getByTestId('side-menu').isVisible()).toBe(false);

      const onDesktop = await desktop.newPage();
      await onDesktop.goto(server.url);
      await onDesktop.getByTestId('side-menu').waitFor({ state: 'visible' });
      await screenshot(onDesktop, 'desktop-home');
    } finally {
      await phone.close();
      await desktop.close();
    }
  });
});

describe('the Brazilian demo site', () => {
  it('answers on br.localhost and keeps its players to itself', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      // Chromium resolves every *.localhost name to the loopback address, so no hosts file is needed.
      await page.goto(server.siteUrl('br.localhost'));
      await page.getByTestId('open-register').first().waitFor({ state: 'visible' });
      const player = newPlayer('br');
      await register(page, player);
      await expectLoggedIn(page);
      await screenshot(page, 'br-01-registered');

      // The same credentials mean nothing on the other site: accounts are scoped to their site.
      await page.goto(server.url);
      const body = await loginFromModal(page, player);
      expect(body.status).toBe('fail');
      await expectLoggedOut(page);
      await screenshot(page, 'br-02-unknown-on-default-site');
    } finally {
      await context.close();
    }
  });
});

describe('the site as an app', () => {
  it('serves a web manifest and a service worker with the right content types', async () => {
    const manifest = await fetch(`${server.url}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/(manifest\+)?json/);
    const body = (await manifest.json()) as Record<string, unknown>;
    expect(body.name ?? body.short_name).toBeTruthy();
    expect(body.display).toMatch(/standalone|fullscreen|minimal-ui/);
    expect(Array.isArray(body.icons) && body.icons.length > 0).toBe(true);

    const worker = await fetch(`${server.url}/service-worker.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
  });

  it('registers its service worker, offers the install prompt and opens the app shell offline with a notice', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      const scriptUrl = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return registration.active?.scriptURL ?? '';
      });
      expect(scriptUrl).toBe(`${server.url}/service-worker.js`);

      // A phone offers the install prompt (how to add the app to the home screen) below the page,
      // where the header has no room for it.
      await page.locator('[data-testid="install-app"]:visible').first().click();
      await page.getByTestId('install-modal').waitFor({ state: 'visible' });
      await screenshot(page, 'install-modal');

      // The worker takes control of the next load at the latest; offline it answers from its cache.
      await page.reload();
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

      await context.setOffline(true);
      const shell = await page.reload();
      expect(shell?.fromServiceWorker(), 'the offline page comes from the service worker').toBe(true);
      await page.getByTestId('offline-notice').first().waitFor({ state: 'visible' });
      await screenshot(page, 'offline-shell');
    } finally {
      await context.close();
    }
  });

  it('opens the lobby offline with the games and artwork seen online, and a game says a round needs a connection', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    const tileCodes = () =>
      page
        .getByTestId('game-tile')
        .evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute('data-game')));
    // Artwork in view that the browser has actually drawn (lazy images below the fold are not asked for).
    const drawnArtwork = () =>
      page
        .getByTestId('game-tile')
        .locator('img')
        .evaluateAll(
          (images) =>
            (images as HTMLImageElement[]).filter((image) => image.complete && image.naturalWidth > 0).length,
        );
    try {
      await page.goto(`${server.url}/game`);
      await page.evaluate(() => navigator.serviceWorker.ready);
      // Under the worker's control, the catalogue and the artwork pass through its caches.
      await page.reload();
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      await page.getByTestId('game-tile').first().waitFor({ state: 'visible' });
      const online = await tileCodes();
      expect(online.length).toBeGreaterThan(3);
      await expect.poll(drawnArtwork, { message: 'the artwork in view loads online' }).toBeGreaterThan(0);

      await context.setOffline(true);
      const reloaded = await page.reload();
      expect(reloaded?.fromServiceWorker(), 'the lobby page comes from the service worker').toBe(true);
      await page.getByTestId('game-tile').first().waitFor({ state: 'visible' });
      expect(await tileCodes(), 'the same games, from the cached catalogue').toEqual(online);
      await expect.poll(drawnArtwork, { message: 'the artwork comes from the cache' }).toBeGreaterThan(0);
      await screenshot(page, 'offline-lobby');

      const inHouse = page.locator('[data-testid="game-tile"][data-game="dice"] a').first();
      await inHouse.click();
      const notice = page.getByTestId('game-launch-error');
      await notice.waitFor({ state: 'visible' });
      expect(await notice.textContent()).toContain('playing a round needs a connection');
      await screenshot(page, 'offline-game');
    } finally {
      await context.close();
    }
  });
});
