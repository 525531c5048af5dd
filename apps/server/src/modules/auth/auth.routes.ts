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
  ZRefreshRequest,
  ZRefreshResponse,
  ZRegisterRequest,
  ZRegisterResponse,
} from '@sorte/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { getUserInfo } from '../members/member-info.ts';
import { rememberSession } from '../sessions/refresh-tokens.repo.ts';
import { endSession } from '../sessions/sessions.service.ts';
import { login, refresh, register, type TClient } from './auth.service.ts';
import { clearRefreshCookie, refreshCookieOf, setRefreshCookie } from './refresh-cookie.ts';

/** A device id as the web app makes one (a random UUID), or another client's opaque id of 16–64 characters. */
const DEVICE_ID = /^[A-Za-z0-9-]{16,64}$/;

function clientOf(request: FastifyRequest): TClient {
  const userAgent = request.headers['user-agent'];
  const device = request.headers['x-sorte-device'];
  return {
    ip: request.ip ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent : null,
    deviceId: typeof device === 'string' && DEVICE_ID.test(device) ? device : null,
    lang: request.lang,
  };
}

const tags = ['auth'];

async function remember(request: FastifyRequest, reply: FastifyReply, bearer: string): Promise<void> {
  setRefreshCookie(
    request,
    reply,
    await rememberSession(request.server.services.db, request.site.id, bearer),
  );
}
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
    handler: async (request, reply) => {
      const session = await register(services.auth, request.site, request.body, clientOf(request));
      if (request.body.remember) await remember(request, reply, session.token);
      return ok(request.lang, session, 'messages.registration_success');
    },
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
    handler: async (request, reply) => {
      const session = await login(services.auth, request.site, request.body, clientOf(request));
      if (request.body.remember) await remember(request, reply, session.token);
      return ok(request.lang, session, 'messages.login_success');
    },
  });

  r.post('/auth/refresh', {
    config: strict,
    schema: {
      tags,
      summary: 'Trade the "keep me signed in" cookie for a new session (the cookie is rotated)',
      querystring: ZLangQuery,
      body: ZRefreshRequest,
      response: responses(ZRefreshResponse),
    },
    handler: async (request, reply) => {
      try {
        const { session, refreshToken } = await refresh(
          services.auth,
          request.site,
          refreshCookieOf(request),
          clientOf(request),
        );
        setRefreshCookie(request, reply, refreshToken);
        return ok(request.lang, session, 'messages.login_success');
      } catch (error) {
        clearRefreshCookie(request, reply);
        throw error;
      }
    },
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
    handler: async (request, reply) => {
      await endSession(services.db, memberOf(request).sessionId);
      clearRefreshCookie(request, reply);
      return ok(request.lang, null, 'messages.logout_success');
    },
  });
}
