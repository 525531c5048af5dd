import {
  ZCaptchaRequest,
  ZCaptchaResponse,
  ZLangQuery,
  ZLoginRequest,
  ZLoginResponse,
  ZLogoutRequest,
  ZLogoutResponse,
  ZMeRequest,
  ZMeResponse,
  ZRegisterRequest,
  ZRegisterResponse,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { getUserInfo } from '../members/member-info.ts';
import { endSession } from '../sessions/sessions.service.ts';
import { login, register, type TClient } from './auth.service.ts';

function clientOf(request: FastifyRequest): TClient {
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent : null,
    lang: request.lang,
  };
}

const tags = ['auth'];
const bearer = [{ bearerAuth: [] }];

/** Player authentication: spec §7 paths (captcha, register2, login2, me) and logout. */
export async function authRoutes(app: FastifyInstance) {
  const { services } = app;
  const strict = { rateLimit: { max: services.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } };
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/auth/captcha', {
    config: strict,
    schema: {
      tags,
      summary: 'A single-use image captcha (5 minutes); required:false when the captcha is off',
      querystring: ZLangQuery,
      body: ZCaptchaRequest,
      response: responses(ZCaptchaResponse),
    },
    handler: async (request) => ok(request.lang, await services.captcha.create(request.site.id)),
  });

  r.post('/auth/register2', {
    config: strict,
    schema: {
      tags,
      summary: 'Register a player on this site and log in',
      querystring: ZLangQuery,
      body: ZRegisterRequest,
      response: responses(ZRegisterResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await register(services.auth, request.site, request.body, clientOf(request)),
        'messages.registration_success',
      ),
  });

  r.post('/auth/login2', {
    config: strict,
    schema: {
      tags,
      summary: 'Log in with account and password',
      querystring: ZLangQuery,
      body: ZLoginRequest,
      response: responses(ZLoginResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await login(services.auth, request.site, request.body, clientOf(request)),
        'messages.login_success',
      ),
  });

  r.post('/auth/me', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'The logged-in player (user info, spec §3)',
      security: bearer,
      querystring: ZLangQuery,
      body: ZMeRequest,
      response: responses(ZMeResponse),
    },
    handler: async (request) =>
      ok(request.lang, await getUserInfo(services.db, request.site, memberOf(request).memberId)),
  });

  r.post('/auth/logout', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'End the calling session',
      security: bearer,
      querystring: ZLangQuery,
      body: ZLogoutRequest,
      response: responses(ZLogoutResponse),
    },
    handler: async (request) => {
      await endSession(services.db, memberOf(request).sessionId);
      return ok(request.lang, null, 'messages.logout_success');
    },
  });
}
