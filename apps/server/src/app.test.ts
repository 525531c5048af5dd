import { describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { testConfig } from './config.ts';
import type { Database } from './db/client.ts';

/** A database whose every query fails, as when the server loses its connection. */
function brokenDatabase(): Database {
  const failing: unknown = new Proxy(() => undefined, {
    get: () => failing,
    apply: () => {
      throw new Error('connection terminated: secret-host:5432 password=hunter2');
    },
  });
  return {
    db: failing as Database['db'],
    readDb: failing as Database['db'],
    kind: 'postgres',
    exec: async () => undefined,
    close: async () => undefined,
  };
}

describe('unexpected failures', () => {
  it('answer 500 INTERNAL with a generic translated message and no details', async () => {
    const app = await buildApp({ config: testConfig(), database: brokenDatabase() });
    const response = await app.inject({
      method: 'GET',
      url: '/api/dynamicwebs/getdata?lang=pt',
      headers: { host: 'localhost' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      status: 'fail',
      code: 'INTERNAL',
      message: 'Erro de rede, tente novamente mais tarde',
      data: null,
    });
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('secret-host');
    await app.close();
  });
});
