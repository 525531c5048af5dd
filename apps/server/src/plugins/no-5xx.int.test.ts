import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, loginOperator } from '../../test/app.ts';
import { databaseKinds } from '../../test/databases.ts';
import { newPlayer } from '../modules/deposits/money.fixtures.ts';

/**
 * The property behind fault 1 of the hardening issue, over the whole API: whatever string an
 * outsider puts in any path parameter, query parameter or body field of any operation the server
 * publishes (its OpenAPI document), the answer is never a 5xx. Strings are drawn from arbitrary
 * Unicode (NUL and lone surrogates included), numbers and money written every odd way, SQL and
 * path tricks, and text far over every limit.
 */

const kinds = await databaseKinds();

type TParameter = { in: string; name: string };
type TOperation = {
  parameters?: TParameter[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
};
type TDocument = { paths: Record<string, Record<string, TOperation>> };

const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '%00',
  '%',
  "' OR '1'='1",
  '1; DROP TABLE members--',
  '../../etc/passwd',
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  '0x1F',
  'NaN',
  '1.005',
  '1,00',
  'R$ 1.234,56',
  'null',
  '{}',
  'A'.repeat(5_000),
  '🎰'.repeat(300),
];
const anyString = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer().map(String),
  fc.double().map(String),
);

/** Operations that would end the test's own sessions or start slow outside work. */
const SKIP = new Set(['POST /api/auth/logout', 'POST /api/admin/auth/logout']);

describe.each(kinds)('no string anywhere in the contract gives a 5xx, on %s', (kind) => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let tokens: Record<'guest' | 'player' | 'operator', string | undefined>;
  let operations: { method: string; path: string; operation: TOperation }[];
  beforeAll(async () => {
    app = await buildTestApp(kind);
    tokens = { guest: undefined, player: (await newPlayer(app)).token, operator: await loginOperator(app) };
    const document = app.swagger() as unknown as TDocument;
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation }))
        .filter((o) => o.path.startsWith('/api/') && !SKIP.has(`${o.method} ${o.path}`)),
    );
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('publishes the operations this property walks, with their fields', () => {
    expect(operations.length).toBeGreaterThan(40);
    const drawing = operations.find((o) => o.path === '/api/drawing' && o.method === 'POST');
    const fields = Object.keys(
      drawing?.operation.requestBody?.content?.['application/json']?.schema?.properties ?? {},
    );
    expect(fields).toEqual(expect.arrayContaining(['money', 'member_bank_id', 'qk_pwd']));
    const games = operations.find((o) => o.path === '/api/games/listsv2');
    expect(games?.operation.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['name', 'provider']),
    );
    const approve = operations.find((o) => o.path.endsWith('/approve'));
    expect(approve?.operation.parameters?.some((p) => p.in === 'path')).toBe(true);
  });

  it('answers every operation with strings in every field without a 5xx', async () => {
    const failures: string[] = [];
    for (const { method, path, operation } of operations) {
      const pathNames = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      const queryNames = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const bodyNames = Object.keys(
        operation.requestBody?.content?.['application/json']?.schema?.properties ?? {},
      );
      const strings = (names: string[]) => fc.record(Object.fromEntries(names.map((n) => [n, anyString])));
      await fc
        .assert(
          fc.asyncProperty(
            strings(pathNames),
            strings(queryNames),
            strings(bodyNames),
            fc.constantFrom('guest', 'player', 'operator' as const),
            async (params, query, body, who) => {
              let url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
                encodeURIComponent(params[name] ?? 'x'),
              );
              const search = new URLSearchParams(query as Record<string, string>).toString();
              if (search) url += `?${search}`;
              const res = await call(app, {
                method: method as 'GET',
                url,
                token: tokens[who as keyof typeof tokens],
                ...(method === 'GET' || method === 'DELETE' ? {} : { payload: body }),
              });
              if (res.status >= 500)
                failures.push(`${method} ${url} ${JSON.stringify(body)} → ${res.status}`);
              return res.status < 500 && res.body.status === (res.status < 300 ? 'success' : 'fail');
            },
          ),
          { numRuns: 25, seed: 20261125 },
        )
        .catch((error: unknown) => failures.push(`${method} ${path}: ${String(error).slice(0, 600)}`));
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
