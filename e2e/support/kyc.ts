import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from './browser.ts';
import type { RunningServer } from './server.ts';

/**
 * The KYC provider sandbox the server started on loopback (KYC_SANDBOX_PORT=0 picks a free port):
 * its address is in the start-up lines the server prints ("KYC sandbox at http://127.0.0.1:NNNN/").
 */
export async function kycSandboxUrl(server: RunningServer): Promise<string> {
  let url = '';
  await expect
    .poll(
      () => {
        const match = /KYC sandbox at (http:\/\/[^\s/]+)\//.exec(readFileSync(server.logFile, 'utf8'));
        url = match?.[1] ?? '';
        return url;
      },
      { timeout: 30_000, message: 'the server prints where its KYC sandbox listens' },
    )
    .not.toBe('');
  return url;
}

/** A 1×1 PNG, as a phone's photo would be a JPEG: the sandbox checks the type by content. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The logged-in player of `page` verifies their identity on a phone: on the security centre,
 * "Verify my identity" (the CPF check runs at once), then the link to the provider's capture page
 * in the same tab, the document's two sides and a selfie sent there and its link back to the site;
 * a tester approves it on the sandbox's page; done once the site says every check has passed.
 */
export async function verifyIdentityThroughSandbox(page: Page, server: RunningServer): Promise<void> {
  const site = new URL(page.url()).origin;
  const memberId = await page.evaluate(async () => {
    const headers = { authorization: `Bearer ${sessionStorage.getItem('token')}` };
    const me = await (
      await fetch('/api/auth/me', { method: 'POST', headers, signal: AbortSignal.timeout(30_000) })
    ).json();
    return String(me.data.id);
  });
  await page.goto(`${site}/security-center`);
  await page.getByTestId('kyc-start').click();
  const next = page.getByTestId('kyc-continue');
  await next.waitFor({ state: 'visible' });
  await screenshot(page, 'kyc-01-security-center');
  await next.click();
  await page.waitForURL(/\/capture\//);
  for (const [field, name] of [
    ['#document_front', 'front.png'],
    ['#document_back', 'back.png'],
    ['#selfie', 'selfie.png'],
  ] as const) {
    await page.setInputFiles(field, { name, mimeType: 'image/png', buffer: PNG });
  }
  await screenshot(page, 'kyc-02-capture');
  await page.click('#send');
  await page.getByTestId('capture-done').waitFor({ state: 'visible' });
  // The provider's page leads back to the site's security centre.
  await page.getByTestId('capture-return').click();
  await page.waitForURL(/\/security-center/);

  const tester = await page.context().newPage();
  await tester.goto(`${await kycSandboxUrl(server)}/`);
  await tester
    .locator(`[data-testid="kyc-session"][data-reference="${memberId}"]`)
    .getByTestId('decide-approve')
    .click();
  await tester.close();
  // The player's tab is the front one again, as a phone shows it (a tab left behind is throttled).
  await page.bringToFront();

  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const headers = { authorization: `Bearer ${sessionStorage.getItem('token')}` };
          const answer = await fetch('/api/kyc/status', { headers, signal: AbortSignal.timeout(10_000) });
          return (await answer.json()).data.missing_checks.length;
        }),
      { timeout: 30_000, message: 'the approval reaches the site by webhook' },
    )
    .toBe(0);
  await page.reload();
  await page.getByTestId('kyc-check-identity').waitFor({ state: 'visible' });
  await screenshot(page, 'kyc-03-verified');
}
