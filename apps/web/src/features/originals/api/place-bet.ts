import type { TBetResponse } from '@sorte/contract';
import { api } from '../../../lib/api-client.ts';
import { getDemoToken } from './originals-api.ts';

const CALL_TIMEOUT_MS = 15_000;

/**
 * Calls an in-house game endpoint (`/api/originals/<path>`): a GET without a body, else a POST.
 * In demo mode it acts as the fun-money session (its X-Demo-Token, no player token); for real
 * money as the logged-in player. Failures are not toasted: the game screen shows them in place.
 */
export function originalsCall<T = TBetResponse>(
  path: string,
  options: { demo: boolean; body?: Record<string, unknown>; idempotencyKey?: string },
): Promise<T> {
  const demoToken = options.demo ? getDemoToken() : null;
  const headers: Record<string, string> = {};
  if (demoToken) headers['X-Demo-Token'] = demoToken;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  const request = { headers, withSession: demoToken === null, silent: true, timeoutMs: CALL_TIMEOUT_MS };
  const url = `/api/originals/${path}`;
  return options.body === undefined ? api.get<T>(url, request) : api.post<T>(url, options.body, request);
}

/** Places a bet; its Idempotency-Key makes a retried request count once. */
export function placeBet(
  game: string,
  body: Record<string, unknown>,
  options: { demo: boolean; idempotencyKey: string },
): Promise<TBetResponse> {
  return originalsCall(`${game}/bet`, {
    demo: options.demo,
    body: { ...body, idempotency_key: options.idempotencyKey },
    idempotencyKey: options.idempotencyKey,
  });
}
