import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, loginOperator, uniqueUsername } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { currentTotpCode } from '../security/totp.ts';
import { rowsOf } from '../wallet/wallet.repo.ts';

const kinds = await databaseKinds();

describe.each(kinds)('operators managed by the owner on %s', (kind) => {
  let app: FastifyInstance;
  let owner: string;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    owner = await loginOperator(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const login = async (username: string, password: string, secret: string) =>
    call(app, {
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { username, password, totp_code: await currentTotpCode(secret) },
    });
  const auditOf = (id: number) =>
    rowsOf<{ action: string; before: unknown; after: unknown }>(
      app.services.db,
      sql`SELECT action, before, after FROM operator_actions WHERE entity = 'operator' AND entity_id = ${String(id)} ORDER BY id`,
    );

  it('creates an operator with a role and a new authenticator, resets it, disables it; all audited', async () => {
    const username = uniqueUsername('op').slice(0, 18);
    const password = 'finance-pass-2026';
    const created = await call(app, {
      method: 'POST',
      url: '/api/admin/operators',
      token: owner,
      payload: { username, password, role: 'finance' },
    });
    expect(created.status).toBe(200);
    expect(created.body.message).toBe('Operator created');
    expect(created.body.data.operator).toMatchObject({ username, role: 'finance', status: 1 });
    const id = created.body.data.operator.id as number;
    const secret = created.body.data.totp_secret as string;
    const first = await login(username, password, secret);
    expect(first.status).toBe(200);
    expect(first.body.data.operator.permissions).toContain('withdrawals.review');

    const taken = await call(app, {
      method: 'POST',
      url: '/api/admin/operators',
      token: owner,
      payload: { username, password, role: 'support' },
    });
    expect(taken.status).toBe(409);

    const list = await call(app, { method: 'GET', url: '/api/admin/operators?page_size=100', token: owner });
    expect(list.body.data.list.map((row: { username: string }) => row.username)).toContain(username);

    // A lost phone: a new secret, the old one no longer signs in, the open session ended.
    const reset = await call(app, {
      method: 'POST',
      url: `/api/admin/operators/${id}/reset-totp`,
      token: owner,
    });
    expect(reset.status).toBe(200);
    const newSecret = reset.body.data.totp_secret as string;
    expect(newSecret).not.toBe(secret);
    expect(
      (await call(app, { method: 'GET', url: '/api/admin/auth/me', token: first.body.data.token })).status,
    ).toBe(401);
    expect((await login(username, password, secret)).body.code).toBe('TOTP_INVALID');
    const second = await login(username, password, newSecret);
    expect(second.status).toBe(200);

    const disabled = await call(app, {
      method: 'POST',
      url: `/api/admin/operators/${id}/status`,
      token: owner,
      payload: { status: 0 },
    });
    expect(disabled.body.data.status).toBe(0);
    expect(
      (await call(app, { method: 'GET', url: '/api/admin/auth/me', token: second.body.data.token })).status,
    ).toBe(401);
    expect((await login(username, password, newSecret)).body.code).toBe('ACCOUNT_DISABLED');

    expect((await auditOf(id)).map((entry) => entry.action)).toEqual([
      'operator.create',
      'operator.reset_totp',
      'operator.disable',
    ]);
    const [, , disable] = await auditOf(id);
    expect(disable).toMatchObject({ before: { status: 1 }, after: { status: 0 } });
  });

  it('an owner cannot disable themself; an operator of another site is not found', async () => {
    const me = await call(app, { method: 'GET', url: '/api/admin/auth/me', token: owner });
    const self = await call(app, {
      method: 'POST',
      url: `/api/admin/operators/${me.body.data.operator.id}/status`,
      token: owner,
      payload: { status: 0 },
    });
    expect(self.status).toBe(403);
    const brOwner = await loginOperator(app, 'owner', 'br.localhost');
    const other = await call(app, {
      method: 'POST',
      url: `/api/admin/operators/${me.body.data.operator.id}/reset-totp`,
      host: 'br.localhost',
      token: brOwner,
    });
    expect(other.status).toBe(404);
  });
});
