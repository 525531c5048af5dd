import {
  formatMinor,
  parseMinor,
  type TAdminAgencyRules,
  type TAdminAnnouncementInput,
  type TAdminCampaign,
  type TAdminCampaignUpdate,
  type TAdminGame,
  type TAdminGamesPage,
  type TAdminGamesQuery,
  type TAdminGameUpdate,
  type TAdminNotificationInput,
  type TAdminPaymentChannel,
  type TAgencyRulesInput,
  type TCommunitySettings,
  type TCommunitySettingsUpdate,
  type TLanguage,
  type TPaymentChannelsUpdate,
  type TSiteSettings,
  type TSiteSettingsUpdate,
  type TWithdrawalRules,
  type TWithdrawalRulesUpdate,
  translate,
} from '@sorte/contract';
import type { TOperatorAuth } from '../../core/audit.ts';
import { recordOperatorAction } from '../../core/audit.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, fieldError } from '../../errors.ts';
import {
  AGENCY_LIMITS,
  AgencyRulesError,
  assertRulesAllowed,
  type TAgencyRules,
} from '../agency/agency.profiles.ts';
import { findRules } from '../agency/agency.repo.ts';
import { getRules, setRules } from '../agency/agency.service.ts';
import type { TPaymentChannelRow } from '../deposits/deposits.schema.ts';
import { COMMUNITY_DEFAULTS } from '../information/information.profiles.ts';
import { getCommunity, notify } from '../information/information.service.ts';
import { findMemberByUsername } from '../members/members.repo.ts';
import { campaignForbiddenReason, isDepositTied, PROFILES } from '../promotions/promotions.profiles.ts';
import { siteCampaigns, type TCampaignRow } from '../promotions/promotions.repo.ts';
import { notifyChannel } from '../realtime/realtime.channel.ts';
import type { TJurisdiction, TSiteRow } from '../sites/sites.schema.ts';
import {
  announcementCodeTaken,
  deleteAnnouncement,
  findActiveMemberIds,
  findAdminGame,
  findAdminGames,
  findAnnouncement,
  findAnnouncementsPage,
  findChannelsForEdit,
  findHosts,
  findHostsOfOtherSites,
  findSiteRow,
  findSocialLinkRows,
  findWithdrawalRulesForEdit,
  insertAnnouncement,
  lockCampaigns,
  lockCommunity,
  lockSite,
  replaceChannels,
  replaceHosts,
  replaceSocialLinks,
  saveCommunity,
  saveWithdrawalRules,
  type TAdminGameRow,
  type TAnnouncementValues,
  updateAnnouncement,
  updateCampaignRow,
  updateSiteRow,
  upsertSiteGame,
} from './backoffice-content.repo.ts';

/**
 * The back office's content screens (issue 15). Each edit runs in one transaction that reads the
 * state before, checks the edit with the rules the owning module uses (the site's jurisdiction
 * profile, the agency limits, the promotions' profile), writes it, and appends the audit entry
 * with before and after (recordOperatorAction). A refused edit throws a translated AppError before
 * anything is written, so nothing changes.
 */

export type TContentCtx = { db: Db; operator: TOperatorAuth; lang: TLanguage };

/** Sent on commit when a site's settings change: every process drops its cached copy of the site. */
export const SITE_CHANGED_CHANNEL = 'sorte_site_changed';

const money = (minor: bigint) => formatMinor(minor);
const minor = (text: string) => parseMinor(text)!;

// Sites ----------------------------------------------------------------------------------------

async function siteSettings(executor: Executor, siteId: bigint, row?: TSiteRow): Promise<TSiteSettings> {
  const site = row ?? (await findSiteRow(executor, siteId));
  const [hosts, links] = await Promise.all([
    findHosts(executor, siteId),
    findSocialLinkRows(executor, siteId),
  ]);
  return {
    code: site.code,
    name: site.name,
    hosts,
    jurisdiction: site.jurisdiction,
    default_lang: site.defaultLang as TSiteSettings['default_lang'],
    languages: site.languages as TSiteSettings['languages'],
    logo: site.logo,
    favicon: site.favicon,
    theme: site.theme,
    telegram_link: site.telegramLink,
    categories: site.categories,
    social_links: links,
  };
}

