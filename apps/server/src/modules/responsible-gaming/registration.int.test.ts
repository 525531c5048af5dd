import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brRegistration,
  buildTestApp,
  call,
  HOSTS,
  randomCpf,
  registerPlayer,
  registration,
  solvedCaptcha,
  testRegistry,
} from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { getBalances } from '../wallet/balances.ts';
import { grantBonus } from '../wallet/bonus/grants.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { recheckRegistry } from './registry.service.ts';

const kinds = await databaseKinds();

/** A birth date `years` (and `days`) before today on the br site: its day, in São Paulo. */
function bornAgo(years: number, days = 0): string {
  const date = new Date(
    `${new Date().toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' })}T12:00:00Z`,
  );
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

describe.each(kinds)('br sign-up (CPF, age, limits, self-exclusion registry) on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const signUp = async (host: string, fields: Record<string, unknown>, lang = 'en') =>
    call(app, {
      method: 'POST',
      url: `/api/auth/register2?lang=${lang}`,
      host,
      payload: { ...registration(fields), ...(await solvedCaptcha(app, host)) },
    });
  const login = async (host: string, username: string, lang = 'en') =>
    call(app, {
      method: 'POST',
      url: `/api/auth/login2?lang=${lang}`,
      host,
      payload: { username, password: 'secret123', ...(await solvedCaptcha(app, host)) },
    });
  const memberRow = async (id: string | bigint) =>
    (
      await rowsOf<{ cpf: string | null; birth_date: unknown; registry_checked_at: unknown }>(
        app.services.db,
        sql`SELECT cpf, birth_date::text AS birth_date, registry_checked_at FROM members WHERE id = ${String(id)}::bigint`,
      )
    )[0]!;

  it('site data tells the form what the site asks at sign-up', async () => {
    const br = await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata', host: HOSTS.br });
    expect(br.body.data.registration).toEqual({
      requires_cpf: true,
      requires_birth_date: true,
      mandatory_limits: ['loss', 'session_time'],
      shows_risk_message: true,
    });
    const intl = await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata' });
    expect(intl.body.data.registration).toMatchObject({ requires_cpf: false, mandatory_limits: [] });
  });

  it('registers with CPF, date of birth and the mandatory limits, and stores them', async () => {
    const fields = brRegistration();
    const ok = await signUp(HOSTS.br, {
      ...fields,
      cpf: `${fields.cpf.slice(0, 3)}.${fields.cpf.slice(3, 6)}.${fields.cpf.slice(6, 9)}-${fields.cpf.slice(9)}`,
    });
    expect(ok.status).toBe(200);
    const row = await memberRow(ok.body.data.user.id);
    expect(row.cpf).toBe(fields.cpf);
    expect(row.birth_date).toBe('1990-05-17');
    expect(row.registry_checked_at).not.toBeNull();
    const status = await call(app, {
      method: 'GET',
      url: '/api/responsible-gaming',
      host: HOSTS.br,
      token: ok.body.data.token,
    });
    expect(status.body.data.limits.map((l: { kind: string; value: string }) => [l.kind, l.value])).toEqual(
      expect.arrayContaining([
        ['loss', '10000000.00'],
        ['session_time', '1440'],
      ]),
    );
    const checks = await rowsOf<{ reason: string; impeded: boolean }>(
      app.services.db,
      sql`SELECT reason, impeded FROM registry_checks WHERE cpf = ${fields.cpf}`,
    );
    expect(checks).toEqual([{ reason: 'sign_up', impeded: false }]);
  });

  it('refuses a missing or wrong CPF, a second account with the same CPF, and nothing is created', async () => {
    const missing = await signUp(HOSTS.br, { ...brRegistration(), cpf: undefined }, 'pt');
    expect(missing.status).toBe(422);
    expect(missing.body.errors?.cpf).toBe('Por favor, insira o CPF');
    const wrong = await signUp(HOSTS.br, { ...brRegistration(), cpf: '529.982.247-24' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors?.cpf).toBe('The CPF is not valid');
    const first = await registerPlayer(app, HOSTS.br);
    const second = await signUp(HOSTS.br, { ...brRegistration(), cpf: first.input.cpf });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('CPF_IN_USE');
    // The same CPF may register on another site: one account per CPF per site.
    expect((await signUp(HOSTS.intl, { cpf: first.input.cpf })).status).toBe(200);
  });

  it('enforces 18+ from the date of birth (no checkbox), to the day', async () => {
    const minor = await signUp(HOSTS.br, {
      ...brRegistration(),
      birth_date: bornAgo(18, -1),
      is_adult: true,
    });
    expect(minor.status).toBe(422);
    expect(minor.body.errors?.birth_date).toBe('You must be 18 or older to register');
    const noDate = await signUp(HOSTS.br, { ...brRegistration(), birth_date: undefined });
    expect(noDate.body.errors?.birth_date).toBe('Please enter your date of birth');
    const impossible = await signUp(HOSTS.br, { ...brRegistration(), birth_date: '2001-02-30' });
    expect(impossible.body.errors?.birth_date).toBe('Please enter a valid date of birth');
    const adult = await signUp(HOSTS.br, {
      ...brRegistration(),
      birth_date: bornAgo(18),
      is_adult: undefined,
    });
    expect(adult.status).toBe(200);
    // intl asks the box instead.
    const noBox = await signUp(HOSTS.intl, { is_adult: false });
    expect(noBox.body.errors?.is_adult).toBe('You must be 18 or older to register');
  });

  it('requires the loss and session-time limits on br', async () => {
    const fields = brRegistration();
    const refused = await signUp(HOSTS.br, { ...fields, limits: [fields.limits[0]] }, 'pt');
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('RG_LIMIT_REQUIRED');
    expect(refused.body.message).toMatch(/limite/);
    expect((await memberByCpf(fields.cpf)).length).toBe(0);
  });

  const memberByCpf = (cpf: string) =>
    rowsOf<{ id: string }>(app.services.db, sql`SELECT id::text FROM members WHERE cpf = ${cpf}`);

  it('a CPF on the registry sandbox cannot register; the query is recorded', async () => {
    const registry = await testRegistry();
    const cpf = randomCpf();
    registry.add(cpf);
    const refused = await signUp(HOSTS.br, { ...brRegistration(), cpf }, 'pt');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('REGISTRY_IMPEDED');
    expect(refused.body.message).toMatch(/autoexclusão/i);
    expect((await memberByCpf(cpf)).length).toBe(0);
    const checks = await rowsOf<{ reason: string; impeded: boolean; member_id: unknown }>(
      app.services.db,
      sql`SELECT reason, impeded, member_id FROM registry_checks WHERE cpf = ${cpf}`,
    );
    expect(checks).toEqual([{ reason: 'sign_up', impeded: true, member_id: null }]);
    registry.remove(cpf);
    expect((await signUp(HOSTS.br, { ...brRegistration(), cpf })).status).toBe(200);
  });

  it('an unreachable registry refuses the sign-up and creates nothing', async () => {
    const { connection } = await testRegistry();
    app.registry.attach({
      isImpeded: async () => {
        throw new Error('down');
      },
      sandboxUrl: null,
      close: async () => undefined,
    });
    try {
      const fields = brRegistration();
      const refused = await signUp(HOSTS.br, fields);
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('REGISTRY_UNAVAILABLE');
      expect((await memberByCpf(fields.cpf)).length).toBe(0);
    } finally {
      app.registry.attach({ ...connection, close: async () => undefined });
    }
  });

  it('checks at the first login of the day: an impeded CPF gets only a withdrawal session, a cleared one plays again', async () => {
    const registry = await testRegistry();
    const player = await registerPlayer(app, HOSTS.br);
    const cpf = player.input.cpf as string;
    // An active bonus, which an exclusion ends at once (as one chosen on the site does).
    const site = (await app.services.sites.byHost(HOSTS.br))!;
    const memberId = BigInt(player.user.id);
    await grantBonus(app.services.db, {
      siteId: site.id,
      memberId,
      campaignCode: 'dailywheel',
      periodKey: 'registry-test',
      amountMinor: 1_000n,
      wageringRequiredMinor: 5_000n,
      maxBetMinor: null,
      locksCash: false,
      expiresAt: new Date(Date.now() + 86_400_000),
      terms: {},
    });
    expect((await getBalances(app.services.db, memberId, { siteId: site.id })).bonusMinor).toBe(1_000n);
    // Checked at sign-up today: a login today does not ask again.
    registry.add(cpf);
    expect((await login(HOSTS.br, player.input.username)).status).toBe(200);
    // A new day: the first login asks, is told "Impedido" and opens only a withdrawals session.
    await app.services.db.execute(
      sql`UPDATE members SET registry_checked_at = now() - interval '1 day' WHERE id = ${player.user.id}::bigint`,
    );
    const blocked = await login(HOSTS.br, player.input.username, 'pt');
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('REGISTRY_IMPEDED');
    expect(
      (blocked.body as unknown as { withdrawal_session?: { token: string } }).withdrawal_session?.token,
    ).toBeTruthy();
    // The earlier session ended with the block, and the bonus went back by the ledger.
    const me = await call(app, { method: 'POST', url: '/api/auth/me', host: HOSTS.br, token: player.token });
    expect(me.status).toBe(401);
    expect((await getBalances(app.services.db, memberId, { siteId: site.id })).bonusMinor).toBe(0n);
    expect((await reconcile(app.services.db)).ok).toBe(true);
    // Off the registry: the next daily check lifts the block.
    registry.remove(cpf);
    await app.services.db.execute(
      sql`UPDATE members SET registry_checked_at = now() - interval '1 day' WHERE id = ${player.user.id}::bigint`,
    );
    expect((await login(HOSTS.br, player.input.username)).status).toBe(200);
    const reasons = await rowsOf<{ reason: string; impeded: boolean }>(
      app.services.db,
      sql`SELECT reason, impeded FROM registry_checks WHERE cpf = ${cpf} ORDER BY id`,
    );
    expect(reasons).toEqual([
      { reason: 'sign_up', impeded: false },
      { reason: 'daily_login', impeded: true },
      { reason: 'daily_login', impeded: false },
    ]);
  });

  it('rechecks members whose last answer is older than 15 days', async () => {
    const registry = await testRegistry();
    const stale = await registerPlayer(app, HOSTS.br);
    const fresh = await registerPlayer(app, HOSTS.br);
    await app.services.db.execute(
      sql`UPDATE members SET registry_checked_at = now() - interval '16 days' WHERE id = ${stale.user.id}::bigint`,
    );
    registry.add(stale.input.cpf as string);
    registry.add(fresh.input.cpf as string);
    const site = (await app.services.sites.byHost(HOSTS.br))!;
    await recheckRegistry(app.services.db, app.registry, [site], 10_000);
    const blocked = await call(app, {
      method: 'POST',
      url: '/api/auth/me',
      host: HOSTS.br,
      token: stale.token,
    });
    expect(blocked.status).toBe(401);
    const stillIn = await call(app, {
      method: 'POST',
      url: '/api/auth/me',
      host: HOSTS.br,
      token: fresh.token,
    });
    expect(stillIn.status).toBe(200);
    const checks = await rowsOf<{ reason: string }>(
      app.services.db,
      sql`SELECT reason FROM registry_checks WHERE member_id = ${stale.user.id}::bigint ORDER BY id`,
    );
    expect(checks.map((c) => c.reason)).toEqual(['periodic']);
    registry.remove(fresh.input.cpf as string);
  });
});
