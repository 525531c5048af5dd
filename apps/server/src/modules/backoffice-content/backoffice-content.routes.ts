import {
  translate,
  ZAdminAgencyRules,
  ZAdminAnnouncement,
  ZAdminAnnouncementInput,
  ZAdminAnnouncementsPage,
  ZAdminCampaign,
  ZAdminCampaignList,
  ZAdminCampaignUpdate,
  ZAdminChatMutes,
  ZAdminChatPage,
  ZAdminChatQuery,
  ZAdminGame,
  ZAdminGamesPage,
  ZAdminGamesQuery,
  ZAdminGameUpdate,
  ZAdminListQuery,
  ZAdminNotificationInput,
  ZAdminNotificationResult,
  ZAdminPaymentChannel,
  ZAdminTermsList,
  ZAgencyRulesInput,
  ZCampaignCodeParams,
  ZCommunitySettings,
  ZCommunitySettingsUpdate,
  ZGameIdParams,
  ZIdParams,
  ZLangQuery,
  ZPaymentChannelsUpdate,
  ZSiteSettings,
  ZSiteSettingsUpdate,
  ZWithdrawalRules,
  ZWithdrawalRulesUpdate,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../http/reply.ts';
import { CSV_MAX_ROWS, sendCsv, toCsv } from '../admin/csv.ts';
import { operatorOf, requirePermission } from '../admin/permissions.ts';
import { forgetSiteJurisdiction } from '../promotions/promotions.repo.ts';
import { listenChannel } from '../realtime/realtime.channel.ts';
import { normalizeHost } from '../sites/sites.service.ts';
import { findActiveMutes, findChatMessagesPage, findTermsVersions } from './backoffice-content.repo.ts';
import {
  createAnnouncement,
  editAnnouncement,
  getAgencyRules,
  getCommunitySettings,
  getPaymentChannels,
  getSiteSettings,
  getWithdrawalRules,
  listAdminGames,
  listAnnouncementsAdmin,
  listCampaigns,
  removeAnnouncement,
  SITE_CHANGED_CHANNEL,
  sendOperatorMessage,
  type TContentCtx,
  updateAdminGame,
  updateAgencyRules,
  updateCampaign,
  updateCommunitySettings,
  updatePaymentChannels,
  updateSiteSettings,
  updateWithdrawalRules,
} from './backoffice-content.service.ts';

const tags = ['admin'];
const security = [{ bearerAuth: [] }];

/**
 * Every process forgets its cached copy of a site when an operator changes it (the change is
 * announced by pg_notify when its transaction commits), so players see the new name, look and
 * rules at their next call without a restart.
 */
export const siteChangesPlugin = fp(
  async (app: FastifyInstance, options: { listenUrl?: string | undefined }) => {
    const stop = await listenChannel(
      app.services.db,
      options.listenUrl,
      SITE_CHANGED_CHANNEL,
      (payload) => {
        const { siteId } = payload as { siteId: string };
        app.services.sites.clear();
        forgetSiteJurisdiction(BigInt(siteId));
      },
      (error) => app.log.warn({ err: error }, 'site change delivery failed'),
    );
    app.addHook('onClose', async () => {
      await stop?.();
    });
  },
  { name: 'site-changes', dependencies: ['realtime'] },
);

/** The operator's content screens: site, game catalogue, promotions, commission rules, announcements, chat. */
export async function backofficeContentRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest): TContentCtx => ({
    db: services.db,
    operator: operatorOf(request),
    lang: request.lang,
  });
  /** After a site edit commits: this process's caches at once (the others by the channel). */
  const forgetSite = (siteId: bigint) => {
    services.sites.clear();
    forgetSiteJurisdiction(siteId);
  };

  // Sites (owner) ------------------------------------------------------------------------------

  r.get('/admin/site', {
    onRequest: requirePermission('sites.manage'),
    schema: {
      tags,
      summary: "The operator's site: name, host names, look, languages, jurisdiction, social links",
      security,
      querystring: ZLangQuery,
      response: responses(ZSiteSettings),
    },
    handler: async (request) => ok(request.lang, await getSiteSettings(services.db, operatorOf(request))),
  });

  r.put('/admin/site', {
    onRequest: requirePermission('sites.manage'),
    schema: {
      tags,
      summary:
        'Edit the site (a jurisdiction change is refused while a promotion or commission rule it forbids is on); players see it at once',
      security,
      querystring: ZLangQuery,
      body: ZSiteSettingsUpdate,
      response: responses(ZSiteSettings),
    },
    handler: async (request) => {
      const saved = await updateSiteSettings(ctx(request), request.body, normalizeHost(request.headers.host));
      forgetSite(operatorOf(request).siteId);
      return ok(request.lang, saved, 'messages.saved');
    },
  });

  const ZChannels = z.object({ channels: z.array(ZAdminPaymentChannel), inherited: z.boolean() });

  r.get('/admin/site/payment-channels', {
    onRequest: requirePermission('sites.manage'),
    schema: {
      tags,
      summary: "The site's deposit channels with bounds and fees (inherited: the platform defaults)",
      security,
      querystring: ZLangQuery,
      response: responses(ZChannels),
    },
    handler: async (request) => ok(request.lang, await getPaymentChannels(services.db, operatorOf(request))),
  });

  r.put('/admin/site/payment-channels', {
    onRequest: requirePermission('sites.manage'),
    schema: {
      tags,
      summary: "Replace the site's deposit channels (a deposit reward only where the jurisdiction allows it)",
      security,
      querystring: ZLangQuery,
      body: ZPaymentChannelsUpdate,
      response: responses(ZChannels),
    },
    handler: async (request) =>
      ok(request.lang, await updatePaymentChannels(ctx(request), request.body), 'messages.saved'),
  });

  r.get('/admin/site/withdrawals', {
    onRequest: requirePermission('sites.manage'),
    schema: {
      tags,
      summary: "The site's withdrawal bounds, withdrawals per day and fee of each payout channel",
      security,
      querystring: ZLangQuery,
      response: responses(ZWithdrawalRules),
    },
    handler: async (request) => ok(request.lang, await getWithdrawalRules(services.db, operatorOf(request))),
  });

  r.put('/admin/site/withdrawals', {
    onRequest: requirePermission('sites.manage'),
    schema: {
      tags,
      summary: "Set the site's withdrawal bounds, daily count and fees",
      security,
      querystring: ZLangQuery,
      body: ZWithdrawalRulesUpdate,
      response: responses(ZWithdrawalRules),
    },
    handler: async (request) =>
      ok(request.lang, await updateWithdrawalRules(ctx(request), request.body), 'messages.saved'),
  });

  // Game catalogue ------------------------------------------------------------------------------

  r.get('/admin/games', {
    onRequest: requirePermission('games.manage'),
    schema: {
      tags,
      summary: 'Every game as this site shows it (switched-off ones too), paged, with filters',
      security,
      querystring: ZAdminGamesQuery,
      response: responses(ZAdminGamesPage),
    },
    handler: async (request, reply) => {
      if (request.query.format === 'csv') {
        const all = await listAdminGames(services.db, operatorOf(request), {
          ...request.query,
          page: 1,
          page_size: CSV_MAX_ROWS,
        });
        return sendCsv(
          reply,
          'games',
          toCsv(
            [
              { header: 'id', value: (g) => g.id },
              { header: 'code', value: (g) => g.code },
              { header: 'name', value: (g) => g.name },
              { header: 'provider', value: (g) => g.provider },
              { header: 'category', value: (g) => g.category },
              { header: 'tags', value: (g) => g.tags.join(' ') },
              { header: 'position', value: (g) => g.position },
              { header: 'enabled', value: (g) => g.enabled },
            ],
            all.list,
          ),
        );
      }
      return ok(request.lang, await listAdminGames(services.db, operatorOf(request), request.query));
    },
  });

  r.patch('/admin/games/:id', {
    onRequest: requirePermission('games.manage'),
    schema: {
      tags,
      summary: "Switch a game on or off, move it, or set its category and tags on this site's lobby",
      security,
      params: ZGameIdParams,
      querystring: ZLangQuery,
      body: ZAdminGameUpdate,
      response: responses(ZAdminGame),
    },
    handler: async (request) => {
      const saved = await updateAdminGame(ctx(request), BigInt(request.params.id), request.body);
      forgetSite(operatorOf(request).siteId);
      return ok(request.lang, saved, 'messages.saved');
    },
  });

  // Promotions and commission rules ---------------------------------------------------------------

  r.get('/admin/promotions', {
    onRequest: requirePermission('promotions.manage'),
    schema: {
      tags,
      summary: "The site's campaigns (rules as data) and which ones its jurisdiction forbids",
      security,
      querystring: ZLangQuery,
      response: responses(ZAdminCampaignList),
    },
    handler: async (request) => ok(request.lang, await listCampaigns(ctx(request))),
  });

  r.patch('/admin/promotions/:code', {
    onRequest: requirePermission('promotions.manage'),
    schema: {
      tags,
      summary: 'Pause, resume, reorder or change the rules of a campaign (existing grants keep their terms)',
      security,
      params: ZCampaignCodeParams,
      querystring: ZLangQuery,
      body: ZAdminCampaignUpdate,
      response: responses(ZAdminCampaign),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await updateCampaign(ctx(request), request.params.code, request.body),
        'messages.saved',
      ),
  });

  r.get('/admin/agency/rules', {
    onRequest: requirePermission('agency.manage'),
    schema: {
      tags,
      summary: "The site's commission rules and its jurisdiction's limits",
      security,
      querystring: ZLangQuery,
      response: responses(ZAdminAgencyRules),
    },
    handler: async (request) => ok(request.lang, await getAgencyRules(ctx(request))),
  });

  r.put('/admin/agency/rules', {
    onRequest: requirePermission('agency.manage'),
    schema: {
      tags,
      summary: 'Replace the commission rules (checked against the jurisdiction; settled periods keep theirs)',
      security,
      querystring: ZLangQuery,
      body: ZAgencyRulesInput,
      response: responses(ZAdminAgencyRules),
    },
    handler: async (request) =>
      ok(request.lang, await updateAgencyRules(ctx(request), request.body), 'messages.saved'),
  });

  // Announcements, notifications, terms -----------------------------------------------------------

  r.get('/admin/announcements', {
    onRequest: requirePermission('content.manage'),
    schema: {
      tags,
      summary: "The site's announcements (scheduled and expired too), newest first, paged",
      security,
      querystring: ZAdminListQuery,
      response: responses(ZAdminAnnouncementsPage),
    },
    handler: async (request, reply) => {
      if (request.query.format === 'csv') {
        const all = await listAnnouncementsAdmin(ctx(request), { page: 1, page_size: CSV_MAX_ROWS });
        return sendCsv(
          reply,
          'announcements',
          toCsv(
            [
              { header: 'id', value: (a) => a.id },
              { header: 'code', value: (a) => a.code },
              { header: 'title', value: (a) => a.title[request.lang] ?? Object.values(a.title)[0] ?? '' },
              { header: 'published_at', value: (a) => a.published_at },
              { header: 'expires_at', value: (a) => a.expires_at },
              { header: 'live', value: (a) => a.live },
            ],
            all.list,
          ),
        );
      }
      return ok(request.lang, await listAnnouncementsAdmin(ctx(request), request.query));
    },
  });

  r.post('/admin/announcements', {
    onRequest: requirePermission('content.manage'),
    schema: {
      tags,
      summary: 'Publish an announcement (title and text per language; optional start and end)',
      security,
      querystring: ZLangQuery,
      body: ZAdminAnnouncementInput,
      response: responses(ZAdminAnnouncement),
    },
    handler: async (request) =>
      ok(request.lang, await createAnnouncement(ctx(request), request.body), 'messages.saved'),
  });

  r.put('/admin/announcements/:id', {
    onRequest: requirePermission('content.manage'),
    schema: {
      tags,
      summary: 'Edit an announcement',
      security,
      params: ZIdParams,
      querystring: ZLangQuery,
      body: ZAdminAnnouncementInput,
      response: responses(ZAdminAnnouncement),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await editAnnouncement(ctx(request), BigInt(request.params.id), request.body),
        'messages.saved',
      ),
  });

  r.delete('/admin/announcements/:id', {
    onRequest: requirePermission('content.manage'),
    schema: {
      tags,
      summary: 'Remove an announcement',
      security,
      params: ZIdParams,
      querystring: ZLangQuery,
      response: responses(z.object({ id: z.number().int(), deleted: z.boolean() })),
    },
    handler: async (request) =>
      ok(request.lang, await removeAnnouncement(ctx(request), BigInt(request.params.id)), 'messages.saved'),
  });

  r.post('/admin/notifications', {
    onRequest: requirePermission('content.manage'),
    schema: {
      tags,
      summary: 'Send a message to one player or to every player of the site (pushed live)',
      security,
      querystring: ZLangQuery,
      body: ZAdminNotificationInput,
      response: responses(ZAdminNotificationResult),
    },
    handler: async (request) => {
      const result = await sendOperatorMessage(ctx(request), request.body);
      return {
        ...ok(request.lang, result),
        message: translate(request.lang, 'messages.notification_sent', { count: result.sent }),
      };
    },
  });

  r.get('/admin/terms', {
    onRequest: requirePermission('content.manage'),
    schema: {
      tags,
      summary: "The site's terms versions, newest first, with how many players accepted each",
      security,
      querystring: ZLangQuery,
      response: responses(ZAdminTermsList),
    },
    handler: async (request) =>
      ok(request.lang, { list: await findTermsVersions(services.db, operatorOf(request).siteId) }),
  });

  // Chat moderation and community settings --------------------------------------------------------

  r.get('/admin/chat/messages', {
    onRequest: requirePermission('chat.moderate'),
    schema: {
      tags,
      summary: "The site room's messages, newest first, paged (filter by player, deleted or not)",
      security,
      querystring: ZAdminChatQuery,
      response: responses(ZAdminChatPage),
    },
    handler: async (request, reply) => {
      const { page, page_size, username, deleted, format } = request.query;
      const csv = format === 'csv';
      const { rows, total } = await findChatMessagesPage(
        services.db,
        operatorOf(request).siteId,
        { username: username || undefined, deleted: deleted === undefined ? undefined : deleted === 'true' },
        csv ? { offset: 0, limit: CSV_MAX_ROWS } : { offset: (page - 1) * page_size, limit: page_size },
      );
      if (csv) {
        return sendCsv(
          reply,
          'chat-messages',
          toCsv(
            [
              { header: 'id', value: (m) => m.id },
              { header: 'created_at', value: (m) => m.created_at },
              { header: 'username', value: (m) => m.username },
              { header: 'text', value: (m) => m.text },
              { header: 'deleted_at', value: (m) => m.deleted_at },
              { header: 'deleted_by', value: (m) => m.deleted_by },
            ],
            rows,
          ),
        );
      }
      return ok(request.lang, { list: rows, total, page, page_size });
    },
  });

  r.get('/admin/chat/mutes', {
    onRequest: requirePermission('chat.moderate'),
    schema: {
      tags,
      summary: 'Players muted in the chat now',
      security,
      querystring: ZLangQuery,
      response: responses(ZAdminChatMutes),
    },
    handler: async (request) =>
      ok(request.lang, { list: await findActiveMutes(services.db, operatorOf(request).siteId) }),
  });

  r.get('/admin/community', {
    onRequest: requirePermission('content.manage'),
    schema: {
      tags,
      summary: "The site's chat and rain settings",
      security,
      querystring: ZLangQuery,
      response: responses(ZCommunitySettings),
    },
    handler: async (request) => ok(request.lang, await getCommunitySettings(ctx(request))),
  });

  r.put('/admin/community', {
    onRequest: requirePermission('content.manage'),
    schema: {
      tags,
      summary: "Set the site's chat (on/off, length, rate, history) and rain (on/off, every, pot, window)",
      security,
      querystring: ZLangQuery,
      body: ZCommunitySettingsUpdate,
      response: responses(ZCommunitySettings),
    },
    handler: async (request) =>
      ok(request.lang, await updateCommunitySettings(ctx(request), request.body), 'messages.saved'),
  });
}
