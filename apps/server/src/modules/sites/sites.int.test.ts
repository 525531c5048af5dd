import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LANGUAGES } from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';

const kinds = await databaseKinds();

/** A stand-in for apps/web/dist: an index page, a service worker and a hashed asset. */
function fakeWebDist(): string {
  const root = mkdtempSync(join(tmpdir(), 'sorte-web-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><title>Sorte</title><meta name="generator" content="Sorte SPA"><div id="root"><div class="carousel carousel--skeleton"></div></div>',
  );
  writeFileSync(join(root, 'service-worker.js'), 'self.addEventListener("install", () => {});');
  writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log("app");'.repeat(200));
  mkdirSync(join(root, '.vite'));
  writeFileSync(join(root, '.vite', 'manifest.json'), '{"src/main.tsx":{"file":"assets/index-abc123.js"}}');
  return root;
}

describe.each(kinds)('sites, languages, media and the web app on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind, { WEB_DIST: fakeWebDist() });
  });
  afterAll(async () => {
    await app.close();
  });

  describe('site resolution', () => {
    it('maps localhost and 127.0.0.1 (any port, any case) to sorte and br.localhost to sorte-br', async () => {
      for (const host of ['localhost', 'LOCALHOST:3000', '127.0.0.1:8080', 'localhost.']) {
        const { body } = await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata', host });
        expect(body.data.site, host).toBe('sorte');
      }
      const br = await call(app, {
        method: 'GET',
        url: '/api/dynamicwebs/getdata',
        host: 'br.localhost:3000',
      });
      expect(br.body.data).toMatchObject({ site: 'sorte-br', jurisdiction: 'br', default_lang: 'pt' });
    });

    it('answers an unknown host with UNKNOWN_SITE on the API and an HTML page for browsers', async () => {
      for (const host of [
        'evil.example',
        'x'.repeat(300),
        'bad host!',
        'localhost.evil.example',
        '[::1]:3000',
      ]) {
        const api = await call(app, { method: 'GET', url: '/api/language/getList', host });
        expect(api.status).toBe(404);
        expect(api.body).toMatchObject({ status: 'fail', code: 'UNKNOWN_SITE' });
      }
      const page = await app.inject({
        method: 'GET',
        url: '/profile?lang=pt',
        headers: { host: 'evil.example', accept: 'text/html' },
      });
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('Site não encontrado');
    });

    it('still answers the health check without a site', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/healthz',
        headers: { host: 'anything.example' },
      });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('GET /api/dynamicwebs/getdata', () => {
    it('returns name, logo, theme, languages, banners with per-language titles, categories and limits', async () => {
      const { status, body, headers } = await call(app, {
        method: 'GET',
        url: '/api/dynamicwebs/getdata?lang=en',
      });
      expect(status).toBe(200);
      expect(headers['cache-control']).toBe('no-store');
      const data = body.data;
      expect(data).toMatchObject({
        site: 'sorte',
        name: 'Sorte',
        jurisdiction: 'intl',
        currency: 'BRL',
        default_lang: 'en',
        min_age: 18,
        captcha_required: true,
        background_video: null,
        logo: '/media/sites/sorte/logo.svg',
      });
      expect([...data.languages].sort()).toEqual([...LANGUAGES].sort());
      expect(data.categories).toEqual([
        'slots',
        'live',
        'arcade',
        'crash',
        'fish',
        'bingo',
        'card',
        'lottery',
        'sports',
        'video',
      ]);
      expect(data.theme['--color-accent']).toMatch(/^#/);
      expect(data.banners.length).toBeGreaterThan(0);
      for (const banner of data.banners)
        expect(Object.keys(banner.title).sort()).toEqual([...LANGUAGES].sort());
      const br = await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata', host: HOSTS.br });
      expect(br.body.data.theme['--color-accent']).not.toBe(data.theme['--color-accent']);
    });
  });

  describe('GET /api/language/getList', () => {
    it("lists the site's languages with names and flags, the default first", async () => {
      const intl = await call(app, { method: 'GET', url: '/api/language/getList?lang=en&domain=localhost' });
      expect(intl.body.data).toHaveLength(8);
      expect(intl.body.data[0]).toEqual({
        language_flag_link: '/media/flags/en.svg',
        language_name: 'English',
        language_code: 'en',
      });
      const br = await call(app, { method: 'GET', url: '/api/language/getList', host: HOSTS.br });
      expect(br.body.data[0].language_code).toBe('pt');
      expect(br.body.data.map((entry: { language_code: string }) => entry.language_code)).toContain('msa');
    });

    it('refuses a domain of another or no site', async () => {
      for (const domain of ['br.localhost', 'nowhere.example']) {
        const { status, body } = await call(app, {
          method: 'GET',
          url: `/api/language/getList?domain=${domain}`,
        });
        expect(status).toBe(404);
        expect(body.code).toBe('UNKNOWN_SITE');
      }
      const tooLong = await call(app, {
        method: 'GET',
        url: `/api/language/getList?domain=${'a'.repeat(300)}`,
      });
      expect(tooLong.status).toBe(422);
    });
  });

  describe('GET /api/socialmedialinks/get', () => {
    it("returns the site's links with icons, and only its own", async () => {
      const { body } = await call(app, { method: 'GET', url: '/api/socialmedialinks/get?site=sorte' });
      const names = body.data.map((link: { name: string }) => link.name);
      expect(names).toEqual(expect.arrayContaining(['telegram', 'instagram', 'whatsapp', 'youtube']));
      expect(body.data[0].icon).toMatch(/^\/media\/social\/\w+\.svg$/);
      const br = await call(app, { method: 'GET', url: '/api/socialmedialinks/get', host: HOSTS.br });
      expect(br.body.data[0].url).not.toBe(body.data[0].url);
      const other = await call(app, { method: 'GET', url: '/api/socialmedialinks/get?site=sorte-br' });
      expect(other.body.code).toBe('UNKNOWN_SITE');
    });
  });

  describe('media', () => {
    it('serves every referenced image as SVG', async () => {
      const site = (await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata' })).body.data;
      const links = (await call(app, { method: 'GET', url: '/api/socialmedialinks/get' })).body.data;
      const languages = (await call(app, { method: 'GET', url: '/api/language/getList' })).body.data;
      const pictures = (await call(app, { method: 'GET', url: '/api/profilepictures' })).body.data;
      const urls = [
        site.logo,
        site.favicon,
        ...site.banners.map((banner: { image: string }) => banner.image),
        ...links.map((link: { icon: string }) => link.icon),
        ...languages.map((entry: { language_flag_link: string }) => entry.language_flag_link),
        ...[...pictures.male, ...pictures.female].map((picture: { url: string }) => picture.url),
      ];
      for (const url of urls) {
        const response = await app.inject({ method: 'GET', url, headers: { host: HOSTS.intl } });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-type']).toContain('image/svg+xml');
        expect(response.body).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
        expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
      }
    });

    it('answers unknown media with a NOT_FOUND envelope', async () => {
      for (const url of [
        '/media/avatars/male-99.svg',
        '/media/flags/xx.svg',
        '/media/sites/nope/logo.svg',
        '/media/social/../x.svg',
      ]) {
        const response = await call(app, { method: 'GET', url, headers: { accept: 'text/html' } });
        expect(response.status, url).toBe(404);
        expect(response.body.code).toBe('NOT_FOUND');
      }
    });
  });

  describe('the web app and HTTP behaviour', () => {
    it('serves index.html for history routes, never for /api, /media or /admin (the back office)', async () => {
      for (const url of ['/', '/profile', '/promotion/activity/lottery-wheel', '/login?x=1']) {
        const response = await app.inject({
          method: 'GET',
          url,
          headers: { host: HOSTS.intl, accept: 'text/html' },
        });
        expect(response.statusCode, url).toBe(200);
        expect(response.body).toContain('Sorte SPA');
        expect(response.headers['cache-control']).toBe('no-cache');
      }
      // /admin/… is the back office's own app (apps/admin/dist; 503 page when not built), never this one.
      const backOffice = await app.inject({
        method: 'GET',
        url: '/admin/users',
        headers: { host: HOSTS.intl, accept: 'text/html' },
      });
      expect([200, 503]).toContain(backOffice.statusCode);
      expect(backOffice.body).not.toContain('Sorte SPA');
      for (const url of ['/api/nope', '/media/nope']) {
        const response = await app.inject({
          method: 'GET',
          url,
          headers: { host: HOSTS.intl, accept: 'text/html' },
        });
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toMatchObject({ status: 'fail', code: 'NOT_FOUND' });
      }
      const post = await app.inject({
        method: 'POST',
        url: '/profile',
        headers: { host: HOSTS.intl, accept: 'text/html' },
      });
      expect(post.statusCode).toBe(404);
    });

    it("announces the site's first banner in the home page's head (its largest paint), and only there", async () => {
      for (const host of [HOSTS.intl, HOSTS.br]) {
        const site = await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata', host });
        const first = site.body.data.banners[0].image as string;
        for (const url of ['/', '/index.html']) {
          const home = await app.inject({ method: 'GET', url, headers: { host, accept: 'text/html' } });
          expect(home.statusCode, url).toBe(200);
          expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(home.headers['cache-control']).toBe('no-cache');
          expect(home.body).toContain('Sorte SPA');
          expect(home.body).toContain(
            `<link rel="preload" as="image" href="${first}" fetchpriority="high" />`,
          );
          expect(home.body.match(/rel="preload"/g)).toHaveLength(1);
          // The skeleton painted before any script runs shows the banner itself.
          expect(home.body).toContain(
            `<div class="carousel carousel--skeleton"><img src="${first}" alt="" decoding="async" fetchpriority="high" /></div>`,
          );
        }
      }
      const other = await app.inject({
        method: 'GET',
        url: '/profile',
        headers: { host: HOSTS.intl, accept: 'text/html' },
      });
      expect(other.body).not.toContain('rel="preload"');
      expect(other.body).toContain('<div class="carousel carousel--skeleton"></div>');
    });

    it('caches hashed assets forever and revalidates the service worker', async () => {
      const asset = await app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { host: HOSTS.intl },
      });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const worker = await app.inject({
        method: 'GET',
        url: '/service-worker.js',
        headers: { host: HOSTS.intl },
      });
      expect(worker.headers['cache-control']).toBe('no-cache');
      const compressed = await app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { host: HOSTS.intl, 'accept-encoding': 'gzip' },
      });
      expect(compressed.headers['content-encoding']).toBe('gzip');
    });

    it("never serves the build's own records (dot folders such as .vite, which name the source files)", async () => {
      const manifest = await app.inject({
        method: 'GET',
        url: '/.vite/manifest.json',
        headers: { host: HOSTS.intl, accept: 'application/json' },
      });
      expect(manifest.statusCode).toBe(404);
      expect(manifest.body).not.toContain('src/main.tsx');
    });

    it('sends security headers, a CSP fit for the SPA and a request id', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/',
        headers: { host: HOSTS.intl, accept: 'text/html', 'x-request-id': 'trace-1234abcd' },
      });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-eval');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-request-id']).toBe('trace-1234abcd');
      const generated = await app.inject({
        method: 'GET',
        url: '/',
        headers: { host: HOSTS.intl, 'x-request-id': '<bad>' },
      });
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('publishes the OpenAPI document built from the contract schemas', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/docs/json',
        headers: { host: HOSTS.intl },
      });
      expect(response.statusCode).toBe(200);
      const paths = Object.keys(response.json().paths);
      for (const path of [
        '/api/auth/captcha',
        '/api/auth/register2',
        '/api/auth/login2',
        '/api/auth/me',
        '/api/auth/logout',
        '/api/language/getList',
        '/api/dynamicwebs/getdata',
        '/api/socialmedialinks/get',
        '/api/profilepictures',
        '/api/profilepictures/user',
        '/api/profilepictures/set',
        '/api/admin/auth/login',
        '/api/admin/members/force-offline',
      ]) {
        expect(paths).toContain(path);
      }
      const register = response.json().paths['/api/auth/register2'].post;
      expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(['200', '4XX']));
      expect(register.requestBody.content['application/json'].schema.properties.qk_pwd).toBeDefined();
      const ui = await app.inject({ method: 'GET', url: '/api/docs', headers: { host: HOSTS.intl } });
      expect(ui.statusCode).toBeLessThan(400);
    });

    it('refuses bad bodies and unknown API routes with envelopes, never 500', async () => {
      const player = await registerPlayer(app);
      const cases = [
        { payload: '{"picture_id": 1', type: 'application/json', status: 400, code: 'BAD_REQUEST' },
        {
          payload: 'picture_id=1',
          type: 'application/x-www-form-urlencoded',
          status: 400,
          code: 'BAD_REQUEST',
        },
        {
          payload: `{"picture_id": "${'9'.repeat(70_000)}"}`,
          type: 'application/json',
          status: 400,
          code: 'BAD_REQUEST',
        },
        { payload: '{"picture_id": "1"}', type: 'application/json', status: 422, code: 'VALIDATION_FAILED' },
        { payload: '{"__proto__": {"x": 1}}', type: 'application/json', status: 400, code: 'BAD_REQUEST' },
      ];
      for (const { payload, type, status, code } of cases) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/profilepictures/set',
          headers: { host: HOSTS.intl, 'content-type': type, authorization: `Bearer ${player.token}` },
          payload,
        });
        expect(response.statusCode, payload.slice(0, 30)).toBe(status);
        expect(response.json().code).toBe(code);
      }
      const wrongMethod = await call(app, { method: 'DELETE', url: '/api/auth/me' });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.body.code).toBe('METHOD_NOT_ALLOWED');
      expect(wrongMethod.headers.allow).toBe('POST');
      const unknown = await call(app, { method: 'GET', url: '/api/no-such-route' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('NOT_FOUND');
    });
  });
});

describe.each(kinds)('rate limits on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind, { AUTH_RATE_LIMIT_PER_MINUTE: 3 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('limits the auth routes per address with a translated RATE_LIMITED envelope', async () => {
    const ask = () =>
      call(app, { method: 'POST', url: '/api/auth/captcha?lang=pt', remoteAddress: '10.20.30.40' } as never);
    for (let i = 0; i < 3; i += 1) expect((await ask()).status).toBe(200);
    const limited = await ask();
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(limited.body.message).toMatch(/^Muitas solicitações/);
    // Other routes keep the general limit.
    expect((await call(app, { method: 'GET', url: '/api/language/getList' })).status).toBe(200);
  });
});
