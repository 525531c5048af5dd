import {
  ZAdminLoginRequest,
  ZAdminLoginResponse,
  ZAnnounceTermsRequest,
  ZForceOfflineRequest,
  ZForceOfflineResponse,
  ZLangQuery,
  ZLogoutRequest,
  ZLogoutResponse,
  ZTermsVersion,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import { ok, responses } from '../../http/reply.ts';
import { bearerToken } from '../auth/tokens.ts';
import { announceTerms } from '../terms/terms.service.ts';
import {
  authenticateOperator,
  endOperatorSession,
  forceMemberOffline,
  operatorLogin,
  type TAdminDeps,
  type TOperatorAuth,
} from './admin.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    operator: TOperatorAuth | null;
  }
}

const tags = ['admin'];
const bearer = [{ bearerAuth: [] }];

function operatorOf(request: FastifyRequest): TOperatorAuth {
  if (!request.operator) throw new AppError('UNAUTHENTICATED');
  return request.operator;
}

/** Back-office calls. Operator tokens are separate from player tokens and only open these routes. */
export async function adminRoutes(app: FastifyInstance) {
  const { services } = app;
  const deps: TAdminDeps = {
    executor: services.db,
    throttle: services.throttle,
    limits: services.auth.limits,
  };
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.decorateRequest('operator', null);
  const requireOperator = async (request: FastifyRequest) => {
    request.operator = await authenticateOperator(
      services.db,
      request.site,
      bearerToken(request.headers.authorization),
    );
  };

  r.post('/admin/auth/login', {
    config: { rateLimit: { max: services.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: "Operator login for this site's back office",
      querystring: ZLangQuery,
      body: ZAdminLoginRequest,
      response: responses(ZAdminLoginResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await operatorLogin(deps, request.site, request.body, request.ip ?? null),
        'messages.login_success',
      ),
  });

  r.post('/admin/auth/logout', {
    onRequest: requireOperator,
    schema: {
      tags,
      summary: 'End the calling operator session',
      security: bearer,
      querystring: ZLangQuery,
      body: ZLogoutRequest,
      response: responses(ZLogoutResponse),
    },
    handler: async (request) => {
      // requireOperator checked the token, so it is there.
      await endOperatorSession(services.db, request.site, bearerToken(request.headers.authorization)!);
      return ok(request.lang, null, 'messages.logout_success');
    },
  });

  r.post('/admin/members/force-offline', {
    onRequest: requireOperator,
    schema: {
      tags,
      summary: "End every session of a player of the operator's site (their next call: 401 force_offline)",
      security: bearer,
      querystring: ZLangQuery,
      body: ZForceOfflineRequest,
      response: responses(ZForceOfflineResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await forceMemberOffline(services.db, operatorOf(request), request.body.username),
        'messages.force_offline_done',
      ),
  });

  r.post('/admin/terms', {
    onRequest: requireOperator,
    schema: {
      tags,
      summary: "Announce the next version of the site's terms, effective at least 14 days ahead",
      security: bearer,
      querystring: ZLangQuery,
      body: ZAnnounceTermsRequest,
      response: responses(ZTermsVersion),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await announceTerms(services.db, operatorOf(request), request.body),
        'messages.terms_announced',
      ),
  });
}
