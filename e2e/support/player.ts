import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What a player does in the header and the auth modals, through the stable, language-independent
 * test ids the web app promises (see the team brief). Each helper waits for the state it leads to,
 * so a journey reads as the story it tells.
 */
export interface Player {
  username: string;
  password: string;
  realname: string;
  phone: string;
  qkPwd: string;
}

/**
 * An amount as the site writes it in English ("R$1,234.50", "R$100.00 (fun money)") back in the
 * contract's plain form ("1234.50"), so a journey compares it with what the server answered.
 */
export function plainMoney(text: string | null | undefined): string {
  return (text ?? '')
    .trim()
    .replace(/R\$\s?/g, '')
    .replace(/,(?=\d{3})/g, '');
}

/** A new player with a unique name (usernames are 4–20 of A–Z, a–z, 0–9, _). */
export function newPlayer(prefix: string): Player {
  return {
    username: `${prefix}_${randomBytes(4).toString('hex')}`.slice(0, 20),
    password: `Pw-${randomBytes(6).toString('hex')}`,
    realname: 'Maria da Silva',
    // A valid Brazilian mobile number (São Paulo, 9-digit mobile).
    phone: '11987654321',
    qkPwd: '482915',
  };
}

const byTestId = (page: Page, id: string) => page.getByTestId(id).first();

/** A valid CPF built from 9 random digits (check digits computed). */
export function randomCpf(): string {
  const digits = Array.from(randomBytes(9), (byte) => byte % 10);
  if (digits.every((d) => d === digits[0])) digits[0] = (digits[0]! + 1) % 10;
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}

/** Opens the language switcher and picks a language; the app reloads the page to apply it. */
export async function switchLanguage(page: Page, code: string): Promise<void> {
  await byTestId(page, 'language-switcher').click();
  const option = byTestId(page, `lang-option-${code}`);
  await option.waitFor({ state: 'visible' });
  await Promise.all([page.waitForEvent('load'), option.click()]);
  await byTestId(page, 'language-switcher').waitFor({ state: 'visible' });
}

/** Fills the field with the given name inside a container (modal or page). */
async function fill(page: Page, containerId: string, name: string, value: string): Promise<void> {
  await page.getByTestId(containerId).locator(`[name="${name}"]`).first().fill(value);
}

async function tick(page: Page, containerId: string, name: string): Promise<void> {
  await page.getByTestId(containerId).locator(`[name="${name}"]`).first().check();
}

/**
 * The captcha is turned off for the journeys (CAPTCHA=off), so the app hides its field; if a build
 * shows it anyway the journey cannot read the image and fails here, which is the honest outcome.
 */
async function assertNoCaptchaAsked(page: Page, containerId: string): Promise<void> {
  // The field shows while the app asks the server whether a captcha is needed, then goes.
  const captcha = page.getByTestId(containerId).locator('[name="captcha_code"]');
  await expect
    .poll(() => captcha.isVisible(), { message: 'the captcha field is hidden when CAPTCHA=off' })
    .toBe(false);
}

/** Waits until the header shows the logged-in player's balance and returns its text. */
export async function expectLoggedIn(page: Page): Promise<string> {
  const balance = byTestId(page, 'header-balance');
  await balance.waitFor({ state: 'visible' });
  await expect.poll(async () => (await balance.textContent()) ?? '').toMatch(/\d/);
  return (await balance.textContent()) ?? '';
}

export async function expectLoggedOut(page: Page): Promise<void> {
  await byTestId(page, 'open-login').waitFor({ state: 'visible' });
  expect(await byTestId(page, 'header-balance').isVisible()).toBe(false);
}

