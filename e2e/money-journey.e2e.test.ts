import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { loginOperator } from './support/operator.ts';
import { expectLoggedIn, newPlayer, randomCpf, register } from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 3's money story against the real server process and its local PSP sandbox: a new player
 * registers, deposits through the sandbox payer page (a real page in Chromium), the open page
 * learns of the credit over the realtime socket, a PIX key is added, a withdrawal is requested and
 * approved through the admin API, the sandbox pays it out, and both records show the result.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('money');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: the journey reads response data loosely and asserts on it.
type Envelope = { status: string; code: unknown; message: string; data: any };

async function api(
  path: string,
  options: { method?: string; token?: string; body?: unknown } = {},
): Promise<Envelope> {
  const response = await fetch(`${server.url}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return (await response.json()) as Envelope;
}

describe('a player deposits by PIX and withdraws after review', () => {
  it('pays on the sandbox payer page, sees the credit pushed, withdraws, and both records show it', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      const player = newPlayer('money');
      await register(page, player);
      expect(await expectLoggedIn(page)).toMatch(/0[.,]00/);
      const login = await api('/api/auth/login2', {
        body: { username: player.username, password: player.password },
      });
      const token = login.data.token as string;

      // The open page subscribes to the realtime channel as the web app does.
      await page.evaluate((sessionToken) => {
        const pushes: unknown[] = [];
        (window as unknown as { __pushes: unknown[] }).__pushes = pushes;
        const socket = new WebSocket(`${location.origin.replace('http', 'ws')}/ws`);
        socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', token: sessionToken }));
        socket.onmessage = (event) => pushes.push(JSON.parse(String(event.data)));
      }, token);
      await expect
        .poll(() =>
          page.evaluate(() => JSON.stringify((window as unknown as { __pushes: unknown[] }).__pushes)),
        )
        .toContain('"ready"');

      const channel = (await api('/api/payment/online/list?payment_type=pix')).data.list[0];
      const order = await api('/api/recharge/online', {
        token,
        body: { money: '25.00', payment_id: channel.id, payment_type: 'pix' },
      });
      expect(order.status).toBe('success');
      expect(order.data.pay_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\//);

      const payer = await context.newPage();
      await payer.goto(order.data.pay_url);
      await payer.getByTestId('pay-qr').waitFor({ state: 'visible' });
      await screenshot(payer, 'money-01-payer-page');
      await payer.getByTestId('pay-submit').click();
      await payer.getByTestId('pay-done').waitFor({ state: 'visible' });

      await expect
        .poll(
          () => page.evaluate(() => JSON.stringify((window as unknown as { __pushes: unknown[] }).__pushes)),
          {
            message: 'the credit is pushed to the open page',
            timeout: 20_000,
          },
        )
        .toMatch(/"money":"25\.00"[^}]*"reason":"deposit_paid"/);
      await page.reload();
      await expect.poll(() => page.getByTestId('header-balance').first().textContent()).toMatch(/25[.,]00/);
      await screenshot(page, 'money-02-balance');

      const cpf = randomCpf();
      const card = await api('/api/member/bank/add', {
        token,
        body: { account_type: 'CPF', name: 'Maria da Silva', account: cpf, cpf_id: cpf },
      });
      expect(card.status, JSON.stringify(card)).toBe('success');

      const withdrawal = await api('/api/drawing', {
        token,
        // The first withdrawal sets the withdrawal password (ADR 014): typed twice.
        body: {
          money: '20.00',
          member_bank_id: card.data.id,
          qk_pwd: player.qkPwd,
          qk_pwd_confirmation: player.qkPwd,
        },
      });
      expect(withdrawal.message).toBe(
        'The withdrawal application has been submitted successfully. Please wait for the administrators review.',
      );
      const me = await api('/api/auth/me', { token, body: {} });
      expect(me.data.money).toBe('5.00');

      const operator = { data: { token: await loginOperator(server.url) } };
      const approved = await api(`/api/admin/withdrawals/${withdrawal.data.order_no}/approve`, {
        token: operator.data.token,
        body: { remark: 'checked' },
      });
      expect(approved.data.status).toBe('paying');
      const paying = await api('/api/admin/withdrawals?status=paying', { token: operator.data.token });
      const payoutId = paying.data.list.find(
        (o: { order_no: string }) => o.order_no === withdrawal.data.order_no,
      ).payout_id;

      // The PSP's operator confirms the payout on the sandbox overview page.
      await payer.goto(new URL(order.data.pay_url).origin);
      await payer.getByTestId(`payout-succeed-${payoutId}`).click();
      await screenshot(payer, 'money-03-payout');

      await expect
        .poll(async () => (await api('/api/drawing/list', { token, body: {} })).data.list[0]?.status, {
          timeout: 20_000,
        })
        .toBe('paid');
      const recharges = await api('/api/recharge/list', { token, body: {} });
      expect(recharges.data.list[0]).toMatchObject({
        order_no: order.data.order_no,
        status: 'paid',
        amount: '25.00',
      });
      const after = await api('/api/auth/me', { token, body: {} });
      expect(after.data.money).toBe('5.00');
    } finally {
      await context.close();
    }
  });
});
