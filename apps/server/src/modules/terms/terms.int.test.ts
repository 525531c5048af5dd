import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, fundedPlayer, HOSTS, loginOperator } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';

const kinds = await databaseKinds();
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(kinds)('versioned terms on %s', (kind) => {
  let app: FastifyInstance;
  let operatorToken: string;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    operatorToken = await loginOperator(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const announce = (effectiveAt: Date, lang = 'en') =>
    call(app, {
      method: 'POST',
      url: `/api/admin/terms?lang=${lang}`,
      token: operatorToken,
      payload: { effective_at: effectiveAt.toISOString(), summary: 'Bonus wagering rules clarified' },
    });
  const me = (token: string) => call(app, { method: 'POST', url: '/api/auth/me', token });
  const dice = (token: string, lang = 'en') =>
    call(app, {
      method: 'POST',
      url: `/api/originals/dice/bet?lang=${lang}`,
      token,
      payload: { amount: '1.00', direction: 'under', target: 5000 },
    });

  it('refuses an effective date less than 14 days ahead, translated, and changes nothing', async () => {
    const count = () =>
      rowsOf<{ n: number }>(app.services.db, sql`SELECT count(*)::int AS n FROM terms_versions`);
    const before = await count();
    const refused = await announce(new Date(Date.now() + 13 * DAY_MS), 'pt');
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('TERMS_NOTICE_TOO_SHORT');
    expect(refused.body.message).toContain('14 dias');
    expect(await count()).toEqual(before);
    const player = await fundedPlayer(app, 1_000n);
    expect(
      (await call(app, { method: 'POST', url: '/api/admin/terms', token: player.token, payload: {} })).status,
    ).toBe(401);
  });

  it('announces a version, asks for it after its date, refuses bets until it is accepted', async () => {
    const player = await fundedPlayer(app, 10_000n);
    const announced = await announce(new Date(Date.now() + 15 * DAY_MS));
    expect(announced.status).toBe(200);
    const version = announced.body.data.version as number;
    expect(version).toBeGreaterThanOrEqual(2);
    const announcements = await call(app, {
      method: 'GET',
      url: '/api/informationcenter/announcement?lang=pt',
    });
    expect(JSON.stringify(announcements.body.data)).toContain('Nossos termos vão mudar');
    expect(JSON.stringify(announcements.body.data)).toContain('Bonus wagering rules clarified');

    // Before the date: announced as upcoming, nothing pending, play goes on.
    const status = await call(app, { method: 'GET', url: '/api/terms/status', token: player.token });
    expect(status.body.data.upcoming.version).toBe(version);
    expect(status.body.data.pending).toBeNull();
    expect((await me(player.token)).body.data.terms_pending).toBeNull();
    expect((await dice(player.token)).status).toBe(200);

    // The date passes (the player joined before it).
    await app.services.db.execute(
      sql`UPDATE members SET created_at = now() - interval '1 day' WHERE id = ${player.memberId.toString()}::bigint`,
    );
    await app.services.db.execute(
      sql`UPDATE terms_versions SET effective_at = now() - interval '1 minute' WHERE version = ${version}`,
    );
    const pending = (await me(player.token)).body.data.terms_pending;
    expect(pending.version).toBe(version);
    expect(pending.summary).toBe('Bonus wagering rules clarified');
    const refused = await dice(player.token, 'pt');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('TERMS_NOT_ACCEPTED');
    expect(refused.body.message).toContain('termos');

    const channels = await call(app, { method: 'GET', url: '/api/payment/online/list?payment_type=pix' });
    const deposit = await call(app, {
      method: 'POST',
      url: '/api/recharge/online?lang=pt',
      token: player.token,
      payload: { money: '50.00', payment_id: channels.body.data.list[0].id, payment_type: 'pix' },
    });
    expect(deposit.status).toBe(409);
    expect(deposit.body.code).toBe('TERMS_NOT_ACCEPTED');

    // A member who signs up after the date accepted these terms at sign-up.
    const newcomer = await fundedPlayer(app, 1_000n, HOSTS.intl);
    expect((await me(newcomer.token)).body.data.terms_pending).toBeNull();

    // Accepting another version is refused; accepting the pending one opens play again.
    const wrong = await call(app, {
      method: 'POST',
      url: '/api/terms/accept',
      token: player.token,
      payload: { version: version + 1 },
    });
    expect(wrong.body.code).toBe('TERMS_VERSION_UNKNOWN');
    const accepted = await call(app, {
      method: 'POST',
      url: '/api/terms/accept',
      token: player.token,
      payload: { version },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.pending).toBeNull();
    expect(accepted.body.data.current_version).toBe(version);
    expect((await me(player.token)).body.data.terms_pending).toBeNull();
    expect((await dice(player.token)).status).toBe(200);
  });

  it('gives concurrent announcements consecutive versions, never a 500', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => announce(new Date(Date.now() + 40 * DAY_MS))),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const versions = answers.map((a) => a.body.data.version as number).sort((a, b) => a - b);
    expect(versions).toEqual(versions.map((_, i) => versions[0]! + i));
  });
});
