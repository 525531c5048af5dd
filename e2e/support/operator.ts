import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generate } from 'otplib';
import { DEMO_OPERATOR } from '../../apps/server/src/seed/demo-data.ts';

export { DEMO_OPERATOR };

const ADMIN_DIST = join(import.meta.dirname, '..', '..', 'apps', 'admin', 'dist', 'index.html');

/** The back-office journeys need the built app the server serves under /admin. */
export function assertAdminBuilt(): void {
  if (!existsSync(ADMIN_DIST))
    throw new Error(`${ADMIN_DIST} is missing: build the back office (npm run build)`);
}

const TOTP_STEP_MS = 30_000;
const stepsHandedOut = new Map<string, number>();

/**
 * An authenticator code of a 30-second step this test process has not used yet: a code is good
 * once (RFC 6238 §5.2), so a journey that signs in again within the same step waits for the next
 * one, as an operator at the authenticator app would.
 */
export async function unusedTotpCode(secret: string): Promise<string> {
  const last = stepsHandedOut.get(secret);
  if (last !== undefined && Math.floor(Date.now() / TOTP_STEP_MS) <= last) {
    await sleep((last + 1) * TOTP_STEP_MS - Date.now() + 200);
  }
  const step = Math.floor(Date.now() / TOTP_STEP_MS);
  stepsHandedOut.set(secret, step);
  return generate({ secret, epoch: (step * TOTP_STEP_MS) / 1000 });
}

/**
 * Signs the demo owner (README: password + the documented demo authenticator secret) in to the
 * back office of the site at `baseUrl` (a RunningServer's url or siteUrl(host)) through
 * POST /api/admin/auth/login with an unused TOTP code, and returns the operator bearer token.
 */
export async function loginOperator(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      username: DEMO_OPERATOR.username,
      password: DEMO_OPERATOR.password,
      totp_code: await unusedTotpCode(DEMO_OPERATOR.totpSecret),
    }),
  });
  const envelope = (await response.json()) as { status: string; message: string; data: { token: string } };
  if (envelope.status !== 'success') throw new Error(`operator login failed: ${envelope.message}`);
  return envelope.data.token;
}
