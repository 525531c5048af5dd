import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFindings, seriousAxeViolations } from './support/axe.ts';
import {
  DESKTOP_VIEWPORT,
  launchBrowser,
  newPhoneContext,
  SCREENSHOT_DIR,
  screenshot,
} from './support/browser.ts';
import { kycSandboxUrl } from './support/kyc.ts';
import { assertAdminBuilt, DEMO_OPERATOR, unusedTotpCode } from './support/operator.ts';
import { expectLoggedIn, newPlayer, randomCpf } from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 36 §1's journey on a phone (390×844), on the br site: a new player types their CPF and
 * sign-up fills in the name and birth date from the CPF lookup; they start the verification (the
 * CPF check passes at once), send the document's two sides and a selfie on the provider's capture
 * page; the provider sends it to the operator's manual review, an operator opens the documents in
 * the back office and approves it; the player deposits R$ 100,00 by PIX and places a bet.
 * Screenshots of each step under test-results/e2e/ (kyc-br-*.png).
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  assertAdminBuilt();
  server = await startServer('kyc-br-phone');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Real photos stand in for the document and the selfie: the provider and Sorte read their type from the bytes. */
const PUBLIC = join(import.meta.dirname, '..', 'apps', 'web', 'public');
const DOCUMENT_JPEG = readFileSync(join(PUBLIC, 'screenshots', 'home-narrow.jpg'));
const SELFIE_PNG = readFileSync(join(PUBLIC, 'icons', 'icon-192.png'));

/** "R$ 1.234,56" (pt) → "1234.56". */
const reais = (text: string | null) => (text ?? '').replace(/[^\d,]/g, '').replace(',', '.');

async function axeClean(page: Page, step: string): Promise<void> {
  const findings = await seriousAxeViolations(page);
  expect(findings, describeFindings(step, findings)).toEqual([]);
}

async function memberIdOf(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const headers = { authorization: `Bearer ${sessionStorage.getItem('token')}` };
    const me = await (await fetch('/api/auth/me', { method: 'POST', headers })).json();
    return String(me.data.id);
  });
}

const kycStatus = (page: Page) =>
  page.evaluate(async () => {
    const headers = { authorization: `Bearer ${sessionStorage.getItem('token')}` };
    return (await (await fetch('/api/kyc/status', { headers })).json()).data as {
      missing_checks: string[];
      session: { status: string } | null;
    };
  });

