import {
  ZAdminAuditQuery,
  ZAdminAuditResponse,
  ZAdminLoginRequest,
  ZAdminLoginResponse,
  ZAdminMeResponse,
  ZAdminOperatorsResponse,
  ZAdminPageQuery,
  ZAdminRecoveryCodesRequest,
  ZAdminRecoveryCodesResponse,
  ZAdminSetupInfo,
  ZAdminSetupQuery,
  ZAdminSetupRequest,
  ZAdminWithdrawalParams,
  ZAdminWithdrawalQueueQuery,
  ZAdminWithdrawalQueueResponse,
  ZAdminWithdrawalReview,
  ZAnnounceTermsRequest,
  ZAuditChainReport,
  ZCreateOperatorRequest,
  ZForceOfflineRequest,
  ZForceOfflineResponse,
  ZLangQuery,
  ZLogoutRequest,
  ZLogoutResponse,
  ZOperatorAccount,
  ZOperatorIdParams,
  ZOperatorSecretResponse,
  ZOperatorStatusRequest,
  ZTermsVersion,
} from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { bearerToken } from '../sessions/tokens.ts';
import { announceTerms } from '../terms/terms.service.ts';
import {
  endOperatorSession,
  forceMemberOffline,
  issueRecoveryCodes,
  operatorLogin,
  operatorView,
  type TAdminDeps,
} from './admin.service.ts';
import { AUDIT_COLUMNS, auditLog, verifyAuditChain } from './audit.ts';
import { completeOwnerSetup, setupInfo } from './bootstrap.ts';
import { sendCsv, toCsv } from './csv.ts';
import { createOperator, listOperators, resetOperatorTotp, setOperatorStatus } from './operators.ts';
import { operatorOf, requirePermission } from './permissions.ts';
import { WITHDRAWAL_QUEUE_COLUMNS, withdrawalQueue, withdrawalReview } from './withdrawal-review.ts';

const tags = ['admin'];
const bearer = [{ bearerAuth: [] }];

