import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_FAMILY_DAYS } from '../sessions/refresh-tokens.repo.ts';

/**
 * The "keep me signed in" cookie: httpOnly (page scripts never see it), SameSite=Lax (another
 * site's form cannot post it), Secure whenever the page came over https, and sent only to the
 * auth paths that use it.
 */
export const REFRESH_COOKIE = 'sorte_refresh';
const COOKIE_PATH = '/api/auth';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The refresh token the request's cookie carries, or null when absent or malformed. */
export function refreshCookieOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header || header.length > 4096) return null;
  const token = parseCookie(header)[REFRESH_COOKIE];
  return token && TOKEN_SHAPE.test(token) ? token : null;
}

function cookieOptions(request: FastifyRequest) {
  return {
    name: REFRESH_COOKIE,
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
  };
}

export function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.header(
    'set-cookie',
    stringifySetCookie({ ...cookieOptions(request), value: token, maxAge: REFRESH_FAMILY_DAYS * 86_400 }),
  );
}

export function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(
    'set-cookie',
    stringifySetCookie({ ...cookieOptions(request), value: '', maxAge: 0, expires: new Date(0) }),
  );
}
