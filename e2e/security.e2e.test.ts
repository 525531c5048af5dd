import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFindings, seriousAxeViolations } from './support/axe.ts';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { codeMailedTo, mailCatcherUrl } from './support/mail.ts';
import { unusedTotpCode } from './support/operator.ts';
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
 * Issue 13's journeys on a phone against the real server and its local mail catcher: a player with
 * a confirmed email who forgot the password gets a code by email and sets a new one.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('security');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function expectAxeClean(page: Page, where: string): Promise<void> {
  const findings = await seriousAxeViolations(page);
  expect(findings, describeFindings(where, findings)).toEqual([]);
}

describe('a player who forgot the password, on a phone (pt)', () => {
  it('gets a code at the confirmed email, sets a new password and logs in with it', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    const catcher = await mailCatcherUrl(server);
    try {
      await page.goto(server.url);
      await switchLanguage(page, 'pt');
      const player = newPlayer('reset');
      await register(page, player);
      await expectLoggedIn(page);

      // The player binds an email on /bind-email, opened from the security centre.
      const email = `${player.username.toLowerCase()}@example.com`;
      await page.goto(`${server.url}/security-center`);
      await page.getByTestId('security-bind-email').first().click();
      await page.waitForURL(/\/bind-email$/);
      await page.getByTestId('bind-email-address').fill(email);
      await page.getByTestId('bind-email-send').click();
      await page.getByTestId('bind-email-sent').waitFor({ state: 'visible' });
      expect(await page.getByTestId('bind-email-sent').textContent()).toContain(email);
      const bindMail = await codeMailedTo(catcher, email);
      await page.getByTestId('bind-email-code').fill(bindMail.code);
      await screenshot(page, 'security-00-bind-email');
      await expectAxeClean(page, 'bind email');
      await page.getByTestId('bind-email-submit').click();
      await page.waitForURL(/\/security-center$/);
      await expect.poll(() => page.getByText(email).count()).toBeGreaterThan(0);

      await logout(page);
      await page.getByTestId('open-login').first().click();
      await page.getByTestId('login-modal').waitFor({ state: 'visible' });
      await page.getByTestId('forgot-password').click();
      await page.getByTestId('forgot-username').fill(player.username);
      await screenshot(page, 'security-01-forgot');
      await expectAxeClean(page, 'forgot password');
      await page.getByTestId('forgot-send').click();
      await page.getByTestId('reset-code').waitFor({ state: 'visible' });
      expect(await page.getByTestId('reset-code-sent').textContent()).toContain(
        'Se esta conta tiver um e-mail confirmado',
      );

      const resetMail = await codeMailedTo(catcher, email, new Set([bindMail.message.id]));
      const newPassword = `Nova-${player.password}`;
      // The two passwords must match: the form says so before anything is sent.
      await page.getByTestId('reset-code').fill(resetMail.code);
      await page.getByTestId('reset-new-password').fill(newPassword);
      await page.getByTestId('reset-new-password-confirmation').fill(`${newPassword}x`);
      await page.getByTestId('reset-submit').click();
      await page.getByText('As senhas não coincidem').first().waitFor({ state: 'visible' });
      await page.getByTestId('reset-new-password-confirmation').fill(newPassword);
      await screenshot(page, 'security-02-reset');
      await expectAxeClean(page, 'reset password');
      const answered = page.waitForResponse((response) =>
        response.url().includes('/api/auth/password/reset'),
      );
      await page.getByTestId('reset-submit').click();
      expect((await (await answered).json()).status).toBe('success');
      await page.getByTestId('password-reset-done').waitFor({ state: 'visible' });
      await screenshot(page, 'security-03-reset-done');
      await page.keyboard.press('Escape');
      await page.getByTestId('login-modal').waitFor({ state: 'hidden' });
      await expectLoggedOut(page);

      // The old password no longer works; the new one does.
      const refused = await loginFromModal(page, player);
      expect(refused.status).not.toBe('success');
      await page.keyboard.press('Escape');
      await page.getByTestId('login-modal').waitFor({ state: 'hidden' });
      const accepted = await loginFromModal(page, { username: player.username, password: newPassword });
      expect(accepted.status, accepted.message).toBe('success');
      await expectLoggedIn(page);
      await screenshot(page, 'security-04-logged-in');
    } finally {
      await context.close();
    }
  });
});

