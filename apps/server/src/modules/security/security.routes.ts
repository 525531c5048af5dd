import {
  translate,
  ZBindEmailRequest,
  ZChangePasswordRequest,
  ZEmailCodeRequest,
  ZEndSessionRequest,
  ZForgotPasswordRequest,
  ZLangQuery,
  ZResetPasswordRequest,
  ZSecurityEventsResponse,
  ZSecurityOverview,
  ZSessionsResponse,
  ZSetWithdrawPasswordRequest,
  ZTotpDisableRequest,
  ZTotpEnableRequest,
  ZTotpEnableResponse,
  ZTotpSetupResponse,
  ZVerifyPasswordRequest,
  ZVerifyPasswordResponse,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import {
  bindEmail,
  changePassword,
  disableTotp,
  enableTotp,
  endOwnSession,
  forgotPassword,
  getSecurityOverview,
  listEvents,
  listSessions,
  resetPassword,
  sendBindEmailCode,
  setupTotp,
  setWithdrawPassword,
  verifyPassword,
} from './security.service.ts';
import type { TClientInfo } from './security-events.ts';

const tags = ['security'];
const security = [{ bearerAuth: [] }];
const ZEmpty = z.object({}).nullish();

function clientOf(request: FastifyRequest): TClientInfo {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof userAgent === 'string' ? userAgent : null };
}

/** Security centre (/security-center, /change-password, /verify-password, /bind-email) and password reset. */
export async function securityRoutes(app: FastifyInstance) {
  const { services } = app;
  const deps = { db: services.db, throttle: services.throttle };
  const strict = { rateLimit: { max: services.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } };
  const r = app.withTypeProvider<ZodTypeProvider>();
  const member = { onRequest: app.requireMember };
  const sendMail = () => void app.mail.kick();

  r.get('/security/overview', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'Security centre summary',
      querystring: ZLangQuery,
      response: responses(ZSecurityOverview),
    },
    handler: async (request) =>
      ok(request.lang, await getSecurityOverview(services.db, request.site, memberOf(request))),
  });

  r.post('/security/password', {
    ...member,
    config: strict,
    schema: {
      tags,
      security,
      summary: 'Change the login password (old one required); every other session ends',
      querystring: ZLangQuery,
      body: ZChangePasswordRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await changePassword(deps, request.site, memberOf(request), request.body, clientOf(request));
      sendMail();
      return ok(request.lang, null, 'messages.password_changed');
    },
  });

  r.post('/security/verify-password', {
    ...member,
    config: strict,
    schema: {
      tags,
      security,
      summary: 'Re-enter the login password before changing the withdrawal password',
      querystring: ZLangQuery,
      body: ZVerifyPasswordRequest,
      response: responses(ZVerifyPasswordResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await verifyPassword(deps, request.site, memberOf(request), request.body.password, clientOf(request)),
        'messages.password_verified',
      ),
  });

  r.post('/security/withdraw-password', {
    ...member,
    config: strict,
    schema: {
      tags,
      security,
      summary: 'Set or change the 6-digit withdrawal password (after verify-password)',
      querystring: ZLangQuery,
      body: ZSetWithdrawPasswordRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await setWithdrawPassword(deps, request.site, memberOf(request), request.body, clientOf(request));
      sendMail();
      return ok(request.lang, null, 'messages.withdraw_password_set');
    },
  });

  r.get('/security/sessions', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'Active sessions (devices)',
      querystring: ZLangQuery,
      response: responses(ZSessionsResponse),
    },
    handler: async (request) => ok(request.lang, await listSessions(services.db, memberOf(request))),
  });

  r.post('/security/sessions/end', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'End one of my sessions',
      querystring: ZLangQuery,
      body: ZEndSessionRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await endOwnSession(
        services.db,
        request.site,
        memberOf(request),
        BigInt(request.body.session_id),
        clientOf(request),
      );
      sendMail();
      return ok(request.lang, null, 'messages.session_ended');
    },
  });

  r.get('/security/events', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'Recent security events',
      querystring: ZLangQuery,
      response: responses(ZSecurityEventsResponse),
    },
    handler: async (request) => ok(request.lang, await listEvents(services.db, memberOf(request))),
  });

  r.post('/security/email/code', {
    ...member,
    config: strict,
    schema: {
      tags,
      security,
      summary: 'Email a 6-digit code to confirm this address',
      querystring: ZLangQuery,
      body: ZEmailCodeRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await sendBindEmailCode(services.db, request.site, memberOf(request), request.body.email);
      sendMail();
      return {
        ...ok(request.lang, null),
        message: translate(request.lang, 'messages.email_code_sent', { email: request.body.email }),
      };
    },
  });

  r.post('/security/email/bind', {
    ...member,
    config: strict,
    schema: {
      tags,
      security,
      summary: 'Confirm the email address with the emailed code',
      querystring: ZLangQuery,
      body: ZBindEmailRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await bindEmail(services.db, request.site, memberOf(request), request.body, clientOf(request));
      sendMail();
      return ok(request.lang, null, 'messages.email_bound');
    },
  });

  r.post('/security/totp/setup', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'A new authenticator secret and its QR code (on once confirmed)',
      querystring: ZLangQuery,
      body: ZEmpty,
      response: responses(ZTotpSetupResponse),
    },
    handler: async (request) =>
      ok(request.lang, await setupTotp(services.db, request.site, memberOf(request))),
  });

  r.post('/security/totp/enable', {
    ...member,
    config: strict,
    schema: {
      tags,
      security,
      summary: 'Turn two-factor on with a first code; answers the recovery codes once',
      querystring: ZLangQuery,
      body: ZTotpEnableRequest,
      response: responses(ZTotpEnableResponse),
    },
    handler: async (request) => {
      const result = await enableTotp(
        deps,
        request.site,
        memberOf(request),
        request.body.code,
        clientOf(request),
      );
      sendMail();
      return ok(request.lang, result, 'messages.totp_enabled');
    },
  });

  r.post('/security/totp/disable', {
    ...member,
    config: strict,
    schema: {
      tags,
      security,
      summary: 'Turn two-factor off (login password and a code)',
      querystring: ZLangQuery,
      body: ZTotpDisableRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await disableTotp(deps, request.site, memberOf(request), request.body, clientOf(request));
      sendMail();
      return ok(request.lang, null, 'messages.totp_disabled');
    },
  });

  r.post('/auth/password/forgot', {
    config: strict,
    schema: {
      tags,
      summary: 'Email a password reset code (same answer whether or not the account exists)',
      querystring: ZLangQuery,
      body: ZForgotPasswordRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await services.captcha.verify(request.site.id, request.body.captcha_id, request.body.captcha_code);
      await forgotPassword(services.db, request.site, request.body.username);
      sendMail();
      return ok(request.lang, null, 'messages.reset_code_sent');
    },
  });

  r.post('/auth/password/reset', {
    config: strict,
    schema: {
      tags,
      summary: 'Set a new password with the emailed code; every session ends',
      querystring: ZLangQuery,
      body: ZResetPasswordRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await resetPassword(services.db, request.site, request.body, clientOf(request));
      sendMail();
      return ok(request.lang, null, 'messages.password_reset');
    },
  });
}
