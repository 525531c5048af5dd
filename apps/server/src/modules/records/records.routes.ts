import {
  ZAllBalanceQuery,
  ZAllBalanceResponse,
  ZLangQuery,
  ZOrderCenterAssociationResponse,
  ZOrderCenterDetailsResponse,
  ZOrderCenterFeeResponse,
  ZOrderCenterQuery,
  ZTransactionRecordRequest,
  ZTransactionRecordResponse,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import {
  getAllBalances,
  getOrderCenterAssociation,
  getOrderCenterDetails,
  getOrderCenterFees,
  listTransactions,
} from './records.service.ts';

const bearer = [{ bearerAuth: [] }];
const periods =
  'period: today | last_3_days | last_7_days | all (default), in the site time zone ' +
  '(America/Sao_Paulo on br sites, UTC elsewhere).';

const owner = (request: FastifyRequest) => ({ site: request.site, memberId: memberOf(request).memberId });

/**
 * The transaction record, the order center and the per-platform balances of the caller.
 * POST /api/transaction/record, GET /api/ordercenter/{details,fee,association},
 * GET /api/day7/getAllBalance.
 */
export async function recordsRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/transaction/record', {
    onRequest: app.requireMember,
    schema: {
      tags: ['records'],
      summary: "The caller's wallet movements, newest first, keyset-paged (previous / next)",
      description: `${periods} Send next_cursor or prev_cursor of an earlier answer as cursor; page_size 1..50.`,
      security: bearer,
      querystring: ZLangQuery,
      body: ZTransactionRecordRequest,
      response: responses(ZTransactionRecordResponse),
    },
    handler: async (request) =>
      ok(request.lang, await listTransactions(services.readDb, owner(request), request.body)),
  });

  r.get('/ordercenter/details', {
    onRequest: app.requireMember,
    schema: {
      tags: ['order center'],
      summary: "The caller's recharge and withdrawal orders with the period's totals",
      description: periods,
      security: bearer,
      querystring: ZOrderCenterQuery,
      response: responses(ZOrderCenterDetailsResponse),
    },
    handler: async (request) =>
      ok(request.lang, await getOrderCenterDetails(services.readDb, owner(request), request.query.period)),
  });

  r.get('/ordercenter/fee', {
    onRequest: app.requireMember,
    schema: {
      tags: ['order center'],
      summary: 'Withdrawal fees the caller paid',
      description: periods,
      security: bearer,
      querystring: ZOrderCenterQuery,
      response: responses(ZOrderCenterFeeResponse),
    },
    handler: async (request) =>
      ok(request.lang, await getOrderCenterFees(services.readDb, owner(request), request.query.period)),
  });

  r.get('/ordercenter/association', {
    onRequest: app.requireMember,
    schema: {
      tags: ['order center'],
      summary: "The caller's invitees (direct and indirect) with their paid recharges",
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZOrderCenterAssociationResponse),
    },
    handler: async (request) =>
      ok(request.lang, await getOrderCenterAssociation(services.readDb, owner(request))),
  });

  r.get('/day7/getAllBalance', {
    onRequest: app.requireMember,
    schema: {
      tags: ['records'],
      summary: "The caller's balances per game platform (currency BRL only)",
      security: bearer,
      querystring: ZAllBalanceQuery,
      response: responses(ZAllBalanceResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await getAllBalances(services.db, owner(request), {
          currency: request.query.currency,
          platType: request.query.platType,
        }),
      ),
  });
}
