import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFindings, seriousAxeViolations } from './support/axe.ts';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { loginOperator } from './support/operator.ts';
import {
  depositThroughSandbox,
  expectLoggedIn,
  loginFromModal,
  newPlayer,
  plainMoney,
  randomCpf,
  register,
} from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 12 on a phone. Commissions are settled per closed day, so the journey plays over two days:
 * a server whose clock runs a day behind is "yesterday" — a player copies their invite link, a
 * second player signs up through it, deposits (the "deposit paid" notification arrives live: toast
 * and bell count without a reload) and bets. The next server, on the same data at the real time,
 * runs with its jobs off; an operator settles the previous period through the admin API, the
 * inviter — already on the reward page — gets the commission notification live, sees the invitee
 * in the invitation record with the reward, and claims it into the balance.
 */
const DAY_MS = 24 * 3600 * 1000;

let yesterday: RunningServer | undefined;
let today: RunningServer | undefined;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await yesterday?.stop();
  await today?.stop();
  // Kept for the second server; gone with it, or here when the journey stopped before it.
  if (yesterday) rmSync(yesterday.dataDir, { recursive: true, force: true });
});

/** A real dice bet from the page's own session (the same call the dice screen makes). */
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
    });
    return response.status;
  }, amount);
}

/** The header bell's unread count (0 while the badge is absent). */
async function unread(page: Page): Promise<number> {
  const badge = page.getByTestId('unread-badge').first();
  if (!(await badge.isVisible())) return 0;
  return Number.parseInt((await badge.textContent()) ?? '0', 10);
}

async function expectAxeClean(page: Page, where: string): Promise<void> {
  const findings = await seriousAxeViolations(page);
  expect(findings, describeFindings(where, findings)).toEqual([]);
}

async function adminCall<T>(baseUrl: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { status: string; message: string; data: T };
  expect(envelope.status, `${path}: ${envelope.message}`).toBe('success');
  return envelope.data;
}

