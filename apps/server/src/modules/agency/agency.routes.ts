import {
  formatMinor,
  ZAgencyClaimResponse,
  ZAgencyRewardResponse,
  ZAgencySettleResponse,
  ZInviteRecordRequest,
  ZInviteRecordResponse,
  ZInviteResponse,
  ZLangQuery,
  ZMechanismBetting,
  ZMechanismRecharge,
  ZMechanismSettlement,
  ZReferralBlocksResponse,
  ZSubordinateRegisterRequest,
  ZSubordinateRegisterResponse,
  ZTeamResponse,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordOperatorAction } from '../../core/audit.ts';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { operatorOf, requirePermission } from '../admin/permissions.ts';
import { listReferralBlocks } from '../referrals/referrals.service.ts';
import {
  claimCommissions,
  getInvite,
  getInviteRecord,
  getMechanismBetting,
  getMechanismRecharge,
  getMechanismSettlement,
  getRewards,
  getTeam,
  registerSubordinate,
  settlePreviousPeriod,
} from './agency.service.ts';

const tags = ['agency'];
const bearer = [{ bearerAuth: [] }];

function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The agency centre's calls (spec §7 api/agency/*). */
export async function agencyRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/agency/invite', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "The caller's invite code and the link that carries it",
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZInviteResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await getInvite(services.db, request.site, memberOf(request).memberId, originOf(request)),
      ),
  });

  r.get('/agency/team', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "The caller's team: direct and indirect members, active today, new this week",
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZTeamResponse),
    },
    handler: async (request) =>
      ok(request.lang, await getTeam(services.db, request.site, memberOf(request).memberId)),
  });

  r.post('/agency/inviterecord', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'Invitees with their deposits and bets, and the direct and indirect rewards in total',
      security: bearer,
      querystring: ZLangQuery,
      body: ZInviteRecordRequest,
      response: responses(ZInviteRecordResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await getInviteRecord(services.db, request.site, memberOf(request).memberId, request.body.level),
      ),
  });

  r.post('/agency/reward', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'Commissions per settled period, what is unclaimed and what was claimed',
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZAgencyRewardResponse),
    },
    handler: async (request) =>
      ok(request.lang, await getRewards(services.db, request.site, memberOf(request).memberId)),
  });

  r.post('/agency/reward/claim', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'Claim every unclaimed period into the cash balance (once per period)',
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZAgencyClaimResponse),
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      const claimed = await claimCommissions(services.db, request.site, memberId);
      void app.realtime.publishBalance(request.site.id, memberId, 'agency_commission');
      return ok(request.lang, claimed, 'messages.commission_claimed');
    },
  });

  r.get('/agency/mechanism/recharge', {
    schema: {
      tags,
      summary:
        "Commission on subordinates' deposits per level (off where rewards may not depend on deposits)",
      querystring: ZLangQuery,
      response: responses(ZMechanismRecharge),
    },
    handler: async (request) =>
      ok(request.lang, await getMechanismRecharge(services.db, request.site, request.lang)),
  });

  r.get('/agency/mechanism/betting', {
    schema: {
      tags,
      summary: 'Tiers of team volume and the commission rate of each level',
      querystring: ZLangQuery,
      response: responses(ZMechanismBetting),
    },
    handler: async (request) => ok(request.lang, await getMechanismBetting(services.db, request.site)),
  });

  r.get('/agency/mechanism/settlement', {
    schema: {
      tags,
      summary: 'When periods are settled and how commissions are paid',
      querystring: ZLangQuery,
      response: responses(ZMechanismSettlement),
    },
    handler: async (request) => ok(request.lang, await getMechanismSettlement(services.db, request.site)),
  });

  r.post('/admin/agency/settle', {
    onRequest: requirePermission('agency.manage'),
    schema: {
      tags: ['admin'],
      summary:
        "Settle the site's previous period now, as the daily job does (exactly once: a settled period is left as it is)",
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZAgencySettleResponse),
    },
    handler: async (request) => {
      const result = await settlePreviousPeriod(services.db, request.site);
      const settled = {
        period: result.period,
        settled: result.settled,
        members: result.members,
        total: formatMinor(result.totalMinor),
      };
      // The settlement is exactly-once by itself; the log says who asked for it and what it did.
      await recordOperatorAction(
        services.db,
        operatorOf(request),
        'agency.settle',
        { entity: 'agency_period', entityId: String(result.period) },
        null,
        settled,
      );
      return ok(request.lang, settled);
    },
  });

  r.get('/admin/agency/referral-blocks', {
    onRequest: requirePermission('players.read'),
    schema: {
      tags: ['admin'],
      summary:
        'Invitation rewards and commissions not paid because inviter and invitee share identity signals (which kinds, never the values)',
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZReferralBlocksResponse),
    },
    handler: async (request) =>
      ok(request.lang, { list: await listReferralBlocks(services.db, operatorOf(request).siteId) }),
  });

  r.post('/agency/subordinate/register', {
    onRequest: app.requireMember,
    config: { rateLimit: { max: services.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: 'Register a player directly under the caller (the caller is the introducer)',
      security: bearer,
      querystring: ZLangQuery,
      body: ZSubordinateRegisterRequest,
      response: responses(ZSubordinateRegisterResponse),
    },
    handler: async (request) => {
      const userAgent = request.headers['user-agent'];
      const created = await registerSubordinate(
        services.auth,
        request.site,
        memberOf(request).memberId,
        request.body,
        {
          ip: request.ip ?? null,
          userAgent: typeof userAgent === 'string' ? userAgent : null,
          lang: request.lang,
        },
      );
      return ok(request.lang, created, 'messages.subordinate_registered');
    },
  });
}
