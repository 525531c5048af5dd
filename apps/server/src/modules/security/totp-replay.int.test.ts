import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedCaptcha, TEST_OPERATOR, uniqueUsername } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { operators } from '../admin/admin.schema.ts';
import {
  addCard,
  call,
  fund,
  type MoneyHarness,
  newPlayer,
  startMoneyHarness,
} from '../deposits/money.fixtures.ts';
import { hashSecret } from '../sessions/passwords.ts';
import { getBalances } from '../wallet/balances.ts';
import { totpCodeAtStep } from './totp.ts';

const kinds = await databaseKinds();

/**
 * The codes of the previous, current and next 30-second steps, taken early enough in the current
 * step that the server still accepts all three (±1 step) while the test runs.
 */
async function codesAroundNow(secret: string) {
  const intoStepMs = Date.now() % 30_000;
  if (intoStepMs > 20_000) await sleep(30_000 - intoStepMs + 100);
  return {
    previous: await totpCodeAtStep(secret, -1),
    current: await totpCodeAtStep(secret, 0),
    next: await totpCodeAtStep(secret, 1),
  };
}

const statuses = (responses: { body: { code: unknown } }[]) => responses.map((r) => String(r.body.code));

describe.each(kinds)('an authenticator code is good once on %s', (kind) => {
  let h: MoneyHarness;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  async function newOperator(): Promise<string> {
    const site = await h.app.services.sites.byHost('localhost');
    const username = uniqueUsername('op');
    await h.db.insert(operators).values({
      siteId: site!.id,
      username,
      passwordHash: await hashSecret(TEST_OPERATOR.password),
      role: 'support',
      status: 1,
      totpSecret: TEST_OPERATOR.totpSecret,
    });
    return username;
  }

  const operatorLogin = (username: string, totpCode: string) =>
    call(h.app, {
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { username, password: TEST_OPERATOR.password, totp_code: totpCode },
    });

  it("refuses an operator's code used before, and a previous step's code once a newer one was used", async () => {
    const username = await newOperator();
    const codes = await codesAroundNow(TEST_OPERATOR.totpSecret);
    expect((await operatorLogin(username, codes.current)).status).toBe(200);
    const again = await operatorLogin(username, codes.current);
    expect(again.body.code).toBe('TOTP_INVALID');
    expect(again.status).toBe(422);
    expect((await operatorLogin(username, codes.previous)).body.code).toBe('TOTP_INVALID');
    // The next step's code is still good, once.
    expect((await operatorLogin(username, codes.next)).status).toBe(200);
  });

  it('signs an operator in once with one code sent ten times at once', async () => {
    const username = await newOperator();
    const codes = await codesAroundNow(TEST_OPERATOR.totpSecret);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => operatorLogin(username, codes.current)),
    );
    const answers = statuses(responses);
    expect(answers.filter((code) => code === '200')).toHaveLength(1);
    expect(
      answers.filter((code) => code !== '200' && code !== 'TOTP_INVALID' && code !== 'TOO_MANY_ATTEMPTS'),
    ).toEqual([]);
  });

  /** A player with two-factor turned on (confirmed with the previous step's code). */
  async function playerWithTwoFactor() {
    const player = await newPlayer(h.app);
    const setup = await call(h.app, { method: 'POST', url: '/api/security/totp/setup', token: player.token });
    const secret = setup.body.data.secret as string;
    const codes = await codesAroundNow(secret);
    const enabled = await call(h.app, {
      method: 'POST',
      url: '/api/security/totp/enable',
      token: player.token,
      payload: { code: codes.previous },
    });
    expect(enabled.body.status).toBe('success');
    return { player, codes };
  }

  it("refuses a player's code used before, at login and after the code that confirmed two-factor", async () => {
    const { player, codes } = await playerWithTwoFactor();
    const login = async (totpCode: string) =>
      call(h.app, {
        method: 'POST',
        url: '/api/auth/login2',
        payload: {
          username: player.username,
          password: 'secret123',
          totp_code: totpCode,
          ...(await solvedCaptcha(h.app)),
        },
      });
    // The code that turned two-factor on is spent.
    expect((await login(codes.previous)).body.code).toBe('TOTP_INVALID');
    expect((await login(codes.current)).status).toBe(200);
    expect((await login(codes.current)).body.code).toBe('TOTP_INVALID');
    const captchas = [];
    for (let i = 0; i < 10; i += 1) captchas.push(await solvedCaptcha(h.app));
    const parallel = await Promise.all(
      captchas.map((captcha) =>
        call(h.app, {
          method: 'POST',
          url: '/api/auth/login2',
          payload: { username: player.username, password: 'secret123', totp_code: codes.next, ...captcha },
        }),
      ),
    );
    expect(statuses(parallel).filter((code) => code === '200')).toHaveLength(1);
  });

  it('holds the money of one withdrawal when one authenticator code is sent with ten at once', async () => {
    const { player, codes } = await playerWithTwoFactor();
    await fund(h.db, player.memberId, 100_000n);
    const cardId = (await addCard(h.db, player.memberId)).toString();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(h.app, {
          method: 'POST',
          url: '/api/drawing',
          token: player.token,
          payload: {
            money: '50.00',
            member_bank_id: cardId,
            qk_pwd: player.qkPwd,
            qk_pwd_confirmation: player.qkPwd,
            totp_code: codes.current,
          },
        }),
      ),
    );
    expect(statuses(responses).filter((code) => code === '200')).toHaveLength(1);
    expect((await getBalances(h.db, player.memberId)).holdMinor).toBe(5_000n);
  });
});
