import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_VIEWPORT, launchBrowser, PHONE_VIEWPORT, screenshot } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 41's measures for a first visit to the Brazilian site: what is painted before and while
 * the app starts is that site (its name, Portuguese, never the intl site's English copy), and the
 * game screens write their numbers as a Brazilian does (no decimal point). Phone and desktop.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('br-first-paint');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The intl site's first words in English, which a br visitor must never see. */
const INTL_TEXT = /\b(Log in|Sign up|Loading…|Deposit now|No games in this category yet)\b/;
/** A decimal point between digits; "1.000.000,00" (pt thousands) is not one. */
const DECIMAL_POINT = /\d\.(?!\d{3}(?:\D|$))\d/;

/** The page's text from the first response on, sampled each animation frame until it settles. */
async function textsWhileLoading(page: Page, url: string): Promise<string[]> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __texts: string[] }).__texts = seen;
    const sample = () => {
      if (document.body) seen.push(document.body.innerText);
      if (seen.length < 600) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  return page.evaluate(() => (window as unknown as { __texts: string[] }).__texts);
}

describe.each([
  ['phone', PHONE_VIEWPORT],
  ['desktop', DESKTOP_VIEWPORT],
] as const)('a first visit to br on a %s', (size, viewport) => {
  it.each(['/', '/game', '/recharge', '/originals/dice'])(
    '%s is the br site from its first frame',
    async (route) => {
      // Before any script: what the server's page alone paints.
      const bare = await browser.newContext({ viewport, javaScriptEnabled: false, serviceWorkers: 'block' });
      const still = await bare.newPage();
      await still.goto(server.siteUrl('br.localhost') + route);
      expect(await still.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
      expect(await still.title()).toBe('Sorte Brasil');
      await bare.close();

      const context = await browser.newContext({ viewport, serviceWorkers: 'block' });
      const page = await context.newPage();
      const texts = await textsWhileLoading(page, server.siteUrl('br.localhost') + route);
      expect(texts.length).toBeGreaterThan(0);
      expect(texts.filter((text) => INTL_TEXT.test(text))).toEqual([]);
      await screenshot(page, `br-first-paint-${size}${route.replace(/\//g, '-')}`);
      await context.close();
    },
  );

  it.each([
    ['dice', 'dice-play'],
    ['limbo', 'limbo-play'],
    ['mines', 'mines-play'],
    ['plinko', 'plinko-play'],
    ['crash', 'crash-play'],
  ])('the %s screen writes no decimal point in pt', async (game, table) => {
    const context = await browser.newContext({ viewport, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(`${server.siteUrl('br.localhost')}/originals/${game}`);
    await page.getByTestId(table).waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    const text = await page.getByTestId(table).innerText();
    expect(text.match(DECIMAL_POINT), text).toBeNull();
    await screenshot(page, `br-numbers-${size}-${game}`);
    await context.close();
  });
});
