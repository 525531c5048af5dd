import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { loginOperator } from './support/operator.ts';
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
 * Issue 3's story on a phone: a new player deposits by PIX through the sandbox PSP's payer page
 * (playing the player's bank), sees the header balance change without a reload, adds a PIX key,
 * asks for a withdrawal, an operator approves it through the admin API, the sandbox pays it out,
 * and both orders show in the player's records.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('money-web');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const SUBMITTED =
  'The withdrawal application has been submitted successfully. Please wait for the administrators review.';

async function balanceText(page: Page): Promise<string> {
  return plainMoney(await page.getByTestId('header-balance').first().textContent());
}

/** Calls the server's JSON API as the back office does and returns the envelope's data. */
async function adminCall<T>(path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { status: string; message: string; data: T };
  expect(envelope.status, `${path}: ${envelope.message}`).toBe('success');
  return envelope.data;
}

describe('money on a phone', () => {
  it('deposits through the PSP payer page, withdraws to a PIX key, and the records show both', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      const player = newPlayer('money');
      await register(page, player);
      expect(plainMoney(await expectLoggedIn(page))).toBe('0.00');

      // Deposit: PIX, the first channel, an amount inside the bounds shown.
      await page.goto(`${server.url}/recharge`);
      const amount = page.getByTestId('recharge-amount');
      await amount.waitFor({ state: 'visible' });
      await amount.fill('100');
      await expect
        .poll(async () => plainMoney(await page.getByTestId('recharge-actual').textContent()))
        .toBe('100.00');
      await screenshot(page, 'money-web-01-recharge');
      await page.getByTestId('recharge-submit').click();
      await page.waitForURL(/\/recharge-payment\?order_no=/);
      await page.getByTestId('pix-copy-code').waitFor({ state: 'visible' });
      expect(plainMoney(await page.getByTestId('payment-amount').textContent())).toBe('100.00');
      expect(await page.locator('#pix-code').inputValue()).toMatch(/^000201.*6304[0-9A-F]{4}$/);
      const payUrl = await page.getByTestId('open-payer-page').getAttribute('href');
      expect(payUrl).toBeTruthy();
      await screenshot(page, 'money-web-02-payment');

      // The sandbox's payer page plays the player's bank, in another tab.
      const bank = await context.newPage();
      await bank.goto(payUrl!);
      expect(await bank.getByTestId('pay-amount').textContent()).toContain('100');
      await bank.getByTestId('pay-submit').click();
      await bank.getByTestId('pay-done').waitFor({ state: 'visible' });
      await bank.close();
      // The player's tab is the front one again, as a phone shows it (a tab left behind is throttled).
      await page.bringToFront();

      // Back in the app, without a reload: the order shows paid and the header balance moved.
      await page.getByTestId('recharge-paid').waitFor({ state: 'visible', timeout: 30_000 });
      await expect.poll(() => balanceText(page), { timeout: 30_000 }).toBe('100.00');
      await screenshot(page, 'money-web-03-paid');

      // A PIX key (bank card) in the player's name.
      await page.goto(`${server.url}/bank-card/add`);
      const form = page.getByTestId('bank-card-form');
      await form.waitFor({ state: 'visible' });
      const cpf = randomCpf();
      await form.locator('[name="account_type"]').selectOption('CPF');
      await form.locator('[name="name"]').fill(player.realname);
      await form.locator('[name="account"]').fill(cpf);
      await page.getByTestId('bank-card-add').click();
      await page.getByTestId('bank-card-item').first().waitFor({ state: 'visible' });
      await screenshot(page, 'money-web-04-bank-card');

      // Withdraw 50.00 over PIX: no fee, the whole 50.00 reaches the player.
      await page.goto(`${server.url}/withdraw`);
      const withdrawAmount = page.getByTestId('withdraw-amount');
      await withdrawAmount.waitFor({ state: 'visible' });
      await withdrawAmount.fill('50');
      await expect
        .poll(async () => plainMoney(await page.getByTestId('withdraw-actual').textContent()))
        .toBe('50.00');
      expect(plainMoney(await page.getByTestId('withdraw-fee').textContent())).toBe('0.00');
      await fillWithdrawPassword(page, player);
      await page.getByTestId('withdraw-submit').click();
      await expect.poll(() => page.getByTestId('withdraw-success').textContent()).toBe(SUBMITTED);
      // The money left the available balance at once.
      await expect.poll(() => balanceText(page)).toBe('50.00');
      await screenshot(page, 'money-web-05-withdraw');

      // An operator approves it; the sandbox pays payouts out by itself in `succeed` mode.
      const sandboxOrigin = new URL(payUrl!).origin;
      const settings = await fetch(`${sandboxOrigin}/admin/settings`, {
        method: 'POST',
        body: new URLSearchParams({ payoutMode: 'succeed' }),
        redirect: 'manual',
      });
      expect(settings.status).toBe(303);
      const login = { token: await loginOperator(server.url) };
      const waiting = await adminCall<{ list: { order_no: string; username: string }[] }>(
        '/api/admin/withdrawals?status=pending_review',
        login.token,
      );
      const order = waiting.list.find((row) => row.username === player.username);
      expect(order, 'the withdrawal waits for review').toBeDefined();
      await adminCall(`/api/admin/withdrawals/${order!.order_no}/approve`, login.token, {
        remark: 'checked',
      });

      // The withdrawal record shows it paid (the payout webhook arrives shortly after approval).
      await page.goto(`${server.url}/withdrawalRecord`);
      const withdrawalRow = page.locator(`[data-testid="record-row"][data-order-no="${order!.order_no}"]`);
      await expect
        .poll(
          async () => {
            await page.reload();
            await withdrawalRow.waitFor({ state: 'visible' });
            return (await withdrawalRow.locator('.record__status').textContent())?.trim();
          },
          { timeout: 60_000, interval: 1_000 },
        )
        .toBe('Paid');
      expect(await balanceText(page)).toBe('50.00');
      await screenshot(page, 'money-web-06-withdrawal-record');

      // A second withdrawal, taken back by the player while it waits for review: the amount is
      // back in the balance at once and the record says cancelled.
      await page.goto(`${server.url}/withdraw`);
      await withdrawAmount.waitFor({ state: 'visible' });
      await withdrawAmount.fill('20');
      await fillWithdrawPassword(page, player);
      await page.getByTestId('withdraw-submit').click();
      await expect.poll(() => page.getByTestId('withdraw-success').textContent()).toBe(SUBMITTED);
      await expect.poll(() => balanceText(page)).toBe('30.00');
      await page.goto(`${server.url}/withdrawalRecord`);
      await page.getByTestId('withdrawal-cancel').first().click();
      const confirm = page.getByTestId('confirm-dialog');
      await confirm.waitFor({ state: 'visible' });
      await screenshot(page, 'money-web-06b-withdrawal-cancel');
      await confirm.getByRole('button', { name: 'Cancel withdrawal' }).click();
      await expect.poll(() => balanceText(page)).toBe('50.00');
      await expect
        .poll(async () =>
          (await page.getByTestId('record-row').first().locator('.record__status').textContent())?.trim(),
        )
        .toBe('Cancelled');
      expect(await page.getByTestId('withdrawal-cancel').count()).toBe(0);

      // The recharge record shows the deposit, paid.
      await page.goto(`${server.url}/rechargeRecord`);
      const rechargeRow = page.getByTestId('record-row').first();
      await rechargeRow.waitFor({ state: 'visible' });
      expect(await page.getByTestId('record-row').count()).toBe(1);
      expect(plainMoney(await rechargeRow.locator('.record__amount').textContent())).toBe('100.00');
      expect((await rechargeRow.locator('.record__status').textContent())?.trim()).toBe('Paid');
      await screenshot(page, 'money-web-07-recharge-record');
    } finally {
      await context.close();
    }
  });
});
