import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CallbackResult, MAX_WEBHOOK_BODY_BYTES, readPixCallback } from '../payments/psp/psp.webhook.ts';
import type { TDepositDeps } from './deposits.service.ts';
import { settlePixHint } from './pix-settlement.ts';

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
  result: Extract<CallbackResult<T>, { ok: false }>,
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
 * `POST /api/psp/webhook/pix`: the PSP's Pix callback, a notification only: each endToEndId in it
 * is read back from the PSP and what the PSP answers is applied (pix-settlement.ts). A bad signature
 * (when one is configured) is refused with 401; an item we cannot read is skipped; a Pix the PSP
 * does not know is acknowledged without money. A failure while applying answers 500 so the PSP
 * delivers again (every step is idempotent).
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
    const result = readPixCallback({
      rawBody: request.rawBody ?? Buffer.alloc(0),
      headers: request.headers,
      secret: connection.webhookSecret,
    });
    if (!result.ok) return refuseWebhook(request, reply, result);
    if (result.skipped > 0) request.log.warn({ skipped: result.skipped }, 'odd Pix callback items skipped');
    const outcomes = [];
    for (const hint of result.items) outcomes.push(await settlePixHint(deps, hint));
    return { status: 'success', code: 200, message: 'ok', data: { outcomes } };
  });
}
