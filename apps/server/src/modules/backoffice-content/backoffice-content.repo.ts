import type { TGameCategory, TGameTag } from '@sorte/contract';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { containsPattern, isoText, rowsOf } from '../../db/sql.ts';
import { paymentChannels, type TPaymentChannelRow } from '../deposits/deposits.schema.ts';
import { siteGames } from '../games/games.schema.ts';
import { siteDomains, siteSocialLinks, sites, type TSiteRow } from '../sites/sites.schema.ts';
import {
  type TWithdrawalChannelFeeRow,
  type TWithdrawalSettingsRow,
  withdrawalChannelFees,
  withdrawalSettings,
} from '../withdrawals/withdrawals.schema.ts';

/**
 * SQL of the back office's content screens: the operator's reads over the tables the player-facing
 * modules own (every row of the site, switched-off ones too) and the writes of their settings rows.
 * Each function takes the executor (database or transaction) it runs in and one site id: an
 * operator never reads or writes another site's rows.
 */

const s = (v: bigint) => v.toString();

// Sites ----------------------------------------------------------------------------------------

/** The site row, locked for the rest of the transaction (edits of one site take turns). */
export async function lockSite(executor: Executor, siteId: bigint): Promise<TSiteRow> {
  const [row] = await executor.select().from(sites).where(eq(sites.id, siteId)).for('no key update');
  if (!row) throw new Error(`site ${siteId} missing`);
  return row;
}

export async function findSiteRow(executor: Executor, siteId: bigint): Promise<TSiteRow> {
  const [row] = await executor.select().from(sites).where(eq(sites.id, siteId));
  if (!row) throw new Error(`site ${siteId} missing`);
  return row;
}

export async function findHosts(executor: Executor, siteId: bigint): Promise<string[]> {
  const rows = await executor
    .select({ host: siteDomains.host })
    .from(siteDomains)
    .where(eq(siteDomains.siteId, siteId))
    .orderBy(asc(siteDomains.host));
  return rows.map((r) => r.host);
}

/** Host names of the list that answer for another site. */
export async function findHostsOfOtherSites(
  executor: Executor,
  siteId: bigint,
  hosts: string[],
): Promise<string[]> {
  if (hosts.length === 0) return [];
  const rows = await executor
    .select({ host: siteDomains.host })
    .from(siteDomains)
    .where(and(inArray(siteDomains.host, hosts), ne(siteDomains.siteId, siteId)));
  return rows.map((r) => r.host);
}

export async function replaceHosts(executor: Executor, siteId: bigint, hosts: string[]): Promise<void> {
  await executor.delete(siteDomains).where(
    and(
      eq(siteDomains.siteId, siteId),
      sql`${siteDomains.host} <> ALL(ARRAY[${sql.join(
        hosts.map((h) => sql`${h}`),
        sql`, `,
      )}]::text[])`,
    ),
  );
  await executor
    .insert(siteDomains)
    .values(hosts.map((host) => ({ host, siteId })))
    .onConflictDoNothing();
}

export async function findSocialLinkRows(executor: Executor, siteId: bigint) {
  return executor
    .select({ name: siteSocialLinks.name, url: siteSocialLinks.url })
    .from(siteSocialLinks)
    .where(eq(siteSocialLinks.siteId, siteId))
    .orderBy(asc(siteSocialLinks.position));
}

export async function replaceSocialLinks(
  executor: Executor,
  siteId: bigint,
  links: { name: string; url: string }[],
): Promise<void> {
  await executor.delete(siteSocialLinks).where(eq(siteSocialLinks.siteId, siteId));
  if (links.length === 0) return;
  await executor
    .insert(siteSocialLinks)
    .values(links.map((link, position) => ({ siteId, name: link.name, url: link.url, position })));
}

export async function updateSiteRow(
  executor: Executor,
  siteId: bigint,
  values: Partial<Omit<TSiteRow, 'id' | 'code' | 'createdAt'>>,
): Promise<void> {
  await executor.update(sites).set(values).where(eq(sites.id, siteId));
}

// Payment channels and withdrawal rules --------------------------------------------------------

