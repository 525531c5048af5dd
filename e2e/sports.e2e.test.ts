import {
  SPORTS_ADMIN_PATHS,
  SPORTS_PATHS,
  type TSportsEvent,
  type TSportsEventsResponse,
} from '@sorte/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFindings, seriousAxeViolations } from './support/axe.ts';
import { launchBrowser, newPhoneContext, screenshot } from './support/browser.ts';
import { loginOperator } from './support/operator.ts';
import { depositThroughSandbox, newPlayer, plainMoney, register } from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 17's story on a phone (390×844): a new player deposits, taps the home side of two
 * Brasileirão matches on the sports home into the bet slip, places them as a two-leg accumulator
 * (múltipla) and sees it open in "My bets"; places a single on a third match and cashes it out at
 * the offered value after a confirm; the operator enters both results of the accumulator through the
 * operator API; the player sees it paid — "Won" with its payout in "My bets" and the header balance
 * grown by it, pushed over the socket without a reload.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('sports');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function json<T>(response: Response): Promise<T> {
  const envelope = (await response.json()) as { status: string; message: string; data: T };
  if (envelope.status !== 'success') throw new Error(`${response.url}: ${envelope.message}`);
  return envelope.data;
}

/** Stake × the legs' odds, floored to the centavo, in integers (the contract's rule). */
function expectedReturn(stake: string, odds: readonly string[]): string {
  let value = BigInt(stake.replace('.', ''));
  let scale = 100n;
  for (const text of odds) {
    value *= BigInt(text.replace('.', ''));
    scale *= 100n;
  }
  const cents = (value * 100n) / scale;
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

function homeSelection(event: TSportsEvent) {
  const market = event.markets.find((item) => item.type === '1x2' && item.status === 'open');
  const selection = market?.selections.find((item) => item.code === 'home');
  if (!selection) throw new Error(`event ${event.id} has no open home price`);
  return selection;
}

async function axeClean(page: Page, step: string): Promise<void> {
  const findings = await seriousAxeViolations(page);
  expect(findings, describeFindings(step, findings)).toEqual([]);
}

describe('the sportsbook in Portuguese', () => {
  it('lists the Brasileirão with odds written the Brazilian way and names every market of a match — axe clean', async () => {
    for (const viewport of [
      { width: 390, height: 844, name: 'phone' },
      { width: 1440, height: 900, name: 'desktop' },
    ]) {
      const context = await browser.newContext({ viewport });
      await context.addInitScript(() => localStorage.setItem('lang', 'pt'));
      const page = await context.newPage();
      try {
        await page.goto(`${server.url}/sports`);
        await page.getByTestId('match-row').first().waitFor({ state: 'visible' });
        expect(await page.locator('h1').first().textContent()).toBe('Apostas esportivas');
        expect(await page.locator('.competition__name').first().textContent()).toBe('Brasileirão Série A');
        const price = await page.locator('[data-testid="odds-button"] .odds__price').first().textContent();
        expect(price).toMatch(/^\d+,\d{2}$/);
        await screenshot(page, `sports-pt-${viewport.name}-home`);
        await axeClean(page, `sports home pt ${viewport.name}`);

        await page.locator('.match__link').first().click();
        await page.getByTestId('market').first().waitFor({ state: 'visible' });
        expect(await page.locator('.market__name').allTextContents()).toEqual([
          'Resultado final',
          'Dupla chance',
          'Mais/Menos de 2,5 gols',
          'Ambas marcam',
        ]);
        await screenshot(page, `sports-pt-${viewport.name}-event`);
        await axeClean(page, `event pt ${viewport.name}`);
      } finally {
        await context.close();
      }
    }
  });
});

describe('a player on a phone bets on football', () => {
  it('builds a two-leg accumulator, places it, cashes out a single, and sees the accumulator paid once the operator enters the results', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await register(page, newPlayer('sports'));
      await depositThroughSandbox(page, server.url, 100);

      // Two upcoming matches of the first competition (Brasileirão Série A), as the page lists them.
      const book = await json<TSportsEventsResponse>(
        await fetch(`${server.url}${SPORTS_PATHS.events}?state=upcoming`),
      );
      const [first, second, third] = book.list.filter(
        (event) =>
          event.status === 'scheduled' && event.markets.some((m) => m.type === '1x2' && m.status === 'open'),
      );
      expect(first && second, 'the seed offers two upcoming matches').toBeTruthy();
      const legs = [first!, second!].map((event) => ({ event, selection: homeSelection(event) }));
      expect(third, 'and a third for a single').toBeTruthy();

      // 1. The sports home: tap the home win of each match; the slip bar counts them.
      await page.goto(`${server.url}/sports`);
      await page.getByTestId('match-row').first().waitFor({ state: 'visible' });
      await screenshot(page, 'sports-01-home');
      await axeClean(page, 'sports home');
      for (const { selection } of legs) {
        const button = page
          .locator(`[data-testid="odds-button"][data-selection-id="${selection.id}"]`)
          .first();
        await button.click();
        await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
      }
      await page.getByTestId('slip-open').click();
      const slip = page.getByTestId('slip-sheet');
      await slip.waitFor({ state: 'visible' });
      expect(await page.getByTestId('slip-tab-accumulator').getAttribute('aria-selected')).toBe('true');
      expect(await page.getByTestId('slip-pick').count()).toBe(2);

      // 2. Stake R$ 10.00 on the accumulator: the slip shows the return the server will pay.
      const odds = legs.map((leg) => leg.selection.odds);
      const potential = expectedReturn('10.00', odds);
      await page.getByTestId('slip-accumulator-stake').fill('10');
      await expect
        .poll(async () => plainMoney(await page.getByTestId('slip-potential-return').textContent()))
        .toBe(potential);
      await screenshot(page, 'sports-02-slip');
      await axeClean(page, 'bet slip');

      const placed = page.waitForResponse(
        (response) => response.url().includes(SPORTS_PATHS.bets) && response.request().method() === 'POST',
      );
      await page.getByTestId('slip-place').click();
      const answer = await placed;
      expect(answer.request().headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      const body = (await answer.json()) as { status: string; data: { bet: { id: string } } };
      expect(body.status).toBe('success');
      const betId = body.data.bet.id;
      await page.getByTestId('slip-empty').waitFor({ state: 'visible' });
      await expect
        .poll(async () => plainMoney(await page.getByTestId('header-balance').first().textContent()))
        .toBe('90.00');
      await page.keyboard.press('Escape');

      // 3. My bets: the accumulator is open with both legs.
      await page.goto(`${server.url}/sports/my-bets`);
      const card = page.locator(`[data-testid="bet-card"][data-bet-id="${betId}"]`);
      await card.waitFor({ state: 'visible' });
      expect(await card.getAttribute('data-status')).toBe('open');
      expect(await card.getByTestId('bet-leg').count()).toBe(2);
      await screenshot(page, 'sports-03-open');

      // 4. A R$ 5.00 single on a third match, cashed out at the offered value after a confirm.
      await page.goto(`${server.url}/sports`);
      const single = homeSelection(third!);
      await page.locator(`[data-testid="odds-button"][data-selection-id="${single.id}"]`).first().click();
      await page.getByTestId('slip-open').click();
      expect(await page.getByTestId('slip-tab-single').getAttribute('aria-selected')).toBe('true');
      await page.getByTestId('slip-single-stake').fill('5');
      const singlePlaced = page.waitForResponse(
        (response) => response.url().includes(SPORTS_PATHS.bets) && response.request().method() === 'POST',
      );
      await page.getByTestId('slip-place').click();
      const singleId = ((await (await singlePlaced).json()) as { data: { bet: { id: string } } }).data.bet.id;
      await expect
        .poll(async () => plainMoney(await page.getByTestId('header-balance').first().textContent()))
        .toBe('85.00');
      await page.goto(`${server.url}/sports/my-bets`);
      const singleCard = page.locator(`[data-testid="bet-card"][data-bet-id="${singleId}"]`);
      const cashOut = singleCard.getByTestId('bet-cash-out');
      await cashOut.waitFor({ state: 'visible' });
      await expect.poll(() => cashOut.isEnabled()).toBe(true);
      const offer = plainMoney((await cashOut.textContent())?.replace(/^[^R]*/, ''));
      expect(Number(offer)).toBeGreaterThan(0);
      expect(Number(offer)).toBeLessThan(5);
      await cashOut.click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor({ state: 'visible' });
      await screenshot(page, 'sports-04-cash-out');
      const cashedOut = page.waitForResponse((response) => response.url().includes('/cash-out'));
      await dialog.locator('.button--primary').click();
      expect(((await (await cashedOut).json()) as { status: string }).status).toBe('success');
      const afterCashOut = (8500n + BigInt(offer.replace('.', ''))).toString();
      await expect
        .poll(async () => plainMoney(await page.getByTestId('header-balance').first().textContent()))
        .toBe(`${afterCashOut.slice(0, -2)}.${afterCashOut.slice(-2)}`);
      await page.getByTestId('my-bets-tab-cashed_out').click();
      const cashedCard = page.locator(`[data-testid="bet-card"][data-bet-id="${singleId}"]`);
      await cashedCard.waitFor({ state: 'visible' });
      expect(await cashedCard.getAttribute('data-status')).toBe('cashed_out');
      expect(plainMoney(await cashedCard.getByTestId('bet-payout').textContent())).toBe(offer);
      await page.getByTestId('my-bets-tab-open').click();

      // 5. The operator enters both results: home wins, so both legs win.
      const operator = await loginOperator(server.url);
      for (const { event } of legs) {
        const response = await fetch(
          `${server.url}${SPORTS_ADMIN_PATHS.eventResult.replace(':id', event.id)}`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${operator}`,
              'content-type': 'application/json',
              accept: 'application/json',
            },
            body: JSON.stringify({ home_goals: 2, away_goals: 0 }),
          },
        );
        await json(response);
      }

      // 6. Paid: the balance grows by the payout over the socket, and My bets shows it won.
      const balanceAfter = (BigInt(afterCashOut) + BigInt(potential.replace('.', ''))).toString();
      await expect
        .poll(async () => plainMoney(await page.getByTestId('header-balance').first().textContent()), {
          timeout: 20_000,
        })
        .toBe(`${balanceAfter.slice(0, -2)}.${balanceAfter.slice(-2)}`);
      // The open tab, on screen while the result came in, lets the settled bet go without a reload (the
      // settlement push, well before the tab's 15 s refresh).
      await expect
        .poll(() => page.locator(`[data-testid="bet-card"][data-bet-id="${betId}"]`).count(), {
          timeout: 8_000,
        })
        .toBe(0);
      await page.getByTestId('my-bets-tab-settled').click();
      const settled = page.locator(`[data-testid="bet-card"][data-bet-id="${betId}"]`);
      await settled.waitFor({ state: 'visible' });
      expect(await settled.getAttribute('data-status')).toBe('won');
      expect(plainMoney(await settled.getByTestId('bet-payout').textContent())).toBe(potential);
      await screenshot(page, 'sports-05-paid');
      await axeClean(page, 'my bets');

      // 7. The records: the game record lists both bets under "Sports betting", the transaction
      // record the stake and the payout of the accumulator as "Sports bet #<id>".
      await page.goto(`${server.url}/game-record`);
      await page.getByTestId('game-record-row').first().waitFor({ state: 'visible' });
      const rows = await page.getByTestId('game-record-row').allTextContents();
      expect(rows.filter((text) => text.includes('Sports betting'))).toHaveLength(2);
      expect(rows.some((text) => text.includes('Accumulator · 2 selections'))).toBe(true);
      await page.goto(`${server.url}/transactions`);
      await page.getByTestId('record-row').first().waitFor({ state: 'visible' });
      const movements = await page.getByTestId('record-row').allTextContents();
      expect(movements.filter((text) => text.includes(`Sports bet #${betId}`)).length).toBeGreaterThanOrEqual(
        2,
      );
    } finally {
      await context.close();
    }
  });
});
