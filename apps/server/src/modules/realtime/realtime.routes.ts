import websocket from '@fastify/websocket';
import { translate } from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { assertStorableInput } from '../../plugins/storable-input.ts';
import { authenticateMember } from '../sessions/sessions.service.ts';
import { startMemberChannel } from './member-channel.ts';
import { RealtimeHub } from './realtime.hub.ts';

/** The browser must authenticate within this time or the socket is closed. */
const AUTH_TIMEOUT_MS = 10_000;
const MAX_MESSAGE_BYTES = 4096;

const ZClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(512) }),
  z.object({ type: z.literal('ping') }),
]);
/** Messages other modules answer (RealtimeHub.handle), e.g. `{ "type": "chat_join" }`. */
const ZModuleMessage = z.looseObject({ type: z.string().regex(/^[a-z_]{2,40}$/) });

/**
 * The realtime channel `GET /ws` (WebSocket).
 *
 * Protocol (JSON text frames):
 *   client → `{ "type": "auth", "token": "<session token>" }` first (a bearer token never goes in
 *            the URL, where proxies log it); later `{ "type": "ping" }` → `{ "type": "pong" }`.
 *   server → `{ "type": "ready" }`, then at once and after every change of the member's money
 *            `{ "type": "balance", money, fs_money, ml_money, total_money, hold_money, reason, order_no }`;
 *            every N minutes of the session (reality check, 0 = off) `{ "type": "reality_check",
 *            minutes_played, net_result, staked }`.
 *   A bad or missing token → `{ "type": "error", "code": "UNAUTHENTICATED", "message": "Unauthenticated." }`
 *   and close code 4401. The site is the Host's, as for every API call.
 *   Other modules answer their own message types (`chat_join`: the site's chat room, guests too; a
 *   guest socket that joined a room is not closed for lack of a session) and push to members over
 *   the member channel (`notification`, see member-channel.ts).
 * Browsers that cannot hold a socket poll `POST /api/auth/me` instead.
 */
export const realtimePlugin = fp(
  async (app: FastifyInstance, options: { listenUrl?: string | undefined }) => {
    const hub = new RealtimeHub(app.services.db, {
      listenUrl: options.listenUrl,
      onError: (error) => app.log.warn({ err: error }, 'realtime delivery failed'),
    });
    await hub.start();
    app.decorate('realtime', hub);
    const stopMemberChannel = await startMemberChannel(app.services.db, hub, options.listenUrl, (error) =>
      app.log.warn({ err: error }, 'member push failed'),
    );
    app.addHook('onClose', async () => {
      await stopMemberChannel();
      await hub.close();
    });

    await app.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES } });

    app.get('/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
      let member: { siteId: bigint; memberId: bigint; sessionId: bigint } | null = null;
      let guestAllowed = false;
      let stopRealityCheck: (() => void) | null = null;
      const target = { send: (data: string) => socket.send(data) };
      const timer = setTimeout(() => {
        if (!member && !guestAllowed) socket.close(4401, 'authentication timeout');
      }, AUTH_TIMEOUT_MS);
      timer.unref();

      const refuse = () => {
        socket.send(
          JSON.stringify({
            type: 'error',
            code: 'UNAUTHENTICATED',
            message: translate(request.lang, 'errors.UNAUTHENTICATED'),
          }),
        );
        socket.close(4401, 'unauthenticated');
      };

      socket.on('message', async (raw: Buffer) => {
        let parsed: z.infer<typeof ZClientMessage>;
        try {
          const message: unknown = JSON.parse(raw.toString('utf8'));
          assertStorableInput({ message });
          const other = ZModuleMessage.safeParse(message);
          const handler = other.success ? hub.handlerFor(other.data.type) : undefined;
          if (other.success && handler) {
            const keepOpen = await handler({
              siteId: request.site.id,
              memberId: member?.memberId ?? null,
              lang: request.lang,
              target,
              message: other.data,
            });
            if (keepOpen) guestAllowed = true;
            return;
          }
          parsed = ZClientMessage.parse(message);
        } catch {
          socket.send(
            JSON.stringify({
              type: 'error',
              code: 'BAD_REQUEST',
              message: translate(request.lang, 'errors.BAD_REQUEST'),
            }),
          );
          return;
        }
        if (parsed.type === 'ping') {
          socket.send(JSON.stringify({ type: 'pong' }));
          return;
        }
        if (member) return;
        try {
          const auth = await authenticateMember(app.services.db, request.site, parsed.token);
          member = { siteId: auth.siteId, memberId: auth.memberId, sessionId: auth.sessionId };
        } catch {
          refuse();
          return;
        }
        clearTimeout(timer);
        if (!hub.add(member.siteId, member.memberId, target)) {
          socket.close(4429, 'too many connections');
          return;
        }
        socket.send(JSON.stringify({ type: 'ready' }));
        // Responsible gaming: time played and net result every N minutes of the session.
        stopRealityCheck = await app.realityChecks.watch(request.site, member, target.send, (error) =>
          request.log.warn({ err: error }, 'reality check failed'),
        );
        if (socket.readyState !== socket.OPEN) stopRealityCheck();
        try {
          const snapshot = await hub.balanceMessage(member.siteId, member.memberId, 'snapshot', null);
          socket.send(JSON.stringify(snapshot));
        } catch (error) {
          // A member without wallet accounts yet has nothing to show; later pushes still arrive.
          request.log.debug({ err: error }, 'no balance snapshot');
        }
      });
      socket.on('close', () => {
        clearTimeout(timer);
        stopRealityCheck?.();
        if (member) hub.remove(member.siteId, member.memberId, target);
        hub.disconnected(target);
      });
    });
  },
  { name: 'realtime', dependencies: ['request-context'] },
);
