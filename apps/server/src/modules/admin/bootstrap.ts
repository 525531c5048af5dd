import type { TAdminSetupInfo, TAdminSetupRequest } from '@sorte/contract';
import { eq } from 'drizzle-orm';
import { recordOperatorAction } from '../../core/audit.ts';
import { sha256Hex } from '../../core/hash.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { assertTotpCode } from '../security/second-factor.ts';
import { newTotpSecret, totpQrDataUrl, totpUri } from '../security/totp.ts';
import type { LoginThrottle } from '../sessions/login-throttle.ts';
import { hashSecret } from '../sessions/passwords.ts';
import { newToken } from '../sessions/tokens.ts';
import {
  findSitesWithoutOperator,
  findUsableSetupToken,
  lockSite,
  markSetupTokenUsed,
  replaceSetupToken,
} from './admin.repo.ts';
import { operators } from './admin.schema.ts';

/** How long a printed setup link stays good. */
export const SETUP_LINK_HOURS = 24;

export type TSetupLink = { siteCode: string; host: string | null; token: string };

/**
 * Bootstrap of a fresh database: no operator ever gets a default password. For every site that has
 * no operator yet this issues a one-time setup link (only its SHA-256 is stored; the previous
 * unused links of that site stop working) for the first owner to choose a username, a password and
 * add the authenticator. The server prints the links at start (server.ts).
 */
export async function issueOwnerSetupLinks(executor: Executor): Promise<TSetupLink[]> {
  const orphans = await findSitesWithoutOperator(executor);
  const links: TSetupLink[] = [];
  for (const site of orphans) {
    const token = newToken();
    await executor.transaction(async (tx) => {
      await replaceSetupToken(tx, {
        siteId: BigInt(site.id),
        tokenHash: sha256Hex(token),
        totpSecret: newTotpSecret(),
        hours: SETUP_LINK_HOURS,
      });
    });
    links.push({ siteCode: site.code, host: site.host, token });
  }
  return links;
}

async function usableToken(executor: Executor, site: TSite, token: string, lock = false) {
  const row = await findUsableSetupToken(executor, site.id, sha256Hex(token), lock);
  if (!row) throw new AppError('SETUP_LINK_INVALID');
  return row;
}

/** What the setup page shows: the authenticator secret (and its QR code) the owner adds. */
export async function setupInfo(executor: Executor, site: TSite, token: string): Promise<TAdminSetupInfo> {
  const row = await usableToken(executor, site, token);
  const uri = totpUri(`${site.name} back office`, 'owner', row.totpSecret);
  return {
    site: site.code,
    totp_secret: row.totpSecret,
    otpauth_uri: uri,
    qr_code: await totpQrDataUrl(uri),
  };
}

/**
 * The first owner of the site: the link's authenticator proven with a current code, then the
 * operator is created with the chosen username and password and the link is spent. A site that
 * meanwhile got an operator refuses (the link is only for a site without any).
 */
export async function completeOwnerSetup(
  executor: Executor,
  throttle: LoginThrottle,
  site: TSite,
  input: TAdminSetupRequest,
  ip: string | null,
): Promise<void> {
  const peek = await usableToken(executor, site, input.token);
  await assertTotpCode(
    executor,
    throttle,
    site.id,
    { kind: 'setup', id: peek.id, secret: peek.totpSecret },
    input.totp_code,
  );
  const passwordHash = await hashSecret(input.password);
  await executor.transaction(async (tx) => {
    const row = await usableToken(tx, site, input.token, true);
    await lockSite(tx, site.id);
    const existing = await tx
      .select({ id: operators.id })
      .from(operators)
      .where(eq(operators.siteId, site.id))
      .limit(1);
    if (existing.length > 0) throw new AppError('SETUP_LINK_INVALID');
    const [owner] = await tx
      .insert(operators)
      .values({
        siteId: site.id,
        username: input.username,
        passwordHash,
        role: 'owner',
        status: 1,
        totpSecret: row.totpSecret,
        // The code that proved the link is spent for the owner too.
        totpLastStep: row.totpLastStep,
      })
      .returning({ id: operators.id });
    await markSetupTokenUsed(tx, row.id);
    await recordOperatorAction(
      tx,
      { operatorId: owner!.id, siteId: site.id, role: 'owner', username: input.username, ip },
      'operator.setup_owner',
      { entity: 'operator', entityId: owner!.id.toString() },
      null,
      { username: input.username, role: 'owner' },
    );
  });
}
