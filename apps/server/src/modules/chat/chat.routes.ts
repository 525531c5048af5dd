import {
  ZChatDeleteResponse,
  ZChatMuteRequest,
  ZChatMuteResponse,
  ZChatRoomResponse,
  ZChatSendRequest,
  ZChatSendResponse,
  ZChatUnmuteRequest,
  ZLangQuery,
} from '@sorte/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { operatorOf, requirePermission } from '../admin/permissions.ts';
import { listenChannel } from '../realtime/realtime.channel.ts';
import type { PushTarget } from '../realtime/realtime.hub.ts';
import { authenticateMember } from '../sessions/sessions.service.ts';
import { bearerToken } from '../sessions/tokens.ts';
import { sites } from '../sites/sites.schema.ts';
import {
  CHAT_CHANNEL,
  deleteChatMessage,
  getRoom,
  muteMember,
  roomHistory,
  sendMessage,
  type TRoomEvent,
  unmuteMember,
} from './chat.service.ts';

const tags = ['chat'];
const bearer = [{ bearerAuth: [] }];
/** Sockets in one process's rooms: a limit on everything. */
const MAX_ROOM_SOCKETS = 20_000;

/**
 * The site rooms of this process: sockets that sent `{ "type": "chat_join" }` on /ws (guests too:
 * they read, only members post over HTTP). Room events arrive by pg_notify from any process.
 */
export const chatPlugin = fp(
  async (app: FastifyInstance, options: { listenUrl?: string | undefined }) => {
    const rooms = new Map<string, Set<PushTarget>>();
    let count = 0;
    const leave = (target: PushTarget) => {
      for (const [siteId, set] of rooms) {
        if (set.delete(target)) {
          count -= 1;
          if (set.size === 0) rooms.delete(siteId);
        }
      }
    };
    app.realtime.handle('chat_join', async ({ siteId, target }) => {
      const [site] = await app.services.db.select().from(sites).where(eq(sites.id, siteId));
      if (!site || count >= MAX_ROOM_SOCKETS) return false;
      leave(target);
      const set = rooms.get(String(siteId)) ?? new Set<PushTarget>();
      set.add(target);
      rooms.set(String(siteId), set);
      count += 1;
      target.send(
        JSON.stringify({ type: 'chat_history', messages: await roomHistory(app.services.db, site) }),
      );
      return true;
    });
    app.realtime.handle('chat_leave', ({ target }) => {
      leave(target);
      return false;
    });
    app.realtime.onDisconnect(leave);

    const stop = await listenChannel(
      app.services.db,
      options.listenUrl,
      CHAT_CHANNEL,
      (payload) => {
        const event = payload as TRoomEvent;
        const text = JSON.stringify(event.push);
        for (const target of rooms.get(event.siteId) ?? []) {
          try {
            target.send(text);
          } catch (error) {
            app.log.debug({ err: error }, 'chat push to a closed socket');
          }
        }
      },
      (error) => app.log.warn({ err: error }, 'chat delivery failed'),
    );

    app.addHook('onClose', async () => {
      await stop?.();
    });
  },
  { name: 'chat', dependencies: ['realtime'] },
);

/** The member of an optional bearer token (the room answers guests too). */
async function optionalMember(app: FastifyInstance, request: FastifyRequest): Promise<bigint | null> {
  const token = bearerToken(request.headers.authorization);
  if (!token) return null;
  try {
    return (await authenticateMember(app.services.db, request.site, token)).memberId;
  } catch {
    return null;
  }
}

/** GET /api/chat/room, POST /api/chat/send; operators: delete a message, mute and unmute a player. */
export async function chatRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/chat/room', {
    schema: {
      tags,
      summary: 'The site room: its limits, the latest messages, whether the caller is muted, the rain',
      querystring: ZLangQuery,
      response: responses(ZChatRoomResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await getRoom(services.db, request.site, await optionalMember(app, request), request.lang),
      ),
  });

  r.post('/chat/send', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'Post a message (text only, no links; rate and length limits of the site)',
      security: bearer,
      querystring: ZLangQuery,
      body: ZChatSendRequest,
      response: responses(ZChatSendResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await sendMessage(services.db, request.site, memberOf(request).memberId, request.body.text),
      ),
  });

  r.post('/admin/chat/messages/:id/delete', {
    onRequest: requirePermission('chat.moderate'),
    schema: {
      tags: ['admin'],
      summary: 'Remove a message from the room (and from every open panel)',
      security: bearer,
      params: z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
      querystring: ZLangQuery,
      response: responses(ZChatDeleteResponse),
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      return ok(
        request.lang,
        await deleteChatMessage(services.db, operator, BigInt(request.params.id)),
        'messages.saved',
      );
    },
  });

  r.post('/admin/chat/mute', {
    onRequest: requirePermission('chat.moderate'),
    schema: {
      tags: ['admin'],
      summary: 'Mute a player for `minutes` (absent: until lifted); a muted player gets no rain',
      security: bearer,
      querystring: ZLangQuery,
      body: ZChatMuteRequest,
      response: responses(ZChatMuteResponse),
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      return ok(request.lang, await muteMember(services.db, operator, request.body), 'messages.saved');
    },
  });

  r.post('/admin/chat/unmute', {
    onRequest: requirePermission('chat.moderate'),
    schema: {
      tags: ['admin'],
      summary: 'Lift a mute',
      security: bearer,
      querystring: ZLangQuery,
      body: ZChatUnmuteRequest,
      response: responses(ZChatMuteResponse),
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      return ok(
        request.lang,
        await unmuteMember(services.db, operator, request.body.username),
        'messages.saved',
      );
    },
  });
}