/** The site's deposit channels (switched-off ones too): its own rows, else the defaults it inherits. */
export async function findChannelsForEdit(
  executor: Executor,
  siteId: bigint,
): Promise<{ rows: TPaymentChannelRow[]; inherited: boolean }> {
  const own = await executor
    .select()
    .from(paymentChannels)
    .where(eq(paymentChannels.siteId, siteId))
    .orderBy(asc(paymentChannels.position), asc(paymentChannels.id));
  if (own.length > 0) return { rows: own, inherited: false };
  const defaults = await executor
    .select()
    .from(paymentChannels)
    .where(isNull(paymentChannels.siteId))
    .orderBy(asc(paymentChannels.position), asc(paymentChannels.id));
  return { rows: defaults, inherited: true };
}

export type TChannelValues = Omit<TPaymentChannelRow, 'id' | 'siteId'>;

/** The site's channel list becomes exactly `channels` (its own rows; the defaults stay for other sites). */
export async function replaceChannels(
  executor: Executor,
  siteId: bigint,
  channels: TChannelValues[],
): Promise<void> {
  await executor.delete(paymentChannels).where(
    and(
      eq(paymentChannels.siteId, siteId),
      sql`${paymentChannels.code} <> ALL(ARRAY[${sql.join(
        channels.map((c) => sql`${c.code}`),
        sql`, `,
      )}]::text[])`,
    ),
  );
  for (const channel of channels) {
    await executor
      .insert(paymentChannels)
      .values({ ...channel, siteId })
      .onConflictDoUpdate({
        target: [paymentChannels.siteId, paymentChannels.code],
        set: { ...channel },
      });
  }
}

export async function findWithdrawalRulesForEdit(
  executor: Executor,
  siteId: bigint,
): Promise<{ settings: TWithdrawalSettingsRow; fees: TWithdrawalChannelFeeRow[] }> {
  const settings = await executor
    .select()
    .from(withdrawalSettings)
    .where(sql`${withdrawalSettings.siteId} = ${s(siteId)}::bigint OR ${withdrawalSettings.siteId} IS NULL`);
  const fees = await executor
    .select()
    .from(withdrawalChannelFees)
    .where(
      sql`${withdrawalChannelFees.siteId} = ${s(siteId)}::bigint OR ${withdrawalChannelFees.siteId} IS NULL`,
    )
    .orderBy(asc(withdrawalChannelFees.channel));
  const own = fees.filter((f) => f.siteId === siteId);
  const byChannel = new Map<string, TWithdrawalChannelFeeRow>();
  for (const fee of fees.filter((f) => f.siteId === null)) byChannel.set(fee.channel, fee);
  for (const fee of own) byChannel.set(fee.channel, fee);
  const row = settings.find((r) => r.siteId === siteId) ?? settings.find((r) => r.siteId === null);
  if (!row) throw new Error('withdrawal_settings has no default row');
  return { settings: row, fees: [...byChannel.values()] };
}

export async function saveWithdrawalRules(
  executor: Executor,
  siteId: bigint,
  rules: {
    minMinor: bigint;
    maxMinor: bigint;
    dailyCountMax: number;
    fees: { channel: string; feeBps: number; feeMinMinor: bigint }[];
  },
): Promise<void> {
  const values = { minMinor: rules.minMinor, maxMinor: rules.maxMinor, dailyCountMax: rules.dailyCountMax };
  await executor
    .insert(withdrawalSettings)
    .values({ siteId, ...values })
    .onConflictDoUpdate({ target: [withdrawalSettings.siteId], set: values });
  await executor.delete(withdrawalChannelFees).where(eq(withdrawalChannelFees.siteId, siteId));
  await executor.insert(withdrawalChannelFees).values(rules.fees.map((fee) => ({ siteId, ...fee })));
}

// Game catalogue -------------------------------------------------------------------------------

export interface TAdminGameRow {
  id: string;
  code: string;
  name: string;
  provider: string;
  provider_name: string;
  is_inhouse: boolean;
  catalogue_enabled: boolean;
  enabled: boolean;
  position: number;
  category: TGameCategory;
  tags: TGameTag[];
  thumbnail: string | null;
}

export interface TAdminGameFilter {
  search?: string | undefined;
  category?: TGameCategory | undefined;
  provider?: string | undefined;
  enabled?: boolean | undefined;
}