export function getSiteSettings(db: Db, operator: TOperatorAuth): Promise<TSiteSettings> {
  return siteSettings(db, operator.siteId);
}

/**
 * What a change of jurisdiction profile would leave in breach of the new profile's rules: a campaign
 * still on that it forbids, or commission rules beyond its limits. The operator changes those first.
 */
async function assertJurisdictionFits(executor: Executor, site: TSiteRow, next: TJurisdiction) {
  const campaigns = await siteCampaigns(executor, site);
  const breaking = campaigns.filter((c) => c.enabled && campaignForbiddenReason(next, c) !== null);
  if (breaking.length > 0) {
    throw new AppError('JURISDICTION_FORBIDS', {
      messageKey: 'backoffice.jurisdiction_campaigns_on',
      params: { campaigns: breaking.map((c) => c.code).join(', ') },
      extra: { data: { campaigns: breaking.map((c) => c.code) } },
    });
  }
  const rules = await findRules(executor, site.id);
  if (rules) assertAgencyRules(rules, next);
}

export async function updateSiteSettings(
  ctx: TContentCtx,
  input: TSiteSettingsUpdate,
  requestHost: string | null,
): Promise<TSiteSettings> {
  const { operator } = ctx;
  const result = await ctx.db.transaction(async (tx) => {
    const row = await lockSite(tx, operator.siteId);
    const before = await siteSettings(tx, operator.siteId, row);
    // The host name the operator works on must stay, or their next call would reach no site.
    if (requestHost && before.hosts.includes(requestHost) && !input.hosts.includes(requestHost)) {
      throw fieldError('hosts', 'validation.host_current');
    }
    const taken = await findHostsOfOtherSites(tx, operator.siteId, input.hosts);
    if (taken.length > 0) throw new AppError('HOST_TAKEN', { params: { host: taken.join(', ') } });
    if (input.jurisdiction !== row.jurisdiction) await assertJurisdictionFits(tx, row, input.jurisdiction);
    await updateSiteRow(tx, operator.siteId, {
      name: input.name,
      jurisdiction: input.jurisdiction,
      defaultLang: input.default_lang,
      languages: input.languages,
      logo: input.logo,
      favicon: input.favicon,
      theme: input.theme,
      telegramLink: input.telegram_link,
      categories: input.categories,
    });
    await replaceHosts(tx, operator.siteId, input.hosts);
    await replaceSocialLinks(tx, operator.siteId, input.social_links);
    const after = await siteSettings(tx, operator.siteId);
    await recordOperatorAction(
      tx,
      operator,
      'site.update',
      { entity: 'site', entityId: row.code },
      before,
      after,
    );
    await notifyChannel(tx, SITE_CHANGED_CHANNEL, { siteId: String(operator.siteId), hosts: before.hosts });
    return after;
  });
  return result;
}

function channelView(row: TPaymentChannelRow): TAdminPaymentChannel {
  return {
    method: row.method,
    method_name: row.methodName,
    code: row.code,
    name: row.name,
    min: money(row.minMinor),
    max: money(row.maxMinor),
    fee_bps: row.feeBps,
    bonus_bps: row.bonusBps,
    presets: row.presetsMinor.map((p) => money(BigInt(p))),
    expires_seconds: row.expiresSeconds,
    enabled: row.status === 1,
  };
}

export async function getPaymentChannels(db: Executor, operator: TOperatorAuth) {
  const { rows, inherited } = await findChannelsForEdit(db, operator.siteId);
  return { channels: rows.map(channelView), inherited };
}

export async function updatePaymentChannels(ctx: TContentCtx, input: TPaymentChannelsUpdate) {
  const { operator } = ctx;
  return ctx.db.transaction(async (tx) => {
    const site = await lockSite(tx, operator.siteId);
    // A recharge reward on a channel is a reward tied to a deposit: only where the profile allows it.
    if (!PROFILES[site.jurisdiction].allowsDepositTied) {
      const index = input.channels.findIndex((c) => c.bonus_bps > 0);
      if (index >= 0) {
        throw new AppError('JURISDICTION_FORBIDS', {
          messageKey: 'promo.off.deposit_tied',
          fieldErrors: { [`channels.${index}.bonus_bps`]: 'promo.off.deposit_tied' },
        });
      }
    }
    const before = await getPaymentChannels(tx, operator);
    await replaceChannels(
      tx,
      operator.siteId,
      input.channels.map((c, position) => ({
        method: c.method,
        methodName: c.method_name,
        code: c.code,
        name: c.name,
        minMinor: minor(c.min),
        maxMinor: minor(c.max),
        feeBps: c.fee_bps,
        bonusBps: c.bonus_bps,
        presetsMinor: c.presets.map(minor),
        expiresSeconds: c.expires_seconds,
        position: position + 1,
        status: c.enabled ? 1 : 0,
      })),
    );
    const after = await getPaymentChannels(tx, operator);
    await recordOperatorAction(
      tx,
      operator,
      'site.payment_channels',
      { entity: 'site', entityId: site.code },
      before,
      after,
    );
    return after;
  });
}

