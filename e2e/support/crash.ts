import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Waits for a crash round taking bets with at least two seconds left and the bet button open, as
 * a player does before pressing it: a bet pressed in the round's last instant is refused (betting
 * closed), and a slow test machine must not turn that into a failed journey.
 */
export async function waitForCrashBetting(page: Page, timeout = 90_000): Promise<void> {
  const phase = page.getByTestId('crash-phase');
  await expect
    .poll(
      async () =>
        (await phase.getAttribute('data-phase')) === 'betting' &&
        Number(await phase.getAttribute('data-seconds')) >= 2 &&
        (await page.getByTestId('crash-bet').isEnabled()),
      { timeout },
    )
    .toBe(true);
}

/**
 * The player's line for the round ("Aposta de R$ 1,00 feita…"), or the refusal the screen shows in
 * its place, so a failed poll names why the bet is missing.
 */
export async function crashBetLine(page: Page): Promise<string> {
  if ((await page.getByTestId('crash-my-bet').count()) > 0) {
    return (await page.getByTestId('crash-my-bet').textContent()) ?? '';
  }
  const alert = page.locator('.crash__error');
  return (await alert.count()) > 0 ? `refused: ${await alert.textContent()}` : 'no bet line yet';
}