describe('a br player on a phone', () => {
  it('signs up with name and birth date prefilled from the CPF, is verified through a manual review, deposits and bets', async () => {
    const brUrl = server.siteUrl('br.localhost');
    const phone = await newPhoneContext(browser);
    const page = await phone.newPage();
    try {
      // Sign-up: the CPF first; its lookup fills in the name and the birth date.
      await page.goto(brUrl);
      await page.getByTestId('open-register').first().click();
      const modal = page.getByTestId('register-modal');
      await modal.waitFor({ state: 'visible' });
      const player = newPlayer('kycbr');
      const looked = page.waitForResponse((response) => response.url().includes('/api/kyc/cpf-lookup'));
      await modal.locator('[name="cpf"]').fill(randomCpf());
      const answer = (await (await looked).json()) as {
        data: { found: boolean; realname: string; birth_date: string };
      };
      expect(answer.data.found).toBe(true);
      await page.getByTestId('cpf-prefilled').waitFor({ state: 'visible' });
      expect(await modal.locator('[name="realname"]').inputValue()).toBe(answer.data.realname);
      const [year, month, day] = answer.data.birth_date.split('-');
      expect(await modal.locator('[name="birth_date"]').inputValue()).toBe(`${day}/${month}/${year}`);
      await screenshot(page, 'kyc-br-01-signup-prefilled');
      // The modal as the phone shows it, scrolled to the prefilled name.
      expect(await page.getByTestId('cpf-prefilled').textContent()).toContain(answer.data.realname);
      await modal.locator('[name="realname"]').evaluate((field) => field.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'kyc-br-01b-signup-name.png') });
      await axeClean(page, 'prefilled sign-up');
      await modal.locator('[name="username"]').fill(player.username);
      await modal.locator('[name="password"]').fill(player.password);
      await modal.locator('[name="phone"]').fill(player.phone);
      await modal.locator('[name="agree_terms"]').check();
      await page.getByTestId('register-next').click();
      await modal.locator('[name="loss_limit"]').fill('5000');
      const registered = page.waitForResponse((response) => response.url().includes('/api/auth/register2'));
      await page.getByTestId('register-submit').click();
      expect((await registered).status()).toBe(200);
      await modal.waitFor({ state: 'hidden' });
      expect(reais(await expectLoggedIn(page))).toBe('0.00');
      const memberId = await memberIdOf(page);

      // Verification: the CPF check at once, then the provider's capture page in the same tab.
      await page.goto(`${brUrl}/security-center`);
      await page.getByTestId('kyc-card').waitFor({ state: 'visible' });
      await screenshot(page, 'kyc-br-02-security-center');
      await page.getByTestId('kyc-start').click();
      const next = page.getByTestId('kyc-continue');
      await next.waitFor({ state: 'visible' });
      expect(await page.getByTestId('kyc-check-cpf').textContent()).toContain('Verificado');
      await next.click();
      await page.waitForURL(/\/capture\//);
      await page.setInputFiles('#document_front', {
        name: 'frente.jpg',
        mimeType: 'image/jpeg',
        buffer: DOCUMENT_JPEG,
      });
      await page.setInputFiles('#document_back', {
        name: 'verso.jpg',
        mimeType: 'image/jpeg',
        buffer: DOCUMENT_JPEG,
      });
      await page.setInputFiles('#selfie', { name: 'selfie.png', mimeType: 'image/png', buffer: SELFIE_PNG });
      await screenshot(page, 'kyc-br-03-capture');
      await page.click('#send');
      await page.getByTestId('capture-done').waitFor({ state: 'visible' });
      await page.getByTestId('capture-return').click();
      await page.waitForURL(/\/security-center/);

      // The provider's tester sends it to the operator's manual review.
      const tester = await phone.newPage();
      await tester.goto(`${await kycSandboxUrl(server)}/`);
      await tester
        .locator(`[data-testid="kyc-session"][data-reference="${memberId}"]`)
        .getByTestId('decide-review')
        .click();
      await tester.close();
      // The player's tab is the front one again, as a phone shows it (a tab left behind is throttled).
      await page.bringToFront();
      await expect
        .poll(async () => (await kycStatus(page)).session?.status, { timeout: 30_000 })
        .toBe('manual_review');
      await page.reload();
      await page.getByTestId('kyc-session-status').waitFor({ state: 'visible' });
      expect(await page.getByTestId('kyc-session-status').textContent()).toContain('em análise');
      await screenshot(page, 'kyc-br-04-in-review');
      await axeClean(page, 'verification in review');

      // The operator, on a desktop: the identity reviews queue, the documents, the approval.
      const desk = await browser.newContext({ viewport: DESKTOP_VIEWPORT });
      const admin = await desk.newPage();
      await admin.goto(`${brUrl}/admin`);
      await admin.waitForURL(/\/admin\/login$/);
      await admin.getByTestId('login-username').fill(DEMO_OPERATOR.username);
      await admin.getByTestId('login-password').fill(DEMO_OPERATOR.password);
      await admin.getByTestId('login-totp').fill(await unusedTotpCode(DEMO_OPERATOR.totpSecret));
      await admin.getByTestId('login-submit').click();
      await admin.getByTestId('nav-kyc-reviews').click();
      const review = admin.locator(`[data-testid="kyc-review"][data-member="${memberId}"]`);
      await review.waitFor({ state: 'visible', timeout: 30_000 });
      const selfie = review.getByTestId('kyc-document-selfie').locator('img');
      await selfie.waitFor({ state: 'visible' });
      expect(await selfie.getAttribute('src')).toMatch(/^blob:/);
      await review.getByTestId('kyc-reason').fill('Documento e selfie conferem');
      await screenshot(admin, 'kyc-br-05-backoffice-review');
      await review.getByTestId('kyc-approve').click();
      await review.waitFor({ state: 'detached', timeout: 15_000 });
      await desk.close();

      await expect.poll(async () => (await kycStatus(page)).missing_checks, { timeout: 15_000 }).toEqual([]);
      await page.reload();
      await page.getByTestId('kyc-summary').waitFor({ state: 'visible' });
      await screenshot(page, 'kyc-br-06-verified');

      // Deposit R$ 100,00 by PIX (the sandbox payer page plays the bank), then a dice bet.
      await page.goto(`${brUrl}/recharge`);
      const amount = page.getByTestId('recharge-amount');
      await amount.waitFor({ state: 'visible' });
      await amount.fill('100,00');
      await expect
        .poll(async () => reais(await page.getByTestId('recharge-actual').textContent()))
        .toBe('100.00');
      await page.getByTestId('recharge-submit').click();
      await page.waitForURL(/\/recharge-payment\?order_no=/);
      const payUrl = await page.getByTestId('open-payer-page').getAttribute('href');
      const bank = await phone.newPage();
      await bank.goto(payUrl!);
      await bank.getByTestId('pay-submit').click();
      await bank.getByTestId('pay-done').waitFor({ state: 'visible' });
      await bank.close();
      // The player's tab is the front one again, as a phone shows it (a tab left behind is throttled).
      await page.bringToFront();
      await page.getByTestId('recharge-paid').waitFor({ state: 'visible', timeout: 30_000 });
      await expect
        .poll(async () => reais(await page.getByTestId('header-balance').first().textContent()), {
          timeout: 30_000,
        })
        .toBe('100.00');
      await screenshot(page, 'kyc-br-07-deposited');
      await page.goto(`${brUrl}/gameInfo?game=dice`);
      await page.waitForURL(/\/originals\/dice/);
      await page.getByTestId('dice-play').waitFor({ state: 'visible' });
      const bet = page.waitForResponse(
        (response) =>
          response.url().includes('/api/originals/dice/bet') && response.request().method() === 'POST',
      );
      await page.getByTestId('dice-roll').click();
      const placed = (await (await bet).json()) as { status: string; message: string };
      expect(placed.status, placed.message).toBe('success');
      await expect
        .poll(() => page.getByTestId('dice-result').getAttribute('class'), { timeout: 10_000 })
        .toMatch(/is-(win|loss)/);
      await screenshot(page, 'kyc-br-08-bet');
    } finally {
      await phone.close();
    }
  });
});
