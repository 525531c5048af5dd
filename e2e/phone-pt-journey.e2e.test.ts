import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFindings, seriousAxeViolations } from './support/axe.ts';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { crashBetLine, waitForCrashBetting } from './support/crash.ts';
import { expectLoggedIn, fillWithdrawPassword, newPlayer, randomCpf, register } from './support/player.ts';
import { PLAYER_ROUTES as ROUTES } from './support/routes.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 14's story: a new player on a phone in Portuguese finds a game with the header search,
 * plays a crash round while the round's live bets table lists them, cashes out a crash bet by
 * hand, deposits R$ 100,00 by PIX, adds a PIX key and withdraws R$ 20,00 with no fee. axe-core checks every step (zero serious or
 * critical findings), and every route of the site is visited with axe and kept as a screenshot
 * under test-results/e2e/.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('phone-pt');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** "R$ 1.234,56" (pt, with its no-break space) → "1234.56". */
const moneyOf = (text: string | null) => (text ?? '').replace(/[^\d,-]/g, '').replace(',', '.');
/** "R$ 1.234,56" → 123456 centavos (whole numbers, no float arithmetic on money). */
const centavosOf = (text: string | null) => Number(moneyOf(text).replace('.', ''));

async function ptContext(): Promise<BrowserContext> {
  const context = await newPhoneContext(browser);
  await context.addInitScript(() => {
    if (!localStorage.getItem('lang')) localStorage.setItem('lang', 'pt');
  });
  return context;
}

/** axe on the page as it is now: no serious or critical finding, and a screenshot for people. */
async function check(page: Page, step: string): Promise<void> {
  // From the top, as a player reads it: Playwright's own scrolling to fill a field can leave the
  // page where the sticky header sits over another field (a browser's focus scrolling keeps the
  // page's scroll-padding clear of it), and axe would judge that accident.
  // At once (the site scrolls smoothly: axe must not run mid-animation), with no field focused (a
  // full-page screenshot resizes the viewport, and the browser then scrolls a focused field back into
  // view, under the header); again after the screenshot, for axe.
  const toTop = () =>
    page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          (document.activeElement as HTMLElement | null)?.blur?.();
          window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
          requestAnimationFrame(() => resolve());
        }),
    );
  await toTop();
  await screenshot(page, `phone-pt-${step}`);
  await toTop();
  const findings = await seriousAxeViolations(page);
  expect(findings, describeFindings(step, findings)).toEqual([]);
}