/** Registers through the register modal opened from the header; ends logged in. */
export async function register(page: Page, player: Player): Promise<void> {
  await byTestId(page, 'open-register').click();
  const modal = 'register-modal';
  await page.getByTestId(modal).waitFor({ state: 'visible' });
  // Sign-up asks who the player is first: where the site's rules ask them (br) the CPF and the
  // date of birth (typed as the mask shows it), then the name, password, full name and phone, and
  // one box for the terms and the age; the withdrawal password comes with the first withdrawal.
  const asksCpf = (await page.getByTestId(modal).locator('[name="cpf"]').count()) > 0;
  if (asksCpf) {
    await fill(page, modal, 'cpf', randomCpf());
    await fill(page, modal, 'birth_date', '17/05/1990');
  }
  await fill(page, modal, 'username', player.username);
  await fill(page, modal, 'password', player.password);
  await fill(page, modal, 'realname', player.realname);
  await fill(page, modal, 'phone', player.phone);
  await tick(page, modal, 'agree_terms');
  // The second step, where the rules ask limits: the loss limit (the session time has a preset).
  if (await byTestId(page, 'register-next').count()) {
    await byTestId(page, 'register-next').click();
    await fill(page, modal, 'loss_limit', '5000');
  }
  await assertNoCaptchaAsked(page, modal);
  const answered = page.waitForResponse((response) => response.url().includes('/api/auth/register2'));
  await byTestId(page, 'register-submit').click();
  const response = await answered;
  expect(response.status(), await response.text()).toBe(200);
  await page.getByTestId(modal).waitFor({ state: 'hidden' });
}

/**
 * Types the withdrawal password on the withdraw page; on the first withdrawal the page asks to
 * create it, typed twice.
 */
export async function fillWithdrawPassword(page: Page, player: Pick<Player, 'qkPwd'>): Promise<void> {
  await page.getByTestId('withdraw-password').fill(player.qkPwd);
  const confirmation = page.getByTestId('withdraw-password-confirmation');
  if (await confirmation.count()) await confirmation.fill(player.qkPwd);
}

/**
 * Logs in from the login modal opened from the header (`remember`: ticks "keep me signed in");
 * returns the login2 response body.
 */
export async function loginFromModal(
  page: Page,
  player: Pick<Player, 'username' | 'password'>,
  options: { remember?: boolean } = {},
): Promise<{ status: string; code: unknown; message: string }> {
  await byTestId(page, 'open-login').click();
  const modal = 'login-modal';
  await page.getByTestId(modal).waitFor({ state: 'visible' });
  await fill(page, modal, 'username', player.username);
  await fill(page, modal, 'password', player.password);
  if (options.remember) await tick(page, modal, 'remember');
  await assertNoCaptchaAsked(page, modal);
  const answered = page.waitForResponse((response) => response.url().includes('/api/auth/login2'));
  await byTestId(page, 'login-submit').click();
  return (await answered).json();
}

/** Logs out through the user menu. */
export async function logout(page: Page): Promise<void> {
  await byTestId(page, 'user-menu').click();
  await byTestId(page, 'logout').click();
  await expectLoggedOut(page);
}

/**
 * Deposits `amount` (whole reais) the way a player does: the recharge page, then the sandbox
 * PSP's payer page in another tab playing the bank; waits until the header shows the new balance.
 */
export async function depositThroughSandbox(page: Page, baseUrl: string, amount: number): Promise<void> {
  const expected = amount.toFixed(2);
  await page.goto(`${baseUrl}/recharge`);
  const field = page.getByTestId('recharge-amount');
  await field.waitFor({ state: 'visible' });
  await field.fill(String(amount));
  await expect
    .poll(async () => plainMoney(await page.getByTestId('recharge-actual').textContent()))
    .toBe(expected);
  await page.getByTestId('recharge-submit').click();
  await page.waitForURL(/\/recharge-payment\?order_no=/);
  const payUrl = await page.getByTestId('open-payer-page').getAttribute('href');
  expect(payUrl).toBeTruthy();
  const bank = await page.context().newPage();
  await bank.goto(payUrl!);
  await bank.getByTestId('pay-submit').click();
  await bank.getByTestId('pay-done').waitFor({ state: 'visible' });
  await bank.close();
  // The player's tab is the front one again, as a phone shows it (a tab left behind is throttled).
  await page.bringToFront();
  await expect
    .poll(async () => plainMoney(await page.getByTestId('header-balance').first().textContent()), {
      timeout: 30_000,
    })
    .toBe(expected);
}
