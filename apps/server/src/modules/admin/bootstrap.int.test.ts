import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { newSite } from '../agency/agency.fixtures.ts';
import { currentTotpCode, totpCodeAtStep } from '../security/totp.ts';
import { issueOwnerSetupLinks } from './bootstrap.ts';

const kinds = await databaseKinds();

describe.each(kinds)('back office bootstrap on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('a site without operators gets a one-time setup link; the owner sets username, password and TOTP', async () => {
    const { site, host } = await newSite(app, 'intl');
    const links = await issueOwnerSetupLinks(app.services.db);
    const link = links.find((item) => item.siteCode === site.code);
    expect(link).toMatchObject({ host });
    // Sites with operators (the demo ones) get none, and only the hash of the token is kept.
    expect(links.map((item) => item.siteCode)).not.toContain('sorte');
    const stored = await rowsOf<{ token_hash: string }>(
      app.services.db,
      sql`SELECT token_hash FROM operator_setup_tokens WHERE site_id = ${site.id.toString()}::bigint AND used_at IS NULL AND expires_at > now()`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toBe(link!.token);

    const info = await call(app, { method: 'GET', url: `/api/admin/setup?token=${link!.token}`, host });
    expect(info.status).toBe(200);
    expect(info.body.data.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    expect(info.body.data.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    const secret = info.body.data.totp_secret as string;
    // Not on another site's host.
    expect((await call(app, { method: 'GET', url: `/api/admin/setup?token=${link!.token}` })).status).toBe(
      404,
    );

    const body = { token: link!.token, username: 'first_owner', password: 'a-long-owner-pass' };
    const wrong = await call(app, {
      method: 'POST',
      url: '/api/admin/setup?lang=pt',
      host,
      payload: { ...body, totp_code: '000000' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('TOTP_INVALID');
    const short = await call(app, {
      method: 'POST',
      url: '/api/admin/setup',
      host,
      payload: { ...body, password: 'short', totp_code: await currentTotpCode(secret) },
    });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual({ password: 'The password must be at least 10 characters' });

    const setupCode = await currentTotpCode(secret);
    const done = await call(app, {
      method: 'POST',
      url: '/api/admin/setup',
      host,
      payload: { ...body, totp_code: setupCode },
    });
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(
      'The owner account is ready: sign in with the password and the authenticator code',
    );
    const login = await call(app, {
      method: 'POST',
      url: '/api/admin/auth/login',
      host,
      payload: { username: 'first_owner', password: body.password, totp_code: setupCode },
    });
    // The code that proved the link is spent for the owner it created; the next step's code signs in.
    expect(login.body.code).toBe('TOTP_INVALID');
    const next = await call(app, {
      method: 'POST',
      url: '/api/admin/auth/login',
      host,
      payload: {
        username: 'first_owner',
        password: body.password,
        totp_code: await totpCodeAtStep(secret, 1),
      },
    });
    expect(next.status).toBe(200);
    expect(next.body.data.operator).toMatchObject({ role: 'owner', site: site.code });

    // Spent: the link opens nothing any more, and the site gets no new one.
    const again = await call(app, { method: 'GET', url: `/api/admin/setup?token=${link!.token}`, host });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('SETUP_LINK_INVALID');
    expect((await issueOwnerSetupLinks(app.services.db)).map((item) => item.siteCode)).not.toContain(
      site.code,
    );
    const [audit] = await rowsOf<{ action: string }>(
      app.services.db,
      sql`SELECT action FROM operator_actions WHERE site_id = ${site.id.toString()}::bigint`,
    );
    expect(audit).toEqual({ action: 'operator.setup_owner' });
  });

  it('an unknown or expired token is refused', async () => {
    const response = await call(app, { method: 'GET', url: '/api/admin/setup?token=nope' });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('SETUP_LINK_INVALID');
  });
});
