import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_VIEWPORT, launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { assertAdminBuilt, DEMO_OPERATOR, unusedTotpCode } from './support/operator.ts';
import {
  expectLoggedIn,
  fillWithdrawPassword,
  loginFromModal,
  newPlayer,
  plainMoney,
  randomCpf,
  register,
} from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 36 §2's journey (ADR 040): a player deposits 2,500.00 three times (structuring just under
 * the site's 3,000.00) after asking to withdraw; within the screening job's minute a case appears on
 * the back office's Compliance page; the owner opens it, reads the player's timeline, reports it to
 * COAF with a narrative and downloads the file. The player's sessions ended, and once signed in
 * again their withdrawal shows the ordinary "Under review", as before.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  assertAdminBuilt();
  server = await startServer('compliance');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** One deposit of `amount` reais through the sandbox bank; the header then shows `total`. */
async function deposit(page: Page, amount: string, total: string): Promise<void> {
  await page.goto(`${server.url}/recharge`);
  await page.getByTestId('recharge-amount').fill(amount);
  await expect
    .poll(async () => plainMoney(await page.getByTestId('recharge-actual').textContent()))
    .toBe(`${amount}.00`);
  await page.getByTestId('recharge-submit').click();
  await page.waitForURL(/\/recharge-payment\?order_no=/);
  const bank = await page.context().newPage();
  await bank.goto((await page.getByTestId('open-payer-page').getAttribute('href'))!);
  await bank.getByTestId('pay-submit').click();
  await bank.getByTestId('pay-done').waitFor({ state: 'visible' });
  await bank.close();
  // The player's tab is the front one again, as a phone shows it (a tab left behind is throttled).
  await page.bringToFront();
  await expect
    .poll(async () => plainMoney(await page.getByTestId('header-balance').first().textContent()), {
      timeout: 30_000,
    })
    .toBe(total);
}

describe('compliance', () => {
  it('a structuring pattern opens a case the operator reports; the player sees only "Under review"', async () => {
    const phone = await newPhoneContext(browser);
    const page = await phone.newPage();
    await page.goto(server.url);
    const player = newPlayer('aml');
    await register(page, player);
    await expectLoggedIn(page);
    // A first deposit of 100.00 (no recharge reward to wager) and a withdrawal of 50.00 waiting for review.
    await deposit(page, '100', '100.00');
    await page.goto(`${server.url}/bank-card/add`);
    const form = page.getByTestId('bank-card-form');
    await form.waitFor({ state: 'visible' });
    await form.locator('[name="account_type"]').selectOption('CPF');
    await form.locator('[name="name"]').fill(player.realname);
    await form.locator('[name="account"]').fill(randomCpf());
    await page.getByTestId('bank-card-add').click();
    await page.getByTestId('bank-card-item').first().waitFor({ state: 'visible' });
    await page.goto(`${server.url}/withdraw`);
    await page.getByTestId('withdraw-amount').fill('50');
    await fillWithdrawPassword(page, player);
    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('withdraw-success').waitFor({ state: 'visible' });
    await page.goto(`${server.url}/withdrawalRecord`);
    const record = page.locator('[data-testid="record-row"]').first();
    await record.waitFor({ state: 'visible' });
    const before = (await record.textContent())?.trim();
    expect(await record.locator('.record__status').textContent()).toMatch(/Under review/);
    // Then three deposits just under the site's 3,000.00 within the day.
    for (const total of ['2550.00', '5050.00', '7550.00']) await deposit(page, '2500', total);

    // The owner on a desktop: the case is on the Compliance page within the job's minute.
    const desk = await browser.newContext({ viewport: DESKTOP_VIEWPORT, acceptDownloads: true });
    const admin = await desk.newPage();
    await admin.goto(`${server.url}/admin/login`);
    await admin.getByTestId('login-username').fill(DEMO_OPERATOR.username);
    await admin.getByTestId('login-password').fill(DEMO_OPERATOR.password);
    await admin.getByTestId('login-totp').fill(await unusedTotpCode(DEMO_OPERATOR.totpSecret));
    await admin.getByTestId('login-submit').click();
    await admin.getByTestId('nav-compliance').click();
    await admin.waitForURL(/\/admin\/compliance$/);
    const row = admin.locator('tr', { hasText: player.username });
    await expect
      .poll(
        async () => {
          if ((await row.count()) > 0) return true;
          await admin.reload();
          await admin.getByTestId('cases-table').waitFor({ state: 'visible' });
          return (await row.count()) > 0;
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBe(true);
    await expect.poll(() => row.textContent()).toMatch(/Structuring under the threshold/);
    await screenshot(admin, 'compliance-01-cases-1440');
    await row.getByRole('button').click();
    const panel = admin.getByTestId('case-panel');
    await panel.waitFor({ state: 'visible' });
    await expect.poll(() => panel.textContent()).toMatch(/Portaria|policy/);
    await admin.getByTestId('case-decision').selectOption('report');
    await admin
      .getByTestId('case-reason')
      .fill('Three deposits just under the monitoring threshold within a day.');
    await screenshot(admin, 'compliance-02-case-1440');
    await admin.getByTestId('case-decide').click();
    await admin.getByTestId('case-download-coaf').waitFor({ state: 'visible' });
    await expect.poll(() => panel.textContent()).toMatch(/Withdrawals held/);
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByTestId('case-download-coaf').click(),
    ]);
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(file.subject.username).toBe(player.username);
    expect(file.reasons.map((reason: { rule: string }) => reason.rule)).toContain('structuring');
    await screenshot(admin, 'compliance-03-reported-1440');

    // The player: signed out (as by any operator), then the same record, "Under review".
    await page.reload();
    await loginFromModal(page, player);
    await expectLoggedIn(page);
    await page.goto(`${server.url}/withdrawalRecord`);
    await record.waitFor({ state: 'visible' });
    expect((await record.textContent())?.trim()).toBe(before);
    expect(await record.locator('.record__status').textContent()).toMatch(/Under review/);
    await screenshot(page, 'compliance-04-player-record-390');
    await phone.close();
    await desk.close();
  });
});
