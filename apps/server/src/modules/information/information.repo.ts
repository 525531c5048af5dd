import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { isoOf } from '../../db/sql.ts';
import type { TCommunityDefaults } from './information.profiles.ts';

/** SQL of the information centre (migrations/0030_information_centre.sql). */

async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export interface TNotificationRow {
  id: string;
  kind: string;
  params: Record<string, string>;
  read: boolean;
  created_at: string;
}

/** Inserts a notification; null when one with the same dedupe key exists already. */
export async function insertNotification(
  executor: Executor,
  input: {
    siteId: bigint;
    memberId: bigint;
    kind: string;
    params: Record<string, string>;
    dedupeKey: string | null;
  },
): Promise<TNotificationRow | null> {
  const [row] = await rowsOf<TNotificationRow>(
    executor,
    sql`INSERT INTO member_notifications (site_id, member_id, kind, params, dedupe_key)
        VALUES (${input.siteId}, ${input.memberId}, ${input.kind}, ${JSON.stringify(input.params)}::jsonb,
                ${input.dedupeKey})
        ON CONFLICT (member_id, dedupe_key) DO NOTHING
        RETURNING id::text, kind, params, false AS read,
                  ${isoOf('created_at')} AS created_at`,
  );
  return row ?? null;
}

export async function findNotifications(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  limit: number,
): Promise<TNotificationRow[]> {
  return rowsOf<TNotificationRow>(
    executor,
    sql`SELECT id::text, kind, params, read_at IS NOT NULL AS read,
               ${isoOf('created_at')} AS created_at
        FROM member_notifications
        WHERE member_id = ${memberId} AND site_id = ${siteId}
        ORDER BY id DESC LIMIT ${limit}`,
  );
}

export async function countUnread(executor: Executor, siteId: bigint, memberId: bigint): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    executor,
    sql`SELECT count(*)::int AS n FROM member_notifications
        WHERE member_id = ${memberId} AND site_id = ${siteId} AND read_at IS NULL`,
  );
  return row?.n ?? 0;
}

