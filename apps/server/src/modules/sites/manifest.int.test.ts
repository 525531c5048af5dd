import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, HOSTS } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';

const kinds = await databaseKinds();

describe.each(kinds)('the web app manifest on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  const manifest = async (host: string, query = '') => {
    const response = await app.inject({ url: `/manifest.webmanifest${query}`, headers: { host } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/manifest+json');
    return JSON.parse(response.body);
  };

  it("is the site's own, in the reader's language, with its page colour, shortcuts and screenshots", async () => {
    const sites = await app.services.db.execute('SELECT code, name, theme FROM sites ORDER BY id');
    const rows = (
      sites as unknown as { rows: { code: string; name: string; theme: Record<string, string> }[] }
    ).rows;
    const intl = rows.find((row) => row.code === 'sorte')!;
    const br = rows.find((row) => row.code === 'sorte-br')!;

    const pt = await manifest(HOSTS.br, '?lang=pt');
    expect(pt).toMatchObject({
      name: br.name,
      lang: 'pt-BR',
      theme_color: br.theme['--color-bg'],
      background_color: br.theme['--color-bg'],
      display: 'standalone',
    });
    expect(pt.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url.split('?')[0]])).toEqual([
      ['Depositar', '/recharge'],
      ['Jogos', '/game'],
      ['Crash', '/originals/crash'],
      ['Sacar', '/withdraw'],
    ]);
    expect(pt.screenshots.map((s: { form_factor: string }) => s.form_factor)).toEqual(['narrow', 'wide']);

    const en = await manifest(HOSTS.intl, '?lang=en');
    expect(en).toMatchObject({ name: intl.name, lang: 'en', theme_color: intl.theme['--color-bg'] });
    expect(en.shortcuts[0].name).toBe('Deposit');
    expect(en.description).not.toBe(pt.description);
    // Without ?lang the request's language decides (the site's default).
    expect((await manifest(HOSTS.intl)).lang).toBeTruthy();
  });
});
