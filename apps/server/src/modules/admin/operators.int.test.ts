import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  call,
  forgetOperatorTotpStep,
  loginOperator,
  uniqueUsername,
} from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { currentTotpCode } from '../security/totp.ts';

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

  const login = async (username: string, password: string, secret: string) => {
    await forgetOperatorTotpStep(app, username);
    return call(app, {
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { username, password, totp_code: await currentTotpCode(secret) },
    });
  };
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

  it('an operator keeps recovery codes for a lost authenticator: each signs in once, a new set or a reset ends the old', async () => {
    const username = uniqueUsername('rc').slice(0, 18);
    const password = 'support-pass-2026';
    const created = await call(app, {
      method: 'POST',
      url: '/api/admin/operators',
      token: owner,
      payload: { username, password, role: 'support' },
    });
    const id = created.body.data.operator.id as number;
    const secret = created.body.data.totp_secret as string;
    const token = (await login(username, password, secret)).body.data.token as string;
    const issue = async (code: string, as = token) => {
      await forgetOperatorTotpStep(app, username);
      return call(app, {
        method: 'POST',
        url: '/api/admin/auth/recovery-codes',
        token: as,
        payload: { totp_code: code },
      });
    };
    expect(
      (
        await call(app, {
          method: 'POST',
          url: '/api/admin/auth/recovery-codes',
          payload: { totp_code: '123456' },
        })
      ).status,
    ).toBe(401);
    const wrong = await issue('000000');
    expect(wrong.body.code).toBe('TOTP_INVALID');
    const issued = await issue(await currentTotpCode(secret));
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const codes = issued.body.data.codes as string[];
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}$/);
    const withCode = (code: string) =>
      call(app, {
        method: 'POST',
        url: '/api/admin/auth/login',
        payload: { username, password, totp_code: code },
      });
    // A recovery code in place of the authenticator code: once.
    expect((await withCode(codes[0]!)).status).toBe(200);
    const again = await withCode(codes[0]!);
    expect(again.body.code).toBe('TOTP_INVALID');
    expect((await withCode(codes[1]!.toUpperCase())).status).toBe(200);
    // A new set: the old unused codes stop working, the new ones work.
    const renewed = (await issue(await currentTotpCode(secret))).body.data.codes as string[];
    expect((await withCode(codes[2]!)).body.code).toBe('TOTP_INVALID');
    expect((await withCode(renewed[0]!)).status).toBe(200);
    // The owner resets the authenticator: the codes go with the old one.
    expect(
      (await call(app, { method: 'POST', url: `/api/admin/operators/${id}/reset-totp`, token: owner }))
        .status,
    ).toBe(200);
    expect((await withCode(renewed[1]!)).body.code).toBe('TOTP_INVALID');
    const stored = await rowsOf<{ code_hash: string }>(
      app.services.db,
      sql`SELECT code_hash FROM operator_recovery_codes WHERE operator_id = ${String(id)}::bigint`,
    );
    expect(
      stored.every((row) => /^[0-9a-f]{64}$/.test(row.code_hash) && !codes.includes(row.code_hash)),
    ).toBe(true);
    const actions = (await auditOf(id)).map((row) => row.action);
    expect(actions.filter((a) => a === 'operator.recovery_codes_issued')).toHaveLength(2);
    expect(actions.filter((a) => a === 'operator.recovery_code_used')).toHaveLength(3);
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
