import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, describeFindings } from './support/axe.ts';
import { DESKTOP_VIEWPORT, launchBrowser, PHONE_VIEWPORT } from './support/browser.ts';
import { expectLoggedIn, newPlayer, randomCpf } from './support/player.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 41, point 11 (LBI art. 63, WCAG 2.2 AA): not one axe-core violation, of any impact, on
 * the screens a Brazilian player cannot avoid — both sign-up steps, the cashier (deposit and
 * withdrawal), the bet slip, a game and the responsible-gaming centre — at 390×844 and 1440×900,
 * in Portuguese on the br site. Screenshots go to /tmp/ux-shots for people to look at.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer('a11y-screens');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const SHOTS = '/tmp/ux-shots';

async function check(page: Page, where: string, failures: string[]): Promise<void> {
  // The site scrolls smoothly: let any animation settle, and judge no focused field's ring.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/${where.replace(/[^a-z0-9]+/gi, '-')}.png` });
  const findings = await axeViolations(page);
  if (findings.length > 0) failures.push(describeFindings(where, findings));
}

async function signUp(page: Page, size: string, failures: string[]): Promise<void> {
  const player = newPlayer('a11y');
  await page.getByTestId('open-register').first().click();
  const modal = page.getByTestId('register-modal');
  await modal.waitFor({ state: 'visible' });
  await check(page, `${size} sign-up step 1`, failures);
  await modal.locator('[name="cpf"]').fill(randomCpf());
  await modal.locator('[name="birth_date"]').fill('17/05/1990');
  await modal.locator('[name="username"]').fill(player.username);
  await modal.locator('[name="password"]').fill(player.password);
  await modal.locator('[name="realname"]').fill(player.realname);
  await modal.locator('[name="phone"]').fill(player.phone);
  await modal.locator('[name="agree_terms"]').check();
  await page.getByTestId('register-next').click();
  await modal.locator('[name="loss_limit"]').waitFor({ state: 'visible' });
  await check(page, `${size} sign-up step 2`, failures);
  await modal.locator('[name="loss_limit"]').fill('5000');
  const answered = page.waitForResponse((response) => response.url().includes('/api/auth/register2'));
  await page.getByTestId('register-submit').click();
  expect((await answered).status()).toBe(200);
  await modal.waitFor({ state: 'hidden' });
  await expectLoggedIn(page);
}

/**
 * Elements matching `selector` whose tap area is smaller than 44 × 44 px around their centre:
 * where a tap 21 px left, right, above or below the centre lands on something else. The tap area
 * is what the browser hit-tests (an invisible ring counts), not the drawn box.
 */
async function smallTapTargets(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((query) => {
    const small: string[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(query))) {
      if (element.getBoundingClientRect().width === 0) continue;
      // In the middle of the screen: clear of the sticky header, the bottom bar and a strip's edge.
      element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      const box = element.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const misses = [
        [x - 21, y],
        [x + 21, y],
        [x, y - 21],
        [x, y + 21],
      ].filter(([px, py]) => {
        const hit = document.elementFromPoint(px!, py!);
        return !hit || !(hit === element || element.contains(hit));
      });
      if (misses.length > 0)
        small.push(`${element.getAttribute('aria-label') ?? element.className} ${box.width}×${box.height}`);
    }
    return small;
  }, selector);
}

describe('touch targets on a phone (br, pt)', () => {
  it('header buttons and favourite hearts take taps on at least 44 × 44 px, titles show whole; the chat floats over nothing', async () => {
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const base = server.siteUrl('br.localhost');
    try {
      await page.goto(`${base}/game`);
      await page.getByTestId('favorite-toggle').first().waitFor({ state: 'visible' });
      await page.screenshot({ path: `${SHOTS}/390-lobby-hearts.png` });
      expect(await smallTapTargets(page, '[data-testid="favorite-toggle"]')).toEqual([]);
      // The header's buttons and links are drawn 44 × 44 px or more, not only hit-tested so.
      const drawnSmall = await page.$$eval('header a, header button', (elements) =>
        elements
          .map((element) => ({ element, box: element.getBoundingClientRect() }))
          .filter(({ box }) => box.width > 0 && (box.width < 44 || box.height < 44))
          .map(
            ({ element, box }) =>
              `${element.getAttribute('aria-label') ?? element.textContent} ${box.width}×${box.height}`,
          ),
      );
      expect(drawnSmall).toEqual([]);
      // Every tile shows its whole title (two lines at most), none cut with an ellipsis.
      const cut = await page.$$eval('.game-tile__name', (names) =>
        names.filter((name) => name.scrollHeight > name.clientHeight + 1).map((name) => name.textContent),
      );
      expect(cut).toEqual([]);
      // The chat sits in the bottom navigation: nothing floats over the tiles.
      expect(await page.getByTestId('open-chat').isVisible()).toBe(false);
      expect(await page.getByTestId('nav-chat').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('accessibility of the unavoidable screens (br, pt)', () => {
  for (const [size, viewport] of [
    ['390', PHONE_VIEWPORT],
    ['1440', DESKTOP_VIEWPORT],
  ] as const) {
    it(`has no axe violation at ${viewport.width}×${viewport.height}`, async () => {
      const mobile = viewport.width < 600;
      const context = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile });
      const page = await context.newPage();
      const failures: string[] = [];
      const base = server.siteUrl('br.localhost');
      try {
        await page.goto(base);
        await signUp(page, size, failures);
        for (const [name, path, ready] of [
          ['deposit', '/recharge', 'recharge-amount'],
          ['withdrawal', '/withdraw', 'withdrawable'],
          ['game', '/originals/dice', 'dice-play'],
          ['responsible gaming', '/responsible-gaming', 'rg-limit'],
        ] as const) {
          await page.goto(`${base}${path}`);
          await page.getByTestId(ready).first().waitFor({ state: 'visible' });
          await check(page, `${size} ${name}`, failures);
        }
        await page.goto(`${base}/sports`);
        await page.getByTestId('odds-button').first().click();
        // A phone opens the slip as a sheet from its bar; a desktop shows it beside the matches.
        if (mobile) {
          await page.getByTestId('slip-open').click();
          await page.getByTestId('slip-sheet').waitFor({ state: 'visible' });
        }
        await page.getByTestId('slip-pick').first().waitFor({ state: 'visible' });
        await check(page, `${size} bet slip`, failures);
        expect(failures, failures.join('\n')).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
