import {
  formatMinor,
  type TChatMessage,
  type TChatPush,
  type TChatRoomResponse,
  type TLanguage,
  translate,
} from '@sorte/contract';
import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import type { TSite } from '../../core/site.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { getCommunity, notify } from '../information/information.service.ts';
import { notifyChannel } from '../realtime/realtime.channel.ts';
import { transfer } from '../wallet/wallet.service.ts';
import {
  countRecentMessages,
  deleteMessage,
  findAuthor,
  findLastRain,
  findLatestMessages,
  findMemberByName,
  findMessageForAudit,
  findMute,
  findPayingRains,
  findUnpaidMembers,
  finishRain,
  insertMessage,
  insertRain,
  lockAuthorRow,
  lockUnpaidPayout,
  markPayoutPaid,
  removeMute,
  type TMessageRow,
  type TRainRow,
  upsertMute,
} from './chat.repo.ts';
import { acceptChatText } from './chat-text.ts';

/**
 * The site chat room and its rain (ADR 016). Messages are plain text: stored as typed without
 * invisible characters (no HTML is ever produced from them; every client renders text), links
 * refused in any spelling (chat-text.ts), a rate limit per member counted in the database so it
 * holds across processes. Every change of the room is sent with pg_notify in its transaction
 * (channel sorte_chat) and relayed by each process to the sockets that joined the site's room
 * (chat.room.ts).
 */
export const CHAT_CHANNEL = 'sorte_chat';

export interface TRoomEvent {
  siteId: string;
  push: TChatPush;
}

export function toChatMessage(row: TMessageRow): TChatMessage {
  return { id: Number(row.id), author: row.author, text: row.text, created_at: row.created_at };
}

async function publish(executor: Executor, siteId: bigint, push: TChatPush): Promise<void> {
  const event: TRoomEvent = { siteId: String(siteId), push };
  await notifyChannel(executor, CHAT_CHANNEL, event);
}

/** When the rain of the slot after `now` falls (slots are multiples of the period since the epoch). */
export function nextRainAt(now: Date, everyMinutes: number): Date {
  const period = everyMinutes * 60_000;
  return new Date((Math.floor(now.getTime() / period) + 1) * period);
}

export async function getRoom(
  executor: Executor,
  site: TSite,
  memberId: bigint | null,
  lang: TLanguage,
  now = new Date(),
): Promise<TChatRoomResponse> {
  const community = await getCommunity(executor, site);
  const [messages, mute, last] = await Promise.all([
    community.chat_enabled
      ? findLatestMessages(executor, site.id, community.chat_history)
      : Promise.resolve([]),
    memberId ? findMute(executor, site.id, memberId) : Promise.resolve(null),
    findLastRain(executor, site.id),
  ]);
  return {
    enabled: community.chat_enabled,
    max_chars: community.chat_max_chars,
    rate: { messages: community.chat_rate_messages, seconds: community.chat_rate_seconds },
    muted: mute !== null,
    muted_until: mute?.until ?? null,
    messages: messages.map(toChatMessage),
    rain: {
      enabled: community.rain_enabled,
      off_reason: community.rain_off_reason ? translate(lang, community.rain_off_reason) : null,
      every_minutes: community.rain_every_minutes,
      pot: formatMinor(BigInt(community.rain_pot_minor)),
      window_minutes: community.rain_window_minutes,
      min_wager: formatMinor(BigInt(community.rain_min_wager_minor)),
      wager_days: community.rain_wager_days,
      next_at: community.rain_enabled ? nextRainAt(now, community.rain_every_minutes).toISOString() : null,
      last: last
        ? { at: last.slot, eligible: last.eligible, share: formatMinor(BigInt(last.share_minor)) }
        : null,
    },
  };
}

/** The latest messages a socket receives when it joins the room. */
export async function roomHistory(executor: Executor, site: TSite): Promise<TChatMessage[]> {
  const community = await getCommunity(executor, site);
  if (!community.chat_enabled) return [];
  return (await findLatestMessages(executor, site.id, community.chat_history)).map(toChatMessage);
}