/** Back-office calls. Operator tokens are separate from player tokens and only open these routes. */
export async function adminRoutes(app: FastifyInstance) {
  const { services } = app;
  const deps: TAdminDeps = {
    executor: services.db,
    throttle: services.throttle,
    limits: services.auth.limits,
  };
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/admin/auth/login', {
    config: { rateLimit: { max: services.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: "Operator login for this site's back office",
      querystring: ZLangQuery,
      body: ZAdminLoginRequest,
      response: responses(ZAdminLoginResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await operatorLogin(deps, request.site, request.body, request.ip ?? null),
        'messages.login_success',
      ),
  });

  r.get('/admin/auth/me', {
    onRequest: requirePermission('dashboard.read'),
    schema: {
      tags,
      summary: 'The calling operator, their permissions and the site of this back office',
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZAdminMeResponse),
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      const { site } = request;
      return ok(request.lang, {
        operator: operatorView(
          { id: operator.operatorId, username: operator.username, role: operator.role },
          site,
        ),
        site: { code: site.code, name: site.name, jurisdiction: site.jurisdiction },
      });
    },
  });

  r.post('/admin/auth/recovery-codes', {
    onRequest: requirePermission('dashboard.read'),
    schema: {
      tags,
      summary:
        'New one-time recovery codes for a lost authenticator (shown once; confirm with a current code)',
      security: bearer,
      querystring: ZLangQuery,
      body: ZAdminRecoveryCodesRequest,
      response: responses(ZAdminRecoveryCodesResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await issueRecoveryCodes(deps, request.site, operatorOf(request), request.body.totp_code),
      ),
  });

  r.post('/admin/auth/logout', {
    onRequest: requirePermission('dashboard.read'),
    schema: {
      tags,
      summary: 'End the calling operator session',
      security: bearer,
      querystring: ZLangQuery,
      body: ZLogoutRequest,
      response: responses(ZLogoutResponse),
    },
    handler: async (request) => {
      // requireOperator checked the token, so it is there.
      await endOperatorSession(services.db, request.site, bearerToken(request.headers.authorization)!);
      return ok(request.lang, null, 'messages.logout_success');
    },
  });

  r.post('/admin/members/force-offline', {
    onRequest: requirePermission('players.manage'),
    schema: {
      tags,
      summary: "End every session of a player of the operator's site (their next call: 401 force_offline)",
      security: bearer,
      querystring: ZLangQuery,
      body: ZForceOfflineRequest,
      response: responses(ZForceOfflineResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await forceMemberOffline(services.db, operatorOf(request), request.body.username),
        'messages.force_offline_done',
      ),
  });

  r.post('/admin/terms', {
    onRequest: requirePermission('content.manage'),
    schema: {
      tags,
      summary: "Announce the next version of the site's terms, effective at least 14 days ahead",
      security: bearer,
      querystring: ZLangQuery,
      body: ZAnnounceTermsRequest,
      response: responses(ZTermsVersion),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await announceTerms(services.db, operatorOf(request), request.body),
        'messages.terms_announced',
      ),
  });

  r.get('/admin/withdrawals/queue', {
    onRequest: requirePermission('withdrawals.read'),
    schema: {
      tags,
      summary:
        'Withdrawal review queue: paged, filtered by status and player, with risk signals and approvals (format=csv: every row)',
      security: bearer,
      querystring: ZAdminWithdrawalQueueQuery,
      response: responses(ZAdminWithdrawalQueueResponse),
    },
    handler: async (request, reply) => {
      const { page, list, total } = await withdrawalQueue(services.db, operatorOf(request), request.query);
      if (page.csv) return sendCsv(reply, 'withdrawals', toCsv(WITHDRAWAL_QUEUE_COLUMNS, list));
      return ok(request.lang, { list, total, page: page.page, page_size: page.pageSize });
    },
  });

  r.get('/admin/withdrawals/:order_no/review', {
    onRequest: requirePermission('withdrawals.read'),
    schema: {
      tags,
      summary: "One withdrawal with the player's history, risk signals and the approvals so far",
      security: bearer,
      params: ZAdminWithdrawalParams,
      querystring: ZLangQuery,
      response: responses(ZAdminWithdrawalReview),
    },
    handler: async (request) =>
      ok(request.lang, await withdrawalReview(services.db, operatorOf(request), request.params.order_no)),
  });

  // Bootstrap: the one-time link the server prints for the first owner of a site without operators.
  r.get('/admin/setup', {
    config: { rateLimit: { max: services.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: "First owner setup: the link's authenticator secret (a site without operators only)",
      querystring: ZAdminSetupQuery,
      response: responses(ZAdminSetupInfo),
    },
    handler: async (request) =>
      ok(request.lang, await setupInfo(services.db, request.site, request.query.token)),
  });

  r.post('/admin/setup', {
    config: { rateLimit: { max: services.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: 'First owner setup: username, password and a current authenticator code; spends the link',
      querystring: ZLangQuery,
      body: ZAdminSetupRequest,
      response: responses(ZLogoutResponse),
    },
    handler: async (request) => {
      await completeOwnerSetup(
        services.db,
        services.throttle,
        request.site,
        request.body,
        request.ip ?? null,
      );
      return ok(request.lang, null, 'messages.operator_setup_done');
    },
  });

  r.get('/admin/operators', {
    onRequest: requirePermission('operators.manage'),
    schema: {
      tags,
      summary: "The site's operators (owner)",
      security: bearer,
      querystring: ZAdminPageQuery,
      response: responses(ZAdminOperatorsResponse),
    },
    handler: async (request) =>
      ok(request.lang, await listOperators(services.db, operatorOf(request), request.query)),
  });

  r.post('/admin/operators', {
    onRequest: requirePermission('operators.manage'),
    schema: {
      tags,
      summary: 'Create an operator with a role; the answer shows its authenticator secret once',
      security: bearer,
      querystring: ZLangQuery,
      body: ZCreateOperatorRequest,
      response: responses(ZOperatorSecretResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await createOperator(services.db, request.site, operatorOf(request), request.body),
        'messages.operator_created',
      ),
  });

  r.post('/admin/operators/:id/reset-totp', {
    onRequest: requirePermission('operators.manage'),
    schema: {
      tags,
      summary: "A new authenticator secret for an operator (shown once); the operator's sessions end",
      security: bearer,
      params: ZOperatorIdParams,
      querystring: ZLangQuery,
      response: responses(ZOperatorSecretResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await resetOperatorTotp(services.db, request.site, operatorOf(request), request.params.id),
        'messages.operator_totp_reset',
      ),
  });

  r.post('/admin/operators/:id/status', {
    onRequest: requirePermission('operators.manage'),
    schema: {
      tags,
      summary: 'Disable (sessions end) or re-enable an operator; never the calling owner',
      security: bearer,
      params: ZOperatorIdParams,
      querystring: ZLangQuery,
      body: ZOperatorStatusRequest,
      response: responses(ZOperatorAccount),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await setOperatorStatus(services.db, operatorOf(request), request.params.id, request.body.status),
        'messages.saved',
      ),
  });

  r.get('/admin/audit', {
    onRequest: requirePermission('audit.read'),
    schema: {
      tags,
      summary:
        'The append-only operator audit log of this site: who, what, before and after (filters; format=csv: every row)',
      security: bearer,
      querystring: ZAdminAuditQuery,
      response: responses(ZAdminAuditResponse),
    },
    handler: async (request, reply) => {
      const { page, list, total } = await auditLog(services.readDb, operatorOf(request), request.query);
      if (page.csv) return sendCsv(reply, 'audit', toCsv(AUDIT_COLUMNS, list));
      return ok(request.lang, { list, total, page: page.page, page_size: page.pageSize });
    },
  });

  r.post('/admin/audit/verify', {
    onRequest: requirePermission('audit.verify'),
    schema: {
      tags,
      summary:
        "Walk this site's audit hash chain: intact and how many entries, or the first broken entry (expected vs stored)",
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZAuditChainReport),
    },
    handler: async (request) => {
      const report = await verifyAuditChain(services.db, operatorOf(request).siteId);
      const message = report.intact ? 'messages.audit_chain_intact' : 'messages.audit_chain_broken';
      return ok(request.lang, report, message);
    },
  });
}
