import { ROLE_PERMISSIONS, type TAdminLoginResponse, type TForceOfflineResponse } from '@sorte/contract';
import { and, eq } from 'drizzle-orm';
import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import { sha256Hex } from '../../core/hash.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { findMemberByUsername } from '../members/members.repo.ts';
import { assertTotpCode, spendRecoveryCode } from '../security/second-factor.ts';
import { newRecoveryCodes, recoveryCodeHash } from '../security/totp.ts';
import type { LoginThrottle } from '../sessions/login-throttle.ts';
import { verifyAgainstDummy, verifySecret } from '../sessions/passwords.ts';
import { forceOffline } from '../sessions/sessions.service.ts';
import { newToken } from '../sessions/tokens.ts';
import {
  countUnusedRecoveryCodes,
  deleteUnusedRecoveryCodes,
  endOperatorSessionByToken,
  findLiveOperatorSession,
  insertOperatorSession,
  insertRecoveryCode,
  touchOperatorLogin,
  touchOperatorSession,
} from './admin.repo.ts';
import { operators, type TOperatorRole, type TOperatorRow } from './admin.schema.ts';

/** Operator sessions are short: at most a shift (8 h) from login, and end after 30 idle minutes. */
export const OPERATOR_SESSION_HOURS = 8;
export const OPERATOR_IDLE_MINUTES = 30;

export type TAdminDeps = {
  executor: Executor;
  throttle: LoginThrottle;
  limits: { maxFailuresPerAccount: number; maxFailuresPerIp: number };
};

/**
 * Operator login on this site. Attempts are throttled like player logins, in their own scope: each
 * is counted before its password is checked, and the failures are forgiven only once the
 * authenticator code was right too.
 */
export async function operatorLogin(
  deps: TAdminDeps,
  site: TSite,
  input: { username: string; password: string; totp_code: string },
  ip: string | null,
): Promise<TAdminLoginResponse> {
  const accountKey = input.username.toLowerCase();
  const attempt = await deps.throttle.reserve(site.id, [
    { scope: 'operator', key: accountKey, max: deps.limits.maxFailuresPerAccount },
    { scope: 'ip', key: ip ?? 'unknown', max: deps.limits.maxFailuresPerIp },
  ]);
  const rows = await deps.executor
    .select()
    .from(operators)
    .where(and(eq(operators.siteId, site.id), eq(operators.usernameLower, accountKey)))
    .limit(1);
  const operator = rows[0];
  const valid = operator
    ? await verifySecret(operator.passwordHash, input.password)
    : await verifyAgainstDummy(input.password);
  if (!operator || !valid) {
    await attempt.fail();
    throw new AppError('INVALID_CREDENTIALS');
  }
  await attempt.release();
  if (operator.status !== 1) throw new AppError('ACCOUNT_DISABLED');
  // TOTP is required for every operator: one without a secret (an owner must reset it) cannot pass.
  if (!operator.totpSecret) {
    throw new AppError('TOTP_NOT_SET_UP', { fieldErrors: { totp_code: 'errors.TOTP_NOT_SET_UP' } });
  }
  await assertOperatorCode(deps, site, operator, operator.totpSecret, input.totp_code, ip);
  await deps.throttle.clear(site.id, 'operator', accountKey);
  await touchOperatorLogin(deps.executor, operator.id);
  const token = newToken();
  const session = await insertOperatorSession(deps.executor, {
    siteId: site.id,
    operatorId: operator.id,
    tokenHash: sha256Hex(token),
    hours: OPERATOR_SESSION_HOURS,
    ip,
  });
  return {
    token,
    token_type: 'Bearer',
    expires_at: session!.expiresAt.toISOString(),
    operator: operatorView(operator, site),
  };
}

/**
 * The operator's authenticator code at login, good once; or, for a lost authenticator, one of the
 * operator's unused recovery codes, spent here and audited.
 */