/**
 * Posts a message: its text accepted by the room's rules (chat-text.ts), then, under the author's
 * row lock, the mute and the rate limit checked and the message stored in one transaction. A mute
 * takes the same lock, so no message is stored once a mute has committed.
 */
export async function sendMessage(db: Db, site: TSite, memberId: bigint, raw: string): Promise<TChatMessage> {
  const community = await getCommunity(db, site);
  if (!community.chat_enabled) throw new AppError('CHAT_DISABLED');
  const text = acceptChatText(raw, community.chat_max_chars);
  return db.transaction(async (tx) => {
    // Counted under the member's row lock, so two messages sent at once cannot both pass the limit.
    const author = await lockAuthor(tx, site.id, memberId);
    if (await findMute(tx, site.id, memberId)) throw new AppError('CHAT_MUTED');
    if (
      (await countRecentMessages(tx, memberId, community.chat_rate_seconds)) >= community.chat_rate_messages
    ) {
      throw new AppError('RATE_LIMITED', {
        params: { seconds: community.chat_rate_seconds },
        headers: { 'retry-after': String(community.chat_rate_seconds) },
      });
    }
    const row = await insertMessage(tx, { siteId: site.id, memberId, author, text });
    const message = toChatMessage(row);
    await publish(tx, site.id, { type: 'chat_message', message });
    return message;
  });
}

async function lockAuthor(tx: Executor, siteId: bigint, memberId: bigint): Promise<string> {
  await lockAuthorRow(tx, memberId);
  const author = await findAuthor(tx, siteId, memberId);
  if (!author) throw new AppError('UNAUTHENTICATED');
  return (author.nickname?.trim() || author.username).slice(0, 40);
}

// Operators

export async function deleteChatMessage(db: Db, operator: TOperatorAuth, messageId: bigint) {
  return db.transaction(async (tx) => {
    const message = await findMessageForAudit(tx, operator.siteId, messageId);
    const deleted = await deleteMessage(tx, operator.siteId, messageId, operator.operatorId);
    if (!deleted || !message) throw new AppError('NOT_FOUND');
    await publish(tx, operator.siteId, { type: 'chat_delete', id: Number(messageId) });
    await recordOperatorAction(
      tx,
      operator,
      'chat.delete',
      { memberId: BigInt(message.member_id), entity: 'chat_message', entityId: String(messageId) },
      { author: message.author, text: message.text, deleted: false },
      { author: message.author, text: message.text, deleted: true },
    );
    return { id: Number(messageId), deleted: true };
  });
}

export async function muteMember(
  db: Db,
  operator: TOperatorAuth,
  input: { username: string; minutes?: number | null | undefined; reason?: string | undefined },
) {
  return db.transaction(async (tx) => {
    const member = await findMemberByName(tx, operator.siteId, input.username);
    if (!member) throw new AppError('NOT_FOUND');
    const memberId = BigInt(member.id);
    // The author's row lock, as a post takes it: a post either committed before, or sees the mute.
    await lockAuthorRow(tx, memberId);
    const before = await findMute(tx, operator.siteId, memberId);
    await upsertMute(tx, {
      siteId: operator.siteId,
      memberId,
      minutes: input.minutes ?? null,
      reason: input.reason ?? '',
      operatorId: operator.operatorId,
    });
    const mute = await findMute(tx, operator.siteId, memberId);
    await recordOperatorAction(
      tx,
      operator,
      'chat.mute',
      { memberId, entity: 'member', entityId: member.username },
      { muted: before !== null, muted_until: before?.until ?? null },
      { muted: mute !== null, muted_until: mute?.until ?? null, reason: input.reason ?? '' },
    );
    return { username: member.username, muted: mute !== null, muted_until: mute?.until ?? null };
  });
}

