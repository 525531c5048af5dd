import type { Db } from '../../db/client.ts';
import { listenChannel } from '../realtime/realtime.channel.ts';
import type { TMemberAuth } from './sessions.service.ts';

/**
 * Sessions seen valid, kept in this process so a member's requests do not each read the session
 * row (bench/bets: one statement and its round trip out of every bet).
 *
 * Exact expiry: an entry lives until the earliest of the session's expiry, its play-time limit and
 * the moment its sliding touch is due, all measured by the database's clock when the row was read
 * (remaining milliseconds, so the two clocks never need to agree). After that the next request
 * reads the row again (and slides it).
 *
 * Invalidation across processes: triggers on member_sessions and members (migration 0042) send
 * pg_notify('sorte_session', member id) at the commit of anything that ends or narrows a session
 * (logout, force offline, pause, play-time limit, disabled or deleted member, any manual UPDATE);
 * every process LISTENs and drops that member's entries. In this process, endSession and
 * forceOffline drop them at once as well. A read racing with a notification is not cached (a
 * generation counter), and while the LISTEN connection is not known to be up nothing is cached:
 * without it this is exactly the uncached path.
 */

/** Pushes sent when a session ends or narrows (migration 0042). */
export const SESSION_CHANNEL = 'sorte_session';

type Entry = { auth: TMemberAuth; tokenHash: string; until: number };

const live = new Set<SessionCache>();

/** Drops a member's cached sessions in every cache of this process (the trigger tells the others). */
export function forgetMemberSessions(memberId: bigint): void {
  for (const cache of live) cache.forgetMember(memberId);
}

export class SessionCache {
  private readonly byToken = new Map<string, Entry>();
  private readonly byMember = new Map<bigint, Set<string>>();
  private generationValue = 0;
  private listening = false;
  private failed = false;
  private stopListening: (() => Promise<void>) | null = null;

  constructor(private readonly maxEntries = 100_000) {}

  /** Starts listening for invalidations; until it has, and after any listener error, nothing is cached. */
  async start(db: Db, listenUrl: string | undefined, onError: (error: unknown) => void): Promise<void> {
    live.add(this);
    this.stopListening = await listenChannel(
      db,
      listenUrl,
      SESSION_CHANNEL,
      (payload) => {
        if (typeof payload === 'string' && /^\d+$/.test(payload)) this.forgetMember(BigInt(payload));
        else this.clear();
      },
      (error) => {
        // A lost or refused LISTEN connection: invalidations could be missed, so stop caching.
        this.failed = true;
        this.listening = false;
        this.clear();
        onError(error);
      },
      () => {
        // Listening (again, after a restart or failover of the database): what was cached before
        // is dropped, and every invalidation from now on is heard, so caching resumes.
        if (!live.has(this)) return;
        this.clear();
        this.failed = false;
        this.listening = true;
      },
    );
    this.listening = this.stopListening !== null && !this.failed;
  }

  async stop(): Promise<void> {
    live.delete(this);
    this.listening = false;
    this.clear();
    await this.stopListening?.();
  }

  /** Read before the database is asked; a put is refused if it changed meanwhile. */
  get generation(): number {
    return this.generationValue;
  }

  get size(): number {
    return this.byToken.size;
  }

  get(tokenHash: string, now: number): TMemberAuth | null {
    const entry = this.byToken.get(tokenHash);
    if (!entry) return null;
    if (entry.until <= now) {
      this.remove(entry);
      return null;
    }
    return { ...entry.auth };
  }

  /** Keeps `auth` for `validMs` from `now`, unless an invalidation came since `generation`. */
  put(tokenHash: string, auth: TMemberAuth, validMs: number, now: number, generation: number): void {
    if (!this.listening || generation !== this.generationValue || !(validMs > 0)) return;
    if (this.byToken.size >= this.maxEntries) {
      const oldest = this.byToken.values().next().value;
      if (oldest) this.remove(oldest);
    }
    const previous = this.byToken.get(tokenHash);
    if (previous) this.remove(previous);
    const entry = { auth: { ...auth }, tokenHash, until: now + validMs };
    this.byToken.set(tokenHash, entry);
    let tokens = this.byMember.get(auth.memberId);
    if (!tokens) {
      tokens = new Set();
      this.byMember.set(auth.memberId, tokens);
    }
    tokens.add(tokenHash);
  }

  forgetMember(memberId: bigint): void {
    this.generationValue++;
    const tokens = this.byMember.get(memberId);
    if (!tokens) return;
    for (const token of tokens) this.byToken.delete(token);
    this.byMember.delete(memberId);
  }

  clear(): void {
    this.generationValue++;
    this.byToken.clear();
    this.byMember.clear();
  }

  private remove(entry: Entry): void {
    this.byToken.delete(entry.tokenHash);
    const tokens = this.byMember.get(entry.auth.memberId);
    tokens?.delete(entry.tokenHash);
    if (tokens?.size === 0) this.byMember.delete(entry.auth.memberId);
  }
}