function gameFilter(siteId: bigint, filter: TAdminGameFilter) {
  const parts = [sql`TRUE`];
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    parts.push(sql`(g.name ILIKE ${pattern} OR g.code ILIKE ${pattern})`);
  }
  if (filter.category) parts.push(sql`coalesce(sg.category, g.category) = ${filter.category}`);
  if (filter.provider) parts.push(sql`p.code = ${filter.provider}`);
  if (filter.enabled !== undefined)
    parts.push(sql`(g.enabled AND coalesce(sg.enabled, true)) = ${filter.enabled}`);
  return sql`FROM games g
      JOIN game_providers p ON p.id = g.provider_id
      LEFT JOIN site_games sg ON sg.game_id = g.id AND sg.site_id = ${s(siteId)}::bigint
      WHERE ${sql.join(parts, sql` AND `)}`;
}

const GAME_COLUMNS = sql`g.id::text AS id, g.code, g.name, p.code AS provider, p.name AS provider_name,
    g.is_inhouse, g.enabled AS catalogue_enabled, (g.enabled AND coalesce(sg.enabled, true)) AS enabled,
    coalesce(sg.position, g.position) AS position, coalesce(sg.category, g.category) AS category,
    coalesce(sg.tags, g.tags) AS tags, g.thumbnail`;

function arrayOf(value: unknown): string[] {
  if (Array.isArray(value)) return value as string[];
  // A text[] may come back as its literal ("{new,hot}") from one of the drivers.
  const text = String(value ?? '{}');
  return text === '{}' ? [] : text.replace(/^\{|\}$/g, '').split(',');
}

function toGame(row: TAdminGameRow): TAdminGameRow {
  return { ...row, position: Number(row.position), tags: arrayOf(row.tags) as TGameTag[] };
}

/** Every game of the catalogue as this site shows it (switched-off ones too), in lobby order. */
export async function findAdminGames(
  executor: Executor,
  siteId: bigint,
  filter: TAdminGameFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: TAdminGameRow[]; total: number }> {
  const where = gameFilter(siteId, filter);
  const [rows, counted] = await Promise.all([
    rowsOf<TAdminGameRow>(
      executor,
      sql`SELECT ${GAME_COLUMNS} ${where}
          ORDER BY coalesce(sg.position, g.position), g.id LIMIT ${page.limit} OFFSET ${page.offset}`,
    ),
    rowsOf<{ n: number }>(executor, sql`SELECT count(*)::int AS n ${where}`),
  ]);
  return { rows: rows.map(toGame), total: Number(counted[0]?.n ?? 0) };
}

export async function findAdminGame(
  executor: Executor,
  siteId: bigint,
  gameId: bigint,
  lock = false,
): Promise<TAdminGameRow | null> {
  const rows = await rowsOf<TAdminGameRow>(
    executor,
    sql`SELECT ${GAME_COLUMNS} ${gameFilter(siteId, {})} AND g.id = ${s(gameId)}::bigint
        ${lock ? sql`FOR NO KEY UPDATE OF g` : sql``}`,
  );
  return rows[0] ? toGame(rows[0]) : null;
}

/** The site's own values for a game (only the fields given change). */
export async function upsertSiteGame(
  executor: Executor,
  siteId: bigint,
  gameId: bigint,
  values: { enabled?: boolean; position?: number; category?: TGameCategory; tags?: TGameTag[] },
): Promise<void> {
  await executor
    .insert(siteGames)
    .values({ siteId, gameId, enabled: values.enabled ?? true, ...values })
    .onConflictDoUpdate({ target: [siteGames.siteId, siteGames.gameId], set: values });
}

// Promotions -----------------------------------------------------------------------------------

export async function updateCampaignRow(
  executor: Executor,
  siteId: bigint,
  code: string,
  values: { enabled: boolean; offReason: string | null; position: number; rules: unknown },
): Promise<void> {
  await executor.execute(sql`
    UPDATE promo_campaigns SET enabled = ${values.enabled}, off_reason = ${values.offReason},
      position = ${values.position}, rules = ${JSON.stringify(values.rules)}::jsonb, updated_at = now()
    WHERE site_id = ${s(siteId)}::bigint AND code = ${code}`);
}