export async function unmuteMember(db: Db, operator: TOperatorAuth, username: string) {
  return db.transaction(async (tx) => {
    const member = await findMemberByName(tx, operator.siteId, username);
    if (!member) throw new AppError('NOT_FOUND');
    const memberId = BigInt(member.id);
    const before = await findMute(tx, operator.siteId, memberId);
    await removeMute(tx, operator.siteId, memberId);
    await recordOperatorAction(
      tx,
      operator,
      'chat.unmute',
      { memberId, entity: 'member', entityId: member.username },
      { muted: before !== null, muted_until: before?.until ?? null },
      { muted: false, muted_until: null },
    );
    return { username: member.username, muted: false, muted_until: null };
  });
}

// Rain

export interface TRainResult {
  rainId: bigint | null;
  paid: number;
  eligible: number;
  shareMinor: bigint;
}

/**
 * The rain of one slot, exactly once: the rain row and its payouts (who, how much) are written in one
 * transaction; each payout is then paid in its own transaction (wallet transfer chat_rain under
 * chat-rain:<rain>:<member>, payout row marked paid, notification). A run stopped half way is
 * finished by the next `runRain` (or the job's next tick): paid payouts are skipped, so nobody is
 * paid twice and nobody is left out.
 */
export async function runRain(
  db: Db,
  site: TSite,
  slot: Date,
  hooks: { afterPayout?: (count: number) => void } = {},
): Promise<TRainResult> {
  const community = await getCommunity(db, site);
  if (!community.rain_enabled) return { rainId: null, paid: 0, eligible: 0, shareMinor: 0n };
  await db.transaction((tx) =>
    insertRain(tx, {
      siteId: site.id,
      slot,
      potMinor: BigInt(community.rain_pot_minor),
      windowMinutes: community.rain_window_minutes,
      minWagerMinor: BigInt(community.rain_min_wager_minor),
      wagerDays: community.rain_wager_days,
    }),
  );
  let paid = 0;
  let last: TRainRow | null = null;
  for (const rain of await findPayingRains(db, site.id)) {
    last = rain;
    paid += await payRain(db, site, rain, () => hooks.afterPayout?.(paid + 1));
  }
  return {
    rainId: last ? BigInt(last.id) : null,
    paid,
    eligible: last?.eligible ?? 0,
    shareMinor: last ? BigInt(last.share_minor) : 0n,
  };
}

async function payRain(db: Db, site: TSite, rain: TRainRow, afterPayout: () => void): Promise<number> {
  const rainId = BigInt(rain.id);
  let paid = 0;
  for (const memberId of await findUnpaidMembers(db, rainId)) {
    const done = await db.transaction(async (tx) => {
      const amount = await lockUnpaidPayout(tx, rainId, memberId);
      if (amount === null) return false;
      const result = await transfer(tx, {
        siteId: site.id,
        kind: 'chat_rain',
        from: { system: 'promotions_expense' },
        to: { memberId, account: 'cash' },
        amountMinor: amount,
        idempotencyKey: `chat-rain:${rainId}:${memberId}`,
        reference: `rain:${rainId}`,
        metadata: { rainId: rain.id, slot: rain.slot },
      });
      await markPayoutPaid(tx, rainId, memberId, result.transferId);
      await notify(tx, {
        siteId: site.id,
        memberId,
        kind: 'rain_received',
        params: { amount: formatMinor(amount) },
        dedupeKey: `rain:${rainId}`,
      });
      return true;
    });
    if (done) {
      paid += 1;
      afterPayout();
    }
  }
  await db.transaction(async (tx) => {
    if (await finishRain(tx, rainId)) {
      await publish(tx, site.id, {
        type: 'chat_rain',
        at: rain.slot,
        eligible: rain.eligible,
        share: formatMinor(BigInt(rain.share_minor)),
      });
    }
  });
  return paid;
}

/** The job's tick: the rain of the latest slot (and any rain left half paid) on every site with rain on. */
export async function rainDue(db: Db, sitesWithRain: TSite[], now = new Date()): Promise<TRainResult[]> {
  const results: TRainResult[] = [];
  for (const site of sitesWithRain) {
    const community = await getCommunity(db, site);
    if (!community.rain_enabled) continue;
    const period = community.rain_every_minutes * 60_000;
    const slot = new Date(Math.floor(now.getTime() / period) * period);
    results.push(await runRain(db, site, slot));
  }
  return results;
}
