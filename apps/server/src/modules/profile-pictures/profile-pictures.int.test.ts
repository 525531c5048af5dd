import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';

const kinds = await databaseKinds();

describe.each(kinds)('profile pictures on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists male and female avatars to anyone', async () => {
    const { status, body } = await call(app, { method: 'GET', url: '/api/profilepictures' });
    expect(status).toBe(200);
    expect(body.data.male.length).toBeGreaterThanOrEqual(6);
    expect(body.data.female.length).toBeGreaterThanOrEqual(6);
    expect(body.data.male[0]).toEqual({
      id: expect.any(Number),
      url: expect.stringMatching(/^\/media\/avatars\/male-\d\.svg$/),
    });
  });

  it("sets the caller's photo and reads it back through user, me and without member_id", async () => {
    const player = await registerPlayer(app);
    const pictures = (await call(app, { method: 'GET', url: '/api/profilepictures' })).body.data;
    const choice = pictures.female[2];
    const set = await call(app, {
      method: 'POST',
      url: '/api/profilepictures/set?lang=pt',
      token: player.token,
      payload: { picture_id: choice.id },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      data: { profileurl: choice.url },
      message: 'Sua foto de perfil foi atualizada',
    });
    const own = await call(app, {
      method: 'POST',
      url: '/api/profilepictures/user',
      token: player.token,
      payload: { member_id: player.user.id },
    });
    expect(own.body.data).toEqual({ profileurl: choice.url });
    const noBody = await call(app, { method: 'POST', url: '/api/profilepictures/user', token: player.token });
    expect(noBody.body.data).toEqual({ profileurl: choice.url });
    const me = await call(app, { method: 'POST', url: '/api/auth/me', token: player.token });
    expect(me.body.data.profileurl).toBe(choice.url);
  });

  it("refuses another member's id with FORBIDDEN and needs a session", async () => {
    const player = await registerPlayer(app);
    const other = await registerPlayer(app);
    const forbidden = await call(app, {
      method: 'POST',
      url: '/api/profilepictures/user',
      token: player.token,
      payload: { member_id: other.user.id },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('FORBIDDEN');
    const anonymous = await call(app, { method: 'POST', url: '/api/profilepictures/user', payload: {} });
    expect(anonymous.status).toBe(401);
    const anonymousSet = await call(app, {
      method: 'POST',
      url: '/api/profilepictures/set',
      payload: { picture_id: 1 },
    });
    expect(anonymousSet.status).toBe(401);
    const brToken = await call(app, {
      method: 'POST',
      url: '/api/profilepictures/user',
      host: HOSTS.br,
      token: player.token,
    });
    expect(brToken.status).toBe(401);
  });

  it('validates picture_id and member_id', async () => {
    const player = await registerPlayer(app);
    const cases: [unknown, string, number][] = [
      [{}, 'Please choose a profile photo', 422],
      [{ picture_id: 'abc' }, 'Wrong type', 422],
      [{ picture_id: -1 }, 'Wrong type', 422],
      [{ picture_id: 1.5 }, 'Wrong type', 422],
      [{ picture_id: 999_999 }, 'Please enter the correct parameters', 422],
    ];
    for (const [payload, message, status] of cases) {
      const response = await call(app, {
        method: 'POST',
        url: '/api/profilepictures/set',
        token: player.token,
        payload: payload as object,
      });
      expect(response.status, JSON.stringify(payload)).toBe(status);
      expect(response.body.errors?.picture_id).toBe(message);
    }
    const badMember = await call(app, {
      method: 'POST',
      url: '/api/profilepictures/user',
      token: player.token,
      payload: { member_id: 'me' },
    });
    expect(badMember.status).toBe(422);
    expect(badMember.body.errors?.member_id).toBe('Wrong type');
  });
});