describe('a player with a daily deposit limit, on a phone (pt)', () => {
  it('sets the limit on /responsible-gaming and is refused a larger deposit, told the limit and when it resets', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await switchLanguage(page, 'pt');
      const player = newPlayer('limit');
      await register(page, player);
      await expectLoggedIn(page);

      await page.goto(`${server.url}/responsible-gaming`);
      await page.getByTestId('rg-kind').selectOption('deposit');
      await page.getByTestId('rg-period').selectOption('day');
      await page.getByTestId('rg-value').fill('50,00');
      const saved = page.waitForResponse((response) =>
        response.url().includes('/api/responsible-gaming/limits'),
      );
      await page.getByTestId('rg-save').click();
      expect((await (await saved).json()).status).toBe('success');
      await expect
        .poll(() => page.getByTestId('rg-limit').allTextContents())
        .toEqual(expect.arrayContaining([expect.stringMatching(/R\$\s50,00/)]));
      await screenshot(page, 'security-10-deposit-limit');
      await expectAxeClean(page, 'responsible gaming');

      await page.goto(`${server.url}/recharge`);
      await page.getByTestId('recharge-amount').fill('100');
      const refused = page.waitForResponse((response) => response.url().includes('/api/recharge/online'));
      await page.getByTestId('recharge-submit').click();
      const body = await (await refused).json();
      expect(body.code).toBe('RG_DEPOSIT_LIMIT');
      const shown = page.getByText('limite diário de depósito de R$').first();
      await shown.waitFor({ state: 'visible' });
      const text = ((await shown.textContent()) ?? '').replace(/\s/g, ' ');
      expect(text).toContain('R$ 50,00');
      expect(text).toMatch(/O limite renova em \d{2}\/\d{2}\/\d{4}/);
      await screenshot(page, 'security-11-deposit-refused');
      expect(page.url()).toContain('/recharge');
    } finally {
      await context.close();
    }
  });
});

describe('a player turning on two-factor authentication, on a phone (pt)', () => {
  it('scans the key on /security-center, keeps the recovery codes, and is asked the code at the next login', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await switchLanguage(page, 'pt');
      const player = newPlayer('totp');
      await register(page, player);
      await expectLoggedIn(page);

      await page.goto(`${server.url}/security-center`);
      await page.getByTestId('totp-start').click();
      const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      await screenshot(page, 'security-20-totp-setup');
      await expectAxeClean(page, 'two-factor setup');
      await page.getByTestId('totp-code').fill(await unusedTotpCode(secret));
      await page.getByTestId('totp-enable-submit').click();
      const codes = page.getByTestId('totp-recovery-codes').locator('li');
      await expect.poll(() => codes.count()).toBeGreaterThan(0);
      await screenshot(page, 'security-21-totp-recovery-codes');
      await page.getByTestId('totp-recovery-done').click();
      await page.getByTestId('totp-turn-off').waitFor({ state: 'visible' });

      await logout(page);
      const asked = await loginFromModal(page, player);
      expect(asked.code).toBe('TOTP_REQUIRED');
      const totp = page.getByTestId('login-totp');
      await totp.waitFor({ state: 'visible' });
      await screenshot(page, 'security-22-login-totp');
      await totp.fill(await unusedTotpCode(secret));
      const answered = page.waitForResponse((response) => response.url().includes('/api/auth/login2'));
      await page.getByTestId('login-submit').click();
      expect((await (await answered).json()).status).toBe('success');
      await expectLoggedIn(page);
    } finally {
      await context.close();
    }
  });
});

describe('a player on a pause, on a phone (pt)', () => {
  it('is refused at login with the reason and can still reach the withdrawal with the restricted session', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await switchLanguage(page, 'pt');
      const player = newPlayer('pause');
      await register(page, player);
      await expectLoggedIn(page);

      await page.goto(`${server.url}/responsible-gaming`);
      const breakForm = page.locator('form', { has: page.getByTestId('rg-break') });
      await breakForm.locator('input[type="password"]').fill(player.password);
      await page.getByTestId('rg-break').click();
      await page.waitForURL(`${server.url}/`);
      await expectLoggedOut(page);
      await screenshot(page, 'security-29-paused');

      const refused = await loginFromModal(page, player);
      expect(refused.code).toBe('COOLING_OFF');
      const restricted = page.getByTestId('login-restricted');
      await restricted.waitFor({ state: 'visible' });
      expect(await restricted.textContent()).toContain('Você está em pausa até');
      expect(await restricted.textContent()).toContain('Você ainda pode sacar seu saldo');
      await screenshot(page, 'security-30-pause-login');
      await expectAxeClean(page, 'login refused during a pause');
      await page.getByTestId('login-withdraw-only').click();
      await page.waitForURL(/\/withdraw$/);
      await page.getByTestId('withdrawable').waitFor({ state: 'visible' });
      await screenshot(page, 'security-31-pause-withdraw');
    } finally {
      await context.close();
    }
  });
});
