import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brRegistration,
  buildTestApp,
  CAPTCHA_TEXT,
  call,
  forgetOperatorTotpStep,
  HOSTS,
  registerPlayer,
  registration,
  seededDatabase,
  solvedCaptcha,
  uniqueUsername,
} from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { DEMO_OPERATOR, DEMO_PLAYER } from '../../seed/demo-data.ts';
import { currentTotpCode } from '../security/totp.ts';

const kinds = await databaseKinds();

describe.each(kinds)('player accounts and sessions on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  const register = (payload: unknown, host: string = HOSTS.intl, lang?: string) =>
    call(app, {
      method: 'POST',
      url: `/api/auth/register2${lang ? `?lang=${lang}` : ''}`,
      host,
      payload: payload as object,
    });
  const login = (payload: unknown, host: string = HOSTS.intl, remoteAddress?: string) =>
    call(app, {
      method: 'POST',
      url: '/api/auth/login2',
      host,
      payload: payload as object,
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  const me = (token?: string, host: string = HOSTS.intl) =>
    call(app, { method: 'POST', url: '/api/auth/me', host, token });

  describe('captcha', () => {
    it('issues a single-use SVG challenge that expires in five minutes', async () => {
      const { status, body } = await call(app, { method: 'POST', url: '/api/auth/captcha' });
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'success', code: 200, data: { required: true, expires_in: 300 } });
      expect(body.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(body.data.captcha_id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('accepts the answer in any letter case, once', async () => {
      const captcha = await solvedCaptcha(app);
      const payload = {
        ...registration(),
        captcha_id: captcha.captcha_id,
        captcha_code: CAPTCHA_TEXT.toUpperCase(),
      };
      expect((await register(payload)).status).toBe(200);
      const replay = await register({ ...registration(), ...captcha });
      expect(replay.status).toBe(400);
      expect(replay.body).toMatchObject({ status: 'fail', code: 'CAPTCHA_INVALID' });
      expect(replay.body.message).toContain('Please obtain the verification code again');
    });

    it('refuses a wrong answer and burns the challenge', async () => {
      const captcha = await solvedCaptcha(app);
      const wrong = await register({
        ...registration(),
        captcha_id: captcha.captcha_id,
        captcha_code: 'zzzz',
      });
      expect(wrong.body.code).toBe('CAPTCHA_INVALID');
      const retry = await register({ ...registration(), ...captcha });
      expect(retry.body.code).toBe('CAPTCHA_INVALID');
    });

    it('refuses an expired challenge', async () => {
      const captcha = await solvedCaptcha(app);
      const database = await seededDatabase(kind);
      await database.exec(
        `UPDATE captchas SET expires_at = now() - interval '1 second' WHERE id = '${captcha.captcha_id}'`,
      );
      expect((await register({ ...registration(), ...captcha })).body.code).toBe('CAPTCHA_INVALID');
    });

    it("refuses another site's challenge", async () => {
      const captcha = await solvedCaptcha(app, HOSTS.br);
      expect((await register({ ...registration(), ...captcha }, HOSTS.intl)).body.code).toBe(
        'CAPTCHA_INVALID',
      );
    });

    it('requires the code and refuses an unknown or malformed id', async () => {
      const missing = await register({
        ...registration(),
        captcha_id: (await solvedCaptcha(app)).captcha_id,
      });
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual({ captcha_code: 'Please enter the verification code' });
      const unknown = await register({
        ...registration(),
        captcha_id: crypto.randomUUID(),
        captcha_code: 'abcd',
      });
      expect(unknown.body.code).toBe('CAPTCHA_INVALID');
      const malformed = await register({
        ...registration(),
        captcha_id: "' OR 1=1 --",
        captcha_code: 'abcd',
      });
      expect(malformed.body.code).toBe('CAPTCHA_INVALID');
    });
  });

  describe('register2', () => {
    it('asks only what a new player needs: no withdrawal password, no second password', async () => {
      const { qk_pwd: _qk, password_confirmation: _again, ...short } = registration();
      const { status, body } = await register({ ...short, ...(await solvedCaptcha(app)) });
      expect(status).toBe(200);
      expect(body.data.user.has_qk_pwd).toBe(false);
      // A client that still sends the confirmation has it checked.
      const mismatch = await register({
        ...registration(),
        password_confirmation: 'something-else',
        ...(await solvedCaptcha(app)),
      });
      expect(mismatch.body).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED' });
      const full = await register({ ...registration(), ...(await solvedCaptcha(app)) });
      expect(full.body.data.user.has_qk_pwd).toBe(true);
    });

    it('registers, logs in and returns every user info field with its defaults', async () => {
      const { status, body } = await register({ ...registration(), ...(await solvedCaptcha(app)) });
      expect(status).toBe(200);
      expect(body.message).toBe('Your registration has been successfully completed');
      expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(body.data.token_type).toBe('Bearer');
      const user = body.data.user;
      for (const field of [
        'money',
        'fs_money',
        'ml_money',
        'total_money',
        'total_slot_money',
        'total_live_money',
      ]) {
        expect(user[field]).toBe('0.00');
      }
      expect(user).toMatchObject({
        gender: 0,
        has_qk_pwd: true,
        register_site: 'sorte',
        site: 'sorte',
        total_credit: '0.00',
        used_credit: '0.00',
        status: 1,
        top_id: null,
        agent_id: null,
        profileurl: null,
        bridge_password: null,
      });
      expect(user.invite_code).toMatch(/^[A-Z2-9]{8}$/);
      expect(user.phone).toBe('+5511987654321');
      expect((await me(body.data.token)).body.data.name).toBe(user.name);
    });

    it('refuses a username that exists on the site in any letter case, but allows it on another site', async () => {
      const first = await registerPlayer(app);
      const again = await register({
        ...registration({ username: first.user.name.toUpperCase() }),
        ...(await solvedCaptcha(app)),
      });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'USERNAME_TAKEN', errors: { username: expect.any(String) } });
      const elsewhere = await register(
        {
          ...registration({ username: first.user.name, ...brRegistration() }),
          ...(await solvedCaptcha(app, HOSTS.br)),
        },
        HOSTS.br,
      );
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.body.data.user.site).toBe('sorte-br');
    });

    it("records the introducer's invite code as agent_id and the chain root as top_id", async () => {
      const root = await registerPlayer(app);
      const child = await registerPlayer(app, HOSTS.intl, {
        invite_code: root.user.invite_code.toLowerCase(),
      });
      expect(child.user).toMatchObject({ agent_id: root.user.id, top_id: root.user.id });
      const grandchild = await registerPlayer(app, HOSTS.intl, { invite_code: child.user.invite_code });
      expect(grandchild.user).toMatchObject({ agent_id: child.user.id, top_id: root.user.id });
    });

    it('refuses an unknown invite code, and one from another site', async () => {
      const unknown = await register({
        ...registration({ invite_code: 'NOSUCH99' }),
        ...(await solvedCaptcha(app)),
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body).toMatchObject({
        code: 'INVITE_CODE_UNKNOWN',
        errors: { invite_code: expect.any(String) },
      });
      const brMember = await registerPlayer(app, HOSTS.br);
      const crossSite = await register({
        ...registration({ invite_code: brMember.user.invite_code }),
        ...(await solvedCaptcha(app)),
      });
      expect(crossSite.body.code).toBe('INVITE_CODE_UNKNOWN');
    });

    const cases: [string, Record<string, unknown>, string, string][] = [
      ['a missing account', { username: undefined }, 'username', 'Please enter your account'],
      [
        'a short password',
        { password: '12345', password_confirmation: '12345' },
        'password',
        'The password must be at least 6 characters',
      ],
      [
        'different passwords',
        { password_confirmation: 'secret999' },
        'password_confirmation',
        'The two passwords entered do not match!',
      ],
      ['a missing real name', { realname: '' }, 'realname', 'Please enter your real name'],
      ['an invalid phone', { phone: '12345' }, 'phone', 'Please enter a valid mobile phone number'],
      ['a missing phone', { phone: undefined }, 'phone', 'Please enter your phone number'],
      [
        'a 5-digit withdrawal password',
        { qk_pwd: '12345' },
        'qk_pwd',
        'The withdrawal password must be exactly 6 digits',
      ],
      [
        'a non-numeric withdrawal password',
        { qk_pwd: 'abcdef' },
        'qk_pwd',
        'The withdrawal password must be exactly 6 digits',
      ],
      ['terms not accepted', { agree_terms: false }, 'agree_terms', 'Please accept the terms and conditions'],
      ['no 18+ confirmation', { is_adult: undefined }, 'is_adult', 'You must be 18 or older to register'],
      [
        'a username with spaces',
        { username: 'bad name' },
        'username',
        'The account must be 4 to 20 letters, digits or underscores',
      ],
      ['a huge username', { username: 'x'.repeat(100_00) }, 'username', 'This entry is too long'],
      ['a numeric username', { username: 12345 }, 'username', 'Wrong type'],
      ['an array password', { password: ['secret123'] }, 'password', 'Wrong type'],
      [
        'a bad invite code',
        { invite_code: 'ab-cd' },
        'invite_code',
        'The invite code may only contain letters and digits',
      ],
    ];
    it.each(cases)('refuses %s with a translated field message', async (_name, change, field, message) => {
      const before = await seededDatabase(kind);
      const payload = { ...registration(), ...change, ...(await solvedCaptcha(app)) };
      const { status, body } = await register(payload);
      expect(status).toBe(422);
      expect(body).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED', data: null });
      expect(body.errors?.[field]).toBe(message);
      expect(body.message).toBe(Object.values(body.errors ?? {})[0]);
      // Nothing was created: the same name can still register.
      if (typeof payload.username === 'string' && payload.username.length <= 20 && before) {
        const rows = (await before.db.execute(
          `SELECT count(*)::int AS n FROM members WHERE username = '${payload.username.replace(/'/g, "''")}'` as never,
        )) as unknown as { rows: { n: number }[] };
        expect(rows.rows[0]?.n).toBe(0);
      }
    });

    it('translates validation messages into the requested language, including the zh_cn alias', async () => {
      const payload = {
        ...registration({ password_confirmation: 'other999' }),
        ...(await solvedCaptcha(app)),
      };
      const cn = await register(payload, HOSTS.intl, 'zh_cn');
      expect(cn.body.errors?.password_confirmation).toBe('两次输入的密码不一致！');
      const ch = await register(payload, HOSTS.intl, 'ch');
      expect(ch.body.errors?.password_confirmation).toBe('兩次輸入的密碼不一致！');
      const pt = await register(payload, HOSTS.intl, 'pt');
      expect(pt.body.message).toBe('As duas senhas digitadas não coincidem!');
    });

    it("answers in the site's default language when no lang is sent", async () => {
      const { body } = await register({}, HOSTS.br);
      expect(body.message).toBe('Por favor, insira sua conta');
    });

    it('never answers 500 to garbage', async () => {
      const bodies = ['{not json', '[]', 'null', '"text"', '{"username":{"$gt":""}}', '1'.repeat(70_000)];
      for (const payload of bodies) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/auth/register2',
          headers: { host: HOSTS.intl, 'content-type': 'application/json' },
          payload,
        });
        expect(response.statusCode, payload.slice(0, 20)).toBeLessThan(500);
        expect(response.json().status).toBe('fail');
      }
      const form = await app.inject({
        method: 'POST',
        url: '/api/auth/login2',
        headers: { host: HOSTS.intl, 'content-type': 'text/plain' },
        payload: 'username=demo01',
      });
      expect(form.statusCode).toBe(400);
      expect(form.json().code).toBe('BAD_REQUEST');
    });
  });

  describe('login2, me and logout', () => {
    it('logs the demo player in on both sites with their own sessions', async () => {
      const intl = await login({
        username: DEMO_PLAYER.username,
        password: DEMO_PLAYER.password,
        ...(await solvedCaptcha(app)),
      });
      expect(intl.status).toBe(200);
      expect(intl.body.data.user).toMatchObject({ name: 'demo01', site: 'sorte', has_qk_pwd: true });
      expect(intl.body.message).toBe('Login successful');
      const br = await login(
        { username: 'DEMO01', password: DEMO_PLAYER.password, ...(await solvedCaptcha(app, HOSTS.br)) },
        HOSTS.br,
      );
      expect(br.body.data.user.site).toBe('sorte-br');
      expect(br.body.message).toBe('Login realizado com sucesso');
    });

    it('refuses a wrong password and an unknown account with the same message', async () => {
      const player = await registerPlayer(app);
      const wrong = await login({
        username: player.user.name,
        password: 'wrong-pass',
        ...(await solvedCaptcha(app)),
      });
      const unknown = await login({
        username: uniqueUsername('nobody'),
        password: 'whatever',
        ...(await solvedCaptcha(app)),
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
      expect(unknown.body).toEqual(wrong.body);
    });

    it('requires the captcha on login', async () => {
      const { status, body } = await login({
        username: DEMO_PLAYER.username,
        password: DEMO_PLAYER.password,
      });
      expect(status).toBe(422);
      expect(body.errors).toEqual({ captcha_code: 'Please enter the verification code' });
    });

    it('me needs a valid bearer token', async () => {
      for (const token of [undefined, 'not-a-token', 'x'.repeat(43)]) {
        const { status, body } = await me(token);
        expect(status).toBe(401);
        expect(body).toMatchObject({ status: 'fail', code: 'UNAUTHENTICATED', message: 'Unauthenticated.' });
        expect(body.force_offline).toBeUndefined();
      }
    });

    it("rejects one site's token on another site", async () => {
      const player = await registerPlayer(app, HOSTS.intl);
      expect((await me(player.token, HOSTS.intl)).status).toBe(200);
      const elsewhere = await me(player.token, HOSTS.br);
      expect(elsewhere.status).toBe(401);
      expect(elsewhere.body.code).toBe('UNAUTHENTICATED');
    });

    it('logout ends only the calling session', async () => {
      const player = await registerPlayer(app);
      const second = await login({
        username: player.user.name,
        password: 'secret123',
        ...(await solvedCaptcha(app)),
      });
      const out = await call(app, { method: 'POST', url: '/api/auth/logout', token: player.token });
      expect(out.status).toBe(200);
      expect(out.body.message).toBe('You have been logged out');
      expect((await me(player.token)).status).toBe(401);
      expect((await me(second.body.data.token)).status).toBe(200);
      expect((await call(app, { method: 'POST', url: '/api/auth/logout', token: player.token })).status).toBe(
        401,
      );
    });

    it('an expired session is refused', async () => {
      const player = await registerPlayer(app);
      const database = await seededDatabase(kind);
      await database.exec(
        `UPDATE member_sessions SET expires_at = now() - interval '1 second' WHERE member_id = ${player.user.id}`,
      );
      const { status, body } = await me(player.token);
      expect(status).toBe(401);
      expect(body.force_offline).toBeUndefined();
    });

    it('a br session expires after 30 minutes of inactivity, an intl one after a day', async () => {
      const br = await registerPlayer(app, HOSTS.br);
      const intl = await registerPlayer(app, HOSTS.intl);
      const database = await seededDatabase(kind);
      const idle = (await database.db.execute(
        `SELECT member_id, round(extract(epoch FROM expires_at - last_seen_at) / 60)::int AS minutes
         FROM member_sessions WHERE member_id IN (${br.user.id}, ${intl.user.id})` as never,
      )) as unknown as { rows: { member_id: string | number; minutes: number }[] };
      const byMember = new Map(idle.rows.map((row) => [Number(row.member_id), row.minutes]));
      expect(byMember.get(br.user.id)).toBe(30);
      expect(byMember.get(intl.user.id)).toBe(24 * 60);
    });

    it('activity slides the expiry forward', async () => {
      const player = await registerPlayer(app, HOSTS.br);
      const database = await seededDatabase(kind);
      await database.exec(
        `UPDATE member_sessions SET last_seen_at = now() - interval '20 minutes',
           expires_at = now() + interval '10 minutes' WHERE member_id = ${player.user.id}`,
      );
      expect((await me(player.token, HOSTS.br)).status).toBe(200);
      const rows = (await database.db.execute(
        `SELECT extract(epoch FROM expires_at - now())::int AS left FROM member_sessions WHERE member_id = ${player.user.id}` as never,
      )) as unknown as { rows: { left: number }[] };
      expect(rows.rows[0]!.left).toBeGreaterThan(25 * 60);
    });
  });

  it('a disabled account can neither use its session nor log in', async () => {
    const player = await registerPlayer(app);
    const database = await seededDatabase(kind);
    await database.exec(`UPDATE members SET status = 0 WHERE id = ${player.user.id}`);
    const session = await me(player.token);
    expect(session.status).toBe(403);
    expect(session.body.code).toBe('ACCOUNT_DISABLED');
    const again = await login({
      username: player.user.name,
      password: 'secret123',
      ...(await solvedCaptcha(app)),
    });
    expect(again.status).toBe(403);
    expect(again.body.message).toBe('This account is disabled. Please contact customer service');
  });

  describe('brute force', () => {
    it('locks an account after five failures, even with the right password, and says when to retry', async () => {
      const player = await registerPlayer(app);
      for (let i = 0; i < 5; i += 1) {
        const failed = await login({
          username: player.user.name,
          password: `wrong-${i}xx`,
          ...(await solvedCaptcha(app)),
        });
        expect(failed.body.code).toBe('INVALID_CREDENTIALS');
      }
      const locked = await login({
        username: player.user.name,
        password: 'secret123',
        ...(await solvedCaptcha(app)),
      });
      expect(locked.status).toBe(429);
      expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
      expect(locked.body.message).toBe('Too many failed attempts. Please try again in 15 minute(s)');
      expect(locked.headers['retry-after']).toBe(String(locked.body.retry_after));
      expect(locked.body.retry_after).toBeGreaterThan(0);
      // The lock is per account: another player logs in normally.
      const other = await registerPlayer(app);
      const fine = await login({
        username: other.user.name,
        password: 'secret123',
        ...(await solvedCaptcha(app)),
      });
      expect(fine.status).toBe(200);
    });

    it('the lock lifts once the failures leave the window', async () => {
      const player = await registerPlayer(app);
      for (let i = 0; i < 5; i += 1) {
        await login({ username: player.user.name, password: `wrong-${i}xx`, ...(await solvedCaptcha(app)) });
      }
      const database = await seededDatabase(kind);
      await database.exec(
        `UPDATE login_failures SET failed_at = failed_at - interval '16 minutes' WHERE key = '${player.user.name.toLowerCase()}'`,
      );
      const ok = await login({
        username: player.user.name,
        password: 'secret123',
        ...(await solvedCaptcha(app)),
      });
      expect(ok.status).toBe(200);
    });

    it('locks a client address that fails on many accounts', async () => {
      // The production limit (the test config lifts it: every suite logs in from 127.0.0.1).
      const guarded = await buildTestApp(kind, { LOGIN_MAX_FAILURES_PER_IP: 30 });
      const from = (payload: unknown, remoteAddress: string) =>
        call(guarded, { method: 'POST', url: '/api/auth/login2', payload: payload as object, remoteAddress });
      try {
        const address = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
        for (let i = 0; i < 30; i += 1) {
          await from(
            { username: uniqueUsername('spray'), password: 'guess123', ...(await solvedCaptcha(guarded)) },
            address,
          );
        }
        const blocked = await from(
          {
            username: DEMO_PLAYER.username,
            password: DEMO_PLAYER.password,
            ...(await solvedCaptcha(guarded)),
          },
          address,
        );
        expect(blocked.status).toBe(429);
        expect(blocked.body.code).toBe('TOO_MANY_ATTEMPTS');
      } finally {
        await guarded.close();
      }
    });
  });

  describe('operators and force_offline', () => {
    const adminLogin = async (host: string = HOSTS.intl, password = DEMO_OPERATOR.password) => {
      await forgetOperatorTotpStep(app, DEMO_OPERATOR.username, host);
      return call(app, {
        method: 'POST',
        url: '/api/admin/auth/login',
        host,
        payload: {
          username: DEMO_OPERATOR.username,
          password,
          totp_code: await currentTotpCode(DEMO_OPERATOR.totpSecret),
        },
      });
    };

    it('an operator ends all sessions of a player; their next call gets 401 force_offline', async () => {
      const player = await registerPlayer(app);
      const second = await login({
        username: player.user.name,
        password: 'secret123',
        ...(await solvedCaptcha(app)),
      });
      const admin = await adminLogin();
      expect(admin.status).toBe(200);
      expect(admin.body.data.operator).toMatchObject({ username: 'admin', role: 'owner', site: 'sorte' });
      const forced = await call(app, {
        method: 'POST',
        url: '/api/admin/members/force-offline',
        token: admin.body.data.token,
        payload: { username: player.user.name },
      });
      expect(forced.status).toBe(200);
      expect(forced.body.data).toEqual({ member_id: player.user.id, sessions_ended: 2 });
      for (const token of [player.token, second.body.data.token]) {
        const { status, body } = await me(token);
        expect(status).toBe(401);
        expect(body).toMatchObject({
          code: 'UNAUTHENTICATED',
          message: 'Unauthenticated.',
          force_offline: true,
        });
      }
      // Logging in again works and gives a fresh, valid session.
      const again = await login({
        username: player.user.name,
        password: 'secret123',
        ...(await solvedCaptcha(app)),
      });
      expect((await me(again.body.data.token)).status).toBe(200);
    });

    it("keeps operator and player tokens apart, and an operator to their own site's players", async () => {
      const player = await registerPlayer(app);
      const admin = await adminLogin();
      expect((await me(admin.body.data.token)).status).toBe(401);
      const withPlayerToken = await call(app, {
        method: 'POST',
        url: '/api/admin/members/force-offline',
        token: player.token,
        payload: { username: player.user.name },
      });
      expect(withPlayerToken.status).toBe(401);
      const brAdmin = await adminLogin(HOSTS.br);
      const crossSite = await call(app, {
        method: 'POST',
        url: '/api/admin/members/force-offline',
        host: HOSTS.br,
        token: brAdmin.body.data.token,
        payload: { username: player.user.name },
      });
      expect(crossSite.status).toBe(404);
      expect(crossSite.body.message).toBe('O USUÁRIO NÃO EXISTE');
      expect((await me(player.token)).status).toBe(200);
      const wrongSiteToken = await call(app, {
        method: 'POST',
        url: '/api/admin/members/force-offline',
        token: brAdmin.body.data.token,
        payload: { username: player.user.name },
      });
      expect(wrongSiteToken.status).toBe(401);
    });

    it('ends an operator session at logout, and only that one', async () => {
      const first = await adminLogin();
      const second = await adminLogin();
      const forceOffline = (token: string) =>
        call(app, {
          method: 'POST',
          url: '/api/admin/members/force-offline',
          token,
          payload: { username: 'no-such-player' },
        });
      const out = await call(app, {
        method: 'POST',
        url: '/api/admin/auth/logout',
        token: first.body.data.token,
      });
      expect(out.status).toBe(200);
      expect((await forceOffline(first.body.data.token)).status).toBe(401);
      expect((await forceOffline(second.body.data.token)).body.code).toBe('NOT_FOUND');
      const again = await call(app, {
        method: 'POST',
        url: '/api/admin/auth/logout',
        token: first.body.data.token,
      });
      expect(again.status).toBe(401);
      // A player's token is not an operator's.
      const player = await registerPlayer(app);
      expect(
        (await call(app, { method: 'POST', url: '/api/admin/auth/logout', token: player.token })).status,
      ).toBe(401);
    });

    it('refuses a wrong operator password and validates the body', async () => {
      const wrong = await adminLogin(HOSTS.intl, 'not-the-password');
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
      const admin = await adminLogin();
      const invalid = await call(app, {
        method: 'POST',
        url: '/api/admin/members/force-offline',
        token: admin.body.data.token,
        payload: { username: '' },
      });
      expect(invalid.status).toBe(422);
      expect(invalid.body.errors).toEqual({ username: 'Please enter your account' });
    });
  });
});

describe.each(kinds)('captcha turned off on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind, { CAPTCHA: false });
  });
  afterAll(async () => {
    await app.close();
  });

  it('says the captcha is not required and registers and logs in without one', async () => {
    const captcha = await call(app, { method: 'POST', url: '/api/auth/captcha' });
    expect(captcha.body.data).toMatchObject({ required: false });
    const site = await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata' });
    expect(site.body.data.captcha_required).toBe(false);
    const input = registration();
    expect((await call(app, { method: 'POST', url: '/api/auth/register2', payload: input })).status).toBe(
      200,
    );
    const login = await call(app, {
      method: 'POST',
      url: '/api/auth/login2',
      payload: { username: input.username, password: input.password },
    });
    expect(login.status).toBe(200);
  });
});
