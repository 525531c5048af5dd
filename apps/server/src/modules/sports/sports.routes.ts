import {
  IDEMPOTENCY_KEY_PATTERN,
  ZLangQuery,
  ZSportsAdminEventsQuery,
  ZSportsAdminLiveRequest,
  ZSportsAdminOddsRequest,
  ZSportsAdminResultRequest,
  ZSportsAdminSettleResponse,
  ZSportsBetResponse,
  ZSportsBetsQuery,
  ZSportsBetsResponse,
  ZSportsCashOutRequest,
  ZSportsCollectResponse,
  ZSportsCompetitionsResponse,
  ZSportsEventResponse,
  ZSportsEventsQuery,
  ZSportsEventsResponse,
  ZSportsIdempotencyHeaders,
  ZSportsPlaceBetRequest,
  ZSportsSettings,
  ZSportsUnrecoveredResponse,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordOperatorAction } from '../../core/audit.ts';
import type { Tx } from '../../db/client.ts';
import { fieldError } from '../../errors.ts';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { operatorOf, requirePermission } from '../admin/permissions.ts';
import { placeBetGrouped } from './sports.bet-group.ts';
import { startSportsChannel } from './sports.realtime.ts';
import {
  cancelEvent,
  cashOut,
  collectUnrecovered,
  enterResult,
  getBet,
  getEvent,
  listBets,
  listCompetitions,
  listEvents,
  listUnrecovered,
  markLive,
  setMarketStatus,
  setOdds,
  setSportsSettings,
  sportsSettings,
  type TAudit,
  type TSportsDeps,
} from './sports.service.ts';

const tags = ['sports'];
const security = [{ bearerAuth: [] }];
const ZIdParams = z.object({ id: z.string().regex(/^[1-9]\d{0,17}$/, { error: 'validation.invalid' }) });
/** The operator permission of the sportsbook's back-office calls. */
const SPORTS_PERMISSION = 'games.manage' as const;

function keyOf(bodyKey: string | undefined, headerKey: string | undefined): string {
  const key = bodyKey ?? headerKey;
  if (!key || !IDEMPOTENCY_KEY_PATTERN.test(key))
    throw fieldError('idempotency_key', 'validation.idempotency_key');
  return key;
}

/** Live sports pushes on /ws (sports_watch), started with the app (the collection job: sports.jobs.ts). */
export const sportsPlugin = fp(
  async (app: FastifyInstance, options: { listenUrl?: string | undefined }) => {
    const stop = await startSportsChannel(app.services.db, app.realtime, options.listenUrl, (error) =>
      app.log.warn({ err: error }, 'sports push failed'),
    );
    app.addHook('onClose', async () => {
      await stop();
    });
  },
  { name: 'sports', dependencies: ['realtime'] },
);

