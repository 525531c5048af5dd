import {
  ZLangQuery,
  ZPaymentChannelsQuery,
  ZPaymentChannelsResponse,
  ZPaymentsListQuery,
  ZPaymentsListResponse,
  ZRechargeDetailQuery,
  ZRechargeListResponse,
  ZRechargeRequest,
  ZRechargeResponse,
  ZRecordsRequest,
  ZSuccess,
} from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import {
  assertOwnMember,
  createRecharge,
  getRecharge,
  listPaymentChannels,
  listPaymentMethods,
  listRecharges,
  type TDepositDeps,
} from './deposits.service.ts';

const tags = ['deposits'];
const bearer = [{ bearerAuth: [] }];

/** Deposits: spec §7 paths for the payment catalogue, recharge and recharge records. */
export async function depositsRoutes(app: FastifyInstance) {
  const deps: TDepositDeps = { db: app.services.db, psp: app.psp, realtime: app.realtime, log: app.log };
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/payments/list', {
    schema: {
      tags,
      summary: 'Payment methods of this site (PIX)',
      querystring: ZPaymentsListQuery,
      response: { 200: ZSuccess(ZPaymentsListResponse) },
    },
    handler: async (request) => ok(request.lang, await listPaymentMethods(deps.db, request.site)),
  });

  r.get('/payment/online/list', {
    schema: {
      tags,
      summary: 'Channels of a payment method with amount bounds, fee and reward',
      querystring: ZPaymentChannelsQuery,
      response: { 200: ZSuccess(ZPaymentChannelsResponse) },
    },
    handler: async (request) =>
      ok(request.lang, await listPaymentChannels(deps.db, request.site, request.query.payment_type)),
  });

  r.post('/recharge/online', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'Create a PIX deposit order: charge, copy-and-paste code, QR payload and pay_url',
      security: bearer,
      querystring: ZLangQuery,
      body: ZRechargeRequest,
      response: { 200: ZSuccess(ZRechargeResponse) },
    },
    handler: async (request) => {
      const member = memberOf(request);
      assertOwnMember(request.body.member_id, member.memberId);
      const order = await createRecharge(deps, request.site, member.memberId, {
        amountMinor: request.body.money,
        channelId: request.body.payment_id,
        method: request.body.payment_type,
        description: request.body.payment_desc,
      });
      return ok(request.lang, order, 'messages.recharge_created');
    },
  });

  r.get('/recharge/detail', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "One of the caller's deposit orders (the payment page polls it)",
      security: bearer,
      querystring: ZRechargeDetailQuery,
      response: { 200: ZSuccess(ZRechargeResponse) },
    },
    handler: async (request) =>
      ok(
        request.lang,
        await getRecharge(deps, request.site, memberOf(request).memberId, request.query.order_no),
      ),
  });

  r.post('/recharge/list', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary:
        "The caller's recharge records, newest first (keyset paging: before / after cursors; period today / last_3_days / last_7_days / all)",
      security: bearer,
      querystring: ZLangQuery,
      body: ZRecordsRequest,
      response: { 200: ZSuccess(ZRechargeListResponse) },
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      assertOwnMember(request.body.member_id, memberId);
      return ok(request.lang, await listRecharges(deps.db, request.site, memberId, request.body));
    },
  });
}
