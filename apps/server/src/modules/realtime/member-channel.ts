import type { Db, Executor } from '../../db/client.ts';
import { channelText, listenChannel, notifyChannel } from './realtime.channel.ts';
import type { RealtimeHub } from './realtime.hub.ts';
import { notifyEach } from './realtime.repo.ts';

/** The group paths queue their pushes (`memberPushNotice`) with it (realtime.repo.ts). */
export { notifyEach };

/**
 * Messages for one member's open sockets (a new notification, a rain share), sent in the
 * transaction that causes them and delivered by every process to the sockets it holds.
 */
const CHANNEL = 'sorte_member';

interface MemberPush {
  siteId: string;
  memberId: string;
  message: Record<string, unknown>;
}

/** Queues `message` for the member's sockets; it leaves when the caller's transaction commits. */
export async function pushToMember(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  message: Record<string, unknown>,
): Promise<void> {
  const push: MemberPush = { siteId: String(siteId), memberId: String(memberId), message };
  await notifyChannel(executor, CHANNEL, push);
}

/**
 * What `pushToMember` sends, for a statement that queues many pushes itself
 * (`SELECT pg_notify(channel, text)` over its rows).
 */
export function memberPushNotice(
  siteId: bigint,
  memberId: bigint,
  message: Record<string, unknown>,
): { channel: string; text: string } {
  const push: MemberPush = { siteId: String(siteId), memberId: String(memberId), message };
  return { channel: CHANNEL, text: channelText(CHANNEL, push) };
}

/** Starts delivering member pushes to the hub's sockets; returns the stop function. */
export async function startMemberChannel(
  db: Db,
  hub: RealtimeHub,
  listenUrl: string | undefined,
  onError: (error: unknown) => void,
): Promise<() => Promise<void>> {
  const stop = await listenChannel(
    db,
    listenUrl,
    CHANNEL,
    (payload) => {
      const push = payload as MemberPush;
      hub.sendToMember(BigInt(push.siteId), BigInt(push.memberId), JSON.stringify(push.message));
    },
    onError,
  );
  return stop ?? (async () => undefined);
}
