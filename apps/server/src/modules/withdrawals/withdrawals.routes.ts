import {
  ZAdminApproveRequest,
  ZAdminRejectRequest,
  ZAdminWithdrawalParams,
  ZAdminWithdrawalsQuery,
  ZAdminWithdrawalsResponse,
  ZIdempotencyHeaders,
  ZLangQuery,
  ZRecordsRequest,
  ZSuccess,
  ZWithdrawalOrder,
  ZWithdrawCancelRequest,
  ZWithdrawInfoQuery,
  ZWithdrawInfoResponse,
  ZWithdrawListResponse,
  ZWithdrawRequest,
  ZWithdrawResponse,
} from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { operatorOf, requirePermission } from '../admin/permissions.ts';
import { assertOwnMember } from '../deposits/deposits.service.ts';
import { rawJsonBodies, refuseWebhook } from '../deposits/psp-webhook.routes.ts';
import { readPayoutCallback } from '../payments/psp/psp.webhook.ts';
import {
  approveWithdrawal,
  cancelWithdrawal,
  createWithdrawal,
  getWithdrawInfo,
  listForReview,
  listWithdrawals,
  rejectWithdrawal,
  syncPayoutById,
  type TWithdrawalDeps,
} from './withdrawals.service.ts';

const tags = ['withdrawals'];
const bearer = [{ bearerAuth: [] }];

function depsOf(app: FastifyInstance): TWithdrawalDeps {
  return {
    db: app.services.db,
    psp: app.psp,
    realtime: app.realtime,
    throttle: app.services.throttle,
    log: app.log,
  };
}

/** Withdrawals: spec §7 `POST /api/drawing`, the withdraw page data and the withdrawal records. */
export async function withdrawalsRoutes(app: FastifyInstance) {
  const deps = depsOf(app);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/drawing/info', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'Withdraw page: currency, bounds, fee rule, receipt preview for `money`, rules',
      security: bearer,
      querystring: ZWithdrawInfoQuery,
      response: { 200: ZSuccess(ZWithdrawInfoResponse) },
    },
    handler: async (request) =>
      ok(
        request.lang,
        await getWithdrawInfo(
          deps.db,
          request.site,
          memberOf(request).memberId,
          request.lang,
          request.query.money,
        ),
      ),
  });

  r.post('/drawing', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'Request a withdrawal to one of your bank cards; the amount is held until review',
      description:
        'Send an `Idempotency-Key` per submit: the same key and body answer the first order, the same key with another body is IDEMPOTENCY_CONFLICT.',
      security: bearer,
      headers: ZIdempotencyHeaders,
      querystring: ZLangQuery,
      body: ZWithdrawRequest,
      response: { 200: ZSuccess(ZWithdrawResponse) },
    },
    handler: async (request) => {
      const body = request.body;
      const { memberId } = memberOf(request);
      assertOwnMember(body.member_id, memberId);
      const order = await createWithdrawal(deps, request.site, memberId, {
        amountMinor: body.money,
        bankCardId: body.member_bank_id,
        qkPwd: body.qk_pwd,
        qkPwdConfirmation: body.qk_pwd_confirmation,
        memberRemark: body.member_remark || undefined,
        cpf: body.cpf_id || undefined,
        idempotencyKey: request.headers['idempotency-key'],
        totpCode: body.totp_code,
        client: {
          ip: request.ip ?? null,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
        },
      });
      return ok(request.lang, order, 'messages.withdraw_submitted');
    },
  });

  r.post('/drawing/cancel', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'Cancel your withdrawal while it waits for review; the amount returns to your balance at once',
      security: bearer,
      querystring: ZLangQuery,
      body: ZWithdrawCancelRequest,
      response: { 200: ZSuccess(ZWithdrawalOrder) },
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      const order = await cancelWithdrawal(deps, request.site, memberId, request.body.order_no);
      return ok(request.lang, order, 'messages.withdraw_cancelled');
    },
  });

  r.post('/drawing/list', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary:
        "The caller's withdrawal records, newest first (keyset paging: before / after cursors; period today / last_3_days / last_7_days / all)",
      security: bearer,
      querystring: ZLangQuery,
      body: ZRecordsRequest,
      response: { 200: ZSuccess(ZWithdrawListResponse) },
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      assertOwnMember(request.body.member_id, memberId);
      return ok(
        request.lang,
        await listWithdrawals(app.services.readDb, request.site, memberId, request.body),
      );
    },
  });
}

/** Back office review of withdrawals (operator token, the operator's site only). */
export async function withdrawalsAdminRoutes(app: FastifyInstance) {
  const deps = depsOf(app);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/withdrawals', {
    onRequest: requirePermission('withdrawals.read'),
    schema: {
      tags: ['admin'],
      summary: 'Withdrawals of this site by status (default: waiting for review), newest first',
      security: bearer,
      querystring: ZAdminWithdrawalsQuery,
      response: { 200: ZSuccess(ZAdminWithdrawalsResponse) },
    },
    handler: async (request) =>
      ok(request.lang, await listForReview(deps.db, operatorOf(request), request.query)),
  });

  r.post('/admin/withdrawals/:order_no/approve', {
    onRequest: requirePermission('withdrawals.review'),
    schema: {
      tags: ['admin'],
      summary:
        "Approve with a reason: reviewed, payout sent to the PSP (paid when the PSP confirms); at or above the site's second-approval amount the first approval is recorded and a second, different operator's approval pays",
      security: bearer,
      params: ZAdminWithdrawalParams,
      querystring: ZLangQuery,
      body: ZAdminApproveRequest,
      response: { 200: ZSuccess(ZWithdrawalOrder) },
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      const order = await approveWithdrawal(deps, operator, request.params.order_no, request.body.remark);
      // Still pending: a first approval of a two-person order (a second operator pays it).
      const message =
        order.status === 'pending_review' ? 'messages.withdraw_first_approval' : 'messages.withdraw_approved';
      return ok(request.lang, order, message);
    },
  });

  r.post('/admin/withdrawals/:order_no/reject', {
    onRequest: requirePermission('withdrawals.review'),
    schema: {
      tags: ['admin'],
      summary: 'Reject with a remark: reviewed, the held money returns to the player',
      security: bearer,
      params: ZAdminWithdrawalParams,
      querystring: ZLangQuery,
      body: ZAdminRejectRequest,
      response: { 200: ZSuccess(ZWithdrawalOrder) },
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      const order = await rejectWithdrawal(deps, operator, request.params.order_no, request.body.remark);
      return ok(request.lang, order, 'messages.withdraw_rejected');
    },
  });
}

/**
 * `POST /api/psp/webhook/payout`: payout news, a notification only: each id is asked about at the
 * PSP and its answer applied. A bad signature (when one is configured) is refused, changing nothing.
 */
export async function pspPayoutWebhookRoutes(app: FastifyInstance) {
  const deps = depsOf(app);
  await rawJsonBodies(app);
  app.post('/psp/webhook/payout', { schema: { hide: true } }, async (request, reply) => {
    const connection = app.psp.attached;
    if (!connection) {
      return reply
        .code(503)
        .send({ status: 'fail', code: 'PAYMENT_SERVICE_UNAVAILABLE', message: 'no PSP', data: null });
    }
    const result = readPayoutCallback({
      rawBody: request.rawBody ?? Buffer.alloc(0),
      headers: request.headers,
      secret: connection.webhookSecret,
    });
    if (!result.ok) return refuseWebhook(request, reply, result);
    const outcomes = [];
    for (const id of result.items) outcomes.push(await syncPayoutById(deps, id));
    return { status: 'success', code: 200, message: 'ok', data: { outcomes } };
  });
}