describe('a new player on a phone in Portuguese', () => {
  it('searches, plays crash with the live table, deposits by PIX and withdraws with no fee — axe clean at every step', async () => {
    const context = await ptContext();
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await page.getByTestId('header-search').waitFor({ state: 'visible' });
      expect(await page.locator('html').getAttribute('lang')).toBe('pt-BR');
      await check(page, '01-home-guest');

      const player = newPlayer('ptphone');
      await register(page, player);
      expect(moneyOf(await expectLoggedIn(page))).toBe('0.00');
      expect(await page.getByTestId('header-balance').textContent()).toMatch(/^R\$\s0,00$/);
      // A new player is led to the first deposit.
      await page.waitForURL(/\/recharge\?welcome=1/);
      await page.getByTestId('recharge-welcome').waitFor({ state: 'visible' });

      // Search from the header: instant results while typing, the game opens from the result.
      await page.getByTestId('header-search').click();
      await page.getByTestId('header-search-input').fill('cras');
      const result = page.locator('[data-testid="header-search-result"][data-game="crash"]');
      await result.waitFor({ state: 'visible', timeout: 10_000 });
      await check(page, '02-search');

      // Deposit R$ 100,00 by PIX: the sandbox payer page plays the bank.
      await page.goto(`${server.url}/recharge`);
      const amount = page.getByTestId('recharge-amount');
      await amount.waitFor({ state: 'visible' });
      await amount.fill('100,00');
      await expect
        .poll(async () => moneyOf(await page.getByTestId('recharge-actual').textContent()))
        .toBe('100.00');
      await check(page, '03-deposit');
      await page.getByTestId('recharge-submit').click();
      await page.waitForURL(/\/recharge-payment\?order_no=/);
      await page.getByTestId('pix-copy-code').waitFor({ state: 'visible' });
      expect(await page.getByTestId('payment-amount').textContent()).toMatch(/^R\$\s100,00$/);
      await check(page, '04-payment');
      const payUrl = await page.getByTestId('open-payer-page').getAttribute('href');
      const bank = await context.newPage();
      await bank.goto(payUrl!);
      await bank.getByTestId('pay-submit').click();
      await bank.getByTestId('pay-done').waitFor({ state: 'visible' });
      await bank.close();
      // The player's tab is the front one again, as a phone shows it (a tab left behind is throttled).
      await page.bringToFront();
      await page.getByTestId('recharge-paid').waitFor({ state: 'visible', timeout: 30_000 });
      await expect
        .poll(async () => moneyOf(await page.getByTestId('header-balance').textContent()), {
          timeout: 30_000,
        })
        .toBe('100.00');

      // Crash from the search result: a real bet, and the round's table lists it as the player's.
      await page.getByTestId('header-search').click();
      await page.getByTestId('header-search-input').fill('crash');
      await page.locator('[data-testid="header-search-result"][data-game="crash"]').click();
      await page.waitForURL(/\/originals\/crash/, { timeout: 15_000 });
      await page.getByTestId('crash-play').waitFor({ state: 'visible' });
      expect(await page.locator('main h1, h1').count()).toBeGreaterThan(0);
      expect(await page.locator('main').count()).toBe(1);
      await waitForCrashBetting(page);
      await page.getByTestId('crash-auto').fill('1.01');
      await page.getByTestId('crash-bet').click();
      await expect.poll(() => crashBetLine(page), { timeout: 15_000 }).toMatch(/R\$\s1,00/);
      const myRow = page.locator('[data-testid="crash-bets-row"].is-mine');
      await myRow.waitFor({ state: 'visible', timeout: 15_000 });
      expect(await myRow.textContent()).toContain('R$');
      await check(page, '05-crash-live-table');
      await expect
        .poll(() => page.getByTestId('crash-phase').getAttribute('data-phase'), { timeout: 90_000 })
        .toBe('crashed');
      await page.getByTestId('crash-bets-tab-mine').click();
      await page.getByTestId('crash-my-bets-table').waitFor({ state: 'visible', timeout: 10_000 });
      await check(page, '06-crash-my-bets');

      // Cash out by hand: a bet without an auto cash-out, "Sacar" pressed while the round runs (a
      // round may crash before the press: then the next round, at most four).
      let cashedText: string | null = null;
      for (let round = 0; round < 4 && cashedText === null; round++) {
        await waitForCrashBetting(page);
        const before = centavosOf(await page.getByTestId('game-balance').textContent());
        await page.getByTestId('crash-auto').fill('');
        await page.getByTestId('crash-bet').click();
        const cashout = page.getByTestId('crash-cashout');
        await cashout.waitFor({ state: 'visible', timeout: 15_000 });
        await expect
          .poll(
            async () => (await cashout.isEnabled()) || (await page.getByTestId('crash-result').count()) > 0,
            {
              timeout: 30_000,
            },
          )
          .toBe(true);
        if (await cashout.isEnabled()) await cashout.click().catch(() => undefined);
        const myBet = page.getByTestId('crash-my-bet');
        await expect
          .poll(async () => /is-(win|loss)/.exec((await myBet.getAttribute('class')) ?? '')?.[1], {
            timeout: 60_000,
          })
          .toBeDefined();
        if ((await myBet.getAttribute('class'))?.includes('is-win')) {
          cashedText = await myBet.textContent();
          // "Você sacou em ×1,23: R$ 1,23": the payout reaches the balance shown.
          const payout = centavosOf(/R\$\s?[\d.,]+$/.exec(cashedText ?? '')?.[0] ?? '');
          expect(payout).toBeGreaterThanOrEqual(101);
          await expect
            .poll(async () => centavosOf(await page.getByTestId('game-balance').textContent()), {
              timeout: 15_000,
            })
            .toBe(before - 100 + payout);
        }
      }
      expect(cashedText).toMatch(/^Você sacou em ×[\d.,]+: R\$\s[\d.,]+$/);
      await check(page, '06b-crash-cashed-by-hand');

      // A PIX key: the CPF is asked once, as the key.
      await page.goto(`${server.url}/bank-card/add`);
      const form = page.getByTestId('bank-card-form');
      await form.waitFor({ state: 'visible' });
      expect(await page.getByTestId('bank-card-cpf').count()).toBe(0);
      await form.locator('[name="name"]').fill(player.realname);
      await page.getByTestId('bank-card-key').fill(randomCpf());
      await check(page, '07-pix-key');
      await page.getByTestId('bank-card-add').click();
      await page.getByTestId('bank-card-item').first().waitFor({ state: 'visible' });

      // Withdraw R$ 20,00 over PIX: no fee, the whole amount is received.
      await page.goto(`${server.url}/withdraw`);
      const withdrawAmount = page.getByTestId('withdraw-amount');
      await withdrawAmount.waitFor({ state: 'visible' });
      await withdrawAmount.fill('20,00');
      await expect
        .poll(async () => moneyOf(await page.getByTestId('withdraw-actual').textContent()))
        .toBe('20.00');
      expect(await page.getByTestId('withdraw-fee').textContent()).toMatch(/^R\$\s0,00$/);
      expect(await page.getByText('Sem taxa nos saques por PIX').count()).toBeGreaterThan(0);
      // The first withdrawal asks the player to create the withdrawal password (not asked at sign-up).
      await page.getByTestId('withdraw-password-first').waitFor({ state: 'visible' });
      await fillWithdrawPassword(page, player);
      await check(page, '08-withdraw');
      await page.getByTestId('withdraw-submit').click();
      await page.getByTestId('withdraw-success').waitFor({ state: 'visible', timeout: 15_000 });
      await page.getByTestId('withdraw-success').scrollIntoViewIfNeeded();
      await check(page, '09-withdraw-submitted');

      // Every route: axe clean, and a screenshot kept for people to look at.
      for (const route of ROUTES) {
        await page.goto(`${server.url}${route}`);
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(300);
        await check(page, `route${route.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '') || '-home'}`);
      }
    } finally {
      await context.close();
    }
  }, 600_000);
});