export async function getWithdrawalRules(db: Executor, operator: TOperatorAuth): Promise<TWithdrawalRules> {
  const { settings, fees } = await findWithdrawalRulesForEdit(db, operator.siteId);
  return {
    min: money(settings.minMinor),
    max: money(settings.maxMinor),
    daily_count_max: settings.dailyCountMax,
    fees: fees.map((f) => ({ channel: f.channel, fee_bps: f.feeBps, fee_min: money(f.feeMinMinor) })),
  };
}

export async function updateWithdrawalRules(ctx: TContentCtx, input: TWithdrawalRulesUpdate) {
  const { operator } = ctx;
  return ctx.db.transaction(async (tx) => {
    const site = await lockSite(tx, operator.siteId);
    const before = await getWithdrawalRules(tx, operator);
    await saveWithdrawalRules(tx, operator.siteId, {
      minMinor: minor(input.min),
      maxMinor: minor(input.max),
      dailyCountMax: input.daily_count_max,
      fees: input.fees.map((f) => ({ channel: f.channel, feeBps: f.fee_bps, feeMinMinor: minor(f.fee_min) })),
    });
    const after = await getWithdrawalRules(tx, operator);
    await recordOperatorAction(
      tx,
      operator,
      'site.withdrawal_rules',
      { entity: 'site', entityId: site.code },
      before,
      after,
    );
    return after;
  });
}

// Game catalogue -------------------------------------------------------------------------------

function gameView(row: TAdminGameRow): TAdminGame {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    provider: row.provider,
    provider_name: row.provider_name,
    is_inhouse: row.is_inhouse,
    enabled: row.enabled,
    position: row.position,
    category: row.category,
    tags: row.tags,
    catalogue_enabled: row.catalogue_enabled,
    thumbnail: row.thumbnail ?? `/media/games/${row.code}.svg`,
  };
}

export async function listAdminGames(
  db: Executor,
  operator: TOperatorAuth,
  query: TAdminGamesQuery,
): Promise<TAdminGamesPage> {
  const { rows, total } = await findAdminGames(
    db,
    operator.siteId,
    {
      search: query.search || undefined,
      category: query.category,
      provider: query.provider || undefined,
      enabled: query.enabled === undefined ? undefined : query.enabled === 'true',
    },
    { offset: (query.page - 1) * query.page_size, limit: query.page_size },
  );
  return { list: rows.map(gameView), total, page: query.page, page_size: query.page_size };
}

export async function updateAdminGame(
  ctx: TContentCtx,
  gameId: bigint,
  patch: TAdminGameUpdate,
): Promise<TAdminGame> {
  const { operator } = ctx;
  return ctx.db.transaction(async (tx) => {
    const before = await findAdminGame(tx, operator.siteId, gameId, true);
    if (!before) throw new AppError('NOT_FOUND');
    await upsertSiteGame(tx, operator.siteId, gameId, {
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(patch.position !== undefined ? { position: patch.position } : {}),
      ...(patch.category !== undefined ? { category: patch.category } : {}),
      ...(patch.tags !== undefined ? { tags: patch.tags } : {}),
    });
    const after = (await findAdminGame(tx, operator.siteId, gameId))!;
    // The site's category of a game decides its wagering weight, rebate rate and VIP track: every
    // process forgets its cached copy when this commits.
    if (after.category !== before.category) {
      await notifyChannel(tx, SITE_CHANGED_CHANNEL, { siteId: String(operator.siteId) });
    }
    await recordOperatorAction(
      tx,
      operator,
      'game.update',
      { entity: 'game', entityId: before.code },
      gameView(before),
      gameView(after),
    );
    return gameView(after);
  });
}

