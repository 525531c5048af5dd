import {
  ZAnnouncementListResponse,
  ZInformationQuery,
  ZLangQuery,
  ZNotificationListResponse,
  ZNotificationReadRequest,
  ZSupportResponse,
  ZUnreadResponse,
} from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import {
  getSupport,
  listAnnouncements,
  listNotifications,
  readNotifications,
  unreadCount,
} from './information.service.ts';

const tags = ['information centre'];
const bearer = [{ bearerAuth: [] }];

/**
 * GET /api/informationcenter/support, /notification?site=, /announcement?site= (spec §7, fetched
 * together by the web app), plus the unread count and marking read. The site is the Host's; `site`
 * is accepted as the spec sends it.
 */
export async function informationRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/informationcenter/support', {
    schema: {
      tags,
      summary: "The site's support channels: Telegram, the other social links, the in-app chat",
      querystring: ZInformationQuery,
      response: responses(ZSupportResponse),
    },
    handler: async (request) => ok(request.lang, await getSupport(services.db, request.site)),
  });

  r.get('/informationcenter/notification', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "The caller's latest notifications (newest first) and the unread count",
      security: bearer,
      querystring: ZInformationQuery,
      response: responses(ZNotificationListResponse),
    },
    handler: async (request) =>
      ok(request.lang, await listNotifications(services.db, request.site, memberOf(request).memberId)),
  });

  r.get('/informationcenter/notification/unread', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "How many of the caller's notifications are unread (the header badge)",
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZUnreadResponse),
    },
    handler: async (request) =>
      ok(request.lang, await unreadCount(services.db, request.site, memberOf(request).memberId)),
  });

  r.post('/informationcenter/notification/read', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "Mark the caller's notifications read: `ids`, or `all: true`",
      security: bearer,
      querystring: ZLangQuery,
      body: ZNotificationReadRequest,
      response: responses(ZUnreadResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await readNotifications(services.db, request.site, memberOf(request).memberId, request.body),
      ),
  });

  r.get('/informationcenter/announcement', {
    schema: {
      tags,
      summary: "The site's announcements in the request's language",
      querystring: ZInformationQuery,
      response: responses(ZAnnouncementListResponse),
    },
    handler: async (request) =>
      ok(request.lang, await listAnnouncements(services.db, request.site, request.lang)),
  });
}