/** Marks the member's notifications read: the ids given, or all when ids is null. */
export async function markRead(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  ids: bigint[] | null,
): Promise<void> {
  const only = ids
    ? sql`AND id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  if (ids && ids.length === 0) return;
  await executor.execute(
    sql`UPDATE member_notifications SET read_at = now()
        WHERE member_id = ${memberId} AND site_id = ${siteId} AND read_at IS NULL ${only}`,
  );
}

/**
 * Whether this login comes from a browser the member never logged in with before (a member's first
 * login ever is no "new device"). Reads the security module's login log, written after this check.
 */
export async function isUnknownDevice(
  executor: Executor,
  memberId: bigint,
  userAgent: string | null,
): Promise<boolean> {
  if (!userAgent) return false;
  const [row] = await rowsOf<{ logins: number; same: number }>(
    executor,
    sql`SELECT count(*)::int AS logins,
               count(*) FILTER (WHERE user_agent = ${userAgent.slice(0, 512)})::int AS same
        FROM member_security_events
        WHERE member_id = ${memberId} AND kind = 'login'`,
  );
  return (row?.logins ?? 0) > 0 && (row?.same ?? 0) === 0;
}

export interface TAnnouncementRow {
  id: string;
  title: Record<string, string>;
  body: Record<string, string>;
  published_at: string;
}

export async function findAnnouncements(executor: Executor, siteId: bigint): Promise<TAnnouncementRow[]> {
  return rowsOf<TAnnouncementRow>(
    executor,
    sql`SELECT id::text, title, body,
               ${isoOf('published_at')} AS published_at
        FROM site_announcements
        WHERE site_id = ${siteId} AND published_at <= now() AND (expires_at IS NULL OR expires_at > now())
        ORDER BY position, published_at DESC, id
        LIMIT 50`,
  );
}

export interface TCommunityRow {
  support_chat_url: string | null;
  chat_enabled: boolean;
  chat_max_chars: number;
  chat_rate_messages: number;
  chat_rate_seconds: number;
  chat_history: number;
  rain_enabled: boolean;
  rain_off_reason: string | null;
  rain_every_minutes: number;
  rain_pot_minor: string;
  rain_window_minutes: number;
  rain_min_wager_minor: string;
  rain_wager_days: number;
}

export async function findCommunity(executor: Executor, siteId: bigint): Promise<TCommunityRow | null> {
  const [row] = await rowsOf<TCommunityRow>(
    executor,
    sql`SELECT support_chat_url, chat_enabled, chat_max_chars, chat_rate_messages, chat_rate_seconds,
               chat_history, rain_enabled, rain_off_reason, rain_every_minutes,
               rain_pot_minor::text AS rain_pot_minor, rain_window_minutes,
               rain_min_wager_minor::text AS rain_min_wager_minor, rain_wager_days
        FROM site_community WHERE site_id = ${siteId}`,
  );
  return row ?? null;
}

/** Creates the site's community row and announcements from its profile (once; concurrent callers agree). */
export async function insertCommunityDefaults(
  executor: Executor,
  siteId: bigint,
  defaults: TCommunityDefaults,
  announcements: {
    code: string;
    position: number;
    title: Record<string, string>;
    body: Record<string, string>;
  }[],
): Promise<boolean> {
  const inserted = await rowsOf<{ site_id: string }>(
    executor,
    sql`INSERT INTO site_community (site_id, chat_enabled, chat_max_chars, chat_rate_messages,
          chat_rate_seconds, chat_history, rain_enabled, rain_off_reason, rain_every_minutes,
          rain_pot_minor, rain_window_minutes, rain_min_wager_minor, rain_wager_days)
        VALUES (${siteId}, ${defaults.chatEnabled}, ${defaults.chatMaxChars}, ${defaults.chatRateMessages},
          ${defaults.chatRateSeconds}, ${defaults.chatHistory}, ${defaults.rainEnabled},
          ${defaults.rainOffReason}, ${defaults.rainEveryMinutes}, ${defaults.rainPotMinor},
          ${defaults.rainWindowMinutes}, ${defaults.rainMinWagerMinor}, ${defaults.rainWagerDays})
        ON CONFLICT (site_id) DO NOTHING
        RETURNING site_id::text`,
  );
  if (inserted.length === 0) return false;
  for (const item of announcements) {
    await executor.execute(
      sql`INSERT INTO site_announcements (site_id, code, title, body, position)
          VALUES (${siteId}, ${item.code}, ${JSON.stringify(item.title)}::jsonb,
                  ${JSON.stringify(item.body)}::jsonb, ${item.position})
          ON CONFLICT (site_id, code) DO NOTHING`,
    );
  }
  return true;
}

/** Operator settings of the site's chat and rain (a partial update). */
export async function updateCommunity(
  executor: Executor,
  siteId: bigint,
  changes: Partial<{
    chat_enabled: boolean;
    rain_enabled: boolean;
    rain_every_minutes: number;
    rain_pot_minor: bigint;
  }>,
): Promise<void> {
  const sets: SQL[] = [];
  if (changes.chat_enabled !== undefined) sets.push(sql`chat_enabled = ${changes.chat_enabled}`);
  if (changes.rain_enabled !== undefined) sets.push(sql`rain_enabled = ${changes.rain_enabled}`);
  if (changes.rain_every_minutes !== undefined)
    sets.push(sql`rain_every_minutes = ${changes.rain_every_minutes}`);
  if (changes.rain_pot_minor !== undefined) sets.push(sql`rain_pot_minor = ${changes.rain_pot_minor}`);
  if (sets.length === 0) return;
  await executor.execute(
    sql`UPDATE site_community SET ${sql.join(sets, sql`, `)}, updated_at = now() WHERE site_id = ${siteId}`,
  );
}
