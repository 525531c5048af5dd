import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, registerPlayer, registration, solvedCaptcha } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';

/**
 * Session rules per jurisdiction profile (migration 0063, ADR 037): on `br` a session idle for more
 * than 30 minutes is over and only the password opens a new one (Portaria SPA/MF 722/2024 art. 14);
 * on `intl` the site's own, longer idle expiry applies. A login answers the one before it.
 */
describe.each(await databaseKinds())('session rules on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  const me = (token: string, host: string, lang = 'en') =>
    call(app, { method: 'POST', url: `/api/auth/me?lang=${lang}`, host, token });

  /** Moves the member's last activity `minutes` back, as if no request had come since. */
  async function idleFor(memberId: string, minutes: number): Promise<void> {
    await app.services.db.execute(
      sql`UPDATE member_sessions ms
             SET last_seen_at = now() - make_interval(mins => ${minutes}),
                 expires_at = least(
                   now() - make_interval(mins => ${minutes})
                     + make_interval(mins => least(s.session_idle_minutes, coalesce(ms.reauth_idle_minutes, s.session_idle_minutes))),
                   ms.absolute_expires_at)
            FROM sites s
           WHERE s.id = ms.site_id AND ms.member_id = ${memberId}::bigint AND ms.ended_at IS NULL`,
    );
  }

  /** Asks until the session cache heard the change (a notification), bounded. */
  async function eventually(check: () => Promise<boolean>): Promise<boolean> {
    for (let i = 0; i < 200; i++) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  }

  it('refuses a br session idle for 31 minutes with SESSION_IDLE, naming the 30 minutes in the player language', async () => {
    const player = await registerPlayer(app, HOSTS.br);
    expect((await me(player.token, HOSTS.br)).status).toBe(200);
    await idleFor(player.user.id, 31);
    expect(await eventually(async () => (await me(player.token, HOSTS.br)).status === 401)).toBe(true);
    const refused = await me(player.token, HOSTS.br, 'pt');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('SESSION_IDLE');
    expect(refused.body.idle_minutes).toBe(30);
    expect(refused.body.message).toBe('Você foi desconectado após 30 minutos sem atividade. Entre novamente');
  });

  it('keeps a br session idle for 29 minutes, and its next request slides it again', async () => {
    const player = await registerPlayer(app, HOSTS.br);
    await idleFor(player.user.id, 29);
    expect((await me(player.token, HOSTS.br)).status).toBe(200);
    const [row] = await rowsOf<{ left_minutes: string }>(
      app.services.db,
      sql`SELECT floor(extract(epoch FROM expires_at - now()) / 60)::text AS left_minutes
            FROM member_sessions WHERE member_id = ${player.user.id}::bigint AND ended_at IS NULL`,
    );
    expect(Number(row!.left_minutes)).toBeGreaterThanOrEqual(29);
    expect(Number(row!.left_minutes)).toBeLessThanOrEqual(30);
  });

  it('keeps an intl session idle for 31 minutes (no profile ceiling, the site allows a day)', async () => {
    const player = await registerPlayer(app, HOSTS.intl);
    await idleFor(player.user.id, 31);
    expect((await me(player.token, HOSTS.intl)).status).toBe(200);
  });

  it('refuses an intl session idle past the site own minutes with SESSION_IDLE too', async () => {
    const player = await registerPlayer(app, HOSTS.intl);
    expect((await me(player.token, HOSTS.intl)).status).toBe(200);
    await idleFor(player.user.id, 24 * 60 + 1);
    expect(await eventually(async () => (await me(player.token, HOSTS.intl)).status === 401)).toBe(true);
    const refused = await me(player.token, HOSTS.intl);
    expect(refused.body.code).toBe('SESSION_IDLE');
    expect(refused.body.idle_minutes).toBe(24 * 60);
  });

  async function rememberedLogin(host: string) {
    const player = await registerPlayer(app, host);
    const response = await call(app, {
      method: 'POST',
      url: '/api/auth/login2',
      host,
      payload: {
        username: player.input.username,
        password: 'secret123',
        remember: true,
        ...(await solvedCaptcha(app, host)),
      },
    });
    expect(response.status).toBe(200);
    const raw = response.headers['set-cookie'];
    const all = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
    const line = all.find((cookie) => cookie.startsWith('sorte_refresh='))!;
    return { player, cookie: decodeURIComponent(line.split(';')[0]!.slice('sorte_refresh='.length)) };
  }
  const refresh = (cookie: string, host: string) =>
    call(app, {
      method: 'POST',
      url: '/api/auth/refresh?lang=en',
      host,
      headers: { cookie: `sorte_refresh=${cookie}` },
    });

  it('does not let a remembered device resume a br session that idled out: the password is asked again', async () => {
    const { player, cookie } = await rememberedLogin(HOSTS.br);
    await idleFor(player.user.id, 31);
    const refused = await refresh(cookie, HOSTS.br);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('SESSION_IDLE');
    // The family is revoked: the same cookie is no way back in later either.
    expect((await refresh(cookie, HOSTS.br)).status).toBe(401);
  });

  it('lets a remembered device resume an intl session that idled out (no profile ceiling)', async () => {
    const { player, cookie } = await rememberedLogin(HOSTS.intl);
    await idleFor(player.user.id, 24 * 60 + 1);
    expect((await refresh(cookie, HOSTS.intl)).status).toBe(200);
  });

  it('answers the previous login time and address after a login, none after the first', async () => {
    const player = await registerPlayer(app, HOSTS.br);
    const login = async (ip: string) =>
      call(app, {
        method: 'POST',
        url: '/api/auth/login2',
        host: HOSTS.br,
        remoteAddress: ip,
        payload: {
          username: player.input.username,
          password: 'secret123',
          ...(await solvedCaptcha(app, HOSTS.br)),
        },
      });
    const first = await login('203.0.113.7');
    expect(first.status).toBe(200);
    // The sign-up opened the first session: this login shows it.
    expect(first.body.data.previous_login).toMatchObject({ at: expect.any(String) });
    const second = await login('203.0.113.8');
    expect(second.status).toBe(200);
    expect(second.body.data.previous_login.ip).toBe('203.0.113.7');
    expect(Date.parse(second.body.data.previous_login.at)).toBeLessThanOrEqual(Date.now());
  });

  it('answers no previous login right after sign-up', async () => {
    const host = HOSTS.intl;
    const response = await call(app, {
      method: 'POST',
      url: '/api/auth/register2',
      host,
      payload: { ...registration(), ...(await solvedCaptcha(app, host)) },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.previous_login).toBeNull();
  });
});
