import {
  PROMOTION_CALLS,
  ZActivityDetails,
  ZCoverHistory,
  ZCoverHistoryRequest,
  ZLangQuery,
  ZPromotionCheck,
  ZPromotionClaim,
  ZPromotionRequest,
  ZRebatesDetails,
  ZRebatesList,
  ZRebatesRequest,
  ZVipInfo,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerCashierOffers, depositCredited } from '../../core/money-events.ts';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { assertOwnMember } from '../deposits/deposits.service.ts';
import { levelName } from '../members/member-info.ts';
import { activeSites, siteCampaigns, takeLevelUps } from './promotions.repo.ts';
import {
  activityDetails,
  channelGiftBps,
  checkCampaign,
  claimCampaign,
  coverHistory,
  onDepositCredited,
  rebatesDetails,
  rebatesList,
  rechargeGiftMinor,
  rechargeRewardWagering,
  type TCtx,
  vipInfo,
} from './promotions.service.ts';

const bearer = [{ bearerAuth: [] }];

/**
 * The promotion calls of spec §7. Identity is the session's: a `member_id` in a body must be the
 * caller's own (FORBIDDEN otherwise); `site` is the Host's site.
 */
export async function promotionsRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest): TCtx => ({
    db: services.db,
    site: request.site,
    memberId: memberOf(request).memberId,
    lang: request.lang,
  });

  for (const call of PROMOTION_CALLS) {
    r.post(`/${call}/check`, {
      onRequest: app.requireMember,
      schema: {
        tags: ['promotions'],
        summary: `${call}: the campaign's rules, whether the caller can claim now, and why not`,
        security: bearer,
        querystring: ZLangQuery,
        body: ZPromotionRequest,
        response: responses(ZPromotionCheck),
      },
      handler: async (request) => {
        assertOwnMember(request.body.member_id, memberOf(request).memberId);
        return ok(request.lang, await checkCampaign(ctx(request), call, request.body));
      },
    });
    r.post(`/${call}/claim`, {
      onRequest: app.requireMember,
      schema: {
        tags: ['promotions'],
        summary: `${call}: claims the reward once per period (a grant with its wagering)`,
        description:
          'Refusals: PROMO_NOT_ELIGIBLE, PROMO_NOTHING_TO_CLAIM (already claimed), PROMO_NO_ELIGIBLE_TOPUPS, ' +
          'PROMO_NO_SPINS, PROMO_UPGRADE_REQUIRED, PROMO_UNAVAILABLE (off on this site, with why), ' +
          'USER_DOES_NOT_EXIST (409, invitation claim naming nobody the caller invited).',
        security: bearer,
        querystring: ZLangQuery,
        body: ZPromotionRequest,
        response: responses(ZPromotionClaim),
      },
      handler: async (request) => {
        assertOwnMember(request.body.member_id, memberOf(request).memberId);
        const claimed = await claimCampaign(ctx(request), call, request.body);
        void app.realtime.publishBalance(request.site.id, memberOf(request).memberId, `reward_${call}`);
        return ok(request.lang, claimed, 'messages.reward_claimed');
      },
    });
  }

  r.get('/activitydetails/get', {
    schema: {
      tags: ['promotions'],
      summary: "Every campaign of the site, on or off (with why, in the player's language), and its rules",
      querystring: ZLangQuery,
      response: responses(ZActivityDetails),
    },
    handler: async (request) =>
      ok(request.lang, await activityDetails(services.db, request.site, request.lang)),
  });

  r.post('/cover/history', {
    onRequest: app.requireMember,
    schema: {
      tags: ['promotions'],
      summary: 'Every reward the caller received (newest first) with its wagering, and the active totals',
      security: bearer,
      querystring: ZLangQuery,
      body: ZCoverHistoryRequest,
      response: responses(ZCoverHistory),
    },
    handler: async (request) => {
      assertOwnMember(request.body.member_id, memberOf(request).memberId);
      return ok(request.lang, await coverHistory(ctx(request), request.body));
    },
  });

  r.post('/member/vip/info', {
    onRequest: app.requireMember,
    schema: {
      tags: ['promotions'],
      summary: "The caller's VIP level (uservip) and the level list (data)",
      description: 'Levels count total reload on intl sites and total wagered on br sites.',
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZVipInfo),
    },
    handler: async (request) => ok(request.lang, await vipInfo(ctx(request))),
  });

  r.post('/games/rebates/list', {
    onRequest: app.requireMember,
    schema: {
      tags: ['promotions'],
      summary: 'Rebates per game category: rate, bets and rebate today and yesterday, total received',
      security: bearer,
      querystring: ZLangQuery,
      body: ZRebatesRequest,
      response: responses(ZRebatesList),
    },
    handler: async (request) => ok(request.lang, await rebatesList(ctx(request))),
  });

  r.post('/games/rebates/details', {
    onRequest: app.requireMember,
    schema: {
      tags: ['promotions'],
      summary: 'The rebates paid, day by day, with their parts per category',
      security: bearer,
      querystring: ZLangQuery,
      body: ZRebatesRequest,
      response: responses(ZRebatesDetails),
    },
    handler: async (request) => ok(request.lang, await rebatesDetails(ctx(request), request.body)),
  });
}

/** Level-up pushes on the live socket (the scheduled jobs: promotions.jobs.ts). */
export const promotionsPlugin = fp(
  async (app: FastifyInstance) => {
    // The cashier's questions and its credited deposits (core/money-events.ts) are answered here.
    answerCashierOffers({ channelGiftBps, rechargeGiftMinor, rechargeRewardWagering });
    depositCredited.on('promotions', onDepositCredited);
    app.realtime.addNoticeSource(async (siteId, memberId) =>
      (await takeLevelUps(app.services.db, siteId, memberId)).map((up) => ({
        type: 'vip_level_up',
        track: up.track,
        level: up.level,
        level_name: levelName(up.level),
      })),
    );
    // Every site's campaigns exist from the start (the home banners list only campaigns on there).
    // A database that is down at boot does not stop the server (it answers, /readyz says not
    // ready); the campaigns are then created by their first read, as for a site added later.
    app.addHook('onReady', async () => {
      try {
        for (const site of await activeSites(app.services.db)) await siteCampaigns(app.services.db, site);
      } catch (error) {
        app.log.warn({ err: error }, 'campaigns not prepared at start');
      }
    });
  },
  { name: 'promotions', dependencies: ['realtime'] },
);