// Promotions -----------------------------------------------------------------------------------

function campaignView(site: TSiteRow, row: TCampaignRow, lang: TLanguage): TAdminCampaign {
  const forbidden = campaignForbiddenReason(site.jurisdiction, row);
  return {
    code: row.code,
    enabled: row.enabled,
    off_reason: row.offReason,
    off_reason_text: row.offReason ? translate(lang, row.offReason) : null,
    position: row.position,
    deposit_tied: isDepositTied(row.rules.trigger),
    forbidden_reason: forbidden ? translate(lang, forbidden) : null,
    rules: row.rules as TAdminCampaign['rules'],
  };
}

export async function listCampaigns(ctx: TContentCtx): Promise<{ list: TAdminCampaign[] }> {
  const site = await findSiteRow(ctx.db, ctx.operator.siteId);
  const rows = await siteCampaigns(ctx.db, site);
  return { list: rows.map((row) => campaignView(site, row, ctx.lang)) };
}

/**
 * Pause, resume, reorder or change the rules of a campaign. Turning on (or keeping on) a campaign
 * the site's jurisdiction profile forbids is refused with the profile's reason (on br: no reward
 * tied to a deposit, no prize draw, no loss recovery, no reward before a bet). Grants already given
 * keep the terms they were given under (ADR 012).
 */
export async function updateCampaign(
  ctx: TContentCtx,
  code: string,
  patch: TAdminCampaignUpdate,
): Promise<TAdminCampaign> {
  const { operator } = ctx;
  return ctx.db.transaction(async (tx) => {
    const site = await findSiteRow(tx, operator.siteId);
    await siteCampaigns(tx, site);
    await lockCampaigns(tx, operator.siteId);
    const current = (await siteCampaigns(tx, site)).find((c) => c.code === code);
    if (!current) throw new AppError('NOT_FOUND');
    const next: TCampaignRow = {
      ...current,
      enabled: patch.enabled ?? current.enabled,
      position: patch.position ?? current.position,
      rules: (patch.rules as TCampaignRow['rules'] | undefined) ?? current.rules,
    };
    if (next.enabled) {
      const forbidden = campaignForbiddenReason(site.jurisdiction, next);
      if (forbidden) throw new AppError('JURISDICTION_FORBIDS', { messageKey: forbidden });
    }
    // An off campaign shows players why: the profile's reason where it has one, else "paused".
    const offReason = next.enabled
      ? null
      : (campaignForbiddenReason(site.jurisdiction, next) ??
        (current.enabled ? 'promo.off.paused' : (current.offReason ?? 'promo.off.paused')));
    await updateCampaignRow(tx, operator.siteId, code, {
      enabled: next.enabled,
      offReason,
      position: next.position,
      rules: next.rules,
    });
    const after = (await siteCampaigns(tx, site)).find((c) => c.code === code)!;
    await recordOperatorAction(
      tx,
      operator,
      next.enabled === current.enabled
        ? 'promotion.update'
        : next.enabled
          ? 'promotion.resume'
          : 'promotion.pause',
      { entity: 'promotion', entityId: code },
      current,
      after,
    );
    return campaignView(site, after, ctx.lang);
  });
}

// Commission rules -----------------------------------------------------------------------------

/** The agency module's own check, its reasons translated (the deposit rule and the level cap say why). */
function assertAgencyRules(rules: TAgencyRules, jurisdiction: TJurisdiction): void {
  const limits = AGENCY_LIMITS[jurisdiction];
  if (rules.rechargeRatesBps && !limits.depositBased) {
    throw new AppError('JURISDICTION_FORBIDS', {
      messageKey: limits.depositOffReason ?? 'errors.JURISDICTION_FORBIDS',
    });
  }
  if (rules.maxLevels > limits.maxLevels) {
    throw new AppError('JURISDICTION_FORBIDS', {
      messageKey: 'backoffice.agency_max_levels',
      params: { max: limits.maxLevels },
    });
  }
  try {
    assertRulesAllowed(rules, limits);
  } catch (error) {
    if (error instanceof AgencyRulesError) {
      throw new AppError('AGENCY_RULES_INVALID', { params: { max: limits.maxRateBps } });
    }
    throw error;
  }
}

