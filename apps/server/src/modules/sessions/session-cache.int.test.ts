import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, registerPlayer, seededDatabase } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';

/**
 * The session cache (session-cache.ts, migration 0042): a session ended or narrowed in the database
 * by anyone — here a plain UPDATE on another connection, as another server process or an operator
 * would — is refused on the next requests once its notification arrived, never served from the
 * cache for long. The wait is bounded by polling (no timing asserted).
 */
describe.each(await databaseKinds())('session cache on %s', (kind) => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  const me = (token: string) => call(app, { method: 'POST', url: '/api/auth/me', token });

  async function eventually(check: () => Promise<boolean>): Promise<boolean> {
    for (let i = 0; i < 200; i++) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  }

  it('a cached session ended by another connection (force offline) answers 401 with force_offline', async () => {
    const player = await registerPlayer(app);
    for (let i = 0; i < 3; i++) expect((await me(player.token)).status).toBe(200);
    const other = await seededDatabase(kind);
    await other.db.execute(
      sql`UPDATE member_sessions SET ended_at = now(), end_reason = 'force_offline' WHERE member_id = ${player.user.id}`,
    );
    expect(await eventually(async () => (await me(player.token)).status === 401)).toBe(true);
    const refused = await me(player.token);
    expect(refused.status).toBe(401);
    expect(refused.body.force_offline).toBe(true);
  });

  it('a cached session of a member disabled elsewhere is refused with ACCOUNT_DISABLED', async () => {
    const player = await registerPlayer(app);
    expect((await me(player.token)).status).toBe(200);
    expect((await me(player.token)).status).toBe(200);
    const other = await seededDatabase(kind);
    await other.db.execute(sql`UPDATE members SET status = 0 WHERE id = ${player.user.id}`);
    expect(await eventually(async () => (await me(player.token)).status === 403)).toBe(true);
    expect((await me(player.token)).body.code).toBe('ACCOUNT_DISABLED');
  });

  it('a cached session whose expiry was moved into the past is refused', async () => {
    const player = await registerPlayer(app);
    expect((await me(player.token)).status).toBe(200);
    const other = await seededDatabase(kind);
    await other.db.execute(
      sql`UPDATE member_sessions SET expires_at = now() - interval '1 second' WHERE member_id = ${player.user.id}`,
    );
    expect(await eventually(async () => (await me(player.token)).status === 401)).toBe(true);
  });

  it('a session logged out in this process is refused on its very next request', async () => {
    const player = await registerPlayer(app);
    expect((await me(player.token)).status).toBe(200);
    expect((await call(app, { method: 'POST', url: '/api/auth/logout', token: player.token })).status).toBe(
      200,
    );
    expect((await me(player.token)).status).toBe(401);
  });
});
