import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_VIEWPORT, launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { assertAdminBuilt, DEMO_OPERATOR, unusedTotpCode } from './support/operator.ts';
import {
  expectLoggedIn,
  fillWithdrawPassword,
  newPlayer,
  plainMoney,
  randomCpf,
  register,
} from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 15's journey: a player deposits and asks to withdraw 50.00 on a phone; an operator signs in
 * to the back office at /admin with the password and the authenticator code (a wrong code first:
 * the translated refusal), finds the request in the withdrawal queue with its risk signals and the
 * player's history, approves it with a reason, and the player's withdrawal record shows it paid.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  assertAdminBuilt();
  server = await startServer('admin');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signIn(page: Page, code: string) {
  await page.getByTestId('login-username').fill(DEMO_OPERATOR.username);
  await page.getByTestId('login-password').fill(DEMO_OPERATOR.password);
  await page.getByTestId('login-totp').fill(code);
  await page.getByTestId('login-submit').click();
}

describe('back office', () => {
  it('an operator signs in with TOTP, approves a withdrawal a player requested, and the player sees it paid', async () => {
    // The player: sign up, deposit 100.00 through the sandbox bank, add a PIX key, withdraw 50.00.
    const phone = await newPhoneContext(browser);
    const page = await phone.newPage();
    await page.goto(server.url);
    const player = newPlayer('adm');
    await register(page, player);
    await expectLoggedIn(page);
    await page.goto(`${server.url}/recharge`);
    await page.getByTestId('recharge-amount').fill('100');
    await page.getByTestId('recharge-submit').click();
    await page.waitForURL(/\/recharge-payment\?order_no=/);
    const payUrl = (await page.getByTestId('open-payer-page').getAttribute('href'))!;
    const bank = await phone.newPage();
    await bank.goto(payUrl);
    await bank.getByTestId('pay-submit').click();
    await bank.getByTestId('pay-done').waitFor({ state: 'visible' });
    await bank.close();
    // The player's tab is the front one again, as a phone shows it (a tab left behind is throttled).
    await page.bringToFront();
    await expect
      .poll(async () => plainMoney(await page.getByTestId('header-balance').first().textContent()), {
        timeout: 30_000,
      })
      .toBe('100.00');
    // The sandbox pays payouts out by itself.
    const settings = await fetch(`${new URL(payUrl).origin}/admin/settings`, {
      method: 'POST',
      body: new URLSearchParams({ payoutMode: 'succeed' }),
      redirect: 'manual',
    });
    expect(settings.status).toBe(303);
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

    // The operator, on a desktop: /admin asks to sign in.
    const desk = await browser.newContext({ viewport: DESKTOP_VIEWPORT });
    const admin = await desk.newPage();
    await admin.goto(`${server.url}/admin`);
    await admin.waitForURL(/\/admin\/login$/);
    await admin.getByTestId('login-totp').waitFor({ state: 'visible' });
    await screenshot(admin, 'admin-01-sign-in-1440');

    // A wrong authenticator code: refused with the server's translated message.
    await signIn(admin, '000000');
    await expect
      .poll(() => admin.getByTestId('login-error').textContent())
      .toMatch(/Wrong authentication code/);
    await screenshot(admin, 'admin-02-wrong-code-1440');

    await signIn(admin, await unusedTotpCode(DEMO_OPERATOR.totpSecret));
    await admin.getByTestId('nav-withdrawals').click();
    await admin.waitForURL(/\/admin\/withdrawals$/);
    await expect.poll(() => admin.getByTestId('topbar-operator').textContent()).toContain('admin');
    const row = admin.locator('tr', { hasText: player.username });
    await row.waitFor({ state: 'visible' });
    await expect.poll(() => row.textContent()).toMatch(/New account/);
    await screenshot(admin, 'admin-03-queue-1440');

    await row.click();
    const panel = admin.getByTestId('review-panel');
    await panel.waitFor({ state: 'visible' });
    await expect.poll(() => admin.getByTestId('review-amount').textContent()).toMatch(/50\.00/);
    // Approving needs a reason.
    await admin.getByTestId('review-approve').click();
    await expect.poll(() => admin.getByTestId('review-notice').textContent()).toBe('Please enter the reason');
    await admin.getByTestId('review-reason').fill('PIX key in the player’s own name; deposit seen');
    await screenshot(admin, 'admin-04-review-1440');
    await admin.getByTestId('review-approve').click();
    await expect
      .poll(() => admin.getByTestId('review-notice').textContent())
      .toBe('The withdrawal was approved and sent for payment');
    // Gone from the pending queue.
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    await screenshot(admin, 'admin-05-approved-1440');

    // The player's record shows it paid (the sandbox's payout webhook arrives shortly after).
    await page.goto(`${server.url}/withdrawalRecord`);
    const record = page.locator('[data-testid="record-row"]').first();
    await expect
      .poll(
        async () => {
          await page.reload();
          await record.waitFor({ state: 'visible' });
          return (await record.locator('.record__status').textContent())?.trim();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe('Paid');

    // The same screens in Portuguese on a phone.
    const mobile = await newPhoneContext(browser);
    const small = await mobile.newPage();
    await small.addInitScript(() => localStorage.setItem('sorte-admin-lang', 'pt'));
    await small.goto(`${server.url}/admin/login`);
    await small.getByTestId('login-totp').waitFor({ state: 'visible' });
    await screenshot(small, 'admin-06-sign-in-390-pt');
    await signIn(small, await unusedTotpCode(DEMO_OPERATOR.totpSecret));
    await small.getByTestId('topbar-operator').waitFor({ state: 'visible' });
    await small.goto(`${server.url}/admin/withdrawals`);
    await small.getByTestId('filter-status').waitFor({ state: 'visible' });
    await small.getByTestId('filter-status').selectOption('paid');
    await small.getByRole('button', { name: 'Aplicar filtros' }).click();
    await small.locator('tr', { hasText: player.username }).waitFor({ state: 'visible' });
    await screenshot(small, 'admin-07-paid-390-pt');
    await small.locator('tr', { hasText: player.username }).click();
    await small.getByTestId('review-panel').waitFor({ state: 'visible' });
    await expect.poll(() => small.getByTestId('review-amount').textContent()).toMatch(/R\$\s?50,00/);
    await screenshot(small, 'admin-08-review-390-pt');

    await phone.close();
    await desk.close();
    await mobile.close();
  });
});
