import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedCaptcha, TEST_OPERATOR, uniqueUsername } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { operators } from '../admin/admin.schema.ts';
import {
  addCard,
  call,
  fund,
  type MoneyHarness,
  newPlayer,
  startMoneyHarness,
} from '../deposits/money.fixtures.ts';
import { currentTotpCode } from '../security/totp.ts';
import { hashSecret } from '../sessions/passwords.ts';

const kinds = await databaseKinds();

/** Parallel wrong attempts of one attack: sequentially, the lock comes at the 6th. */
const PARALLEL = 200;
const ALLOWED = 5;

describe.each(kinds)('lockouts under parallel attempts on %s', (kind) => {
  let h: MoneyHarness;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  async function failuresOf(scope: string, key: string): Promise<number> {
    const [row] = await rowsOf<{ count: number }>(
      h.db,
      sql`SELECT count(*)::int AS count FROM login_failures WHERE scope = ${scope} AND key = ${key}`,
    );
    return Number(row?.count ?? 0);
  }

  async function newOperator(): Promise<string> {
    const site = await h.app.services.sites.byHost('localhost');
    const username = uniqueUsername('op');
    await h.db.insert(operators).values({
      siteId: site!.id,
      username,
      passwordHash: await hashSecret(TEST_OPERATOR.password),
      role: 'finance',
      status: 1,
      totpSecret: TEST_OPERATOR.totpSecret,
    });
    return username;
  }

  const operatorLogin = (username: string, password: string, totpCode = '000000') =>
    call(h.app, {
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { username, password, totp_code: totpCode },
    });

  /** How many of the answers were a verdict on the secret (`evaluated`) and how many the lock. */
  function tally(responses: { status: number; body: { code: unknown } }[], evaluated: string) {
    const codes = responses.map((response) => String(response.body.code));
    return {
      evaluated: codes.filter((code) => code === evaluated).length,
      locked: codes.filter((code) => code === 'TOO_MANY_ATTEMPTS' || code === 'WITHDRAW_LOCKED').length,
      other: codes.filter((code) => ![evaluated, 'TOO_MANY_ATTEMPTS', 'WITHDRAW_LOCKED'].includes(code)),
    };
  }

  it('evaluates at most five of 200 parallel wrong operator passwords', async () => {
    const username = await newOperator();
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => operatorLogin(username, `wrong-password-${i}`)),
    );
    const counts = tally(responses, 'INVALID_CREDENTIALS');
    expect(counts.other).toEqual([]);
    expect(counts.evaluated).toBe(ALLOWED);
    expect(counts.evaluated + counts.locked).toBe(PARALLEL);
    expect(await failuresOf('operator', username.toLowerCase())).toBe(ALLOWED);
    // Locked now, even for the right password and code.
    const right = await operatorLogin(
      username,
      TEST_OPERATOR.password,
      await currentTotpCode(TEST_OPERATOR.totpSecret),
    );
    expect(right.body.code).toBe('TOO_MANY_ATTEMPTS');
  }, 120_000);

  it('evaluates at most five of 200 parallel wrong player passwords', async () => {
    const player = await newPlayer(h.app);
    const captchas = [];
    for (let i = 0; i < PARALLEL; i += 1) captchas.push(await solvedCaptcha(h.app));
    const responses = await Promise.all(
      captchas.map((captcha, i) =>
        call(h.app, {
          method: 'POST',
          url: '/api/auth/login2',
          payload: { username: player.username, password: `wrong-password-${i}`, ...captcha },
        }),
      ),
    );
    const counts = tally(responses, 'INVALID_CREDENTIALS');
    expect(counts.other).toEqual([]);
    expect(counts.evaluated).toBe(ALLOWED);
    expect(counts.evaluated + counts.locked).toBe(PARALLEL);
    expect(await failuresOf('account', player.username.toLowerCase())).toBe(ALLOWED);
  }, 120_000);

  it('evaluates at most five of 200 parallel wrong withdrawal passwords and holds nothing', async () => {
    const player = await newPlayer(h.app);
    await fund(h.db, player.memberId, 50_000n);
    const cardId = (await addCard(h.db, player.memberId)).toString();
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        call(h.app, {
          method: 'POST',
          url: '/api/drawing',
          token: player.token,
          payload: { money: '50.00', member_bank_id: cardId, qk_pwd: '000000' },
        }),
      ),
    );
    const counts = tally(responses, 'WITHDRAW_PASSWORD_WRONG');
    expect(counts.other).toEqual([]);
    const [failures] = await rowsOf<{ count: number }>(
      h.db,
      sql`SELECT count(*)::int AS count FROM withdraw_password_failures
          WHERE member_id = ${player.memberId.toString()}::bigint`,
    );
    // The fifth wrong password is answered with the lock, so at most five verdicts were given.
    expect(Number(failures?.count)).toBeLessThanOrEqual(ALLOWED);
    expect(counts.evaluated).toBeLessThan(ALLOWED);
  }, 120_000);

  it("keeps an operator's failed passwords until the authenticator code is right too", async () => {
    const username = await newOperator();
    for (let i = 0; i < ALLOWED - 1; i += 1) {
      expect((await operatorLogin(username, `wrong-password-${i}`)).body.code).toBe('INVALID_CREDENTIALS');
    }
    // The right password with a wrong code forgives nothing.
    const wrongCode = await operatorLogin(username, TEST_OPERATOR.password, '000000');
    expect(wrongCode.body.code).toBe('TOTP_INVALID');
    expect(await failuresOf('operator', username.toLowerCase())).toBe(ALLOWED - 1);
    expect((await operatorLogin(username, 'wrong-password-last')).body.code).toBe('INVALID_CREDENTIALS');
    const locked = await operatorLogin(
      username,
      TEST_OPERATOR.password,
      await currentTotpCode(TEST_OPERATOR.totpSecret),
    );
    expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it("keeps a player's failed passwords until the authenticator code is right too", async () => {
    const player = await newPlayer(h.app);
    const setup = await call(h.app, { method: 'POST', url: '/api/security/totp/setup', token: player.token });
    const secret = setup.body.data.secret as string;
    const enabled = await call(h.app, {
      method: 'POST',
      url: '/api/security/totp/enable',
      token: player.token,
      payload: { code: await currentTotpCode(secret) },
    });
    expect(enabled.body.status).toBe('success');
    const login = async (password: string, totpCode?: string) =>
      call(h.app, {
        method: 'POST',
        url: '/api/auth/login2',
        payload: {
          username: player.username,
          password,
          ...(totpCode ? { totp_code: totpCode } : {}),
          ...(await solvedCaptcha(h.app)),
        },
      });
    for (let i = 0; i < ALLOWED - 1; i += 1) {
      expect((await login(`wrong-password-${i}`)).body.code).toBe('INVALID_CREDENTIALS');
    }
    expect((await login('secret123')).body.code).toBe('TOTP_REQUIRED');
    expect((await login('secret123', '000000')).body.code).toBe('TOTP_INVALID');
    expect(await failuresOf('account', player.username.toLowerCase())).toBe(ALLOWED - 1);
    expect((await login('wrong-password-last')).body.code).toBe('INVALID_CREDENTIALS');
    expect((await login('secret123')).body.code).toBe('TOO_MANY_ATTEMPTS');
  });
});
