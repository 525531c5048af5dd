import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { crashBetLine, waitForCrashBetting } from './support/crash.ts';
import { depositThroughSandbox, expectLoggedIn, newPlayer, plainMoney, register } from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 4's story on a phone: a guest rolls the dice and bets on a live crash round with fun money;
 * a new player deposits through the sandbox PSP's payer page, plays three in-house games for real
 * money, finds the rounds in the game record, reveals the server seed by rotating the pair, and the
 * browser's verifier recomputes one round to the same outcome the server stored.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('games-journey');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface BetAnswer {
  status: string;
  message: string;
  data: { round: { id: string; game: string; status: string }; balance: string };
}

const textOf = async (page: Page, id: string) => plainMoney(await page.getByTestId(id).first().textContent());

/**
 * Clicks a game's bet button and returns the server's answer to that bet: the journey checks the
 * screen against what the server settled, not against a number it made up.
 */
async function bet(page: Page, game: string, button: string): Promise<BetAnswer['data']> {
  const answered = page.waitForResponse(
    (response) =>
      response.url().includes(`/api/originals/${game}/bet`) && response.request().method() === 'POST',
  );
  await page.getByTestId(button).click();
  const envelope = (await (await answered).json()) as BetAnswer;
  expect(envelope.status, `${game} bet: ${envelope.message}`).toBe('success');
  expect(envelope.data.round.game).toBe(game);
  return envelope.data;
}

/** Opens a game through the lobby's relay and waits for its table. */
async function openGame(page: Page, game: string, table: string): Promise<void> {
  await page.goto(`${server.url}/gameInfo?game=${game}`);
  await page.waitForURL(new RegExp(`/originals/${game}`));
  await page.getByTestId(table).waitFor({ state: 'visible' });
  await expect.poll(() => textOf(page, 'game-balance')).toMatch(/\d+\.\d{2}/);
}

