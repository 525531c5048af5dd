import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { LoginThrottle } from '../sessions/login-throttle.ts';
import { assertSecondFactor } from './second-factor.ts';
import { findLogins, findSecurityMember } from './security.repo.ts';
import { recordSecurityEvent, type TClientInfo } from './security-events.ts';

/**
 * What a login needs beyond the password: the authenticator code when two-factor is on (with its
 * own lockout). Runs after the password was checked, before the session is opened.
 */
export async function assertLoginSecurity(
  executor: Executor,
  throttle: LoginThrottle,
  site: TSite,
  memberId: bigint,
  totpCode: string | undefined,
  client: TClientInfo,
): Promise<void> {
  const member = await findSecurityMember(executor, site.id, memberId);
  if (!member) throw new AppError('INVALID_CREDENTIALS');
  await assertSecondFactor(executor, throttle, site, member, totpCode, client);
}

/** The login in the security event log (time and address, shown as "last login"). */
export async function recordLogin(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  client: TClientInfo,
): Promise<void> {
  await recordSecurityEvent(executor, site, memberId, 'login', client);
}

/** The member's login before the session `sessionId` opened (time and address), null on the first. */
export async function findPreviousLogin(
  executor: Executor,
  memberId: bigint,
  sessionId: bigint,
): Promise<{ at: string; ip: string | null } | null> {
  const { previous } = await findLogins(executor, memberId, sessionId);
  if (!previous) return null;
  const at =
    previous.created_at instanceof Date ? previous.created_at : new Date(String(previous.created_at));
  return { at: at.toISOString(), ip: previous.ip };
}
