import type { TBetResponse } from '@sorte/contract';
import i18next from 'i18next';
import { ApiError, buildUrl } from '../../../lib/api-client.ts';
import { getToken } from '../../../lib/storage.ts';
import { getDemoToken } from './originals-api.ts';

const BET_TIMEOUT_MS = 15_000;

/**
 * Places a bet on an in-house game. Unlike the shared client it sends the bet's Idempotency-Key (a
 * retried request is placed once) and, in demo mode, the X-Demo-Token of the fun-money session.
 */
export async function placeBet(
  game: string,
  body: Record<string, unknown>,
  options: { demo: boolean; idempotencyKey: string },
): Promise<TBetResponse> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'Idempotency-Key': options.idempotencyKey,
  };
  const demoToken = options.demo ? getDemoToken() : null;
  if (demoToken) headers['X-Demo-Token'] = demoToken;
  const token = getToken();
  if (token && !demoToken) headers.Authorization = `Bearer ${token}`;
  let payload: { status?: string; code?: unknown; message?: unknown; data?: unknown } | undefined;
  let status = 0;
  try {
    const response = await fetch(buildUrl(`/api/originals/${game}/bet`), {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, idempotency_key: options.idempotencyKey }),
      signal: AbortSignal.timeout(BET_TIMEOUT_MS),
      credentials: 'same-origin',
    });
    status = response.status;
    payload = await response.json().catch(() => undefined);
  } catch {
    throw new ApiError({ code: 'NETWORK', status: 0, message: i18next.t('network-error') });
  }
  if (payload?.status === 'success') return payload.data as TBetResponse;
  throw new ApiError({
    code: String(payload?.code ?? 'BAD_RESPONSE'),
    status,
    message:
      typeof payload?.message === 'string' && payload.message
        ? payload.message
        : i18next.t('common.error_generic'),
  });
}
