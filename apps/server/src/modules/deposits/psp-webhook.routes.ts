import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_WEBHOOK_BODY_BYTES, readPixWebhook, type WebhookResult } from '../payments/psp/psp.webhook.ts';
import { applyPixNotification, type TDepositDeps } from './deposits.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received, for signature checks (webhook routes only). */
    rawBody?: Buffer;
  }
}

/**
 * Keeps the exact bytes of JSON bodies in this plugin's routes: a signature is verified over what
 * the PSP sent, never over a re-serialised object. Encapsulated, so other routes keep the app's parser.
 */
export async function rawJsonBodies(app: FastifyInstance) {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: MAX_WEBHOOK_BODY_BYTES },
    (request, body, done) => {
      request.rawBody = body as Buffer;
      done(null, null);
    },
  );
}

/** Answers a refused webhook: nothing was read from it and nothing changed. */
export function refuseWebhook<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  result: Extract<WebhookResult<T>, { ok: false }>,
) {
  request.log.warn({ reason: result.reason }, 'PSP webhook refused');
  const signature = result.reason !== 'invalid_json' && result.reason !== 'invalid_body';
  return reply.code(signature ? 401 : 400).send({
    status: 'fail',
    code: signature ? 'UNAUTHENTICATED' : 'BAD_REQUEST',
    message: result.reason,
    data: null,
  });
}

/**
 * `POST /api/psp/webhook/pix`: the PSP's Pix notifications. Any bad signature is refused (401) and
 * changes nothing; an unknown txid is logged and acknowledged without money. A failure while
 * applying answers 500 so the PSP delivers again (every step is idempotent).
 */
export async function pspPixWebhookRoutes(app: FastifyInstance) {
  const deps: TDepositDeps = { db: app.services.db, psp: app.psp, realtime: app.realtime, log: app.log };
  await rawJsonBodies(app);
  app.post('/psp/webhook/pix', { schema: { hide: true } }, async (request, reply) => {
    const connection = app.psp.attached;
    if (!connection)
      return reply
        .code(503)
        .send({ status: 'fail', code: 'PAYMENT_SERVICE_UNAVAILABLE', message: 'no PSP', data: null });
    const result = readPixWebhook({
      rawBody: request.rawBody ?? Buffer.alloc(0),
      headers: request.headers,
      secret: connection.webhookSecret,
    });
    if (!result.ok) return refuseWebhook(request, reply, result);
    const outcomes = [];
    for (const pix of result.notifications) outcomes.push(await applyPixNotification(deps, pix));
    return { status: 'success', code: 200, message: 'ok', data: { outcomes } };
  });
}