export async function lockCampaigns(executor: Executor, siteId: bigint): Promise<void> {
  await executor.execute(
    sql`SELECT id FROM promo_campaigns WHERE site_id = ${s(siteId)}::bigint ORDER BY id FOR NO KEY UPDATE`,
  );
}

// Announcements, notifications, terms ----------------------------------------------------------

export interface TAnnouncementAdminRow {
  id: string;
  code: string;
  title: Record<string, string>;
  body: Record<string, string>;
  position: number;
  published_at: unknown;
  expires_at: unknown;
  live: boolean;
}

const ANNOUNCEMENT_COLUMNS = sql`id::text AS id, code, title, body, position, published_at, expires_at,
  (published_at <= now() AND (expires_at IS NULL OR expires_at > now())) AS live`;

export function announcementView(row: TAnnouncementAdminRow) {
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, string>;
  return {
    id: Number(row.id),
    code: row.code,
    title: json(row.title),
    body: json(row.body),
    position: Number(row.position),
    published_at: isoText(row.published_at),
    expires_at: row.expires_at === null || row.expires_at === undefined ? null : isoText(row.expires_at),
    live: Boolean(row.live),
  };
}

export async function findAnnouncementsPage(
  executor: Executor,
  siteId: bigint,
  page: { offset: number; limit: number },
) {
  const [rows, counted] = await Promise.all([
    rowsOf<TAnnouncementAdminRow>(
      executor,
      sql`SELECT ${ANNOUNCEMENT_COLUMNS} FROM site_announcements WHERE site_id = ${s(siteId)}::bigint
          ORDER BY published_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    ),
    rowsOf<{ n: number }>(
      executor,
      sql`SELECT count(*)::int AS n FROM site_announcements WHERE site_id = ${s(siteId)}::bigint`,
    ),
  ]);
  return { rows: rows.map(announcementView), total: Number(counted[0]?.n ?? 0) };
}

export async function findAnnouncement(executor: Executor, siteId: bigint, id: bigint, lock = false) {
  const rows = await rowsOf<TAnnouncementAdminRow>(
    executor,
    sql`SELECT ${ANNOUNCEMENT_COLUMNS} FROM site_announcements
        WHERE site_id = ${s(siteId)}::bigint AND id = ${s(id)}::bigint ${lock ? sql`FOR NO KEY UPDATE` : sql``}`,
  );
  return rows[0] ? announcementView(rows[0]) : null;
}

export async function announcementCodeTaken(
  executor: Executor,
  siteId: bigint,
  code: string,
  exceptId: bigint | null,
): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`SELECT id::text AS id FROM site_announcements WHERE site_id = ${s(siteId)}::bigint AND code = ${code}
        AND (${exceptId === null ? null : s(exceptId)}::bigint IS NULL OR id <> ${exceptId === null ? null : s(exceptId)}::bigint)`,
  );
  return rows.length > 0;
}

export interface TAnnouncementValues {
  code: string;
  title: Record<string, string>;
  body: Record<string, string>;
  position: number;
  publishedAt: string | null;
  expiresAt: string | null;
}

export async function insertAnnouncement(executor: Executor, siteId: bigint, values: TAnnouncementValues) {
  const rows = await rowsOf<TAnnouncementAdminRow>(
    executor,
    sql`INSERT INTO site_announcements (site_id, code, title, body, position, published_at, expires_at)
        VALUES (${s(siteId)}::bigint, ${values.code}, ${JSON.stringify(values.title)}::jsonb,
                ${JSON.stringify(values.body)}::jsonb, ${values.position},
                coalesce(${values.publishedAt}::timestamptz, now()), ${values.expiresAt}::timestamptz)
        RETURNING ${ANNOUNCEMENT_COLUMNS}`,
  );
  return announcementView(rows[0]!);
}

export async function updateAnnouncement(
  executor: Executor,
  siteId: bigint,
  id: bigint,
  values: TAnnouncementValues,
) {
  const rows = await rowsOf<TAnnouncementAdminRow>(
    executor,
    sql`UPDATE site_announcements SET code = ${values.code}, title = ${JSON.stringify(values.title)}::jsonb,
          body = ${JSON.stringify(values.body)}::jsonb, position = ${values.position},
          published_at = coalesce(${values.publishedAt}::timestamptz, published_at),
          expires_at = ${values.expiresAt}::timestamptz
        WHERE site_id = ${s(siteId)}::bigint AND id = ${s(id)}::bigint
        RETURNING ${ANNOUNCEMENT_COLUMNS}`,
  );
  return announcementView(rows[0]!);
}

export async function deleteAnnouncement(executor: Executor, siteId: bigint, id: bigint): Promise<void> {
  await executor.execute(
    sql`DELETE FROM site_announcements WHERE site_id = ${s(siteId)}::bigint AND id = ${s(id)}::bigint`,
  );
}

/** Ids of the site's active players (status 1), for a message to everybody. */
export async function findActiveMemberIds(executor: Executor, siteId: bigint): Promise<bigint[]> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`SELECT id::text AS id FROM members WHERE site_id = ${s(siteId)}::bigint AND status = 1 ORDER BY id`,
  );
  return rows.map((r) => BigInt(r.id));
}

export async function findTermsVersions(executor: Executor, siteId: bigint) {
  const rows = await rowsOf<{
    version: number;
    effective_at: unknown;
    summary: string;
    announced_by: string | null;
    announced_at: unknown;
    accepted: number;
  }>(
    executor,
    // A site without a version 1 row has the terms it launched with (the terms module counts from
    // 1): shown as version 1 from the site's creation, accepted by every player at sign-up.
    sql`SELECT * FROM (
          SELECT v.version, v.effective_at, v.summary, o.username AS announced_by, v.announced_at,
                 (SELECT count(*)::int FROM terms_acceptances a WHERE a.terms_version_id = v.id) AS accepted
            FROM terms_versions v LEFT JOIN operators o ON o.id = v.announced_by
           WHERE v.site_id = ${s(siteId)}::bigint
          UNION ALL
          SELECT 1, st.created_at, '', NULL, st.created_at,
                 (SELECT count(*)::int FROM members m WHERE m.site_id = st.id)
            FROM sites st
           WHERE st.id = ${s(siteId)}::bigint
             AND NOT EXISTS (SELECT 1 FROM terms_versions v WHERE v.site_id = st.id AND v.version = 1)
        ) versions ORDER BY version DESC LIMIT 200`,
  );
  return rows.map((r) => ({
    version: Number(r.version),
    effective_at: isoText(r.effective_at),
    summary: r.summary,
    announced_by: r.announced_by,
    announced_at: isoText(r.announced_at),
    accepted: Number(r.accepted),
  }));
}

// Chat -----------------------------------------------------------------------------------------

export async function findChatMessagesPage(
  executor: Executor,
  siteId: bigint,
  filter: { username?: string | undefined; deleted?: boolean | undefined },
  page: { offset: number; limit: number },
) {
  const parts = [sql`m.site_id = ${s(siteId)}::bigint`];
  if (filter.username) parts.push(sql`mem.username_lower = lower(${filter.username})`);
  if (filter.deleted !== undefined)
    parts.push(filter.deleted ? sql`m.deleted_at IS NOT NULL` : sql`m.deleted_at IS NULL`);
  const where = sql`FROM chat_messages m
      JOIN members mem ON mem.id = m.member_id
      LEFT JOIN operators o ON o.id = m.deleted_by
      LEFT JOIN chat_mutes mu ON mu.site_id = m.site_id AND mu.member_id = m.member_id
        AND (mu.until IS NULL OR mu.until > now())
      WHERE ${sql.join(parts, sql` AND `)}`;
  const [rows, counted] = await Promise.all([
    rowsOf<{
      id: string;
      username: string;
      author: string;
      text: string;
      created_at: unknown;
      deleted_at: unknown;
      deleted_by: string | null;
      muted: boolean;
      muted_until: unknown;
    }>(
      executor,
      sql`SELECT m.id::text AS id, mem.username, m.author, m.text, m.created_at, m.deleted_at,
                 o.username AS deleted_by, mu.member_id IS NOT NULL AS muted, mu.until AS muted_until
          ${where} ORDER BY m.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    ),
    rowsOf<{ n: number }>(executor, sql`SELECT count(*)::int AS n ${where}`),
  ]);
  return {
    rows: rows.map((r) => ({
      id: Number(r.id),
      username: r.username,
      author: r.author,
      text: r.text,
      created_at: isoText(r.created_at),
      deleted_at: r.deleted_at ? isoText(r.deleted_at) : null,
      deleted_by: r.deleted_by,
      muted: Boolean(r.muted),
      muted_until: r.muted_until ? isoText(r.muted_until) : null,
    })),
    total: Number(counted[0]?.n ?? 0),
  };
}

