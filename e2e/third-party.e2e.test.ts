import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { depositThroughSandbox, expectLoggedIn, newPlayer, plainMoney, register } from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Third-party games end to end: the server starts the built-in demo aggregator; a guest spins a
 * slot with the aggregator's fun money; a new player deposits through the sandbox PSP, opens a
 * third-party slot from the relay, spins for real (the aggregator calls our seamless wallet, bet
 * then win), sees the balance move in Sorte's bar, and finds the round, with the provider's brand,
 * in the game record. A table title opens on the desktop too.
 */
let server: RunningServer;
let browser: Browser;

const SLOT = 'aurora-golden-macaw';
const TABLE = 'lumenlive-speed-baccarat';

beforeAll(async () => {
  server = await startServer('third-party');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const textOf = async (page: Page | Frame, id: string) =>
  plainMoney(await page.getByTestId(id).first().textContent());

interface PlayAnswer {
  ok: boolean;
  win: string;
  balance: string;
  message: string | null;
}

/** Opens a third-party game through the lobby's relay and returns the framed game page. */
async function openGame(page: Page, game: string, demo = false): Promise<Frame> {
  await page.goto(`${server.url}/gameInfo?game=${game}${demo ? '&mode=demo' : ''}`);
  // The relay replaces its URL in place (no new document), so wait for the URL, not a load event.
  await page.waitForURL(new RegExp(`/play\\?game=${game}`), { waitUntil: 'commit' });
  const frameElement = await page.getByTestId('third-party-frame').elementHandle({ timeout: 30_000 });
  const frame = await frameElement!.contentFrame();
  expect(frame).not.toBeNull();
  await frame!.getByTestId('agg-spin').waitFor({ state: 'visible' });
  return frame!;
}

/** Presses the game's button and returns the aggregator's answer to that round. */
async function spin(page: Page, frame: Frame): Promise<PlayAnswer> {
  const answered = page.waitForResponse(
    (response) =>
      /\/api\/v1\/sessions\/[^/]+\/play$/.test(response.url()) && response.request().method() === 'POST',
  );
  await frame.getByTestId('agg-spin').click();
  const answer = (await (await answered).json()) as PlayAnswer;
  expect(answer.ok, `round refused: ${answer.message}`).toBe(true);
  // The reels stop (or the cards are dealt) and the button comes back.
  await expect.poll(() => frame.getByTestId('agg-spin').isEnabled(), { timeout: 15_000 }).toBe(true);
  return answer;
}

describe('third-party games', () => {
  it('guest spins for fun; a player deposits, spins a provider slot for real and finds the round', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      // 1. A guest: the aggregator's fun money, nothing at Sorte.
      const demoFrame = await openGame(page, SLOT, true);
      expect(page.url()).toContain('mode=demo');
      await expect.poll(() => textOf(page, 'game-balance')).toContain('(fun money)');
      const demo = await spin(page, demoFrame);
      await expect.poll(() => textOf(page, 'game-balance')).toContain(Number(demo.balance).toFixed(2));
      await screenshot(page, 'third-party-01-demo-slot');

      // 2. A new player deposits 100.00 through the sandbox payer page.
      await page.goto(server.url);
      await register(page, newPlayer('tp'));
      expect(plainMoney(await expectLoggedIn(page))).toBe('0.00');
      await depositThroughSandbox(page, server.url, 100);

      // 3. The provider slot for real money: every spin is a bet and a win at our wallet.
      const frame = await openGame(page, SLOT);
      expect(page.url()).not.toContain('mode=demo');
      await expect.poll(() => textOf(page, 'game-balance')).toBe('100.00');
      await expect.poll(() => textOf(frame, 'agg-balance')).toMatch(/^100[.,]00$/);
      const first = await spin(page, frame);
      const expected = (10_000 - 100 + Math.round(Number(first.win) * 100)) / 100;
      expect(Number(first.balance)).toBe(expected);
      // Sorte's bar reads the balance again from our server after the round.
      await expect.poll(() => textOf(page, 'game-balance'), { timeout: 10_000 }).toBe(expected.toFixed(2));
      const second = await spin(page, frame);
      // Screenshots come after the last click into a frame: under phone emulation a capture leaves
      // Chromium's hit-testing into the frame offset by our bar, so a later click lands on the reels.
      await screenshot(page, 'third-party-02-real-slot-phone');
      await expect.poll(() => textOf(page, 'game-balance'), { timeout: 10_000 }).toBe(second.balance);

      // 4. The rounds are in the game record under the provider's brand.
      await page.goto(`${server.url}/game-record`);
      const rows = page.getByTestId('game-record-row');
      await rows.first().waitFor({ state: 'visible' });
      await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
      const text = (await rows.first().textContent()) ?? '';
      expect(text).toContain('Golden Macaw');
      expect(text).toContain('Aurora Gaming');
      await screenshot(page, 'third-party-03-game-record');

      // 5. On a desktop screen, a live table title plays at the baccarat table.
      const desktop = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const wide = await desktop.newPage();
      try {
        const table = await openGame(wide, TABLE, true);
        await table.getByTestId('agg-side-banker').click();
        await spin(wide, table);
        await screenshot(wide, 'third-party-04-table-desktop');
      } finally {
        await desktop.close();
      }
    } finally {
      await context.close();
    }
  });
});
