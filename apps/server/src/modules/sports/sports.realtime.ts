import { SPORTS_PUSH_MAX_CHARS, type TSportsBet, type TSportsServerMessage } from '@sorte/contract';
import type { Db, Executor } from '../../db/client.ts';
import { pushToMember } from '../realtime/member-channel.ts';
import { listenChannel, notifyChannel } from '../realtime/realtime.channel.ts';
import type { PushTarget, RealtimeHub } from '../realtime/realtime.hub.ts';

/**
 * Live sports messages on /ws. A socket (guest or member) sends `{ "type": "sports_watch" }` to get
 * its site's odds and market status changes and score updates; they are queued with `pg_notify` in
 * the transaction that makes the change, so every process delivers them only once it committed (and
 * never after a rollback). A member's own bet changes go to the member's sockets (pushToMember).
 */
const CHANNEL = 'sorte_sports';

interface SportsPush {
  siteId: string;
  message: TSportsServerMessage;
}

export async function pushSports(
  executor: Executor,
  siteId: bigint,
  message: TSportsServerMessage,
): Promise<void> {
  await notifyChannel(executor, CHANNEL, { siteId: siteId.toString(), message } satisfies SportsPush);
}

export async function pushBet(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  bet: TSportsBet,
): Promise<void> {
  await pushToMember(executor, siteId, memberId, betMessage(bet));
}

/** A member's bet as its sockets get it (`pushBet`). */
export function betMessage(bet: TSportsBet): TSportsServerMessage {
  const whole: TSportsServerMessage = {
    type: 'sports_bet',
    bet_id: bet.id,
    status: bet.status,
    payout: bet.payout,
    bet,
  };
  // A long accumulator would not fit a client frame (or a NOTIFY payload): the summary only.
  return JSON.stringify(whole).length <= SPORTS_PUSH_MAX_CHARS ? whole : { ...whole, bet: null };
}

/** Which sockets of this process watch which site. */
export class SportsWatchers {
  private readonly bySite = new Map<string, Set<PushTarget>>();
  private readonly siteOf = new Map<PushTarget, string>();

  watch(siteId: bigint, target: PushTarget): void {
    this.unwatch(target);
    const key = siteId.toString();
    const set = this.bySite.get(key) ?? new Set<PushTarget>();
    set.add(target);
    this.bySite.set(key, set);
    this.siteOf.set(target, key);
  }

  unwatch(target: PushTarget): void {
    const key = this.siteOf.get(target);
    if (key === undefined) return;
    this.siteOf.delete(target);
    const set = this.bySite.get(key);
    set?.delete(target);
    if (set && set.size === 0) this.bySite.delete(key);
  }

  deliver(push: SportsPush, onError: (error: unknown) => void): void {
    const targets = this.bySite.get(push.siteId);
    if (!targets) return;
    const text = JSON.stringify(push.message);
    for (const target of targets) {
      try {
        target.send(text);
      } catch (error) {
        onError(error);
      }
    }
  }
}

/** Registers the sports_watch / sports_unwatch messages on the hub and starts delivering pushes. */
export async function startSportsChannel(
  db: Db,
  hub: RealtimeHub,
  listenUrl: string | undefined,
  onError: (error: unknown) => void,
): Promise<() => Promise<void>> {
  const watchers = new SportsWatchers();
  hub.handle('sports_watch', ({ siteId, target }) => {
    watchers.watch(siteId, target);
    return true;
  });
  hub.handle('sports_unwatch', ({ target }) => {
    watchers.unwatch(target);
    return false;
  });
  hub.onDisconnect((target) => watchers.unwatch(target));
  const stop = await listenChannel(
    db,
    listenUrl,
    CHANNEL,
    (payload) => watchers.deliver(payload as SportsPush, onError),
    onError,
  );
  return stop ?? (async () => undefined);
}
