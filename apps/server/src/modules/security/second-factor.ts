import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import type { TSite } from '../sites/sites.service.ts';
import { rowsOf } from '../wallet/wallet.repo.ts';
import type { TSecurityMember } from './security.repo.ts';
import { recordSecurityEvent, type TClientInfo } from './security-events.ts';
import { isValidTotp, recoveryCodeHash } from './totp.ts';

/** Wrong authenticator codes allowed per member within the login lock window. */
export const TOTP_MAX_FAILURES = 5;

/**
 * The second factor of a member who turned it on: a current authenticator code or an unused
 * recovery code (spent here). Missing → TOTP_REQUIRED; wrong → TOTP_INVALID with the attempts
 * left; too many wrong codes lock the member's second factor (TOO_MANY_ATTEMPTS) for the window.
 * A member without two-factor passes.
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
    member.id.toString(),
    member.totpSecret,
    code,
    async (given) => {
      if (!(await spendRecoveryCode(executor, 'member', member.id, given))) return false;
      await recordSecurityEvent(executor, site, member.id, 'recovery_code_used', client);
      return true;
    },
  );
}

/**
 * An authenticator code checked against `secret`, throttled per `throttleKey` in the site's 'totp'
 * scope (players: the member id; operators: "operator:<id>"). `alternative` may accept another
 * one-time code (a player's recovery code). Missing → TOTP_REQUIRED; wrong → TOTP_INVALID with the
 * attempts left; too many wrong codes → TOO_MANY_ATTEMPTS for the lock window.
 */
export async function assertTotpCode(
  executor: Executor,
  throttle: LoginThrottle,
  siteId: bigint,
  throttleKey: string,
  secret: string,
  code: string | undefined,
  alternative?: (code: string) => Promise<boolean>,
): Promise<void> {
  const key = { scope: 'totp' as const, key: throttleKey };
  await throttle.assertAllowed(siteId, [{ ...key, max: TOTP_MAX_FAILURES }]);
  if (!code) throw new AppError('TOTP_REQUIRED', { fieldErrors: { totp_code: 'errors.TOTP_REQUIRED' } });
  if ((await isValidTotp(secret, code)) || (alternative && (await alternative(code)))) {
    await throttle.clear(siteId, 'totp', key.key);
    return;
  }
  await throttle.recordFailure(siteId, [key]);
  const failures = await rowsOf<{ count: number }>(
    executor,
    sql`SELECT count(*)::int AS count FROM login_failures
        WHERE site_id = ${siteId.toString()}::bigint AND scope = 'totp' AND key = ${key.key}`,
  );
  const remaining = Math.max(0, TOTP_MAX_FAILURES - Number(failures[0]?.count ?? 0));
  if (remaining === 0) await throttle.assertAllowed(siteId, [{ ...key, max: TOTP_MAX_FAILURES }]);
  throw new AppError('TOTP_INVALID', {
    params: { remaining },
    fieldErrors: { totp_code: 'errors.TOTP_INVALID' },
  });
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
  const table = sql.identifier(`${owner}_recovery_codes`);
  const column = sql.identifier(`${owner}_id`);
  const spent = await rowsOf<{ id: string }>(
    executor,
    sql`UPDATE ${table} SET used_at = now()
        WHERE id = (SELECT id FROM ${table}
                    WHERE ${column} = ${ownerId.toString()}::bigint AND used_at IS NULL
                      AND code_hash = ${recoveryCodeHash(given)} LIMIT 1)
        RETURNING id::text`,
  );
  return spent.length > 0;
}
