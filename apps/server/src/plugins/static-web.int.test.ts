import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS } from '../../test/app.ts';
import { databaseKinds } from '../../test/databases.ts';
import { rowsOf } from '../db/sql.ts';
import { withSiteBootstrap } from '../http/site-bootstrap.ts';
import { LOBBY_SKELETON_TILES } from './static-web.ts';

const kinds = await databaseKinds();

/** The player app's own index.html (its skeleton is what the server paints into). */
const INDEX_HTML = readFileSync(join(import.meta.dirname, '../../../web/index.html'), 'utf8');

function imagesIn(html: string, container: string): string[] {
  const start = html.indexOf(`<div class="${container}"`);
  if (start < 0) return [];
  // The skeleton is the body's first part; nothing after it is an image.
  return [...html.slice(start, html.indexOf('</body>')).matchAll(/<img src="([^"]+)"/g)].map(
    (match) => match[1]!,
  );
}

function preloads(html: string): string[] {
  return [...html.matchAll(/<link rel="preload" as="image" href="([^"]+)"/g)].map((match) => match[1]!);
}

/** The site bootstrap the app reads before its first render (the element's JSON). */
function bootstrapIn(html: string) {
  const match = /<script id="site-bootstrap" type="application\/json">([^<]*)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!) : null;
}

/** index.html as built, with only its site's bootstrap: no early paint, no preloads. */
const asBuilt = (html: string) => withSiteBootstrap(INDEX_HTML, bootstrapIn(html));

describe.each(kinds)('the pages a player lands on paint their artwork before any script, on %s', (kind) => {
  let app: FastifyInstance;
  const page = async (url: string, host: string = HOSTS.intl, accept = 'text/html') => {
    const response = await app.inject({ method: 'GET', url, headers: { host, accept } });
    return { status: response.statusCode, html: response.body, type: response.headers['content-type'] };
  };

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'sorte-static-web-'));
    writeFileSync(join(root, 'index.html'), INDEX_HTML);
    app = await buildTestApp(kind, { WEB_DIST: root });
    // The br site's own catalogue: keno hidden, bingo first (as the games catalogue test sets it).
    const db = app.services.db;
    const [site] = await rowsOf<{ id: string }>(db, sql`SELECT id FROM sites WHERE code = 'sorte-br'`);
    const [keno] = await rowsOf<{ id: string }>(db, sql`SELECT id FROM games WHERE code = 'keno'`);
    const [bingo] = await rowsOf<{ id: string }>(db, sql`SELECT id FROM games WHERE code = 'bingo'`);
    await db.execute(sql`INSERT INTO site_games (site_id, game_id, enabled) VALUES (${site!.id}, ${keno!.id}, false)
      ON CONFLICT (site_id, game_id) DO UPDATE SET enabled = false`);
    await db.execute(sql`INSERT INTO site_games (site_id, game_id, enabled, position) VALUES (${site!.id}, ${bingo!.id}, true, -1)
      ON CONFLICT (site_id, game_id) DO UPDATE SET position = -1`);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('home: the first banner is announced and painted in the skeleton', async () => {
    const { status, html } = await page('/');
    expect(status).toBe(200);
    const banners = imagesIn(html, 'carousel carousel--skeleton');
    expect(banners).toHaveLength(1);
    expect(preloads(html)).toEqual(banners);
  });

  it.each([
    ['intl', HOSTS.intl],
    ['br', HOSTS.br],
  ])(
    "/game on %s: the lobby's first tiles, the exact images and order of the app's first page",
    async (_site, host) => {
      const { status, html, type } = await page('/game', host);
      expect(status).toBe(200);
      expect(type).toContain('text/html');
      const list = await call(app, { method: 'GET', url: '/api/games/listsv2?page_size=24', host });
      const thumbnails: string[] = list.body.data.list.map((game: { thumbnail: string }) => game.thumbnail);
      const painted = imagesIn(html, 'skeleton-tiles');
      expect(painted).toEqual(thumbnails.slice(0, LOBBY_SKELETON_TILES));
      // The first ones are fetched first; every announced image is one the lobby shows.
      expect(preloads(html).length).toBeGreaterThan(0);
      for (const image of preloads(html)) expect(painted).toContain(image);
      // The layout's header and bottom bar stay (the lobby is inside it).
      expect(html).toContain('<header class="header">');
    },
  );

  it("/game follows the site's own catalogue (site_games)", async () => {
    const br = imagesIn((await page('/game', HOSTS.br)).html, 'skeleton-tiles');
    expect(br[0]).toMatch(/\/bingo\.svg$/);
    expect(br.some((image) => /\/keno\.svg$/.test(image))).toBe(false);
    const intl = imagesIn((await page('/game')).html, 'skeleton-tiles');
    expect(intl.some((image) => /\/keno\.svg$/.test(image))).toBe(true);
  });

  it('/game with a category, search or page is another list: served without a paint', async () => {
    for (const url of [
      '/game?category=slots',
      '/game?name=dice',
      '/game?page=2',
      '/game?category=favorites',
    ]) {
      const { status, html } = await page(url);
      expect(status).toBe(200);
      expect(html).toBe(asBuilt(html));
      expect(bootstrapIn(html)).not.toBeNull();
    }
  });

  it("an in-house game's page paints its wide artwork in place of the layout", async () => {
    const { status, html } = await page('/originals/dice?mode=demo');
    expect(status).toBe(200);
    expect(imagesIn(html, 'skeleton-game')).toEqual(['/media/games/dice-banner.svg']);
    expect(preloads(html)).toEqual(['/media/games/dice-banner.svg']);
    expect(html).not.toContain('<header class="header">');
    const art = await app.inject({ url: '/media/games/dice-banner.svg', headers: { host: HOSTS.intl } });
    expect(art.statusCode).toBe(200);
  });

  it('a game the site hides, or no game at all, gets the page without a paint', async () => {
    const hidden = (await page('/originals/keno', HOSTS.br)).html;
    expect(hidden).toBe(asBuilt(hidden));
    const nothing = (await page('/originals/nothing')).html;
    expect(nothing).toBe(asBuilt(nothing));
    expect(imagesIn((await page('/originals/keno')).html, 'skeleton-game')).toEqual([
      '/media/games/keno-banner.svg',
    ]);
  });

  it.each(['/', '/game', '/recharge', '/originals/dice'])(
    "%s on br: the site's brand, language, theme and data are in the page before any script",
    async (url) => {
      const { status, html } = await page(url, HOSTS.br);
      expect(status).toBe(200);
      const site = (await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata', host: HOSTS.br })).body
        .data;
      const languages = (await call(app, { method: 'GET', url: '/api/language/getList', host: HOSTS.br }))
        .body.data;
      expect(bootstrapIn(html)).toEqual({ site, languages });
      expect(site.site).toBe('sorte-br');
      expect(html).toContain(`<html lang="pt-BR"`);
      expect(html).toContain(`<title>${site.name}</title>`);
      const [name, value] = Object.entries(site.theme as Record<string, string>)[0]!;
      expect(html).toMatch(new RegExp(`<html[^>]* style="[^"]*${name}:${value.replace(/[()#.]/g, '\\$&')}`));
      // The bootstrap sits before the entry script, so the app reads it on its first line.
      expect(html.indexOf('id="site-bootstrap"')).toBeLessThan(html.indexOf('<script type="module"'));
    },
  );

  it("each host gets its own site's bootstrap", async () => {
    const intl = bootstrapIn((await page('/recharge', HOSTS.intl)).html);
    const br = bootstrapIn((await page('/recharge', HOSTS.br)).html);
    expect(intl.site.site).not.toBe(br.site.site);
    expect(intl.site.jurisdiction).toBe('intl');
    expect(br.site.jurisdiction).toBe('br');
  });

  it('a client that does not ask for HTML gets the not-found envelope', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/game',
      headers: { host: HOSTS.intl, accept: 'application/json' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 'fail', code: 'NOT_FOUND' });
  });
});

