import { OPERATOR_ROLES, roleCan, type TOperatorRole } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, loginOperator, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { DEMO_OPERATOR } from '../../seed/demo-data.ts';
import { PUBLIC_ADMIN_ROUTES } from './permissions.ts';

const kinds = await databaseKinds();

type TOperation = { method: string; path: string; route: string };

/** Every operation under /api/admin in the server's OpenAPI document ({id} → :id for Fastify's key). */
function adminOperations(app: FastifyInstance): TOperation[] {
  const document = app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/admin/'))
    .flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => ({
          method: method.toUpperCase(),
          path,
          route: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        })),
    );
}

/** A concrete URL for an operation: path parameters filled with values that name nothing. */
function urlOf(operation: TOperation, query = ''): string {
  return `${operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => (/id$/.test(name) ? '999999999' : 'none'))}${query}`;
}

/**
 * A language longer than any the query schema accepts: a call that gets past the permission check
 * stops at validation (422) before the handler, so walking every endpoint changes nothing.
 */
const STOP_AT_VALIDATION = `?lang=${'x'.repeat(40)}`;

describe.each(kinds)('back office roles and permissions on %s', (kind) => {
  let app: FastifyInstance;
  let playerToken: string;
  const tokens = {} as Record<TOperatorRole, string>;
  let operations: TOperation[];

  beforeAll(async () => {
    app = await buildTestApp(kind);
    playerToken = (await registerPlayer(app)).token;
    for (const role of OPERATOR_ROLES) tokens[role] = await loginOperator(app, role);
    operations = adminOperations(app).filter((operation) => !PUBLIC_ADMIN_ROUTES.has(operation.route));
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('every /api/admin operation in the OpenAPI document declares its permission', () => {
    expect(operations.length).toBeGreaterThan(5);
    for (const operation of operations) {
      expect(app.adminPermissions.get(operation.route), operation.route).toBeDefined();
    }
    // …and every declared one is documented.
    const documented = new Set(operations.map((operation) => operation.route));
    for (const route of app.adminPermissions.keys()) expect(documented, route).toContain(route);
  });

  it('no token and a player token get 401 on every admin endpoint', async () => {
    for (const operation of operations) {
      for (const token of [undefined, playerToken]) {
        const response = await call(app, {
          method: operation.method as 'GET',
          url: urlOf(operation),
          token,
          ...(operation.method === 'GET' ? {} : { payload: {} }),
        });
        expect(response.status, `${operation.route} with ${token ? 'a player token' : 'no token'}`).toBe(401);
        expect(response.body.code).toBe('UNAUTHENTICATED');
      }
    }
  });

  it.each(OPERATOR_ROLES)('a %s operator gets 403 exactly where ROLE_PERMISSIONS says', async (role) => {
    for (const operation of operations) {
      const permission = app.adminPermissions.get(operation.route)!;
      const response = await call(app, {
        method: operation.method as 'GET',
        url: urlOf(operation, STOP_AT_VALIDATION),
        token: tokens[role],
        ...(operation.method === 'GET' ? {} : { payload: [] }),
      });
      const label = `${role} ${operation.route} (${permission})`;
      if (roleCan(role, permission)) {
        expect(response.status, label).not.toBe(401);
        expect(response.body.code, label).not.toBe('FORBIDDEN');
      } else {
        expect(response.status, label).toBe(403);
        expect(response.body).toMatchObject({ status: 'fail', code: 'FORBIDDEN' });
      }
    }
  });

  it('a support operator cannot approve or reject a withdrawal (403, translated)', async () => {
    for (const action of ['approve', 'reject']) {
      const response = await call(app, {
        method: 'POST',
        url: `/api/admin/withdrawals/W1/${action}?lang=pt`,
        token: tokens.support,
        payload: { remark: 'no' },
      });
      expect(response.status).toBe(403);
      expect(response.body.message).toBe('Você não tem permissão para fazer isso');
    }
  });

  it('operator login needs the authenticator code: missing 422, wrong TOTP_INVALID (translated)', async () => {
    const missing = await call(app, {
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { username: DEMO_OPERATOR.username, password: DEMO_OPERATOR.password },
    });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors ?? {})).toContain('totp_code');
    const wrong = await call(app, {
      method: 'POST',
      url: '/api/admin/auth/login?lang=pt',
      payload: { username: 'qa_finance', password: 'operator-pass-2026', totp_code: '000000' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('TOTP_INVALID');
    expect(wrong.body.message).toMatch(/Código de autenticação incorreto/);
  });

  it('reports the operator and permissions at /api/admin/auth/me; an idle session ends', async () => {
    const token = await loginOperator(app, 'content');
    const me = await call(app, { method: 'GET', url: '/api/admin/auth/me', token });
    expect(me.status).toBe(200);
    expect(me.body.data.operator).toMatchObject({ username: 'qa_content', role: 'content', site: 'sorte' });
    expect(me.body.data.operator.permissions).toContain('content.manage');
    expect(me.body.data.operator.permissions).not.toContain('withdrawals.review');
    await app.services.db.execute(
      sql`UPDATE operator_sessions SET last_seen_at = now() - interval '31 minutes'
          WHERE operator_id = (SELECT id FROM operators WHERE username = 'qa_content' LIMIT 1)`,
    );
    expect((await call(app, { method: 'GET', url: '/api/admin/auth/me', token })).status).toBe(401);
  });

  it('records force-offline in the append-only audit log with who, what and after', async () => {
    const player = await registerPlayer(app);
    const response = await call(app, {
      method: 'POST',
      url: '/api/admin/members/force-offline',
      token: tokens.support,
      payload: { username: player.user.name },
    });
    expect(response.status).toBe(200);
    const [entry] = await rowsOf<{ action: string; username: string; after: unknown; entity: string }>(
      app.services.db,
      sql`SELECT a.action, o.username, a.after, a.entity FROM operator_actions a
          JOIN operators o ON o.id = a.operator_id
          WHERE a.member_id = ${String(player.user.id)}::bigint ORDER BY a.id DESC LIMIT 1`,
    );
    expect(entry).toMatchObject({
      action: 'member.force_offline',
      username: 'qa_support',
      entity: 'member',
      after: { sessions_ended: 1 },
    });
    // Readable (audit.read) through the audit log endpoint, filtered, and as CSV.
    const log = await call(app, {
      method: 'GET',
      url: `/api/admin/audit?action=member.&operator=qa_support&page_size=5`,
      token: tokens.finance,
    });
    expect(log.status).toBe(200);
    expect(log.body.data.list[0]).toMatchObject({
      operator: 'qa_support',
      action: 'member.force_offline',
      username: player.user.name,
      after: { sessions_ended: 1 },
    });
    const csv = await app.inject({
      method: 'GET',
      url: '/api/admin/audit?action=member.&format=csv',
      headers: { host: HOSTS.intl, authorization: `Bearer ${tokens.owner}` },
    });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toContain('member.force_offline');
    await expect(app.services.db.execute(sql`UPDATE operator_actions SET action = 'x'`)).rejects.toThrow();
    await expect(app.services.db.execute(sql`DELETE FROM operator_actions`)).rejects.toThrow();
  });

  it("a token of one site's operator opens nothing on another site", async () => {
    const brOwner = await loginOperator(app, 'owner', HOSTS.br);
    const response = await call(app, { method: 'GET', url: '/api/admin/auth/me', token: brOwner });
    expect(response.status).toBe(401);
  });
});
