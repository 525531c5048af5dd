import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import { enforceSessionRules } from '../modules/responsible-gaming/rg.service.ts';
import { SessionCache } from '../modules/sessions/session-cache.ts';
import { authenticateMember, type TMemberAuth } from '../modules/sessions/sessions.service.ts';
import { bearerToken } from '../modules/sessions/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in member, set by `app.requireMember` on routes that need one. */
    member: TMemberAuth | null;
  }
  interface FastifyInstance {
    /** onRequest hook for member routes: 401 (force_offline when an operator ended it) without a session. */
    requireMember: (request: FastifyRequest) => Promise<void>;
  }
}

/** The logged-in member of a route that ran `app.requireMember`. */
export function memberOf(request: FastifyRequest): TMemberAuth {
  if (!request.member) throw new AppError('UNAUTHENTICATED');
  return request.member;
}

export const sessionAuthPlugin = fp(
  async (app: FastifyInstance, options: { listenUrl?: string | undefined }) => {
    // Valid sessions cached in this process with their exact expiry; ended ones dropped in every
    // process by pg_notify (modules/sessions/session-cache.ts, migration 0042).
    const sessions = new SessionCache();
    await sessions.start(app.services.db, options.listenUrl, (error) =>
      app.log.warn({ err: error }, 'session cache off: its invalidation channel failed'),
    );
    app.addHook('onClose', async () => sessions.stop());
    app.decorateRequest('member', null);
    // Back office: set by requirePermission (modules/admin/permissions.ts) on /api/admin routes.
    app.decorateRequest('operator', null);
    app.decorate('requireMember', async (request: FastifyRequest) => {
      const token = bearerToken(request.headers.authorization);
      const member = await authenticateMember(app.services.db, request.site, token, sessions);
      await enforceSessionRules(
        app.services.db,
        request.site,
        {
          memberId: member.memberId,
          restricted: member.restricted === true,
          playTimeUp: member.playTimeUp === true,
        },
        request.url,
      );
      request.member = member;
    });
  },
  { name: 'session-auth', dependencies: ['request-context'] },
);
