import type { TAdminLoginResponse, TForceOfflineResponse } from '@sorte/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { verifyAgainstDummy, verifySecret } from '../auth/passwords.ts';
import { forceOffline } from '../auth/sessions.service.ts';
import { newToken, sha256Hex } from '../auth/tokens.ts';
import { findMemberByUsername } from '../members/members.repo.ts';
import type { TSite } from '../sites/sites.service.ts';
import { operatorActions, operatorSessions, operators, type TOperatorRole } from './admin.schema.ts';

/** Operator sessions do not slide: a shift-length token, then log in again. */
export const OPERATOR_SESSION_HOURS = 8;

export type TOperatorAuth = { operatorId: bigint; siteId: bigint; role: TOperatorRole; username: string };

export type TAdminDeps = {
  executor: Executor;
  throttle: LoginThrottle;
  limits: { maxFailuresPerAccount: number; maxFailuresPerIp: number };
};

/** Operator login on this site. Failures are throttled like player logins, in their own scope. */
export async function operatorLogin(
  deps: TAdminDeps,
  site: TSite,
  input: { username: string; password: string },
  ip: string | null,
): Promise<TAdminLoginResponse> {
  const accountKey = input.username.toLowerCase();
  const ipKey = ip ?? 'unknown';
  await deps.throttle.assertAllowed(site.id, [
    { scope: 'operator', key: accountKey, max: deps.limits.maxFailuresPerAccount },
    { scope: 'ip', key: ipKey, max: deps.limits.maxFailuresPerIp },
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
    await deps.throttle.recordFailure(site.id, [
      { scope: 'operator', key: accountKey },
      { scope: 'ip', key: ipKey },
    ]);
    throw new AppError('INVALID_CREDENTIALS');
  }
  if (operator.status !== 1) throw new AppError('ACCOUNT_DISABLED');
  await deps.throttle.clear(site.id, 'operator', accountKey);
  const token = newToken();
  const [session] = await deps.executor
    .insert(operatorSessions)
    .values({
      siteId: site.id,
      operatorId: operator.id,
      tokenHash: sha256Hex(token),
      expiresAt: sql`now() + make_interval(hours => ${OPERATOR_SESSION_HOURS})`,
    })
    .returning({ expiresAt: operatorSessions.expiresAt });
  return {
    token,
    token_type: 'Bearer',
    expires_at: session!.expiresAt.toISOString(),
    operator: { id: Number(operator.id), username: operator.username, role: operator.role, site: site.code },
  };
}

/** The operator behind an operator bearer token on this site; player tokens are never found here. */
export async function authenticateOperator(
  executor: Executor,
  site: TSite,
  token: string | null,
): Promise<TOperatorAuth> {
  if (!token) throw new AppError('UNAUTHENTICATED');
  const rows = await executor
    .select({
      operatorId: operators.id,
      siteId: operatorSessions.siteId,
      role: operators.role,
      username: operators.username,
      status: operators.status,
    })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(
      and(
        eq(operatorSessions.tokenHash, sha256Hex(token)),
        isNull(operatorSessions.endedAt),
        gt(operatorSessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  const found = rows[0];
  if (!found || found.siteId !== site.id) throw new AppError('UNAUTHENTICATED');
  if (found.status !== 1) throw new AppError('ACCOUNT_DISABLED');
  return { operatorId: found.operatorId, siteId: found.siteId, role: found.role, username: found.username };
}

/** Ends the operator session behind this token (logout); a later call with it is 401. */
export async function endOperatorSession(executor: Executor, site: TSite, token: string): Promise<void> {
  await executor
    .update(operatorSessions)
    .set({ endedAt: sql`now()` })
    .where(
      and(
        eq(operatorSessions.tokenHash, sha256Hex(token)),
        eq(operatorSessions.siteId, site.id),
        isNull(operatorSessions.endedAt),
      ),
    );
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
    await tx.insert(operatorActions).values({
      siteId: operator.siteId,
      operatorId: operator.operatorId,
      action: 'force_offline',
      memberId: member.id,
      details: { sessions_ended: ended },
    });
    return { member_id: Number(member.id), sessions_ended: ended };
  });
}
