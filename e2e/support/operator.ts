import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { currentTotpCode } from '../../apps/server/src/modules/security/totp.ts';
import { DEMO_OPERATOR } from '../../apps/server/src/seed/demo-data.ts';

export { DEMO_OPERATOR };

const ADMIN_DIST = join(import.meta.dirname, '..', '..', 'apps', 'admin', 'dist', 'index.html');

/** The back-office journeys need the built app the server serves under /admin. */
export function assertAdminBuilt(): void {
  if (!existsSync(ADMIN_DIST))
    throw new Error(`${ADMIN_DIST} is missing: build the back office (npm run build)`);
}

/**
 * Signs the demo owner (README: password + the documented demo authenticator secret) in to the
 * back office of the site at `baseUrl` (a RunningServer's url or siteUrl(host)) through
 * POST /api/admin/auth/login with the current TOTP code, and returns the operator bearer token.
 */
export async function loginOperator(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      username: DEMO_OPERATOR.username,
      password: DEMO_OPERATOR.password,
      totp_code: await currentTotpCode(DEMO_OPERATOR.totpSecret),
    }),
  });
  const envelope = (await response.json()) as { status: string; message: string; data: { token: string } };
  if (envelope.status !== 'success') throw new Error(`operator login failed: ${envelope.message}`);
  return envelope.data.token;
}
