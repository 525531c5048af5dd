import { type TErrorCode, type TFail, translate } from '@sorte/contract';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/client.ts';
import { isTransactionConflict } from '../db/transaction-retry.ts';
import { AppError, isAppError } from '../errors.ts';
import { unknownSitePage } from '../http/html-page.ts';
import type { SiteResolver } from '../modules/sites/sites.service.ts';
import { isWalletError, walletAppError } from '../modules/wallet/wallet.errors.ts';
import { languageOf } from './request-context.ts';

type TValidationItem = { instancePath?: string; message?: string; keyword?: string };

/**
 * Maps a schema validation failure to field → i18n key. Schema messages are catalogue keys; a
 * message that is not (zod's own defaults) becomes the closest generic key so players never see
 * English internals.
 */
export function fieldErrorsOf(items: readonly TValidationItem[]): {
  fields: Record<string, string>;
  first: string;
} {
  const fields: Record<string, string> = {};
  let first: string | undefined;
  for (const item of items) {
    const key = messageKeyOf(item);
    const field = (item.instancePath ?? '').split('/').filter(Boolean).join('.');
    first ??= key;
    if (field && !(field in fields)) fields[field] = key;
  }
  return { fields, first: first ?? 'validation.invalid' };
}

function messageKeyOf(item: TValidationItem): string {
  const message = item.message ?? '';
  if (/^(validation|errors|messages)\.[a-z_.A-Z]+$/.test(message)) return message;
  if (item.keyword === 'too_big') return 'validation.too_long';
  if (item.keyword === 'invalid_type') return 'validation.wrong_type';
  return 'validation.invalid';
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function sendFail(
  request: FastifyRequest,
  reply: FastifyReply,
  code: TErrorCode,
  status: number,
  messageKey: string,
  more: Partial<TFail> & Record<string, unknown> = {},
  params?: Record<string, string | number>,
) {
  const body: TFail = {
    status: 'fail',
    code,
    message: translate(request.lang, messageKey, params),
    data: null,
    ...more,
  };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * The one place errors become responses. Expected failures (AppError, schema validation, broken
 * requests, rate limits) get their code and a translated message; a database that went away, or
 * a transaction that lost a lock conflict on every try, a 503 to try again; anything else is
 * logged with the request id and answered with a generic INTERNAL message, never details.
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((thrown: FastifyError | AppError, request, reply) => {
      const error = isWalletError(thrown) ? walletAppError(thrown) : thrown;
      if (isAppError(error)) {
        if (error.headers) reply.headers(error.headers);
        if (error.code === 'UNKNOWN_SITE' && !isApiPath(request.url)) {
          return reply.code(404).type('text/html; charset=utf-8').send(unknownSitePage(request.lang));
        }
        const translatedFields = error.fieldErrors
          ? Object.fromEntries(
              Object.entries(error.fieldErrors).map(([field, key]) => [field, translate(request.lang, key)]),
            )
          : undefined;
        return sendFail(
          request,
          reply,
          error.code,
          error.statusCode,
          error.messageKey,
          { ...(error.extra ?? {}), ...(translatedFields ? { errors: translatedFields } : {}) },
          error.params,
        );
      }

      if (hasZodFastifySchemaValidationErrors(error)) {
        const { fields, first } = fieldErrorsOf(error.validation as TValidationItem[]);
        const errors = Object.fromEntries(
          Object.entries(fields).map(([field, key]) => [field, translate(request.lang, key)]),
        );
        return sendFail(
          request,
          reply,
          'VALIDATION_FAILED',
          422,
          first,
          Object.keys(errors).length ? { errors } : {},
        );
      }

      const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (status === 429) {
        return sendFail(
          request,
          reply,
          'RATE_LIMITED',
          429,
          'errors.RATE_LIMITED',
          {},
          {
            seconds: Number(reply.getHeader('retry-after') ?? 60),
          },
        );
      }
      if (status >= 400 && status < 500) {
        // Broken JSON, unsupported content type, a body over the limit, a malformed URL: the
        // client's fault, so a 400 with the generic "correct parameters" text.
        request.log.info({ err: error }, 'bad request');
        return sendFail(request, reply, 'BAD_REQUEST', 400, 'errors.BAD_REQUEST');
      }

      if (isDatabaseUnavailable(error)) {
        // A restart or failover of the database: nothing is wrong with the request, which may be
        // sent again (with its idempotency key, a bet is placed at most once).
        request.log.warn({ err: error }, 'database unavailable');
        reply.header('retry-after', '1');
        return sendFail(request, reply, 'SERVICE_UNAVAILABLE', 503, 'errors.SERVICE_UNAVAILABLE');
      }
      if (isTransactionConflict(error)) {
        // A transaction that lost a lock conflict on every try (transaction-retry.ts): it changed
        // nothing, and the same request sent again a moment later finds the rows free.
        request.log.warn({ err: error }, 'transaction conflict after retries');
        reply.header('retry-after', '1');
        return sendFail(request, reply, 'SERVICE_UNAVAILABLE', 503, 'errors.SERVICE_UNAVAILABLE');
      }
      request.log.error({ err: error }, 'unhandled error');
      return sendFail(request, reply, 'INTERNAL', 500, 'errors.INTERNAL');
    });
  },
  { name: 'error-handler' },
);

/**
 * The router's own refusals (a malformed %-escape, a path parameter over maxParamLength) come before
 * any hook or route, so they are answered here, in the same envelope and language as the rest.
 */
export function frameworkErrors(sites: SiteResolver): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error, request, reply) => {
    void (async () => {
      const site = await sites.byHost(request.host).catch(() => null);
      request.lang = languageOf(request, site);
      request.log.info({ err: error }, 'bad request');
      reply.header('x-request-id', request.id).header('cache-control', 'no-store');
      return sendFail(request, reply, 'BAD_REQUEST', 400, 'errors.BAD_REQUEST');
    })();
  };
}

export function notFoundError(): AppError {
  return new AppError('NOT_FOUND');
}