export async function findChatMessage(executor: Executor, siteId: bigint, id: bigint) {
  const rows = await rowsOf<{ id: string; member_id: string; text: string; deleted_at: unknown }>(
    executor,
    sql`SELECT id::text AS id, member_id::text AS member_id, text, deleted_at FROM chat_messages
        WHERE site_id = ${s(siteId)}::bigint AND id = ${s(id)}::bigint`,
  );
  return rows[0] ?? null;
}

export async function findActiveMutes(executor: Executor, siteId: bigint) {
  const rows = await rowsOf<{
    username: string;
    until: unknown;
    reason: string;
    muted_by: string | null;
    created_at: unknown;
  }>(
    executor,
    sql`SELECT mem.username, mu.until, mu.reason, o.username AS muted_by, mu.created_at
          FROM chat_mutes mu JOIN members mem ON mem.id = mu.member_id
          LEFT JOIN operators o ON o.id = mu.muted_by
         WHERE mu.site_id = ${s(siteId)}::bigint AND (mu.until IS NULL OR mu.until > now())
         ORDER BY mu.created_at DESC LIMIT 500`,
  );
  return rows.map((r) => ({
    username: r.username,
    until: r.until ? isoText(r.until) : null,
    reason: r.reason,
    muted_by: r.muted_by,
    created_at: isoText(r.created_at),
  }));
}

