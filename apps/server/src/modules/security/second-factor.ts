import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { LoginThrottle } from '../sessions/login-throttle.ts';
import {
  advanceTotpStep,
  spendRecoveryCodeRow,
  type TSecurityMember,
  type TTotpOwnerKind,
} from './security.repo.ts';
import { recordSecurityEvent, type TClientInfo } from './security-events.ts';
import { recoveryCodeHash, totpStepOf } from './totp.ts';

/** Wrong authenticator codes allowed per member within the login lock window. */
export const TOTP_MAX_FAILURES = 5;

/**
 * The second factor of a member who turned it on: an authenticator code not used before or an
 * unused recovery code (spent here). Missing → TOTP_REQUIRED; wrong or used → TOTP_INVALID with the
 * attempts left; too many wrong codes lock the member's second factor (TOO_MANY_ATTEMPTS) for the
 * window. A member without two-factor passes.
 */
export async function assertSecondFactor(
  executor: Executor,
  throttle: LoginThrottle,
  site: TSite,
  member: TSecurityMember,
  code: string | undefined,
  client: TClientInfo,
): Promise<void> {
  if (!member.totpEnabledAt || !member.totpSecret) return;
  await assertTotpCode(
    executor,
    throttle,
    site.id,
    { kind: 'member', id: member.id, secret: member.totpSecret },
    code,
    async (given) => {
      if (!(await spendRecoveryCode(executor, 'member', member.id, given))) return false;
      await recordSecurityEvent(executor, site, member.id, 'recovery_code_used', client);
      return true;
    },
  );
}

/** An authenticator: its secret and the row that keeps its last accepted time step. */
export type TTotpOwner = { kind: TTotpOwnerKind; id: bigint; secret: string };

/** The throttle key of an authenticator in the site's 'totp' scope (players: their member id). */
export function totpThrottleKey(owner: Pick<TTotpOwner, 'kind' | 'id'>): string {
  return owner.kind === 'member' ? owner.id.toString() : `${owner.kind}:${owner.id}`;
}

/**
 * An authenticator code of `owner`, good once (RFC 6238 §5.2): the code must be of a time step
 * later than the last one accepted for this authenticator, and is spent by recording its step.
 * Throttled per authenticator in the site's 'totp' scope, each attempt counted before the code is
 * looked at. `alternative` may accept another one-time code (a recovery code). Missing →
 * TOTP_REQUIRED; wrong or used → TOTP_INVALID with the attempts left; too many → TOO_MANY_ATTEMPTS.
 */
export async function assertTotpCode(
  executor: Executor,
  throttle: LoginThrottle,
  siteId: bigint,
  owner: TTotpOwner,
  code: string | undefined,
  alternative?: (code: string) => Promise<boolean>,
): Promise<void> {
  const key = { scope: 'totp' as const, key: totpThrottleKey(owner), max: TOTP_MAX_FAILURES };
  await throttle.assertAllowed(siteId, [key]);
  if (!code) throw new AppError('TOTP_REQUIRED', { fieldErrors: { totp_code: 'errors.TOTP_REQUIRED' } });
  const attempt = await throttle.reserve(siteId, [key]);
  if ((await spendTotpCode(executor, owner, code)) || (alternative && (await alternative(code)))) {
    await throttle.clear(siteId, 'totp', key.key);
    return;
  }
  await attempt.fail();
  const remaining = Math.max(0, TOTP_MAX_FAILURES - (await throttle.countInWindow(siteId, 'totp', key.key)));
  if (remaining === 0) await throttle.assertAllowed(siteId, [key]);
  throw new AppError('TOTP_INVALID', {
    params: { remaining },
    fieldErrors: { totp_code: 'errors.TOTP_INVALID' },
  });
}

/** True when `code` is the owner's code of a step not used yet, now spent. */
async function spendTotpCode(executor: Executor, owner: TTotpOwner, code: string): Promise<boolean> {
  const step = await totpStepOf(owner.secret, code);
  return step !== null && (await advanceTotpStep(executor, owner, step));
}

/**
 * Spends one unused recovery code (xxxx-xxxx) of a member or an operator: true when `given` was one
 * (now used), false otherwise. Only the codes' SHA-256 is stored; a code is spent at most once.
 */
export async function spendRecoveryCode(
  executor: Executor,
  owner: 'member' | 'operator',
  ownerId: bigint,
  given: string,
): Promise<boolean> {
  if (!/^[a-z0-9]{4}-[a-z0-9]{4}$/i.test(given.trim())) return false;
  return spendRecoveryCodeRow(executor, owner, ownerId, recoveryCodeHash(given));
}
