import { and, desc, eq, isNull, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { members } from '../members/members.schema.ts';
import { memberSessions } from './sessions.schema.ts';

/** The SQL of players' sessions: opening, finding by token, sliding and ending them. */

/**
 * Opens a session (absolute expiry `absoluteDays`) and ends the member's oldest open sessions beyond
 * the newest `keepActive`. The idle expiry is the site's `idleMinutes`, or the jurisdiction
 * profile's re-authentication ceiling when lower (migration 0063); the ceiling is kept on the row so
 * sliding it later never reads the profile again.
 */
export async function insertMemberSession(
  executor: Executor,
  session: {
    siteId: bigint;
    jurisdiction: string;
    memberId: bigint;
    tokenHash: string;
    idleMinutes: number;
    absoluteDays: number;
    ip: string | null;
    userAgent: string | null;
    restricted: boolean;
  },
  keepActive: number,
): Promise<{ id: bigint; expiresAt: Date }> {
  const { memberId } = session;
  const ceiling = sql`(SELECT reauth_idle_minutes FROM jurisdiction_profiles WHERE jurisdiction = ${session.jurisdiction})`;
  const [row] = await executor
    .insert(memberSessions)
    .values({
      siteId: session.siteId,
      memberId,
      tokenHash: session.tokenHash,
      reauthIdleMinutes: ceiling,
      expiresAt: sql`now() + make_interval(mins => least(${session.idleMinutes}, coalesce(${ceiling}, ${session.idleMinutes})))`,
      absoluteExpiresAt: sql`now() + make_interval(days => ${session.absoluteDays})`,
      ip: session.ip,
      userAgent: session.userAgent,
      restricted: session.restricted,
    })
    .returning({ id: memberSessions.id, expiresAt: memberSessions.expiresAt });
  const keep = executor
    .select({ id: memberSessions.id })
    .from(memberSessions)
    .where(and(eq(memberSessions.memberId, memberId), isNull(memberSessions.endedAt)))
    .orderBy(desc(memberSessions.id))
    .limit(keepActive);
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
  return row!;
}

/**
 * The session behind a token hash with its member's state and, by the database's clock, whether it
 * expired, is due a sliding touch (older than `touchEverySeconds`), ran out of play time, and how
 * long this answer stays true.
 */
export async function findSessionByTokenHash(
  executor: Executor,
  tokenHash: string,
  touchEverySeconds: number,
) {
  const rows = await executor
    .select({
      id: memberSessions.id,
      siteId: memberSessions.siteId,
      memberId: memberSessions.memberId,
      endedAt: memberSessions.endedAt,
      endReason: memberSessions.endReason,
      expired: sql<boolean>`${memberSessions.expiresAt} <= now()`,
      // Expired by idleness (its sliding expiry came before the absolute one), not by age.
      idledOut: sql<boolean>`${memberSessions.expiresAt} <= now() AND ${memberSessions.expiresAt} < ${memberSessions.absoluteExpiresAt}`,
      reauthIdleMinutes: memberSessions.reauthIdleMinutes,
      stale: sql<boolean>`${memberSessions.lastSeenAt} < now() - make_interval(secs => ${touchEverySeconds})`,
      restricted: memberSessions.restricted,
      playTimeUp: sql<boolean>`coalesce(${memberSessions.playUntil} <= now(), false)`,
      memberStatus: members.status,
      memberDeleted: members.deletedAt,
      // How long this answer stays true by the database's clock (session-cache.ts): until the
      // expiry, the play-time limit or the next sliding touch, whichever comes first.
      validMs: sql<string>`floor(1000 * extract(epoch FROM least(
        ${memberSessions.expiresAt},
        coalesce(${memberSessions.playUntil}, ${memberSessions.expiresAt}),
        ${memberSessions.lastSeenAt} + make_interval(secs => ${touchEverySeconds})
      ) - now()))`,
    })
    .from(memberSessions)
    .innerJoin(members, eq(members.id, memberSessions.memberId))
    .where(eq(memberSessions.tokenHash, tokenHash))
    .limit(1)
    // Named: each database connection parses and plans it once. Unnamed, every session-cache miss
    // (a player's first request to a process, then one per touch interval) planned it anew, which
    // cost PostgreSQL several times its execution (docs/bench-log/).
    .prepare('sorte_member_session')
    .execute();
  return rows[0];
}

/** Slides the session's idle expiry (never past its absolute one nor its re-authentication ceiling). */
export async function touchMemberSession(
  executor: Executor,
  sessionId: bigint,
  idleMinutes: number,
): Promise<void> {
  await executor
    .update(memberSessions)
    .set({
      lastSeenAt: sql`now()`,
      expiresAt: sql`least(
        now() + make_interval(mins => least(${idleMinutes}, coalesce(${memberSessions.reauthIdleMinutes}, ${idleMinutes}))),
        ${memberSessions.absoluteExpiresAt}
      )`,
    })
    .where(and(eq(memberSessions.id, sessionId), isNull(memberSessions.endedAt)));
}

/** Ends one open session (logout); returns its member, or nothing when it had ended. */
export async function endMemberSession(executor: Executor, sessionId: bigint) {
  const [ended] = await executor
    .update(memberSessions)
    .set({ endedAt: sql`now()`, endReason: 'logout' })
    .where(and(eq(memberSessions.id, sessionId), isNull(memberSessions.endedAt)))
    .returning({ memberId: memberSessions.memberId });
  return ended;
}

/** Ends every open session of the member on the site (force_offline); returns the ended ids. */
export async function endSessionsForcedOffline(executor: Executor, siteId: bigint, memberId: bigint) {
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
  return ended;
}
