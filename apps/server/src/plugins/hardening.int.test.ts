import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, loginOperator } from '../../test/app.ts';
import { databaseKinds } from '../../test/databases.ts';
import { newPlayer } from '../modules/deposits/money.fixtures.ts';

const kinds = await databaseKinds();
type TSend = Parameters<typeof call>[1] & { url: string };
const CORRECT_PARAMETERS = 'Please enter the correct parameters';

describe.each(kinds)('requests an attacker sends, on %s', (kind) => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let operatorToken: string;
  let playerToken: string;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    operatorToken = await loginOperator(app);
    playerToken = (await newPlayer(app)).token;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  describe('a NUL byte in any text is refused by validation, never a 500', () => {
    const cases: {
      name: string;
      method: 'GET' | 'POST';
      url: string;
      payload?: unknown;
      as?: 'operator' | 'player';
    }[] = [
      {
        name: 'login username',
        method: 'POST',
        url: '/api/auth/login2',
        payload: { username: 'a\u0000b', password: 'x' },
      },
      {
        name: 'login password',
        method: 'POST',
        url: '/api/auth/login2',
        payload: { username: 'abcd', password: 'pass\u0000word' },
      },
      {
        name: 'operator login',
        method: 'POST',
        url: '/api/admin/auth/login',
        payload: { username: 'a\u0000b', password: 'xxxxxx' },
      },
      {
        name: 'force offline',
        method: 'POST',
        url: '/api/admin/members/force-offline',
        payload: { username: 'a\u0000b' },
        as: 'operator',
      },
      { name: 'games name', method: 'GET', url: '/api/games/listsv2?name=a%00b' },
      { name: 'games provider', method: 'GET', url: '/api/games/listsv2?provider=a%00b' },
      { name: 'games platType', method: 'GET', url: '/api/games/listsv2?platType=a%00b' },
      { name: 'recharge order', method: 'GET', url: '/api/recharge/detail?order_no=a%00b', as: 'player' },
      {
        name: 'withdrawal id in the path',
        method: 'POST',
        url: '/api/admin/withdrawals/%00/approve',
        payload: {},
        as: 'operator',
      },
      {
        name: 'a key of an object',
        method: 'POST',
        url: '/api/auth/login2',
        payload: { 'user\u0000name': 'abcd', password: 'xxxxxx' },
      },
      { name: 'the language', method: 'GET', url: '/api/games/listsv2?lang=e%00n' },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const res = await call(app, {
          method: c.method,
          url: c.url,
          ...(c.payload === undefined ? {} : { payload: c.payload as Record<string, unknown> }),
          ...(c.as ? { token: c.as === 'operator' ? operatorToken : playerToken } : {}),
        });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ status: 'fail', code: 'BAD_REQUEST', message: CORRECT_PARAMETERS });
      });
    }

    it('answers in the language asked for', async () => {
      const res = await call(app, {
        method: 'GET',
        url: '/api/recharge/detail?order_no=a%00b&lang=pt',
        token: playerToken,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Por favor, insira os parâmetros corretos');
    });
  });

  describe('framework errors are the envelope with a translated message', () => {
    const longId = 'A'.repeat(5000);
    const cases: { name: string; status: number; code: string; send: TSend }[] = [
      {
        name: 'an over-long path parameter (Fastify: 414)',
        status: 400,
        code: 'BAD_REQUEST',
        send: { method: 'POST', url: `/api/admin/withdrawals/${longId}/approve`, payload: {} },
      },
      {
        name: 'a body over the limit (Fastify: 413)',
        status: 400,
        code: 'BAD_REQUEST',
        send: {
          method: 'POST',
          url: '/api/auth/login2',
          payload: JSON.stringify({ username: 'x'.repeat(2_000_000), password: 'y' }),
          headers: { 'content-type': 'application/json' },
        },
      },
      {
        name: 'an unsupported content type (Fastify: 415)',
        status: 400,
        code: 'BAD_REQUEST',
        send: {
          method: 'POST',
          url: '/api/auth/login2',
          payload: 'a=b',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      },
      {
        name: 'broken JSON (400)',
        status: 400,
        code: 'BAD_REQUEST',
        send: {
          method: 'POST',
          url: '/api/auth/login2',
          payload: '{"username":',
          headers: { 'content-type': 'application/json' },
        },
      },
      {
        name: 'an unknown API path (404)',
        status: 404,
        code: 'NOT_FOUND',
        send: { method: 'GET', url: '/api/no-such-thing' },
      },
      {
        name: 'a method the path does not take (405)',
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        send: { method: 'DELETE', url: '/api/auth/login2' },
      },
      {
        name: 'a malformed URL escape',
        status: 400,
        code: 'BAD_REQUEST',
        send: { method: 'GET', url: '/api/admin/withdrawals/%E0%A4%A/approve' },
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const res = await call(app, {
          ...c.send,
          url: `${c.send.url}${c.send.url.includes('?') ? '&' : '?'}lang=pt`,
        });
        expect(res.status).toBe(c.status);
        expect(res.body.status).toBe('fail');
        expect(res.body.code).toBe(c.code);
        expect(res.body.data).toBeNull();
        expect(res.body.message).toMatch(/\p{L}/u);
        expect(res.body.message).not.toMatch(/FST_|Bad Request|Not Found/);
      });
    }
  });
});
