import { formatMinor, type TRealityCheck } from '@sorte/contract';
import type { Db } from '../../db/client.ts';
import type { TSite } from '../sites/sites.service.ts';
import { findJurisdictionProfile, findRealityCheckMinutes, findSessionOpened, sumPlay } from './rg.repo.ts';

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
  const own = await findRealityCheckMinutes(db, memberId);
  if (own !== null) return own;
  return (await findJurisdictionProfile(db, site)).realityCheckMinutes;
}

/** The reminder of a session opened at `since`, or null once that session has ended. */
export async function realityCheckMessage(
  db: Db,
  memberId: bigint,
  sessionId: bigint,
): Promise<TRealityCheck | null> {
  const session = await findSessionOpened(db, memberId, sessionId);
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
