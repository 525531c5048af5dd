import { and, desc, eq, isNull, notInArray, sql } from 'drizzle-orm';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { memberSessions } from '../auth/auth.schema.ts';
import { members } from '../members/members.schema.ts';
import { forgetMemberSessions, type SessionCache } from './session-cache.ts';
import { newToken, sha256Hex } from './tokens.ts';

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

/** Opens a session for the member and returns the bearer token (shown once, stored only hashed). */
export async function createMemberSession(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  client: { ip: string | null; userAgent: string | null },
  options: { restricted?: boolean } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const [row] = await executor
    .insert(memberSessions)
    .values({
      siteId: site.id,
      memberId,
      tokenHash: sha256Hex(token),
      expiresAt: sql`now() + make_interval(mins => ${site.sessionIdleMinutes})`,
      absoluteExpiresAt: sql`now() + make_interval(days => ${SESSION_ABSOLUTE_DAYS})`,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      restricted: options.restricted ?? false,
    })
    .returning({ expiresAt: memberSessions.expiresAt });
  const keep = executor
    .select({ id: memberSessions.id })
    .from(memberSessions)
    .where(and(eq(memberSessions.memberId, memberId), isNull(memberSessions.endedAt)))
    .orderBy(desc(memberSessions.id))
    .limit(MAX_ACTIVE_SESSIONS);
  await executor
    .update(memberSessions)
    .set({ endedAt: sql`now()`, endReason: 'logout' })
    .where(
      and(
        eq(memberSessions.memberId, memberId),
        isNull(memberSessions.endedAt),
        notInArray(memberSessions.id, keep),
      ),
    );
  return { token, expiresAt: row!.expiresAt };
}

/**
 * The member behind a bearer token on this site, sliding the session's expiry. Throws 401 for a
 * missing, unknown, expired, ended or other-site token; with `force_offline: true` when an operator
 * ended it. A disabled account is ACCOUNT_DISABLED.
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
  const rows = await executor
    .select({
      id: memberSessions.id,
      siteId: memberSessions.siteId,
      memberId: memberSessions.memberId,
      endedAt: memberSessions.endedAt,
      endReason: memberSessions.endReason,
      expired: sql<boolean>`${memberSessions.expiresAt} <= now()`,
      stale: sql<boolean>`${memberSessions.lastSeenAt} < now() - make_interval(secs => ${TOUCH_EVERY_SECONDS})`,
      restricted: memberSessions.restricted,
      playTimeUp: sql<boolean>`coalesce(${memberSessions.playUntil} <= now(), false)`,
      memberStatus: members.status,
      memberDeleted: members.deletedAt,
      // How long this answer stays true by the database's clock (session-cache.ts): until the
      // expiry, the play-time limit or the next sliding touch, whichever comes first.
      validMs: sql<string>`floor(1000 * extract(epoch FROM least(
        ${memberSessions.expiresAt},
        coalesce(${memberSessions.playUntil}, ${memberSessions.expiresAt}),
        ${memberSessions.lastSeenAt} + make_interval(secs => ${TOUCH_EVERY_SECONDS})
      ) - now()))`,
    })
    .from(memberSessions)
    .innerJoin(members, eq(members.id, memberSessions.memberId))
    .where(eq(memberSessions.tokenHash, tokenHash))
    .limit(1)
    // Named: each database connection parses and plans it once. A session-cache miss (every
    // player's first request to a process, then one per touch interval) planned it anew: 0.2 ms
    // of PostgreSQL's time for 0.03 ms of execution (pg_stat_statements, two workers).
    .prepare('sorte_member_session')
    .execute();
  const session = rows[0];
  // A token of another site is treated exactly like an unknown one: it names nobody here.
  if (!session || session.siteId !== site.id) throw unauthenticated();
  if (session.endedAt) throw unauthenticated(session.endReason === 'force_offline');
  if (session.expired || session.memberDeleted) throw unauthenticated();
  if (session.memberStatus !== 1) throw new AppError('ACCOUNT_DISABLED');
  if (session.stale) {
    await executor
      .update(memberSessions)
      .set({
        lastSeenAt: sql`now()`,
        expiresAt: sql`least(now() + make_interval(mins => ${site.sessionIdleMinutes}), ${memberSessions.absoluteExpiresAt})`,
      })
      .where(and(eq(memberSessions.id, session.id), isNull(memberSessions.endedAt)));
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
  const [ended] = await executor
    .update(memberSessions)
    .set({ endedAt: sql`now()`, endReason: 'logout' })
    .where(and(eq(memberSessions.id, sessionId), isNull(memberSessions.endedAt)))
    .returning({ memberId: memberSessions.memberId });
  // This process forgets it at once; the others hear migration 0042's trigger at commit.
  if (ended) forgetMemberSessions(ended.memberId);
}

/** Ends every open session of the member; their next call gets 401 with force_offline. */
export async function forceOffline(executor: Executor, siteId: bigint, memberId: bigint): Promise<number> {
  const ended = await executor
    .update(memberSessions)
    .set({ endedAt: sql`now()`, endReason: 'force_offline' })
    .where(
      and(
        eq(memberSessions.siteId, siteId),
        eq(memberSessions.memberId, memberId),
        isNull(memberSessions.endedAt),
      ),
    )
    .returning({ id: memberSessions.id });
  forgetMemberSessions(memberId);
  return ended.length;
}
