import {
  ZCrashRoundBetsResponse,
  ZLangQuery,
  ZMyCrashBetsResponse,
  ZRecentWinsQuery,
  ZRecentWinsResponse,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { requireDemoPlayer } from '../originals/demo.service.ts';
import { getMyCrashBets, getRecentWins, getRoundBets } from './live-feed.service.ts';

const security = [{ bearerAuth: [] }];

/**
 * The live feed beside the in-house games: GET /api/crash/round-bets (the current round's bets and
 * cash-outs), GET /api/crash/my-bets (the caller's last crash bets) and GET /api/games/recent-wins
 * (the latest real wins). Needs the crash engine (registered before the routes).
 */
export async function liveFeedRoutes(app: FastifyInstance) {
  const { db } = app.services;
  const r = app.withTypeProvider<ZodTypeProvider>();

  async function optionalMemberId(request: FastifyRequest): Promise<bigint | null> {
    if (!request.headers.authorization) return null;
    await app.requireMember(request);
    return memberOf(request).memberId;
  }

  r.get('/crash/round-bets', {
    schema: {
      tags: ['crash'],
      summary: "The current crash round's real-money bets on this site (masked names), biggest first",
      querystring: ZLangQuery,
      response: responses(ZCrashRoundBetsResponse),
    },
    handler: async (request) => {
      const state = await app.crash.state(null);
      const viewer = await optionalMemberId(request);
      return ok(request.lang, await getRoundBets(db, request.site.id, BigInt(state.round_id), viewer));
    },
  });

  r.get('/crash/my-bets', {
    schema: {
      tags: ['crash'],
      summary: 'Your last crash bets (a guest sends X-Demo-Token for its fun-money bets)',
      security,
      querystring: ZLangQuery,
      response: responses(ZMyCrashBetsResponse),
    },
    handler: async (request) => {
      const token = request.headers['x-demo-token'];
      if (typeof token === 'string' && token !== '') {
        const demo = await requireDemoPlayer(db, request.site.id, token);
        return ok(request.lang, await getMyCrashBets(db, { demoSessionId: demo.demoSessionId }));
      }
      await app.requireMember(request);
      return ok(request.lang, await getMyCrashBets(db, { memberId: memberOf(request).memberId }));
    },
  });

  r.get('/games/recent-wins', {
    schema: {
      tags: ['games'],
      summary: 'The latest real-money wins on this site’s in-house games (settled rounds only, masked names)',
      querystring: ZRecentWinsQuery,
      response: responses(ZRecentWinsResponse),
    },
    handler: async (request) =>
      ok(request.lang, await getRecentWins(db, request.site.id, request.query.game || null)),
  });
}
