import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { connectMail, type MailConnection } from '../mail/mail.connection.ts';
import { totpCodeAtStep } from './totp.ts';

const kinds = await databaseKinds();

/** The newest message the mail catcher holds for `to`, once the outbox has sent it. */
async function lastMailTo(app: FastifyInstance, mail: MailConnection, to: string, subject = '', text = '') {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    await app.mail.kick();
    const response = await fetch(`${mail.catcherUrl}/api/messages?to=${encodeURIComponent(to)}`);
    const { messages } = (await response.json()) as { messages: { subject: string; text: string }[] };
    const found = messages.find(
      (message) => message.subject.includes(subject) && message.text.includes(text),
    );
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to}`);
}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

describe.each(kinds)('security centre on %s', (kind) => {
  let app: FastifyInstance;
  let mail: MailConnection;
  beforeAll(async () => {
    app = await buildTestApp(kind, { CAPTCHA: false });
    mail = await connectMail({ from: 'Sorte <no-reply@sorte.test>' }, { catcherPort: 0 });
    app.mail.attach(mail);
  });
  afterAll(async () => {
    await app.close();
  });

  const login = (username: string, password: string, extra: Record<string, unknown> = {}) =>
    call(app, { method: 'POST', url: '/api/auth/login2', payload: { username, password, ...extra } });

  async function bindEmail(token: string, email: string) {
    const sent = await call(app, {
      method: 'POST',
      url: '/api/security/email/code',
      token,
      payload: { email },
    });
    expect(sent.status).toBe(200);
    const code = codeIn((await lastMailTo(app, mail, email, 'confirm')).text);
    const bound = await call(app, {
      method: 'POST',
      url: '/api/security/email/bind',
      token,
      payload: { email, code },
    });
    expect(bound.body).toMatchObject({ status: 'success' });
  }

  it('a token stolen before a password change stops working; the changing session stays', async () => {
    const { token, input } = await registerPlayer(app);
    const stolen = (await login(input.username, 'secret123')).body.data.token as string;
    expect((await call(app, { method: 'POST', url: '/api/auth/me', token: stolen })).status).toBe(200);

    const same = await call(app, {
      method: 'POST',
      url: '/api/security/password',
      token,
      payload: {
        old_password: 'secret123',
        new_password: 'secret123',
        new_password_confirmation: 'secret123',
      },
    });
    expect(same.status).toBe(422);
    expect(same.body.errors?.new_password).toBe('The new password must be different from the old one');
    const mismatch = await call(app, {
      method: 'POST',
      url: '/api/security/password',
      token,
      payload: { old_password: 'secret123', new_password: 'newpass1', new_password_confirmation: 'newpass2' },
    });
    expect(mismatch.body.errors?.new_password_confirmation).toBe('Passwords did not match');
    const wrongOld = await call(app, {
      method: 'POST',
      url: '/api/security/password?lang=pt',
      token,
      payload: { old_password: 'nope1234', new_password: 'newpass1', new_password_confirmation: 'newpass1' },
    });
    expect(wrongOld.body).toMatchObject({
      code: 'OLD_PASSWORD_WRONG',
      message: 'A senha antiga está incorreta',
    });

    const changed = await call(app, {
      method: 'POST',
      url: '/api/security/password',
      token,
      payload: { old_password: 'secret123', new_password: 'newpass1', new_password_confirmation: 'newpass1' },
    });
    expect(changed.status).toBe(200);
    expect((await call(app, { method: 'POST', url: '/api/auth/me', token: stolen })).status).toBe(401);
    expect((await call(app, { method: 'POST', url: '/api/auth/me', token })).status).toBe(200);
    expect((await login(input.username, 'secret123')).status).toBe(401);
    expect((await login(input.username, 'newpass1')).status).toBe(200);

    const events = await call(app, { method: 'GET', url: '/api/security/events', token });
    expect(events.body.data.list.map((e: { kind: string }) => e.kind)).toContain('password_changed');
  });

  it('sets the withdrawal password only after the login password was re-entered', async () => {
    const { token } = await registerPlayer(app);
    const body = { qk_pwd: '112233', qk_pwd_confirmation: '112233' };
    const early = await call(app, {
      method: 'POST',
      url: '/api/security/withdraw-password',
      token,
      payload: body,
    });
    expect(early.body.code).toBe('PASSWORD_NOT_VERIFIED');
    const wrong = await call(app, {
      method: 'POST',
      url: '/api/security/verify-password',
      token,
      payload: { password: 'x' },
    });
    expect(wrong.body.code).toBe('OLD_PASSWORD_WRONG');
    const verified = await call(app, {
      method: 'POST',
      url: '/api/security/verify-password',
      token,
      payload: { password: 'secret123' },
    });
    expect(verified.status).toBe(200);
    const set = await call(app, {
      method: 'POST',
      url: '/api/security/withdraw-password',
      token,
      payload: body,
    });
    expect(set.body).toMatchObject({ status: 'success' });
    const overview = await call(app, { method: 'GET', url: '/api/security/overview', token });
    expect(overview.body.data).toMatchObject({ has_qk_pwd: true, totp_enabled: false });
  });

  it('lists sessions, ends another one, and shows the previous login', async () => {
    const { token, input } = await registerPlayer(app);
    const other = (await login(input.username, 'secret123')).body.data.token as string;
    const sessions = await call(app, { method: 'GET', url: '/api/security/sessions', token: other });
    expect(sessions.body.data.list).toHaveLength(2);
    const first = sessions.body.data.list.find((s: { current: boolean }) => !s.current);
    const overview = await call(app, { method: 'GET', url: '/api/security/overview', token: other });
    expect(overview.body.data.last_login.at).toBe(first.created_at);
    const ended = await call(app, {
      method: 'POST',
      url: '/api/security/sessions/end',
      token: other,
      payload: { session_id: first.id },
    });
    expect(ended.status).toBe(200);
    expect((await call(app, { method: 'POST', url: '/api/auth/me', token })).status).toBe(401);
    // Another member's session is not found.
    const stranger = await registerPlayer(app);
    const foreign = await call(app, {
      method: 'POST',
      url: '/api/security/sessions/end',
      token: stranger.token,
      payload: { session_id: first.id + 1 },
    });
    expect(foreign.status).toBe(404);
  });

  it('resets a forgotten password with the code emailed to the mail catcher', async () => {
    const { token, input } = await registerPlayer(app);
    const email = `${input.username}@example.com`.toLowerCase();
    await bindEmail(token, email);
    const forgot = await call(app, {
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { username: input.username },
    });
    expect(forgot.status).toBe(200);
    const message = await lastMailTo(app, mail, email, 'reset your password');
    const code = codeIn(message.text);
    const wrong = await call(app, {
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: {
        username: input.username,
        code: code === '000000' ? '111111' : '000000',
        new_password: 'fresh123',
        new_password_confirmation: 'fresh123',
      },
    });
    expect(wrong.body.code).toBe('EMAIL_CODE_INVALID');
    const reset = await call(app, {
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: {
        username: input.username,
        code,
        new_password: 'fresh123',
        new_password_confirmation: 'fresh123',
      },
    });
    expect(reset.body).toMatchObject({ status: 'success' });
    expect((await call(app, { method: 'POST', url: '/api/auth/me', token })).status).toBe(401);
    expect((await login(input.username, 'fresh123')).status).toBe(200);
    // The code is spent.
    const again = await call(app, {
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: {
        username: input.username,
        code,
        new_password: 'other123',
        new_password_confirmation: 'other123',
      },
    });
    expect(again.body.code).toBe('EMAIL_CODE_INVALID');
    // A notice of the change went to the bound address.
    const notice = await lastMailTo(app, mail, email, 'security notice', 'Password reset by email');
    expect(notice.text).toContain(input.username);
  });

  it('requires the authenticator code at login once two-factor is on, and locks after wrong codes', async () => {
    const { token, input } = await registerPlayer(app);
    const setup = await call(app, { method: 'POST', url: '/api/security/totp/setup', token });
    expect(setup.body.data.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    const secret = setup.body.data.secret as string;
    const enabled = await call(app, {
      method: 'POST',
      url: '/api/security/totp/enable',
      token,
      payload: { code: await generate({ secret }) },
    });
    expect(enabled.body.data.recovery_codes).toHaveLength(10);

    const without = await login(input.username, 'secret123');
    expect(without.body.code).toBe('TOTP_REQUIRED');
    // The code that turned two-factor on is spent (good once); the next step's code signs in.
    const withCode = await login(input.username, 'secret123', { totp_code: await totpCodeAtStep(secret, 1) });
    expect(withCode.status).toBe(200);
    const recovery = await login(input.username, 'secret123', {
      totp_code: enabled.body.data.recovery_codes[0],
    });
    expect(recovery.status).toBe(200);
    const reused = await login(input.username, 'secret123', {
      totp_code: enabled.body.data.recovery_codes[0],
    });
    expect(reused.body.code).toBe('TOTP_INVALID');
    for (let i = 0; i < 4; i += 1) await login(input.username, 'secret123', { totp_code: '000000' });
    const locked = await login(input.username, 'secret123', { totp_code: await generate({ secret }) });
    expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
  });
});
