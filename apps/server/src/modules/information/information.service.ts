import {
  NOTIFICATION_PAGE_SIZE,
  type TAnnouncementListResponse,
  type TLanguage,
  type TNotification,
  type TNotificationKind,
  type TNotificationListResponse,
  type TNotificationPush,
  type TSupportResponse,
} from '@sorte/contract';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { pushToMember } from '../realtime/member-channel.ts';
import { getSocialLinks } from '../sites/sites.service.ts';
import { ANNOUNCEMENT_DEFAULTS, COMMUNITY_DEFAULTS } from './information.profiles.ts';
import {
  countUnread,
  findAnnouncements,
  findCommunity,
  findNotifications,
  insertCommunityDefaults,
  insertNotification,
  isUnknownDevice,
  markRead,
  type TCommunityRow,
  type TNotificationRow,
} from './information.repo.ts';

/**
 * The information centre (spec §2 /information-center/support, /notification, /announcement; §7
 * api/informationcenter/*). Notifications are written by the flows they tell about, in their
 * transaction, through `notify`; the live push leaves when that transaction commits.
 */

export interface TNotifyInput {
  siteId: bigint;
  memberId: bigint;
  kind: TNotificationKind;
  /** Facts the text names (amount as "25.00", order_no, level, …); strings only. */
  params?: Record<string, string>;
  /** Same key for the same member → one notification (a retried webhook notifies once). */
  dedupeKey?: string;
}

/**
 * Tells a member something: stores the notification and pushes it to their open sockets on commit.
 * Call it inside the transaction of the change it tells about. Where to call it:
 * deposits (deposit_paid), withdrawals (withdraw_reviewed / _paid / _rejected / _failed), auth login
 * (login_new_device, via notifyIfNewDevice), promotions (level_up when a VIP level is reached,
 * reward_granted when a bonus grant is credited), agency (commission_settled), chat (rain_received).
 */
export async function notify(executor: Executor, input: TNotifyInput): Promise<void> {
  const row = await insertNotification(executor, {
    siteId: input.siteId,
    memberId: input.memberId,
    kind: input.kind,
    params: input.params ?? {},
    dedupeKey: input.dedupeKey ?? null,
  });
  if (!row) return;
  const push: TNotificationPush = {
    type: 'notification',
    notification: toNotification(row),
    unread: await countUnread(executor, input.siteId, input.memberId),
  };
  await pushToMember(executor, input.siteId, input.memberId, { ...push });
}

/** A short name of the browser and system of a user agent ("Chrome on Android"). */
export function deviceName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\/|Opera/.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iOS/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (browser && system) return `${browser} / ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}

/**
 * Before a login is recorded: a notification when it comes from a browser this member never logged
 * in with (their first login ever is not one).
 */
export async function notifyIfNewDevice(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  client: { ip: string | null; userAgent: string | null },
): Promise<void> {
  if (!(await isUnknownDevice(executor, memberId, client.userAgent))) return;
  await notify(executor, {
    siteId: site.id,
    memberId,
    kind: 'login_new_device',
    params: { ip: client.ip ?? '', device: deviceName(client.userAgent ?? '') },
  });
}

function toNotification(row: TNotificationRow): TNotification {
  return {
    id: Number(row.id),
    kind: row.kind as TNotificationKind,
    params: row.params,
    read: row.read,
    created_at: row.created_at,
  };
}

export async function listNotifications(
  executor: Executor,
  site: TSite,
  memberId: bigint,
): Promise<TNotificationListResponse> {
  const [rows, unread] = await Promise.all([
    findNotifications(executor, site.id, memberId, NOTIFICATION_PAGE_SIZE),
    countUnread(executor, site.id, memberId),
  ]);
  return { data: rows.map(toNotification), unread };
}

export async function unreadCount(executor: Executor, site: TSite, memberId: bigint) {
  return { unread: await countUnread(executor, site.id, memberId) };
}

export async function readNotifications(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  input: { ids?: number[] | undefined; all?: boolean | undefined },
) {
  const ids = input.all || !input.ids ? null : input.ids.map((id) => BigInt(id));
  await markRead(executor, site.id, memberId, ids);
  return { unread: await countUnread(executor, site.id, memberId) };
}

/** The site's community settings, created from its jurisdiction profile the first time. */
export async function getCommunity(executor: Executor, site: TSite): Promise<TCommunityRow> {
  const found = await findCommunity(executor, site.id);
  if (found) return found;
  const seeds = ANNOUNCEMENT_DEFAULTS[site.jurisdiction].map((seed) => ({
    code: seed.code,
    position: seed.position,
    title: withSiteName(seed.title, site.name),
    body: seed.body,
  }));
  await insertCommunityDefaults(executor, site.id, COMMUNITY_DEFAULTS[site.jurisdiction], seeds);
  const created = await findCommunity(executor, site.id);
  if (!created) throw new Error(`site_community missing for site ${site.id}`);
  return created;
}

function withSiteName(texts: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(texts).map(([lang, text]) => [lang, text.replaceAll('{site}', name)]),
  );
}

export async function getSupport(executor: Executor, site: TSite): Promise<TSupportResponse> {
  const [community, channels] = await Promise.all([
    getCommunity(executor, site),
    getSocialLinks(executor, site),
  ]);
  return {
    telegramLink: site.telegramLink,
    channels,
    support_chat: { url: community.support_chat_url, room: community.chat_enabled },
  };
}

export async function listAnnouncements(
  executor: Executor,
  site: TSite,
  lang: TLanguage,
): Promise<TAnnouncementListResponse> {
  await getCommunity(executor, site);
  const rows = await findAnnouncements(executor, site.id);
  const pick = (texts: Record<string, string>) => texts[lang] ?? texts[site.defaultLang] ?? texts.en ?? '';
  return {
    data: rows.map((row) => ({
      id: Number(row.id),
      title: pick(row.title),
      body: pick(row.body),
      published_at: row.published_at,
    })),
  };
}
