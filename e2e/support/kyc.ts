import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
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
 * The logged-in player of `page` verifies their identity: starts a verification (the CPF check runs
 * at once), sends the document's two sides and a selfie on the provider's capture page, and a tester
 * approves it on the sandbox's page; resolves once the site says every check has passed.
 */
export async function verifyIdentityThroughSandbox(page: Page, server: RunningServer): Promise<void> {
  const started = await page.evaluate(async () => {
    const headers = { authorization: `Bearer ${sessionStorage.getItem('token')}` };
    const me = await (await fetch('/api/auth/me', { method: 'POST', headers })).json();
    const answer = await (await fetch('/api/kyc/verifications', { method: 'POST', headers })).json();
    return { memberId: String(me.data.id), captureUrl: answer.data?.session?.capture_url as string, answer };
  });
  expect(started.captureUrl, JSON.stringify(started.answer)).toMatch(/\/capture\//);

  const capture = await page.context().newPage();
  await capture.goto(started.captureUrl);
  for (const [field, name] of [
    ['#document_front', 'front.png'],
    ['#document_back', 'back.png'],
    ['#selfie', 'selfie.png'],
  ] as const) {
    await capture.setInputFiles(field, { name, mimeType: 'image/png', buffer: PNG });
  }
  await capture.click('#send');
  await capture.getByTestId('capture-done').waitFor({ state: 'visible' });

  await capture.goto(`${await kycSandboxUrl(server)}/`);
  const card = capture.locator(`[data-testid="kyc-session"][data-reference="${started.memberId}"]`);
  await card.getByTestId('decide-approve').click();
  await capture.close();
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const headers = { authorization: `Bearer ${sessionStorage.getItem('token')}` };
          return (await (await fetch('/api/kyc/status', { headers })).json()).data.missing_checks.length;
        }),
      { timeout: 30_000, message: 'the approval reaches the site by webhook' },
    )
    .toBe(0);
}
