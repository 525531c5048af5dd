import {
  translate,
  ZCoolingOffRequest,
  ZLangQuery,
  ZRgStatus,
  ZSelfExclusionRequest,
  ZSetRealityCheckRequest,
  ZSetRgLimitRequest,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { siteTimeZone } from '../../core/periods.ts';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import type { TClientInfo } from '../security/security-events.ts';
import { getRgStatus, setLimit, setRealityCheck, startExclusion } from './rg.service.ts';

const tags = ['responsible-gaming'];
const security = [{ bearerAuth: [] }];

function clientOf(request: FastifyRequest): TClientInfo {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof userAgent === 'string' ? userAgent : null };
}

/** Responsible gaming: limits, reality check, pause and self-exclusion (the player's own). */
export async function responsibleGamingRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const member = { onRequest: app.requireMember };
  const sendMail = () => void app.mail.kick();

  r.get('/responsible-gaming', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'My limits, reality check, pause or exclusion, and the site rules',
      querystring: ZLangQuery,
      response: responses(ZRgStatus),
    },
    handler: async (request) =>
      ok(request.lang, await getRgStatus(services.db, request.site, memberOf(request).memberId)),
  });

  r.post('/responsible-gaming/limits', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'Set a deposit, loss, stake or session-time limit (tighter at once, looser after 24 h)',
      querystring: ZLangQuery,
      body: ZSetRgLimitRequest,
      response: responses(ZRgStatus),
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      const { pendingEffectiveAt } = await setLimit(
        services.db,
        request.site,
        memberId,
        request.body,
        clientOf(request),
      );
      sendMail();
      const status = await getRgStatus(services.db, request.site, memberId);
      if (!pendingEffectiveAt) return ok(request.lang, status, 'messages.limit_saved');
      return {
        ...ok(request.lang, status),
        message: translate(request.lang, 'messages.limit_pending', {
          at: pendingEffectiveAt.toISOString(),
          time_zone: siteTimeZone(request.site),
        }),
      };
    },
  });

  r.post('/responsible-gaming/reality-check', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'Minutes between reality-check reminders (0 = off)',
      querystring: ZLangQuery,
      body: ZSetRealityCheckRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await setRealityCheck(services.db, memberOf(request).memberId, request.body.minutes);
      return ok(request.lang, null, 'messages.reality_check_saved');
    },
  });

  r.post('/responsible-gaming/cooling-off', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'Take a break (1, 7 or 30 days): every session ends',
      querystring: ZLangQuery,
      body: ZCoolingOffRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await startExclusion(
        services.db,
        request.site,
        memberOf(request).memberId,
        { kind: 'cooling_off', days: request.body.days, password: request.body.password },
        clientOf(request),
      );
      sendMail();
      return ok(request.lang, null, 'messages.cooling_off_started');
    },
  });

  r.post('/responsible-gaming/self-exclusion', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'Self-exclude (1, 3, 6, 12 months or indefinitely): every session ends',
      querystring: ZLangQuery,
      body: ZSelfExclusionRequest,
      response: responses(z.null()),
    },
    handler: async (request) => {
      await startExclusion(
        services.db,
        request.site,
        memberOf(request).memberId,
        { kind: 'self_exclusion', months: request.body.months, password: request.body.password },
        clientOf(request),
      );
      sendMail();
      return ok(request.lang, null, 'messages.self_exclusion_started');
    },
  });
}
