import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brRegistration,
  buildTestApp,
  call,
  HOSTS,
  loginOperator,
  registerPlayer,
  registration,
  solvedCaptcha,
} from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';

const kinds = await databaseKinds();

/** The refresh token a response's Set-Cookie gives, '' when it clears it, null when it sets none. */
function refreshCookie(headers: Record<string, unknown>): string | null {
  const raw = headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  const line = all.find((cookie: string) => cookie.startsWith('sorte_refresh='));
  return line === undefined ? null : decodeURIComponent(line.split(';')[0]!.slice('sorte_refresh='.length));
}

describe.each(kinds)('"keep me signed in" refresh cookie on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  const login = async (username: string, remember: boolean, host: string = HOSTS.intl) =>
    call(app, {
      method: 'POST',
      url: '/api/auth/login2',
      host,
      payload: { username, password: 'secret123', remember, ...(await solvedCaptcha(app, host)) },
    });
  const refresh = (cookie: string | null, host: string = HOSTS.intl, lang = 'en') =>
    call(app, {
      method: 'POST',
      url: `/api/auth/refresh?lang=${lang}`,
      host,
      headers: cookie === null ? {} : { cookie: `sorte_refresh=${cookie}` },
    });
  const me = (token: string, host: string = HOSTS.intl) =>
    call(app, { method: 'POST', url: '/api/auth/me', host, token });

  async function rememberedPlayer(host: string = HOSTS.intl) {
    const player = await registerPlayer(app, host);
    const response = await login(player.input.username, true, host);
    expect(response.status).toBe(200);
    return { ...player, token: response.body.data.token as string, cookie: refreshCookie(response.headers)! };
  }

  it('sets an httpOnly, SameSite=Lax cookie on the auth paths only when asked to remember', async () => {
    const player = await registerPlayer(app);
    expect(refreshCookie((await login(player.input.username, false)).headers)).toBeNull();
    const remembered = await login(player.input.username, true);
    const line = String(remembered.headers['set-cookie']);
    expect(line).toMatch(/^sorte_refresh=[A-Za-z0-9_-]{43};/);
    expect(line).toContain('HttpOnly');
    expect(line).toContain('SameSite=Lax');
    expect(line).toContain('Path=/api/auth');
    expect(line).not.toContain('Secure');
  });

  it('trades the cookie for a new bearer token and rotates it; the same cookie works once', async () => {
    const { cookie, user } = await rememberedPlayer();
    const first = await refresh(cookie);
    expect(first.status).toBe(200);
    expect(first.body.data.user.id).toBe(user.id);
    const rotated = refreshCookie(first.headers);
    expect(rotated).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated).not.toBe(cookie);
    expect((await me(first.body.data.token)).status).toBe(200);

    const second = await refresh(rotated);
    expect(second.status).toBe(200);
    expect((await me(second.body.data.token)).status).toBe(200);
  });

  it('a rotated cookie presented again revokes the whole family, the newest cookie included', async () => {
    const { cookie } = await rememberedPlayer();
    const first = await refresh(cookie);
    const newest = refreshCookie(first.headers);
    const replay = await refresh(cookie);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('UNAUTHENTICATED');
    expect(refreshCookie(replay.headers)).toBe('');
    expect((await refresh(newest)).status).toBe(401);
    // The sessions already handed out are not the family: the one in use carries on.
    expect((await me(first.body.data.token)).status).toBe(200);
  });

  it('logging out clears the cookie and revokes the device', async () => {
    const { cookie } = await rememberedPlayer();
    const traded = await refresh(cookie);
    const next = refreshCookie(traded.headers);
    const out = await call(app, { method: 'POST', url: '/api/auth/logout', token: traded.body.data.token });
    expect(out.status).toBe(200);
    expect(refreshCookie(out.headers)).toBe('');
    expect((await refresh(next)).status).toBe(401);
  });

  it('a password change revokes every remembered device', async () => {
    const { cookie, token } = await rememberedPlayer();
    const changed = await call(app, {
      method: 'POST',
      url: '/api/security/password',
      token,
      payload: {
        old_password: 'secret123',
        new_password: 'secret456',
        new_password_confirmation: 'secret456',
      },
    });
    expect(changed.status).toBe(200);
    expect((await refresh(cookie)).status).toBe(401);
  });

  it('an operator forcing the player offline revokes every remembered device', async () => {
    const { cookie, user } = await rememberedPlayer();
    const support = await loginOperator(app, 'support');
    const forced = await call(app, {
      method: 'POST',
      url: '/api/admin/members/force-offline',
      token: support,
      payload: { username: user.name },
    });
    expect(forced.status).toBe(200);
    expect((await refresh(cookie)).status).toBe(401);
  });

  it('refuses a missing, malformed, unknown or other-site cookie with a translated 401', async () => {
    const { cookie } = await rememberedPlayer();
    for (const bad of [null, 'not a token', 'A'.repeat(43)]) {
      const response = await refresh(bad, HOSTS.intl, 'pt');
      expect(response.status).toBe(401);
      expect(response.body.message).toBeTruthy();
      expect(response.body.message).not.toMatch(/error|stack/i);
    }
    expect((await refresh(cookie, HOSTS.br)).status).toBe(401);
    // Tried on another site, the cookie is not spent there: it still works where it belongs.
    expect((await refresh(cookie)).status).toBe(200);
  });

  it('a sign-up that asks to be remembered stays signed in on br', async () => {
    const host = HOSTS.br;
    const signup = await call(app, {
      method: 'POST',
      url: '/api/auth/register2',
      host,
      payload: { ...registration(brRegistration()), remember: true, ...(await solvedCaptcha(app, host)) },
    });
    expect(signup.status).toBe(200);
    const traded = await refresh(refreshCookie(signup.headers), host);
    expect(traded.status).toBe(200);
    expect(traded.body.data.user.id).toBe(signup.body.data.user.id);
  });
});
