import { sql } from 'drizzle-orm';
import { sha256Hex } from '../../core/hash.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import { newToken } from './tokens.ts';

/**
 * "Keep me signed in" (migrations/0061_refresh_tokens.sql): a refresh token lives in an httpOnly
 * cookie and is traded, once, for a new bearer token and a new refresh token of the same family.
 */

/** A remembered device stays signed in this long after the login that remembered it. */
export const REFRESH_FAMILY_DAYS = 30;

/**
 * reauthDue: the session the token was issued for sat idle past its profile's re-authentication
 * ceiling (migration 0063), so the device may not resume it without the password.
 */
export type TRefreshClaim = {
  familyId: bigint;
  memberId: bigint;
  reauthDue: boolean;
  reauthIdleMinutes: number | null;
};

export function refreshRefused(): AppError {
  return new AppError('UNAUTHENTICATED');
}

async function insertToken(executor: Executor, familyId: string, sessionId: string): Promise<string> {
  const token = newToken();
  await executor.execute(sql`INSERT INTO member_refresh_tokens (family_id, token_hash, session_id)
                             VALUES (${familyId}::bigint, ${sha256Hex(token)}, ${sessionId}::bigint)`);
  return token;
}

/** Starts a family for the session a bearer token names (just opened by a login or sign-up). */
export async function rememberSession(executor: Executor, siteId: bigint, bearer: string): Promise<string> {
  return executor.transaction(async (tx) => {
    const [family] = await rowsOf<{ id: string; session_id: string }>(
      tx,
      sql`WITH s AS (SELECT id, site_id, member_id FROM member_sessions
                     WHERE token_hash = ${sha256Hex(bearer)} AND site_id = ${siteId.toString()}::bigint
                       AND ended_at IS NULL),
               f AS (INSERT INTO member_refresh_families (site_id, member_id, expires_at)
                     SELECT site_id, member_id, now() + make_interval(days => ${REFRESH_FAMILY_DAYS}) FROM s
                     RETURNING id)
          SELECT f.id::text AS id, s.id::text AS session_id FROM f, s`,
    );
    if (!family) throw refreshRefused();
    return insertToken(tx, family.id, family.session_id);
  });
}

/**
 * Spends a refresh token of this site: exactly one caller can claim it (the conditional UPDATE).
 * A token already spent was copied (or its cookie replayed): its family is revoked, so neither the
 * thief nor the device keeps a way back in. Unknown, expired and revoked tokens are refused alike.
 */
export async function claimRefreshToken(
  executor: Executor,
  siteId: bigint,
  token: string,
): Promise<TRefreshClaim> {
  const tokenHash = sha256Hex(token);
  const [claimed] = await rowsOf<{
    family_id: string;
    member_id: string;
    reauth_due: boolean;
    reauth_idle_minutes: number | null;
  }>(
    executor,
    sql`UPDATE member_refresh_tokens t SET rotated_at = now()
        FROM member_refresh_families f, member_sessions s
        WHERE t.token_hash = ${tokenHash} AND t.rotated_at IS NULL AND f.id = t.family_id
          AND f.site_id = ${siteId.toString()}::bigint AND f.revoked_at IS NULL AND f.expires_at > now()
          AND s.id = t.session_id
        RETURNING f.id::text AS family_id, f.member_id::text AS member_id, s.reauth_idle_minutes,
          (s.reauth_idle_minutes IS NOT NULL AND s.expires_at <= now()
           AND s.expires_at < s.absolute_expires_at) AS reauth_due`,
  );
  if (claimed) {
    return {
      familyId: BigInt(claimed.family_id),
      memberId: BigInt(claimed.member_id),
      reauthDue: claimed.reauth_due === true,
      reauthIdleMinutes: claimed.reauth_idle_minutes === null ? null : Number(claimed.reauth_idle_minutes),
    };
  }
  await executor.execute(sql`UPDATE member_refresh_families SET revoked_at = now(), revoke_reason = 'reuse'
                             WHERE revoked_at IS NULL AND site_id = ${siteId.toString()}::bigint
                               AND id = (SELECT family_id FROM member_refresh_tokens
                                         WHERE token_hash = ${tokenHash} AND rotated_at IS NOT NULL)`);
  throw refreshRefused();
}

/** The family's next token, for the session the claimed token was traded for. */
export async function rotateRefreshToken(
  executor: Executor,
  claim: TRefreshClaim,
  sessionId: bigint,
): Promise<string> {
  return insertToken(executor, claim.familyId.toString(), sessionId.toString());
}

export type TRevokeReason =
  | 'logout'
  | 'force_offline'
  | 'password_changed'
  | 'ended_by_player'
  | 'self_excluded'
  | 'time_limit'
  | 'refused';

/**
 * Revokes the member's remembered devices: every one, or only the family that opened `sessionId`
 * (a logout, or the player ending one device). Called wherever sessions are ended on purpose, so
 * a cookie never outlives the reason its session was ended for.
 */
export async function revokeRefreshFamilies(
  executor: Executor,
  memberId: bigint,
  reason: TRevokeReason,
  options: { sessionId?: bigint; familyId?: bigint } = {},
): Promise<void> {
  const only =
    options.sessionId !== undefined
      ? sql`AND id IN (SELECT family_id FROM member_refresh_tokens WHERE session_id = ${options.sessionId.toString()}::bigint)`
      : options.familyId !== undefined
        ? sql`AND id = ${options.familyId.toString()}::bigint`
        : sql``;
  await executor.execute(sql`UPDATE member_refresh_families SET revoked_at = now(), revoke_reason = ${reason}
                             WHERE member_id = ${memberId.toString()}::bigint AND revoked_at IS NULL ${only}`);
}
