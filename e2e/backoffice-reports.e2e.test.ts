import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_VIEWPORT, launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { assertAdminBuilt, DEMO_OPERATOR, unusedTotpCode } from './support/operator.ts';
import {
  depositThroughSandbox,
  expectLoggedIn,
  expectLoggedOut,
  newPlayer,
  register,
} from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 15's back-office data screens: a player signs up and deposits 100.00 on a phone; the
 * operator signs in to /admin (password + authenticator code), sees the deposit on the dashboard,
 * finds the player, credits 10.00 with a reason (a correcting ledger transfer), freezes the account,
 * reads the audit log and the reconciliation (no drift); the screens in en and pt at 1440×900 and
 * 390×844.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  assertAdminBuilt();
  server = await startServer('backoffice-reports');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A back-office tab in `lang` (the app keeps the choice in localStorage), signed in as the demo owner. */
async function operatorPage(context: BrowserContext, lang: 'en' | 'pt'): Promise<Page> {
  await context.addInitScript((code) => localStorage.setItem('sorte-admin-lang', code), lang);
  const page = await context.newPage();
  await page.goto(`${server.url}/admin`);
  await page.waitForURL(/\/admin\/login$/);
  await page.getByTestId('login-username').fill(DEMO_OPERATOR.username);
  await page.getByTestId('login-password').fill(DEMO_OPERATOR.password);
  await page.getByTestId('login-totp').fill(await unusedTotpCode(DEMO_OPERATOR.totpSecret));
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/admin\/dashboard$/);
  return page;
}

