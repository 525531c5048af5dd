import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../test/databases.ts';
import {
  addCard,
  call,
  fund,
  type MoneyHarness,
  newPlayer,
  startMoneyHarness,
} from '../deposits/money.fixtures.ts';
import { getBalances } from '../wallet/balances.ts';
import { totpCodeAtStep } from './totp.ts';

const kinds = await databaseKinds();

describe.each(kinds)('two-factor authentication at withdrawal on %s', (kind) => {
  let h: MoneyHarness;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('asks the authenticator code for a withdrawal once two-factor is on, and a wrong one moves nothing', async () => {
    const player = await newPlayer(h.app);
    await fund(h.db, player.memberId, 20_000n);
    const cardId = (await addCard(h.db, player.memberId)).toString();
    const setup = await call(h.app, { method: 'POST', url: '/api/security/totp/setup', token: player.token });
    const secret = setup.body.data.secret as string;
    const enabled = await call(h.app, {
      method: 'POST',
      url: '/api/security/totp/enable',
      token: player.token,
      payload: { code: await generate({ secret }) },
    });
    expect(enabled.body.status).toBe('success');
    const body = {
      money: '50.00',
      member_bank_id: cardId,
      qk_pwd: player.qkPwd,
      qk_pwd_confirmation: player.qkPwd,
    };
    const withdraw = (payload: Record<string, unknown>, lang = 'en') =>
      call(h.app, { method: 'POST', url: `/api/drawing?lang=${lang}`, token: player.token, payload });

    const without = await withdraw(body, 'pt');
    expect(without.status).toBe(403);
    expect(without.body.code).toBe('TOTP_REQUIRED');
    expect(without.body.message).toMatch(/autenticador/i);
    const wrong = await withdraw({ ...body, totp_code: '000000' });
    expect(wrong.body.code).toBe('TOTP_INVALID');
    expect((await getBalances(h.db, player.memberId)).holdMinor).toBe(0n);

    // The code that turned two-factor on is spent (good once); the next step's code is not.
    const ok = await withdraw({ ...body, totp_code: await totpCodeAtStep(secret, 1) });
    expect(ok.status).toBe(200);
    expect((await getBalances(h.db, player.memberId)).holdMinor).toBe(5_000n);
    // A recovery code works too, once.
    const recovery = enabled.body.data.recovery_codes[0] as string;
    expect((await withdraw({ ...body, money: '20.00', totp_code: recovery })).status).toBe(200);
    expect((await withdraw({ ...body, money: '20.00', totp_code: recovery })).body.code).toBe('TOTP_INVALID');
  });

  it('asks nothing more of a player without two-factor', async () => {
    const player = await newPlayer(h.app);
    await fund(h.db, player.memberId, 10_000n);
    const cardId = (await addCard(h.db, player.memberId)).toString();
    const done = await call(h.app, {
      method: 'POST',
      url: '/api/drawing',
      token: player.token,
      payload: {
        money: '50.00',
        member_bank_id: cardId,
        qk_pwd: player.qkPwd,
        qk_pwd_confirmation: player.qkPwd,
      },
    });
    expect(done.status).toBe(200);
  });
});