/** The sportsbook: events and odds (guests too), the bet slip, "My bets" and cash-out (members). */
export async function sportsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps: TSportsDeps = {
    db: app.services.db,
    publishBalance: (siteId, memberId, reason) => void app.realtime.publishBalance(siteId, memberId, reason),
  };
  const member = { onRequest: app.requireMember };

  r.get('/sports/competitions', {
    schema: {
      tags,
      summary: 'Competitions of this site, in display order',
      querystring: ZLangQuery,
      response: responses(ZSportsCompetitionsResponse),
    },
    handler: async (request) => ok(request.lang, await listCompetitions(deps.db, request.site)),
  });

  r.get('/sports/events', {
    schema: {
      tags,
      summary:
        'Matches with their markets and odds (default: upcoming and live), by competition order then kick-off',
      querystring: ZSportsEventsQuery,
      response: responses(ZSportsEventsResponse),
    },
    handler: async (request) => ok(request.lang, await listEvents(deps.db, request.site, request.query)),
  });

  r.get('/sports/events/:id', {
    schema: {
      tags,
      summary: 'One match with all its markets',
      params: ZIdParams,
      querystring: ZLangQuery,
      response: responses(ZSportsEventResponse),
    },
    handler: async (request) =>
      ok(request.lang, await getEvent(deps.db, request.site, BigInt(request.params.id))),
  });

  r.post('/sports/bets', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'Place a single or an accumulator (Idempotency-Key header or idempotency_key)',
      headers: ZSportsIdempotencyHeaders,
      querystring: ZLangQuery,
      body: ZSportsPlaceBetRequest,
      response: responses(ZSportsBetResponse),
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      const key = keyOf(request.body.idempotency_key, request.headers['idempotency-key']);
      const placed = await placeBetGrouped(deps, request.site, memberId, request.body, key);
      return ok(request.lang, { bet: placed.bet, balance: placed.balance });
    },
  });

  r.get('/sports/bets', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'My bets, newest first (20 a page)',
      querystring: ZSportsBetsQuery,
      response: responses(ZSportsBetsResponse),
    },
    handler: async (request) =>
      ok(request.lang, await listBets(deps.db, request.site, memberOf(request).memberId, request.query)),
  });

  r.get('/sports/bets/:id', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'One of my bets',
      params: ZIdParams,
      querystring: ZLangQuery,
      response: responses(ZSportsBetResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await getBet(deps.db, request.site, memberOf(request).memberId, BigInt(request.params.id)),
      ),
  });

  r.post('/sports/bets/:id/cash-out', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'Cash out an open bet at the offer the player saw',
      params: ZIdParams,
      headers: ZSportsIdempotencyHeaders,
      querystring: ZLangQuery,
      body: ZSportsCashOutRequest,
      response: responses(ZSportsBetResponse),
    },
    handler: async (request) => {
      const key = keyOf(request.body.idempotency_key, request.headers['idempotency-key']);
      const result = await cashOut(
        deps,
        request.site,
        memberOf(request).memberId,
        BigInt(request.params.id),
        request.body.value,
        key,
      );
      return ok(request.lang, result);
    },
  });
}

