import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_VIEWPORT, launchBrowser, screenshot } from './support/browser.ts';
import { assertAdminBuilt, DEMO_OPERATOR, unusedTotpCode } from './support/operator.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * An operator who will lose their phone one day: creates recovery codes in the back office (with a
 * current authenticator code), signs out, and signs in again with a recovery code in place of the
 * authenticator code — once: the same code is refused the second time.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  assertAdminBuilt();
  server = await startServer('admin-recovery');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signIn(page: Page, code: string) {
  await page.goto(`${server.url}/admin`);
  await page.waitForURL(/\/admin\/login$/);
  await page.getByTestId('login-username').fill(DEMO_OPERATOR.username);
  await page.getByTestId('login-password').fill(DEMO_OPERATOR.password);
  await page.getByTestId('login-totp').fill(code);
  await page.getByTestId('login-submit').click();
}

describe('back office recovery codes', () => {
  it('creates ten codes, and one signs the operator in once in place of the authenticator', async () => {
    const context = await browser.newContext({ viewport: DESKTOP_VIEWPORT });
    await context.addInitScript(() => localStorage.setItem('sorte-admin-lang', 'pt'));
    const page = await context.newPage();
    await signIn(page, await unusedTotpCode(DEMO_OPERATOR.totpSecret));
    await page.waitForURL(/\/admin\/dashboard$/);

    await page.getByTestId('recovery-open').click();
    await page.getByTestId('recovery-totp').fill(await unusedTotpCode(DEMO_OPERATOR.totpSecret));
    await page.getByTestId('recovery-issue').click();
    const list = page.getByTestId('recovery-codes');
    await list.waitFor();
    const codes = (await list.locator('code').allTextContents()).map((text) => text.trim());
    expect(codes).toHaveLength(10);
    await screenshot(page, 'admin-recovery-codes-pt-1440');
    await page.getByRole('button', { name: 'Fechar' }).click();
    await page.getByRole('button', { name: 'Sair' }).click();

    // Signed out; the phone is "lost": a recovery code instead of the authenticator code.
    await signIn(page, codes[0]!);
    await page.waitForURL(/\/admin\/dashboard$/);
    await page.getByRole('button', { name: 'Sair' }).click();
    await signIn(page, codes[0]!);
    await expect(page.getByTestId('login-error').textContent()).resolves.toBeTruthy();
    expect(page.url()).toMatch(/\/admin\/login$/);
    await context.close();
  });
});
