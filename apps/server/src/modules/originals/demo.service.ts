import { randomBytes } from 'node:crypto';
import { formatMinor } from '@sorte/contract';
import { sha256Hex } from '../../core/hash.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import {
  deleteExpiredDemoSessions,
  findDemoSession,
  insertDemoSession,
  type TPlayer,
} from './originals.repo.ts';

/**
 * Demo mode: a guest plays the in-house games with fun money kept on a server-side demo session
 * (never the wallet, never real money). The client holds an opaque token (sent as X-Demo-Token);
 * the server stores only its hash. Sessions last a day; a new one starts with the same balance.
 */
export const DEMO_START_BALANCE_MINOR = 100_000n;
export const DEMO_SESSION_TTL_MS = 24 * 3_600_000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const EXPIRED_DELETED_PER_CALL = 100;

export async function createDemoSession(executor: Executor, siteId: bigint) {
  await deleteExpiredDemoSessions(executor, EXPIRED_DELETED_PER_CALL);
  const token = randomBytes(32).toString('base64url');
  await insertDemoSession(executor, {
    siteId,
    tokenHash: sha256Hex(token),
    balanceMinor: DEMO_START_BALANCE_MINOR,
    expiresAt: new Date(Date.now() + DEMO_SESSION_TTL_MS),
  });
  return { demo_token: token, balance: formatMinor(DEMO_START_BALANCE_MINOR) };
}

/** The demo player a token names on this site, or null when unknown or expired. */
export async function findDemoPlayer(
  executor: Executor,
  siteId: bigint,
  token: string,
): Promise<(TPlayer & { kind: 'demo' }) | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const session = await findDemoSession(executor, siteId, sha256Hex(token));
  return session ? { kind: 'demo', siteId, demoSessionId: session.id } : null;
}

export async function requireDemoPlayer(executor: Executor, siteId: bigint, token: string) {
  const player = await findDemoPlayer(executor, siteId, token);
  if (!player) throw new AppError('DEMO_SESSION_INVALID');
  return player;
}
