import { formatMinor, type TRealityCheck } from '@sorte/contract';
import type { TSite } from '../../core/site.ts';
import type { Db } from '../../db/client.ts';
import { findJurisdictionProfile, findRealityCheckMinutes, findSessionOpened, sumPlay } from './rg.repo.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The reality-check reminders of this process's live sockets. */
    realityChecks: RealityChecks;
  }
}

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

type TWatched = {
  memberId: bigint;
  sessionId: bigint;
  everyMs: number;
  nextAt: number;
  send: (text: string) => void;
  onError: (error: unknown) => void;
};

/**
 * The reminders of this process's authenticated sockets. The reality-checks job (rg.jobs.ts) ticks
 * `due` a few times a minute: one timer for every socket instead of one each, and a slow tick is
 * never run twice at once.
 */
export class RealityChecks {
  private readonly watched = new Set<TWatched>();

  constructor(private readonly db: Db) {}

  /** Starts the reminders of one socket; returns the stop function. */
  async watch(
    site: TSite,
    member: { memberId: bigint; sessionId: bigint },
    send: (text: string) => void,
    onError: (error: unknown) => void,
  ): Promise<() => void> {
    const minutes = await realityCheckMinutes(this.db, site, member.memberId);
    if (minutes <= 0) return () => undefined;
    const everyMs = minutes * REALITY_CHECK.minuteMs;
    const entry: TWatched = { ...member, everyMs, nextAt: Date.now() + everyMs, send, onError };
    this.watched.add(entry);
    return () => this.watched.delete(entry);
  }

  /** Sends every reminder that is due; a socket whose session has ended is no longer watched. */
  async due(now = Date.now()): Promise<void> {
    const due = [...this.watched].filter((entry) => entry.nextAt <= now);
    await Promise.all(
      due.map(async (entry) => {
        // On the socket's own schedule; a process that stalled past a reminder does not send a burst.
        entry.nextAt += entry.everyMs;
        if (entry.nextAt <= now) entry.nextAt = now + entry.everyMs;
        try {
          const message = await realityCheckMessage(this.db, entry.memberId, entry.sessionId);
          if (message) entry.send(JSON.stringify(message));
          else this.watched.delete(entry);
        } catch (error) {
          entry.onError(error);
        }
      }),
    );
  }
}