function agencyView(rules: TAgencyRules, jurisdiction: TJurisdiction, lang: TLanguage): TAdminAgencyRules {
  const limits = AGENCY_LIMITS[jurisdiction];
  return {
    rules,
    limits: {
      max_levels: limits.maxLevels,
      deposit_based: limits.depositBased,
      max_rate_bps: limits.maxRateBps,
      deposit_off_reason: limits.depositOffReason ? translate(lang, limits.depositOffReason) : null,
    },
  };
}

export async function getAgencyRules(ctx: TContentCtx): Promise<TAdminAgencyRules> {
  const site = await findSiteRow(ctx.db, ctx.operator.siteId);
  return agencyView(await getRules(ctx.db, site), site.jurisdiction, ctx.lang);
}

export async function updateAgencyRules(
  ctx: TContentCtx,
  input: TAgencyRulesInput,
): Promise<TAdminAgencyRules> {
  const { operator } = ctx;
  return ctx.db.transaction(async (tx) => {
    const site = await lockSite(tx, operator.siteId);
    const before = await getRules(tx, site);
    assertAgencyRules(input, site.jurisdiction);
    await setRules(tx, site, input);
    const after = await getRules(tx, site);
    await recordOperatorAction(
      tx,
      operator,
      'agency.rules',
      { entity: 'agency_rules', entityId: site.code },
      before,
      after,
    );
    return agencyView(after, site.jurisdiction, ctx.lang);
  });
}

// Announcements, notifications -----------------------------------------------------------------

export async function listAnnouncementsAdmin(ctx: TContentCtx, page: { page: number; page_size: number }) {
  const site = await findSiteRow(ctx.db, ctx.operator.siteId);
  // The site's starting announcements exist once its community row does (information module).
  await getCommunity(ctx.db, site);
  const { rows, total } = await findAnnouncementsPage(ctx.db, ctx.operator.siteId, {
    offset: (page.page - 1) * page.page_size,
    limit: page.page_size,
  });
  return { list: rows, total, page: page.page, page_size: page.page_size };
}

function announcementValues(input: TAdminAnnouncementInput): TAnnouncementValues {
  const texts = (record: Partial<Record<string, string>>) =>
    Object.fromEntries(Object.entries(record).filter((e): e is [string, string] => Boolean(e[1])));
  return {
    code: input.code,
    title: texts(input.title),
    body: texts(input.body),
    position: input.position,
    publishedAt: input.published_at ?? null,
    expiresAt: input.expires_at ?? null,
  };
}

export async function createAnnouncement(ctx: TContentCtx, input: TAdminAnnouncementInput) {
  const { operator } = ctx;
  return ctx.db.transaction(async (tx) => {
    await lockSite(tx, operator.siteId);
    if (await announcementCodeTaken(tx, operator.siteId, input.code, null)) {
      throw fieldError('code', 'validation.key_format');
    }
    const created = await insertAnnouncement(tx, operator.siteId, announcementValues(input));
    await recordOperatorAction(
      tx,
      operator,
      'announcement.create',
      { entity: 'announcement', entityId: String(created.id) },
      null,
      created,
    );
    return created;
  });
}

export async function editAnnouncement(ctx: TContentCtx, id: bigint, input: TAdminAnnouncementInput) {
  const { operator } = ctx;
  return ctx.db.transaction(async (tx) => {
    const before = await findAnnouncement(tx, operator.siteId, id, true);
    if (!before) throw new AppError('NOT_FOUND');
    if (await announcementCodeTaken(tx, operator.siteId, input.code, id)) {
      throw fieldError('code', 'validation.key_format');
    }
    const after = await updateAnnouncement(tx, operator.siteId, id, announcementValues(input));
    await recordOperatorAction(
      tx,
      operator,
      'announcement.update',
      { entity: 'announcement', entityId: String(id) },
      before,
      after,
    );
    return after;
  });
}

export async function removeAnnouncement(ctx: TContentCtx, id: bigint) {
  const { operator } = ctx;
  return ctx.db.transaction(async (tx) => {
    const before = await findAnnouncement(tx, operator.siteId, id, true);
    if (!before) throw new AppError('NOT_FOUND');
    await deleteAnnouncement(tx, operator.siteId, id);
    await recordOperatorAction(
      tx,
      operator,
      'announcement.delete',
      { entity: 'announcement', entityId: String(id) },
      before,
      null,
    );
    return { id: Number(id), deleted: true };
  });
}