describe.each(kinds)(
  "each landing page announces only its own chunks (the web build's list), on %s",
  (kind) => {
    let app: FastifyInstance;
    const LIST = {
      home: {
        scripts: ['/assets/home-route-1.js', '/assets/game-tile-2.js'],
        styles: ['/assets/games-3.css'],
      },
      lobby: {
        scripts: ['/assets/games-route-4.js', '/assets/game-tile-2.js'],
        styles: ['/assets/games-3.css'],
      },
      game: { scripts: ['/assets/original-game-page-5.js'], styles: ['/assets/play-6.css'] },
    };
    const announced = async (url: string) => {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { host: HOSTS.intl, accept: 'text/html' },
      });
      expect(response.statusCode).toBe(200);
      return [
        ...response.body.matchAll(
          /<link rel="(?:modulepreload|preload" as="style)" crossorigin href="([^"]+)"/g,
        ),
      ].map((match) => match[1]!);
    };

    beforeAll(async () => {
      const root = mkdtempSync(join(tmpdir(), 'sorte-static-web-preloads-'));
      writeFileSync(join(root, 'index.html'), INDEX_HTML);
      writeFileSync(join(root, 'landing-preloads.json'), JSON.stringify(LIST));
      app = await buildTestApp(kind, { WEB_DIST: root });
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    it('home, the lobby (with or without filters) and a game page each get their own', async () => {
      expect(await announced('/')).toEqual([...LIST.home.scripts, ...LIST.home.styles]);
      expect(await announced('/game')).toEqual([...LIST.lobby.scripts, ...LIST.lobby.styles]);
      expect(await announced('/game?category=slots')).toEqual([...LIST.lobby.scripts, ...LIST.lobby.styles]);
      expect(await announced('/originals/dice?mode=demo')).toEqual([
        ...LIST.game.scripts,
        ...LIST.game.styles,
      ]);
    });

    it("another page (the history fallback) announces none: it does not download the home's code", async () => {
      expect(await announced('/recharge')).toEqual([]);
    });
  },
);
