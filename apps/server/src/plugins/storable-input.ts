import { findUnstorableText } from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';

/** Refuses a request part (or socket message) holding text the database cannot store. */
export function assertStorableInput(parts: Record<string, unknown>): void {
  const path = findUnstorableText(parts);
  if (path === null) return;
  // "body.username" → the field "username"; a bad key or a whole part names no field.
  const field = path.split('.').slice(1).join('.');
  throw new AppError('BAD_REQUEST', field ? { fieldErrors: { [field]: 'errors.BAD_REQUEST' } } : {});
}

/**
 * The contract's storable-text rule on every route, before schema validation and handlers: path
 * parameters, the query string and the parsed body. Raw bodies (webhooks parse their own) are
 * Buffers and are checked where they are parsed.
 */
export const storableInputPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      assertStorableInput({ params: request.params, query: request.query, body: request.body });
    });
  },
  { name: 'storable-input' },
);
