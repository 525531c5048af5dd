import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { verifyIdentityThroughSandbox } from './support/kyc.ts';
import { depositThroughSandbox, newPlayer, register, switchLanguage } from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 11 on a phone, on both sites: a player deposits through the sandbox PSP, claims the
 * first-deposit bonus (intl) or reads why it is not offered (br), bets, and watches the wagering
 * bar (intl: the bonus's wagering; br: the VIP bar, which counts bets) move.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('promotions');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * A real dice bet from the page's own session (the same call the dice screen makes). A bet not
 * answered in 30 s fails with its own words, not as the test's timeout.
 */
async function betDice(page: Page, amount: string): Promise<number> {
  return page.evaluate(async (stake) => {
    const token = sessionStorage.getItem('token');
    const response = await fetch('/api/originals/dice/bet', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        amount: stake,
        direction: 'under',
        target: 5000,
        idempotency_key: crypto.randomUUID(),
      }),
      signal: AbortSignal.timeout(30_000),
    });
    return response.status;
  }, amount);
}

async function barValue(page: Page): Promise<number> {
  const bar = page.getByTestId('wagering-bar').first().getByRole('progressbar');
  await bar.waitFor({ state: 'visible' });
  return Number(await bar.getAttribute('aria-valuenow'));
}

describe('promotions on a phone', () => {
  it('intl: deposit 100, claim the first-deposit bonus of 10, bet, and the wagering bar moves', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await register(page, newPlayer('promo'));
      await depositThroughSandbox(page, server.url, 100);

      await page.goto(`${server.url}/promotion/activity`);
      await page.getByTestId('campaign-ftd').waitFor({ state: 'visible' });
      await screenshot(page, 'promotions-01-activity-intl');

      await page.goto(`${server.url}/promotion/activity/recharge`);
      await expect.poll(async () => page.getByTestId('claim-amount').textContent()).toContain('10.00');
      await page.getByTestId('claim-button').click();
      await page.getByText('Reward claimed successfully!').first().waitFor({ state: 'visible' });
      await expect.poll(async () => page.getByTestId('bonus-balance').textContent()).toContain('10.00');
      await expect.poll(async () => page.getByTestId('wagering-left').textContent()).toContain('500.00');
      const before = await barValue(page);
      expect(before).toBe(0);
      await screenshot(page, 'promotions-02-claimed-intl');

      expect(await betDice(page, '25.00')).toBe(200);
      expect(await betDice(page, '25.00')).toBe(200);
      await page.goto(`${server.url}/promotion/cover`);
      await expect.poll(() => barValue(page)).toBe(10);
      await expect.poll(async () => page.getByTestId('wagering-left').textContent()).toContain('450.00');
      // A bet above the max bet while wagering is refused with the rule's message.
      expect(await betDice(page, '30.00')).toBe(422);
      await screenshot(page, 'promotions-03-wagering-intl');
    } finally {
      await context.close();
    }
  });

  it('br: deposit, the deposit bonus is off with its legal reason, bets move the VIP bar', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    const brUrl = server.url.replace('localhost', 'br.localhost');
    try {
      await page.goto(brUrl);
      await register(page, newPlayer('promobr'));
      // The deposit helper reads amounts as English writes them; the reason is checked in English too.
      await switchLanguage(page, 'en');
      // br: no deposit or bet before the CPF check and the identity decision (ADR 036).
      await verifyIdentityThroughSandbox(page, server);
      await depositThroughSandbox(page, brUrl, 100);

      await page.goto(`${brUrl}/promotion/activity/recharge`);
      const off = page.getByTestId('campaign-off');
      await off.waitFor({ state: 'visible' });
      expect(await off.textContent()).toContain('Portaria SPA/MF 1.231/2024');
      await screenshot(page, 'promotions-04-off-br');

      await page.goto(`${brUrl}/promotion/vip`);
      const before = await barValue(page);
      for (let i = 0; i < 4; i += 1) expect(await betDice(page, '25.00')).toBe(200);
      await page.reload();
      await expect.poll(() => barValue(page)).toBeGreaterThan(before);
      await screenshot(page, 'promotions-05-vip-br');
    } finally {
      await context.close();
    }
  });
});