describe('back-office data screens', () => {
  it('dashboard, player search and detail, balance adjustment, freeze, audit and reconciliation', async () => {
    const phone = await newPhoneContext(browser);
    const playerPage = await phone.newPage();
    await playerPage.goto(server.url);
    const player = newPlayer('bor');
    await register(playerPage, player);
    await expectLoggedIn(playerPage);
    await depositThroughSandbox(playerPage, server.url, 100);

    const desk = await browser.newContext({ viewport: DESKTOP_VIEWPORT });
    const admin = await operatorPage(desk, 'en');
    // Today's deposit is on the dashboard (the default period is the last 7 days).
    await expect.poll(() => admin.getByTestId('kpi-deposits').textContent()).toContain('R$100.00');
    await expect.poll(() => admin.getByTestId('kpi-new_players').textContent()).toMatch(/[1-9]/);
    await admin.getByTestId('chart-cash').locator('canvas').waitFor({ state: 'visible' });
    await screenshot(admin, 'backoffice-01-dashboard-en-1440');

    // Find the player by part of the account name, any case.
    await admin.getByTestId('nav-players').click();
    await admin.getByTestId('filter-q').fill(player.username.slice(1, 9).toUpperCase());
    await admin.getByRole('button', { name: 'Apply filters' }).click();
    const row = admin.locator('tr', { hasText: player.username });
    await row.waitFor({ state: 'visible' });
    await screenshot(admin, 'backoffice-02-players-en-1440');
    await row.click();
    await expect.poll(() => admin.getByTestId('player-username').textContent()).toBe(player.username);
    await expect.poll(() => admin.getByTestId('balance-cash').textContent()).toBe('R$100.00');

    // Credit 10.00 with a reason: a correcting ledger transfer.
    await admin.getByTestId('action-adjust').click();
    await admin.getByTestId('adjust-amount').fill('10');
    await admin.getByTestId('adjust-reason').fill('Goodwill after a support call');
    await screenshot(admin, 'backoffice-03-adjust-en-1440');
    await admin.getByTestId('adjust-submit').click();
    await expect
      .poll(() => admin.getByTestId('action-notice').textContent())
      .toBe('The balance was adjusted');
    await expect.poll(() => admin.getByTestId('balance-cash').textContent()).toBe('R$110.00');

    // Freeze the account with a reason.
    await admin.getByTestId('action-freeze').click();
    await admin.getByTestId('status-reason').fill('Chargeback under investigation');
    await admin.getByTestId('status-submit').click();
    await expect.poll(() => admin.getByTestId('player-status').textContent()).toBe('Frozen');
    await screenshot(admin, 'backoffice-04-player-frozen-en-1440');
    // The player's open session is over: the site shows them logged out.
    await playerPage.reload();
    await expectLoggedOut(playerPage);

    // The audit log has both actions, with who, before and after.
    await admin.getByRole('main').getByRole('link', { name: 'Audit log' }).click();
    const freezeRow = admin.locator('tr', { hasText: 'member.freeze' });
    await freezeRow.waitFor({ state: 'visible' });
    await expect.poll(() => freezeRow.textContent()).toContain('Chargeback under investigation');
    await expect.poll(() => admin.locator('tr', { hasText: 'member.balance_adjust' }).count()).toBe(1);
    await screenshot(admin, 'backoffice-05-audit-en-1440');

    // The ledger shows the correction against the suspense account.
    await admin.getByRole('main').getByRole('link', { name: 'Ledger' }).click();
    await admin.locator('tr', { hasText: 'correction' }).waitFor({ state: 'visible' });

    // Reconciliation: no drift after the adjustment.
    await admin.getByTestId('nav-reconciliation').click();
    await expect
      .poll(() => admin.getByTestId('reconcile-verdict').textContent())
      .toContain('No drift: the ledger reconciles');
    await expect.poll(() => admin.getByTestId('reconcile-sum').textContent()).toBe('R$0.00');
    await screenshot(admin, 'backoffice-06-reconciliation-en-1440');
    // The site's audit log is one unbroken hash chain (the owner verifies it: ADR 022).
    await admin.getByTestId('nav-audit').click();
    await admin.getByTestId('verify-chain').click();
    await expect
      .poll(() => admin.getByTestId('chain-result').textContent())
      .toMatch(/^Chain intact, \d+ entries/);
    await screenshot(admin, 'backoffice-06b-audit-chain-en-1440');
    await admin.getByTestId('nav-crash-chains').click();
    await admin.locator('tbody tr').first().waitFor({ state: 'visible' });
    await screenshot(admin, 'backoffice-07-crash-chains-en-1440');
    await admin.getByTestId('nav-mail-outbox').click();
    await admin.locator('.data-table').waitFor({ state: 'visible' });
    await screenshot(admin, 'backoffice-08-mail-en-1440');

    // Portuguese, desktop: amounts as R$ 100,00.
    const deskPt = await browser.newContext({ viewport: DESKTOP_VIEWPORT });
    const adminPt = await operatorPage(deskPt, 'pt');
    // Intl writes "R$ 100,00" with a no-break space.
    await expect.poll(() => adminPt.getByTestId('kpi-deposits').textContent()).toMatch(/R\$\s100,00/);
    await adminPt.getByTestId('chart-cash').locator('canvas').waitFor({ state: 'visible' });
    await screenshot(adminPt, 'backoffice-11-dashboard-pt-1440');
    await adminPt.goto(`${server.url}/admin/players`);
    await adminPt.locator('tr', { hasText: player.username }).click();
    await expect.poll(() => adminPt.getByTestId('player-status').textContent()).toBe('Congelada');
    await expect.poll(() => adminPt.getByTestId('balance-cash').textContent()).toMatch(/^R\$\s110,00$/);
    await screenshot(adminPt, 'backoffice-12-player-pt-1440');

    // Phones, en and pt.
    for (const lang of ['en', 'pt'] as const) {
      const small = await newPhoneContext(browser);
      const mobile = await operatorPage(small, lang);
      await mobile.getByTestId('kpi-deposits').waitFor({ state: 'visible' });
      await mobile.getByTestId('chart-cash').locator('canvas').waitFor({ state: 'visible' });
      await screenshot(mobile, `backoffice-21-dashboard-${lang}-390`);
      await mobile.goto(`${server.url}/admin/players`);
      await mobile.locator('tr', { hasText: player.username }).waitFor({ state: 'visible' });
      await screenshot(mobile, `backoffice-22-players-${lang}-390`);
      await mobile.locator('tr', { hasText: player.username }).click();
      await mobile.getByTestId('player-username').waitFor({ state: 'visible' });
      await screenshot(mobile, `backoffice-23-player-${lang}-390`);
      await small.close();
    }
    await deskPt.close();
    await desk.close();
    await phone.close();
  }, 240_000);
});