async function assertOperatorCode(
  deps: TAdminDeps,
  site: TSite,
  operator: TOperatorRow,
  secret: string,
  code: string,
  ip: string | null,
): Promise<void> {
  await assertTotpCode(
    deps.executor,
    deps.throttle,
    site.id,
    { kind: 'operator', id: operator.id, secret },
    code,
    async (given) =>
      deps.executor.transaction(async (tx) => {
        if (!(await spendRecoveryCode(tx, 'operator', operator.id, given))) return false;
        const left = await countUnusedRecoveryCodes(tx, operator.id);
        await recordOperatorAction(
          tx,
          { operatorId: operator.id, siteId: site.id, role: operator.role, username: operator.username, ip },
          'operator.recovery_code_used',
          { entity: 'operator', entityId: operator.id.toString() },
          null,
          { recovery_codes_left: left },
        );
        return true;
      }),
  );
}

/** The operator as the back office shows it, with what the role may do. */
export function operatorView(
  operator: { id: bigint; username: string; role: TOperatorRole },
  site: TSite,
): TAdminLoginResponse['operator'] {
  return {
    id: Number(operator.id),
    username: operator.username,
    role: operator.role,
    site: site.code,
    permissions: [...ROLE_PERMISSIONS[operator.role]],
  };
}

/**
 * The operator behind an operator bearer token on this site; player tokens are never found here.
 * A session past its 8 hours or idle for OPERATOR_IDLE_MINUTES is over (401); a used one is kept
 * alive (last_seen_at, written at most every 30 s).
 */
export async function authenticateOperator(
  executor: Executor,
  site: TSite,
  token: string | null,
): Promise<TOperatorAuth> {
  if (!token) throw new AppError('UNAUTHENTICATED');
  const found = await findLiveOperatorSession(executor, sha256Hex(token), OPERATOR_IDLE_MINUTES);
  if (!found || found.siteId !== site.id) throw new AppError('UNAUTHENTICATED');
  if (found.status !== 1) throw new AppError('ACCOUNT_DISABLED');
  await touchOperatorSession(executor, found.sessionId);
  return { operatorId: found.operatorId, siteId: found.siteId, role: found.role, username: found.username };
}

/** Ends the operator session behind this token (logout); a later call with it is 401. */
export async function endOperatorSession(executor: Executor, site: TSite, token: string): Promise<void> {
  await endOperatorSessionByToken(executor, site.id, sha256Hex(token));
}

/** Ends every session of a player of the operator's site and records who did it. */
export async function forceMemberOffline(
  executor: Executor,
  operator: TOperatorAuth,
  username: string,
): Promise<TForceOfflineResponse> {
  return executor.transaction(async (tx) => {
    const member = await findMemberByUsername(tx, operator.siteId, username);
    if (!member) throw new AppError('NOT_FOUND', { messageKey: 'messages.user_not_exist' });
    const ended = await forceOffline(tx, operator.siteId, member.id);
    await recordOperatorAction(
      tx,
      operator,
      'member.force_offline',
      { memberId: member.id, entity: 'member', entityId: member.id.toString() },
      null,
      { sessions_ended: ended },
    );
    return { member_id: Number(member.id), sessions_ended: ended };
  });
}

/**
 * A new set of recovery codes for the calling operator, shown once: confirmed with a current
 * authenticator code (a session alone is not enough); the unused codes of the previous set stop
 * working. Only their SHA-256 is stored; the audit entry records that a set was issued, not the codes.
 */
export async function issueRecoveryCodes(
  deps: TAdminDeps,
  site: TSite,
  operator: TOperatorAuth,
  totpCode: string,
): Promise<{ codes: string[] }> {
  const [row] = await deps.executor
    .select({ totpSecret: operators.totpSecret })
    .from(operators)
    .where(eq(operators.id, operator.operatorId))
    .limit(1);
  if (!row?.totpSecret) {
    throw new AppError('TOTP_NOT_SET_UP', { fieldErrors: { totp_code: 'errors.TOTP_NOT_SET_UP' } });
  }
  await assertTotpCode(
    deps.executor,
    deps.throttle,
    site.id,
    { kind: 'operator', id: operator.operatorId, secret: row.totpSecret },
    totpCode,
  );
  const codes = newRecoveryCodes();
  await deps.executor.transaction(async (tx) => {
    await deleteUnusedRecoveryCodes(tx, operator.operatorId);
    for (const code of codes) await insertRecoveryCode(tx, operator.operatorId, recoveryCodeHash(code));
    await recordOperatorAction(
      tx,
      operator,
      'operator.recovery_codes_issued',
      { entity: 'operator', entityId: operator.operatorId.toString() },
      null,
      { recovery_codes: codes.length },
    );
  });
  return { codes };
}