describe('agency centre on a phone', () => {
  it('a player invites a second one through the link; the second deposits and bets; the first sees the record and claims the reward', async () => {
    const inviter = newPlayer('inviter');
    const invitee = newPlayer('invitee');

    // ---- Yesterday --------------------------------------------------------------------------
    yesterday = await startServer('agency-yesterday', {
      clockOffsetMs: -DAY_MS,
      keepData: true,
      env: { COMMUNITY_JOBS: 'off' },
    });
    const first = await newPhoneContext(browser);
    // The browser lives on the server's day too (an order's expiry, the countdowns).
    await first.clock.install({ time: Date.now() - DAY_MS });
    await first.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: yesterday.url });
    const inviterPage = await first.newPage();
    await inviterPage.goto(yesterday.url);
    await register(inviterPage, inviter);
    await inviterPage.goto(`${yesterday.url}/agency-center/invite`);
    await inviterPage.getByTestId('invite-qr').waitFor({ state: 'visible' });
    await inviterPage.getByTestId('copy-invite-link').click();
    const link = await inviterPage.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(await inviterPage.getByTestId('invite-link').inputValue());
    const code = await inviterPage.getByTestId('invite-code').inputValue();
    expect(link).toContain(`invite=${code}`);
    await screenshot(inviterPage, 'agency-01-invite');
    await expectAxeClean(inviterPage, '/agency-center/invite');
    await first.close();

    // A guest opens the link: sign-up opens by itself with the code filled in.
    const second = await newPhoneContext(browser);
    await second.clock.install({ time: Date.now() - DAY_MS });
    const inviteePage = await second.newPage();
    await inviteePage.goto(link);
    const modal = inviteePage.getByTestId('register-modal');
    await modal.waitFor({ state: 'visible' });
    expect(await modal.locator('[name="invite_code"]').inputValue()).toBe(code);
    await screenshot(inviteePage, 'agency-02-signup-through-link');
    // register() opens the modal from the header; here it is open already, so it is filled in place.
    await modal.locator('[name="username"]').fill(invitee.username);
    await modal.locator('[name="password"]').fill(invitee.password);
    await modal.locator('[name="realname"]').fill(invitee.realname);
    await modal.locator('[name="phone"]').fill(invitee.phone);
    await modal.locator('[name="agree_terms"]').check();
    const registered = inviteePage.waitForResponse((r) => r.url().includes('/api/auth/register2'));
    await inviteePage.getByTestId('register-submit').click();
    expect((await registered).status()).toBe(200);
    await modal.waitFor({ state: 'hidden' });
    await expectLoggedIn(inviteePage);

    // The deposit's notification arrives live: the toast, and the bell's count rises without a reload.
    await inviteePage.goto(`${yesterday.url}/recharge`);
    await expectLoggedIn(inviteePage);
    const unreadBefore = await unread(inviteePage);
    await depositThroughSandbox(inviteePage, yesterday.url, 100);
    await inviteePage
      .getByText(/Deposit of R\$\s?100\.00 credited/)
      .first()
      .waitFor({ state: 'visible' });
    await expect.poll(() => unread(inviteePage), { timeout: 15_000 }).toBe(unreadBefore + 1);
    await screenshot(inviteePage, 'agency-03-deposit-notification-live');
    for (let i = 0; i < 4; i += 1) expect(await betDice(inviteePage, '25.00')).toBe(200);
    await second.close();
    await yesterday.stop();

    // ---- Today: the same data at the real time ------------------------------------------------
    today = await startServer('agency-today', {
      dataDir: yesterday.dataDir,
      env: { COMMUNITY_JOBS: 'off' },
    });
    const third = await newPhoneContext(browser);
    const page = await third.newPage();
    await page.goto(today.url);
    const login = await loginFromModal(page, inviter);
    expect(login.status, login.message).toBe('success');
    await expectLoggedIn(page);

    await page.goto(`${today.url}/agency-center/reward`);
    await page.getByTestId('reward-unclaimed').waitFor({ state: 'visible' });
    expect(plainMoney(await page.getByTestId('reward-unclaimed').textContent())).toBe('0.00');
    const unreadBefore2 = await unread(page);

    // The operator settles the previous period (what the daily job does); a second run settles nothing.
    const operatorToken = await loginOperator(today.url);
    const settled = await adminCall<{ settled: boolean; members: number; total: string }>(
      today.url,
      '/api/admin/agency/settle',
      operatorToken,
    );
    expect(settled.settled).toBe(true);
    expect(settled.members).toBeGreaterThanOrEqual(1);
    const again = await adminCall<{ settled: boolean }>(today.url, '/api/admin/agency/settle', operatorToken);
    expect(again.settled).toBe(false);

    // Live: the commission's notification on the page the inviter has open.
    // Turnover basis, first tier 0.30 % on level 1 (100.00 staked) plus 1 % of level-1 deposits (100.00).
    await page
      .getByText(/Commission of R\$\s?1\.30 for/)
      .first()
      .waitFor({ state: 'visible' });
    await expect.poll(() => unread(page), { timeout: 15_000 }).toBe(unreadBefore2 + 1);

    await page.goto(`${today.url}/agency-center/invitation-record`);
    await expect.poll(() => page.getByTestId('record-invitees').textContent()).toBe('1');
    const row = page.getByTestId('record-row').first();
    await row.waitFor({ state: 'visible' });
    expect(await row.textContent()).toContain(invitee.username.slice(0, 2));
    expect(plainMoney(await page.getByTestId('record-direct-reward').textContent())).toBe('1.30');
    await screenshot(page, 'agency-04-invitation-record');
    await expectAxeClean(page, '/agency-center/invitation-record');

    await page.goto(`${today.url}/agency-center/reward`);
    await expect
      .poll(async () => plainMoney(await page.getByTestId('reward-unclaimed').textContent()))
      .toBe('1.30');
    await screenshot(page, 'agency-05-reward');
    await page.getByTestId('claim-commission').click();
    await expect
      .poll(async () => plainMoney(await page.getByTestId('header-balance').first().textContent()), {
        timeout: 15_000,
      })
      .toBe('1.30');
    await expect
      .poll(async () => plainMoney(await page.getByTestId('reward-unclaimed').textContent()))
      .toBe('0.00');
    await screenshot(page, 'agency-06-claimed');
    await expectAxeClean(page, '/agency-center/reward');
    await third.close();
  }, 300_000);
  it('br: a player registers a subordinate on the page with the CPF, birth date and limits the site asks', async () => {
    const server = await startServer('agency-br');
    const context = await newPhoneContext(browser);
    try {
      const brUrl = server.url.replace('localhost', 'br.localhost');
      const page = await context.newPage();
      await page.goto(brUrl);
      await register(page, newPlayer('agentbr'));
      await page.goto(`${brUrl}/agency-center/register-subordinates`);
      const form = page.getByTestId('register-subordinate-form');
      await form.locator('[name="cpf"]').waitFor({ state: 'visible' });
      // The active tab, the last of six, is in view on a phone.
      const active = page.getByTestId('agency-tabs').locator('a.active');
      await expect
        .poll(() =>
          active.evaluate((tab) => {
            const strip = tab.parentElement!.getBoundingClientRect();
            const box = tab.getBoundingClientRect();
            return box.left >= strip.left - 1 && box.right <= strip.right + 1;
          }),
        )
        .toBe(true);
      await screenshot(page, 'agency-07-register-subordinate-br');
      await expectAxeClean(page, '/agency-center/register-subordinates (br)');

      const subordinate = newPlayer('subbr');
      await form.locator('[name="username"]').fill(subordinate.username);
      await form.locator('[name="password"]').fill(subordinate.password);
      await form.locator('[name="realname"]').fill(subordinate.realname);
      await form.locator('[name="phone"]').fill(subordinate.phone);
      await form.locator('[name="cpf"]').fill(randomCpf());
      await form.locator('[name="birth_date"]').fill('17/05/1990');
      await form.locator('[name="loss_limit"]').fill('2000');
      const answered = page.waitForResponse((r) => r.url().includes('/api/agency/subordinate/register'));
      await page.getByTestId('register-subordinate').click();
      const response = await answered;
      expect(response.status(), await response.text()).toBe(200);

      await page.goto(`${brUrl}/agency-center/agent`);
      await page.getByTestId('team-member').first().waitFor({ state: 'visible' });
      expect(await page.getByTestId('team-member').count()).toBe(1);
      expect(await page.getByTestId('team-member').first().textContent()).toContain(
        subordinate.username.slice(0, 2),
      );
      await screenshot(page, 'agency-08-team-br');

      // The subordinate logs in with what was set for them.
      const other = await newPhoneContext(browser);
      const theirs = await other.newPage();
      await theirs.goto(brUrl);
      const login = await loginFromModal(theirs, subordinate);
      expect(login.status, login.message).toBe('success');
      await other.close();
    } finally {
      await context.close();
      await server.stop();
    }
  }, 240_000);
});
