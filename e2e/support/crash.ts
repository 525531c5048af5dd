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