describe('in-house games on a phone', () => {
  it('guest plays demo dice; a player deposits, plays three games, finds and verifies a round', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      // 1. A guest opens Dice from the relay: demo mode, fun money, one roll.
      await openGame(page, 'dice', 'dice-play');
      expect(page.url()).toContain('mode=demo');
      const funBefore = await textOf(page, 'game-balance');
      expect(funBefore).toContain('(fun money)');
      expect(await page.getByTestId('dice-result').textContent()).toBe('--.--');
      const demoRoll = await bet(page, 'dice', 'dice-roll');
      // The roll animates, then settles with a win or loss line and the new fun balance.
      await expect
        .poll(() => page.getByTestId('dice-result').getAttribute('class'), { timeout: 10_000 })
        .toMatch(/is-(win|loss)/);
      expect(await textOf(page, 'dice-result')).toMatch(/^\d{1,3}\.\d{2}/);
      await expect.poll(() => textOf(page, 'game-balance')).toContain(demoRoll.balance);
      expect(await textOf(page, 'game-balance')).not.toBe(funBefore);
      await screenshot(page, 'games-01-demo-dice');

      // The guest bets fun money on a live crash round too, with an auto cash-out at 1.01×.
      await openGame(page, 'crash', 'crash-play');
      expect(page.url()).toContain('mode=demo');
      await waitForCrashBetting(page);
      await page.getByTestId('crash-auto').fill('1.01');
      await page.getByTestId('crash-bet').click();
      await expect.poll(() => crashBetLine(page), { timeout: 15_000 }).toMatch(/placed/);
      // Settled when the curve passes 1.01× (or lost if the round crashes at 1.00×).
      await expect
        .poll(() => textOf(page, 'crash-my-bet'), { timeout: 60_000 })
        .toMatch(/You cashed out at ×1\.01|You lost/);
      expect(await textOf(page, 'game-balance')).toContain('(fun money)');
      await screenshot(page, 'games-01b-demo-crash');

      // 2. A new player registers and deposits 100.00 through the sandbox payer page.
      await page.goto(server.url);
      await register(page, newPlayer('games'));
      expect(plainMoney(await expectLoggedIn(page))).toBe('0.00');
      await depositThroughSandbox(page, server.url, 100);
      await page.getByTestId('recharge-paid').waitFor({ state: 'visible' });
      await screenshot(page, 'games-02-deposited');

      // 3. Three games for real money; each shows its result and the balance the server settled.
      const rounds: string[] = [];

      await openGame(page, 'dice', 'dice-play');
      expect(page.url()).not.toContain('mode=demo');
      expect(await textOf(page, 'game-balance')).toBe('100.00');
      const dice = await bet(page, 'dice', 'dice-roll');
      rounds.push(dice.round.id);
      await expect
        .poll(() => page.getByTestId('dice-result').getAttribute('class'), { timeout: 10_000 })
        .toMatch(/is-(win|loss)/);
      await expect.poll(() => textOf(page, 'game-balance')).toBe(dice.balance);
      await screenshot(page, 'games-03-dice');

      await openGame(page, 'limbo', 'limbo-play');
      await page.getByTestId('limbo-target').fill('2.00');
      const limbo = await bet(page, 'limbo', 'limbo-bet');
      rounds.push(limbo.round.id);
      // The count-up ends on the server's result with the round's won/lost line beneath it.
      await page.locator('.limbo__screen .play-line').waitFor({ state: 'visible', timeout: 10_000 });
      expect(await textOf(page, 'limbo-result')).toMatch(/^×\d+\.\d{2}$/);
      await expect.poll(() => textOf(page, 'game-balance')).toBe(limbo.balance);
      await screenshot(page, 'games-04-limbo');

      await openGame(page, 'plinko', 'plinko-play');
      const plinko = await bet(page, 'plinko', 'plinko-bet');
      rounds.push(plinko.round.id);
      // The ball falls row by row (about two seconds) before the slot's multiplier shows.
      await expect.poll(() => textOf(page, 'plinko-result'), { timeout: 15_000 }).toMatch(/^×\d+(\.\d+)?/);
      await expect.poll(() => textOf(page, 'game-balance')).toBe(plinko.balance);
      await screenshot(page, 'games-05-plinko');
      expect(new Set(rounds).size).toBe(3);
      // The game screens are full-screen (no header); back on the site the header shows the same.
      await page.goto(server.url);
      await expect.poll(() => textOf(page, 'header-balance')).toBe(plinko.balance);

      // 4. The game record lists the three rounds.
      await page.goto(`${server.url}/game-record`);
      const rows = page.getByTestId('game-record-row');
      await rows.first().waitFor({ state: 'visible' });
      const listed = await rows.evaluateAll((nodes) =>
        nodes.map((node) => node.getAttribute('data-round-id')),
      );
      expect(listed.length).toBeGreaterThanOrEqual(3);
      for (const id of rounds) expect(listed).toContain(id);
      await screenshot(page, 'games-06-game-record');

      // 5. Rotating the seed pair reveals the server seed the three rounds were played with …
      await page.goto(`${server.url}/fairness`);
      const hash = page.getByTestId('server-seed-hash');
      await hash.waitFor({ state: 'visible' });
      const usedHash = await textOf(page, 'server-seed-hash');
      expect(usedHash).toMatch(/^[0-9a-f]{64}$/);
      // The next server seed is committed before the rotation: exactly that one comes into use.
      const nextHash = await textOf(page, 'next-server-seed-hash');
      expect(nextHash).toMatch(/^[0-9a-f]{64}$/);
      await page.getByTestId('rotate-seeds').click();
      await page.getByTestId('revealed-seed').waitFor({ state: 'visible' });
      expect(await textOf(page, 'revealed-seed')).toMatch(/^[0-9a-f]{64}$/);
      await expect.poll(() => textOf(page, 'server-seed-hash')).toBe(nextHash);
      expect(await page.getByTestId('rotation-check').getAttribute('data-status')).toBe('match');
      await screenshot(page, 'games-07-rotated');

      // … then the limbo round's details show that seed and lead to the verifier, which replays it.
      await page.goto(`${server.url}/game-record`);
      const limboRow = page.locator(`[data-testid="game-record-row"][data-round-id="${limbo.round.id}"]`);
      await limboRow.click();
      const details = page.getByTestId('round-details');
      await details.waitFor({ state: 'visible' });
      expect(await details.textContent()).toContain(usedHash);
      await screenshot(page, 'games-08-round-details');
      await details.locator(`a[href="/fairness?round=${limbo.round.id}"]`).click();
      await page.waitForURL(new RegExp(`/fairness\\?round=${limbo.round.id}$`));
      expect(await page.locator('input[name="round_id"]').inputValue()).toBe(limbo.round.id);
      await page.getByTestId('fairness-verify').click();
      const verdict = page.getByTestId('verify-result');
      await verdict.waitFor({ state: 'visible' });
      expect(await verdict.getAttribute('data-status')).toBe('match');
      expect(await verdict.getAttribute('class')).toContain('is-win');
      await screenshot(page, 'games-09-verified');
    } finally {
      await context.close();
    }
  });
});
