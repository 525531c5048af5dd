import { ZCpfLookupRequest, ZCpfLookupResponse, ZKycStatus, ZLangQuery } from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { applyKycEvent, getKycStatus, startVerification, type TKycDeps } from './kyc.service.ts';
import { KYC_SIGNATURE_HEADER, MAX_KYC_WEBHOOK_BYTES, readKycWebhook } from './kyc.webhook.ts';
import { documentsOfReview } from './kyc-documents.ts';
import { lookupCpfForSignUp } from './kyc-prefill.ts';

const tags = ['kyc'];
const security = [{ bearerAuth: [] }];

/**
 * Identity verification: the member's status, starting a verification, the sign-up form's CPF
 * lookup, the provider's webhook.
 */
export async function kycRoutes(app: FastifyInstance) {
  const deps: TKycDeps = { db: app.services.db, kyc: app.kyc };
  const prefillDeps = { ...deps, vault: app.kycVault };
  const r = app.withTypeProvider<ZodTypeProvider>();
  const member = { onRequest: app.requireMember };

  r.get('/kyc/status', {
    ...member,
    schema: {
      tags,
      security,
      summary: 'My identity verification: checks passed, what the site requires before what, and why',
      querystring: ZLangQuery,
      response: responses(ZKycStatus),
    },
    handler: async (request) =>
      ok(request.lang, await getKycStatus(deps.db, request.site, memberOf(request).memberId, request.lang)),
  });

  r.post('/kyc/verifications', {
    ...member,
    schema: {
      tags,
      security,
      summary:
        'Verify my identity: runs the CPF check where the site requires it and opens (or reopens) the document and selfie capture at the provider',
      querystring: ZLangQuery,
      response: responses(ZKycStatus),
    },
    // The capture page sends the player back to the security centre of the site they came from
    // (the host already resolved to this site, or the request would not have reached here).
    handler: async (request) =>
      ok(
        request.lang,
        await startVerification(
          deps,
          request.site,
          memberOf(request).memberId,
          `${request.protocol}://${request.host}/security-center`,
          request.lang,
        ),
      ),
  });

  r.post('/kyc/cpf-lookup', {
    config: {
      rateLimit: { max: app.services.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' },
    },
    schema: {
      tags,
      summary:
        'Sign-up prefill: the name and birth date registered for a regular CPF without an account here (sites whose profile allows it; limited per address and per CPF)',
      querystring: ZLangQuery,
      body: ZCpfLookupRequest,
      response: responses(ZCpfLookupResponse),
    },
    handler: async (request) =>
      ok(request.lang, await lookupCpfForSignUp(prefillDeps, request.site, request.ip, request.body.cpf)),
  });

  await app.register(kycWebhookRoutes);
}

// The provider's decisions: the signature is checked over the bytes as received, so this
// plugin keeps JSON bodies raw (encapsulated: other routes keep the app's parser).
async function kycWebhookRoutes(app: FastifyInstance) {
  const deps = { db: app.services.db, kyc: app.kyc, vault: app.kycVault };
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: MAX_KYC_WEBHOOK_BYTES },
    (_request, body, done) => done(null, body),
  );
  app.post('/kyc/webhook', { schema: { hide: true } }, async (request, reply) => {
    const connection = app.kyc.attached;
    const fail = (status: number, code: string, message: string) =>
      reply.code(status).send({ status: 'fail', code, message, data: null });
    if (!connection) return fail(503, 'KYC_PROVIDER_UNAVAILABLE', 'no KYC provider');
    const result = readKycWebhook({
      rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      signature: request.headers[KYC_SIGNATURE_HEADER],
      secret: connection.webhookSecret,
      nowMs: Date.now(),
    });
    if (!result.ok) {
      request.log.warn({ reason: result.reason }, 'KYC webhook refused');
      return result.reason === 'invalid_body'
        ? fail(400, 'BAD_REQUEST', result.reason)
        : fail(401, 'UNAUTHENTICATED', result.reason);
    }
    const outcome = await applyKycEvent(deps.db, connection.provider, result.event);
    if (outcome !== 'applied')
      request.log.info({ outcome, event: result.event.eventId }, 'KYC webhook ignored');
    if (outcome === 'applied' && result.event.status === 'manual_review') {
      // Take the files now (after the event's commit); the job asks again if this fails.
      const refused = await documentsOfReview(deps, connection.provider, result.event.sessionId).catch(
        (error: unknown) => {
          request.log.warn({ err: error }, 'KYC documents not fetched');
          return 'provider_unavailable';
        },
      );
      if (refused) request.log.warn({ refused, session: result.event.sessionId }, 'KYC documents refused');
    }
    return { status: 'success', code: 200, message: 'ok', data: { outcome } };
  });
}