/** The operator's sportsbook calls (permission games.manage; every change in the audit log). */
export async function sportsAdminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps: TSportsDeps = {
    db: app.services.db,
    publishBalance: (siteId, memberId, reason) => void app.realtime.publishBalance(siteId, memberId, reason),
  };
  const guard = { onRequest: requirePermission(SPORTS_PERMISSION) };
  const auditOf =
    (request: FastifyRequest, action: string, entity: string, entityId: string, input: unknown): TAudit =>
    async (tx: Tx, after) =>
      recordOperatorAction(tx, operatorOf(request), action, { entity, entityId }, input, after);

  r.get('/admin/sports/events', {
    ...guard,
    schema: {
      tags: ['admin'],
      security,
      summary: 'Matches of this site with their markets (all states)',
      querystring: ZSportsAdminEventsQuery,
      response: responses(ZSportsEventsResponse),
    },
    handler: async (request) => ok(request.lang, await listEvents(deps.db, request.site, request.query)),
  });

  r.get('/admin/sports/settings', {
    ...guard,
    schema: {
      tags: ['admin'],
      security,
      summary: "The site's in-play bet delay and how long a goal suspends a match's markets",
      querystring: ZLangQuery,
      response: responses(ZSportsSettings),
    },
    handler: async (request) => ok(request.lang, await sportsSettings(deps.db, request.site)),
  });

  r.put('/admin/sports/settings', {
    ...guard,
    schema: {
      tags: ['admin'],
      security,
      summary: "Set the site's in-play bet delay and goal suspension window",
      querystring: ZLangQuery,
      body: ZSportsSettings,
      response: responses(ZSportsSettings),
    },
    handler: async (request) => {
      const settings = await setSportsSettings(deps, request.site, request.body, (tx, before, after) =>
        recordOperatorAction(
          tx,
          operatorOf(request),
          'sports.settings',
          { entity: 'site', entityId: request.site.id.toString() },
          before,
          after,
        ),
      );
      return ok(request.lang, settings);
    },
  });

  r.get('/admin/sports/unrecovered', {
    ...guard,
    schema: {
      tags: ['admin'],
      security,
      summary: 'Bets whose corrected payout the player had already spent: what each player still owes',
      querystring: ZLangQuery,
      response: responses(ZSportsUnrecoveredResponse),
    },
    handler: async (request) => ok(request.lang, { list: await listUnrecovered(deps.db, request.site) }),
  });

  r.post('/admin/sports/bets/:id/collect', {
    ...guard,
    schema: {
      tags: ['admin'],
      security,
      summary: "Collect what the player still owes on this bet from the player's cash now",
      params: ZIdParams,
      querystring: ZLangQuery,
      response: responses(ZSportsCollectResponse),
    },
    handler: async (request) => {
      const { id } = request.params;
      const list = await collectUnrecovered(deps, request.site, {
        betId: BigInt(id),
        audit: (tx, result) =>
          recordOperatorAction(
            tx,
            operatorOf(request),
            'sports.collect',
            { memberId: BigInt(result.member_id), entity: 'sports_bet', entityId: id },
            null,
            result,
          ),
      });
      return ok(request.lang, { list });
    },
  });

  r.post('/admin/sports/markets/:id/odds', {
    ...guard,
    schema: {
      tags: ['admin'],
      security,
      summary: 'Set odds by hand, or reprice from true probabilities with a margin',
      params: ZIdParams,
      querystring: ZLangQuery,
      body: ZSportsAdminOddsRequest,
      response: responses(ZSportsAdminSettleResponse),
    },
    handler: async (request) => {
      const { id } = request.params;
      const result = await setOdds(
        deps,
        request.site,
        BigInt(id),
        request.body,
        auditOf(request, 'sports.odds', 'sports_market', id, request.body),
      );
      return ok(request.lang, result);
    },
  });

  for (const [path, status, action] of [
    ['suspend', 'suspended', 'sports.market_suspend'],
    ['reopen', 'open', 'sports.market_reopen'],
  ] as const) {
    r.post(`/admin/sports/markets/:id/${path}`, {
      ...guard,
      schema: {
        tags: ['admin'],
        security,
        summary:
          status === 'open' ? 'Reopen a suspended market' : 'Suspend a market: no bets, no cash-out on it',
        params: ZIdParams,
        querystring: ZLangQuery,
        response: responses(ZSportsAdminSettleResponse),
      },
      handler: async (request) => {
        const { id } = request.params;
        const result = await setMarketStatus(
          deps,
          request.site,
          BigInt(id),
          status,
          auditOf(request, action, 'sports_market', id, { status }),
        );
        return ok(request.lang, result);
      },
    });
  }

  r.post('/admin/sports/events/:id/result', {
    ...guard,
    schema: {
      tags: ['admin'],
      security,
      summary: 'Enter or correct the final score: settles (or resettles) every market and bet at once',
      params: ZIdParams,
      querystring: ZLangQuery,
      body: ZSportsAdminResultRequest,
      response: responses(ZSportsAdminSettleResponse),
    },
    handler: async (request) => {
      const { id } = request.params;
      const score = { home: request.body.home_goals, away: request.body.away_goals };
      const result = await enterResult(
        deps,
        request.site,
        BigInt(id),
        score,
        auditOf(request, 'sports.result', 'sports_event', id, score),
      );
      return ok(request.lang, result);
    },
  });

  r.post('/admin/sports/events/:id/live', {
    ...guard,
    schema: {
      tags: ['admin'],
      security,
      summary: 'Mark the match live with its current score (in-play bets on open markets)',
      params: ZIdParams,
      querystring: ZLangQuery,
      body: ZSportsAdminLiveRequest,
      response: responses(ZSportsAdminSettleResponse),
    },
    handler: async (request) => {
      const { id } = request.params;
      const score = { home: request.body.home_goals, away: request.body.away_goals };
      const result = await markLive(
        deps,
        request.site,
        BigInt(id),
        score,
        auditOf(request, 'sports.live', 'sports_event', id, score),
      );
      return ok(request.lang, result);
    },
  });

  r.post('/admin/sports/events/:id/cancel', {
    ...guard,
    schema: {
      tags: ['admin'],
      security,
      summary: 'Cancel the match: every market void, stakes returned',
      params: ZIdParams,
      querystring: ZLangQuery,
      response: responses(ZSportsAdminSettleResponse),
    },
    handler: async (request) => {
      const { id } = request.params;
      const result = await cancelEvent(
        deps,
        request.site,
        BigInt(id),
        auditOf(request, 'sports.cancel', 'sports_event', id, {}),
      );
      return ok(request.lang, result);
    },
  });
}