/** Players a message to "all" reaches in one call (a larger site is sent in several calls). */
export const BROADCAST_MAX = 20_000;

/**
 * A message from the site to one player or to every active player: a notification (kind
 * operator_message) each, pushed live to their open sockets when the transaction commits.
 */
export async function sendOperatorMessage(ctx: TContentCtx, input: TAdminNotificationInput) {
  const { operator } = ctx;
  return ctx.db.transaction(async (tx) => {
    let memberIds: bigint[];
    if (input.username) {
      const member = await findMemberByUsername(tx, operator.siteId, input.username);
      if (!member) throw new AppError('NOT_FOUND', { messageKey: 'messages.user_not_exist' });
      memberIds = [member.id];
    } else {
      memberIds = (await findActiveMemberIds(tx, operator.siteId)).slice(0, BROADCAST_MAX);
    }
    const params = { title: input.title, body: input.body };
    for (const memberId of memberIds) {
      await notify(tx, { siteId: operator.siteId, memberId, kind: 'operator_message', params });
    }
    await recordOperatorAction(
      tx,
      operator,
      'notification.send',
      {
        ...(input.username && memberIds[0] ? { memberId: memberIds[0] } : {}),
        entity: 'notification',
        entityId: input.username ? input.username : 'all',
      },
      null,
      { ...params, recipients: input.username ? input.username : 'all', sent: memberIds.length },
    );
    return { sent: memberIds.length };
  });
}

// Community settings ---------------------------------------------------------------------------

function communityView(row: Awaited<ReturnType<typeof getCommunity>>): TCommunitySettings {
  return {
    support_chat_url: row.support_chat_url,
    chat_enabled: row.chat_enabled,
    chat_max_chars: row.chat_max_chars,
    chat_rate_messages: row.chat_rate_messages,
    chat_rate_seconds: row.chat_rate_seconds,
    chat_history: row.chat_history,
    rain_enabled: row.rain_enabled,
    rain_off_reason: row.rain_off_reason,
    rain_every_minutes: row.rain_every_minutes,
    rain_pot: money(BigInt(row.rain_pot_minor)),
    rain_window_minutes: row.rain_window_minutes,
    rain_min_wager: money(BigInt(row.rain_min_wager_minor)),
    rain_wager_days: row.rain_wager_days,
  };
}

export async function getCommunitySettings(ctx: TContentCtx): Promise<TCommunitySettings> {
  const site = await findSiteRow(ctx.db, ctx.operator.siteId);
  return communityView(await getCommunity(ctx.db, site));
}

export async function updateCommunitySettings(
  ctx: TContentCtx,
  input: TCommunitySettingsUpdate,
): Promise<TCommunitySettings> {
  const { operator } = ctx;
  return ctx.db.transaction(async (tx) => {
    const site = await findSiteRow(tx, operator.siteId);
    await getCommunity(tx, site);
    await lockCommunity(tx, operator.siteId);
    const before = communityView((await getCommunity(tx, site))!);
    // The rain's off reason: the profile's (a prize draw needs its own authorisation on br), else paused.
    const rainOffReason = input.rain_enabled
      ? null
      : (COMMUNITY_DEFAULTS[site.jurisdiction].rainOffReason ?? 'chat.off.paused');
    await saveCommunity(tx, operator.siteId, {
      supportChatUrl: input.support_chat_url,
      chatEnabled: input.chat_enabled,
      chatMaxChars: input.chat_max_chars,
      chatRateMessages: input.chat_rate_messages,
      chatRateSeconds: input.chat_rate_seconds,
      chatHistory: input.chat_history,
      rainEnabled: input.rain_enabled,
      rainOffReason,
      rainEveryMinutes: input.rain_every_minutes,
      rainPotMinor: minor(input.rain_pot),
      rainWindowMinutes: input.rain_window_minutes,
      rainMinWagerMinor: minor(input.rain_min_wager),
      rainWagerDays: input.rain_wager_days,
    });
    const after = communityView(await getCommunity(tx, site));
    await recordOperatorAction(
      tx,
      operator,
      'community.update',
      { entity: 'site_community', entityId: site.code },
      before,
      after,
    );
    return after;
  });
}