/** The mute of a member (by username) as it stands, for the audit entry. */
export async function findMuteByUsername(executor: Executor, siteId: bigint, username: string) {
  const rows = await rowsOf<{ member_id: string; until: unknown; reason: string }>(
    executor,
    sql`SELECT mem.id::text AS member_id, mu.until, mu.reason
          FROM members mem LEFT JOIN chat_mutes mu ON mu.member_id = mem.id AND mu.site_id = mem.site_id
         WHERE mem.site_id = ${s(siteId)}::bigint AND mem.username_lower = lower(${username})`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    memberId: BigInt(row.member_id),
    mute:
      row.reason !== null && row.reason !== undefined
        ? { until: row.until ? isoText(row.until) : null, reason: row.reason }
        : null,
  };
}

/** Every field of the site's community row an operator sets. */
export async function saveCommunity(
  executor: Executor,
  siteId: bigint,
  values: {
    supportChatUrl: string | null;
    chatEnabled: boolean;
    chatMaxChars: number;
    chatRateMessages: number;
    chatRateSeconds: number;
    chatHistory: number;
    rainEnabled: boolean;
    rainOffReason: string | null;
    rainEveryMinutes: number;
    rainPotMinor: bigint;
    rainWindowMinutes: number;
    rainMinWagerMinor: bigint;
    rainWagerDays: number;
  },
): Promise<void> {
  await executor.execute(sql`
    UPDATE site_community SET support_chat_url = ${values.supportChatUrl}, chat_enabled = ${values.chatEnabled},
      chat_max_chars = ${values.chatMaxChars}, chat_rate_messages = ${values.chatRateMessages},
      chat_rate_seconds = ${values.chatRateSeconds}, chat_history = ${values.chatHistory},
      rain_enabled = ${values.rainEnabled}, rain_off_reason = ${values.rainOffReason},
      rain_every_minutes = ${values.rainEveryMinutes}, rain_pot_minor = ${s(values.rainPotMinor)}::bigint,
      rain_window_minutes = ${values.rainWindowMinutes},
      rain_min_wager_minor = ${s(values.rainMinWagerMinor)}::bigint, rain_wager_days = ${values.rainWagerDays},
      updated_at = now()
    WHERE site_id = ${s(siteId)}::bigint`);
}

export async function lockCommunity(executor: Executor, siteId: bigint): Promise<void> {
  await executor.execute(
    sql`SELECT site_id FROM site_community WHERE site_id = ${s(siteId)}::bigint FOR NO KEY UPDATE`,
  );
}
