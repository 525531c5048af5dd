import { sha256Hex } from '../../core/hash.ts';
import { sessionOpened } from '../../core/session-events.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { revokeRefreshFamilies } from './refresh-tokens.repo.ts';
import { forgetMemberSessions, type SessionCache } from './session-cache.ts';
import {
  endMemberSession,
  endSessionsForcedOffline,
  findSessionByTokenHash,
  insertMemberSession,
  touchMemberSession,
} from './sessions.repo.ts';
import { newToken } from './tokens.ts';

/** However active, a session ends this long after login. */
export const SESSION_ABSOLUTE_DAYS = 30;
/** Most sessions (devices) one member keeps at once; logging in on one more ends the oldest. */
export const MAX_ACTIVE_SESSIONS = 20;
/** Sliding the expiry costs a write; do it at most this often per session. */
const TOUCH_EVERY_SECONDS = 30;

/** restricted: opened during a pause or exclusion; playTimeUp: its session-time limit ran out. */
export type TMemberAuth = {
  memberId: bigint;
  sessionId: bigint;
  siteId: bigint;
  restricted?: boolean;
  playTimeUp?: boolean;
};

function unauthenticated(forceOffline = false): AppError {
  return new AppError('UNAUTHENTICATED', forceOffline ? { extra: { force_offline: true } } : {});
}

/** The idle minutes after which a session of this site ends: the site's, or the profile's ceiling when lower. */
export function idleMinutesOf(site: TSite, reauthIdleMinutes: number | null): number {
  return Math.min(site.sessionIdleMinutes, reauthIdleMinutes ?? site.sessionIdleMinutes);
}

/** The session sat idle past its limit: the member signs in again (401, the message names the minutes). */
export function sessionIdle(minutes: number): AppError {
  return new AppError('SESSION_IDLE', { params: { minutes }, extra: { idle_minutes: minutes } });
}

/** Opens a session for the member and returns the bearer token (shown once, stored only hashed). */
export async function createMemberSession(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  client: { ip: string | null; userAgent: string | null; deviceId?: string | null },
  options: { restricted?: boolean } = {},
): Promise<{ token: string; expiresAt: Date; id: bigint }> {
  const token = newToken();
  // The session and what its listeners write (the AML outbox, ADR 040) commit together.
  const row = await executor.transaction(async (tx) => {
    const inserted = await insertMemberSession(
      tx,
      {
        siteId: site.id,
        jurisdiction: site.jurisdiction,
        memberId,
        tokenHash: sha256Hex(token),
        idleMinutes: site.sessionIdleMinutes,
        absoluteDays: SESSION_ABSOLUTE_DAYS,
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
        restricted: options.restricted ?? false,
      },
      MAX_ACTIVE_SESSIONS,
    );
    await sessionOpened.emit(tx, {
      siteId: site.id,
      memberId,
      sessionId: inserted.id,
      ip: client.ip,
      userAgent: client.userAgent,
      deviceId: client.deviceId ?? null,
    });
    return inserted;
  });
  return { token, expiresAt: row.expiresAt, id: row.id };
}

/**
 * The member behind a bearer token on this site, sliding the session's expiry. Throws 401 for a
 * missing, unknown, expired, ended or other-site token; with `force_offline: true` when an operator
 * ended it; SESSION_IDLE (401) when it sat idle past the site's or the profile's minutes. A
 * disabled account is ACCOUNT_DISABLED.
 */
export async function authenticateMember(
  executor: Executor,
  site: TSite,
  token: string | null,
  cache?: SessionCache,
): Promise<TMemberAuth> {
  if (!token) throw unauthenticated();
  const tokenHash = sha256Hex(token);
  const now = Date.now();
  const cached = cache?.get(tokenHash, now);
  if (cached && cached.siteId === site.id) return cached;
  const generation = cache?.generation ?? 0;
  const session = await findSessionByTokenHash(executor, tokenHash, TOUCH_EVERY_SECONDS);
  // A token of another site is treated exactly like an unknown one: it names nobody here.
  if (!session || session.siteId !== site.id) throw unauthenticated();
  if (session.endedAt) throw unauthenticated(session.endReason === 'force_offline');
  if (session.memberDeleted) throw unauthenticated();
  if (session.idledOut) throw sessionIdle(idleMinutesOf(site, session.reauthIdleMinutes));
  if (session.expired) throw unauthenticated();
  if (session.memberStatus !== 1) throw new AppError('ACCOUNT_DISABLED');
  if (session.stale) {
    await touchMemberSession(executor, session.id, site.sessionIdleMinutes);
  }
  const auth: TMemberAuth = {
    memberId: session.memberId,
    sessionId: session.id,
    siteId: session.siteId,
    restricted: session.restricted,
    playTimeUp: session.playTimeUp === true,
  };
  // Touched just now: valid for the full touch interval (or up to the expiry / play limit).
  if (cache && !session.stale && !auth.playTimeUp) {
    cache.put(tokenHash, auth, Number(session.validMs), now, generation);
  }
  return auth;
}

export async function endSession(executor: Executor, sessionId: bigint): Promise<void> {
  const ended = await endMemberSession(executor, sessionId);
  if (!ended) return;
  // This process forgets it at once; the others hear migration 0042's trigger at commit.
  forgetMemberSessions(ended.memberId);
  // A logout signs this device out for good: its "keep me signed in" cookie dies with it.
  await revokeRefreshFamilies(executor, ended.memberId, 'logout', { sessionId });
}

/** Ends every open session of the member; their next call gets 401 with force_offline. */
export async function forceOffline(executor: Executor, siteId: bigint, memberId: bigint): Promise<number> {
  const ended = await endSessionsForcedOffline(executor, siteId, memberId);
  forgetMemberSessions(memberId);
  await revokeRefreshFamilies(executor, memberId, 'force_offline');
  return ended.length;
}
