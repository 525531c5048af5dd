import { formatMinor, type TRealityCheck } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { TSite } from '../../core/site.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../wallet/wallet.repo.ts';
import { findJurisdictionProfile, sumPlay } from './rg.repo.ts';

/**
 * The reality check: every N minutes of a session (the member's setting, else the site profile's
 * default; 0 = off) the member's live socket gets `{type:'reality_check', minutes_played,
 * net_result, staked}` — the time since the session opened and its net result (wins and refunds
 * minus stakes) — so the player sees both without asking. It stops with the socket, and when the
 * session has ended.
 */
export const REALITY_CHECK = {
  /** One minute; tests shorten it. */
  minuteMs: 60_000,
};

export async function realityCheckMinutes(db: Db, site: TSite, memberId: bigint): Promise<number> {
  const rows = await rowsOf<{ minutes: number | null }>(
    db,
    sql`SELECT reality_check_minutes AS minutes FROM members WHERE id = ${memberId.toString()}::bigint`,
  );
  const own = rows[0]?.minutes;
  if (own !== null && own !== undefined) return Number(own);
  return (await findJurisdictionProfile(db, site)).realityCheckMinutes;
}

/** The reminder of a session opened at `since`, or null once that session has ended. */
export async function realityCheckMessage(
  db: Db,
  memberId: bigint,
  sessionId: bigint,
): Promise<TRealityCheck | null> {
  const sessions = await rowsOf<{ created_at: unknown; open: boolean }>(
    db,
    sql`SELECT created_at, (ended_at IS NULL AND expires_at > now()) AS open FROM member_sessions
        WHERE id = ${sessionId.toString()}::bigint AND member_id = ${memberId.toString()}::bigint`,
  );
  const session = sessions[0];
  if (!session?.open) return null;
  const since = new Date(String(session.created_at));
  const play = await sumPlay(db, memberId, since);
  return {
    type: 'reality_check',
    minutes_played: Math.max(0, Math.floor((Date.now() - since.getTime()) / 60_000)),
    net_result: formatMinor(play.returnedMinor - play.stakedMinor),
    staked: formatMinor(play.stakedMinor),
  };
}

/** Starts the reminders for one authenticated socket; returns the stop function. */
export async function startRealityCheck(
  db: Db,
  site: TSite,
  member: { memberId: bigint; sessionId: bigint },
  send: (text: string) => void,
  onError: (error: unknown) => void,
): Promise<() => void> {
  const minutes = await realityCheckMinutes(db, site, member.memberId);
  if (minutes <= 0) return () => undefined;
  const timer = setInterval(() => {
    realityCheckMessage(db, member.memberId, member.sessionId)
      .then((message) => {
        if (message) send(JSON.stringify(message));
        else clearInterval(timer);
      })
      .catch(onError);
  }, minutes * REALITY_CHECK.minuteMs);
  timer.unref();
  return () => clearInterval(timer);
}
