import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { HOUSE_PLATFORM, translate } from '@sorte/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import { htmlPage } from '../http/html-page.ts';
import { type TSiteBootstrap, withSiteBootstrap } from '../http/site-bootstrap.ts';
import { findGame } from '../modules/games/games.repo.ts';
import { listGames } from '../modules/games/games.service.ts';
import { findBanners } from '../modules/sites/sites.repo.ts';
import { getSiteData, languageList } from '../modules/sites/sites.service.ts';

/** Paths that never fall back to the SPA: the API, generated media and the back office. */
const NO_FALLBACK = /^\/(api|media|admin)(\/|$|\?)/;

function wantsHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (NO_FALLBACK.test(request.url)) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/** Files that must be revalidated on every load so a new deploy is picked up at once. */
function isEntryFile(path: string): boolean {
  return /(^|[\\/])(index\.html|service-worker\.js|sw\.js|manifest\.webmanifest|registerSW\.js)$/.test(path);
}

/** The page's place in index.html's skeleton (apps/web/index.html), inside the layout's <main>. */
const SKELETON_CONTENT = '<div class="carousel carousel--skeleton"></div>';
/** The whole skeleton: the layout (header, content, bottom bar) a full-screen page does not have. */
const SKELETON_ROOT = /<div id="root">[\s\S]*?<\/nav><\/div><\/div>/;

/** Escapes a value for a double-quoted HTML attribute. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * What index.html's skeleton paints for one page before any script runs: the page's largest
 * artwork, at the exact URLs of the <img> elements the app renders (so each image is fetched once
 * and the app's first render finds it in memory). `images` are announced in the head; `content`
 * takes the skeleton's page content, or with `fullScreen` the whole layout (a game's own page).
 */
export interface TSkeletonPaint {
  images: string[];
  content: string;
  fullScreen?: boolean;
}

/**
 * index.html with the page's first paint in it. Without this the browser finds the page's
 * largest image only after the app's JavaScript has run and asked the API for the data, which is
 * most of a phone's time to the largest paint. React replaces the skeleton on its first render.
 * Without a paint (or when the database does not answer) the page is served as built.
 */
export function withSkeletonPaint(html: string, paint: TSkeletonPaint | undefined): string {
  if (!paint) return html;
  html = paint.fullScreen
    ? html.replace(SKELETON_ROOT, `<div id="root">${paint.content}</div>`)
    : html.replace(SKELETON_CONTENT, paint.content);
  const links = paint.images
    .map((image) => `<link rel="preload" as="image" href="${attribute(image)}" fetchpriority="high" />`)
    .join('\n    ');
  if (!links) return html;
  const at = html.indexOf('</title>');
  if (at >= 0) return `${html.slice(0, at + 8)}\n    ${links}${html.slice(at + 8)}`;
  const head = html.indexOf('</head>');
  if (head >= 0) return `${html.slice(0, head)}${links}${html.slice(head)}`;
  return html;
}

/** One landing page's lazy chunks and their stylesheets, as the web build lists them. */
export interface TPagePreloads {
  scripts: readonly string[];
  styles: readonly string[];
}
/** The landing pages the web build lists (apps/web/vite.config.ts, `landing-preloads.json`). */
export type TLandingPage = 'home' | 'lobby' | 'game';

/** Reads the web build's list of each landing page's chunks; an older build without it has none. */
export function readLandingPreloads(root: string): Partial<Record<TLandingPage, TPagePreloads>> {
  const file = join(root, 'landing-preloads.json');
  if (!existsSync(file)) return {};
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  return typeof parsed === 'object' && parsed !== null ? parsed : {};
}

/**
 * The page's own chunks announced at the end of the head, after the entry script's: the browser
 * fetches them while the entry downloads. Only the page being served: another page's code is not
 * downloaded and parsed on this one. Stylesheets are fetched early but not render-blocking (the
 * chunk applies them when it runs).
 */
export function withPreloads(html: string, preloads: TPagePreloads | undefined): string {
  if (!preloads) return html;
  const links = [
    ...preloads.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${attribute(href)}">`),
    ...preloads.styles.map((href) => `<link rel="preload" as="style" crossorigin href="${attribute(href)}">`),
  ];
  const head = html.indexOf('</head>');
  if (links.length === 0 || head < 0) return html;
  return `${html.slice(0, head)}  ${links.join('\n    ')}\n  ${html.slice(head)}`;
}

/** One skeleton image (decoded off the main thread; the first ones the browser asks for first). */
function skeletonImage(src: string, extra = ''): string {
  return `<img src="${attribute(src)}" alt="" decoding="async"${extra} />`;
}

/** The home page: the site's first banner, the carousel's first slide. */
export function homePaint(banner: string | undefined): TSkeletonPaint | undefined {
  if (!banner) return undefined;
  return {
    images: [banner],
    content: `<div class="carousel carousel--skeleton">${skeletonImage(banner, ' fetchpriority="high"')}</div>`,
  };
}

/** How many of the lobby's first games the skeleton paints (a phone's first screens, a desktop's two rows). */
export const LOBBY_SKELETON_TILES = 12;
/**
 * How many of them are announced in the head (a phone's first row): the largest paint is the first
 * tile that arrives, and more announcements would share a slow network with it.
 */
export const LOBBY_PRELOADED_TILES = 3;
/** The lobby's first page (apps/web/src/features/lobby/components/lobby-page.tsx, PAGE_SIZE). */
export const LOBBY_PAGE_SIZE = 24;

/** Query parameters that change which games the lobby lists (its URL keeps the player's choices). */
const LOBBY_FILTERS = new Set(['category', 'provider', 'platType', 'tag', 'name', 'page']);

/** The lobby (/game): the first games' artwork in the grid the lobby draws them in. */
export function lobbyPaint(thumbnails: readonly string[]): TSkeletonPaint | undefined {
  const first = thumbnails.slice(0, LOBBY_SKELETON_TILES);
  if (first.length === 0) return undefined;
  return {
    images: first.slice(0, LOBBY_PRELOADED_TILES),
    content: `<div class="skeleton-tiles">${first.map((src) => skeletonImage(src, ' width="160" height="160"')).join('')}</div>`,
  };
}

/** An in-house game's page (/originals/<code>): its bar and its wide artwork where the board comes. */
export function gamePaint(banner: string | undefined): TSkeletonPaint | undefined {
  if (!banner) return undefined;
  return {
    images: [banner],
    fullScreen: true,
    content: `<div class="skeleton-game" aria-hidden="true"><div class="skeleton-game__bar"></div>${skeletonImage(banner, ' width="640" height="280" fetchpriority="high"')}</div>`,
  };
}

/**
 * Serves the built player app (apps/web/dist) when it exists, with the history-mode fallback: any
 * unknown GET that asks for HTML outside /api, /media and /admin gets index.html. Hashed assets are
 * immutable; the entry files are no-cache. Everything else unknown is a NOT_FOUND envelope.
 */
const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const staticWebPlugin = fp(
  async (app: FastifyInstance, options: { root: string }) => {
    const built = existsSync(join(options.root, 'index.html'));
    let fallbackPage: ((request: FastifyRequest) => Promise<string>) | undefined;
    if (built) {
      const indexHtml = readFileSync(join(options.root, 'index.html'), 'utf8');
      const preloads = readLandingPreloads(options.root);
      // Every page the app is served as knows its site before any script runs. A database that
      // does not answer leaves the page as built: the app then asks for the site data itself.
      const bootstrapOf = async (request: FastifyRequest): Promise<TSiteBootstrap | undefined> => {
        try {
          const site = await getSiteData(app.services.db, request.site, app.services.captcha.required);
          return { site, languages: languageList(request.site) };
        } catch (error) {
          request.log.warn({ err: error }, 'page served without its site bootstrap');
          return undefined;
        }
      };
      const appPage = async (request: FastifyRequest, paint?: TSkeletonPaint, landing?: TLandingPage) =>
        withSiteBootstrap(
          withPreloads(withSkeletonPaint(indexHtml, paint), landing ? preloads[landing] : undefined),
          await bootstrapOf(request),
        );
      fallbackPage = (request) => appPage(request);
      // The pages a player lands on, with their largest artwork painted early (the static files
      // below serve the rest). A database that does not answer leaves the page as built.
      const withPaint =
        (
          landing: TLandingPage,
          paintOf: (request: FastifyRequest) => Promise<TSkeletonPaint | undefined>,
          htmlOnly = true,
        ) =>
        async (request: FastifyRequest, reply: FastifyReply) => {
          // Like the history fallback below: a client that does not ask for HTML gets no page.
          if (htmlOnly && !wantsHtml(request)) throw new AppError('NOT_FOUND');
          let paint: TSkeletonPaint | undefined;
          try {
            paint = await paintOf(request);
          } catch (error) {
            request.log.warn({ err: error }, 'page served without its early paint');
          }
          return reply
            .header('cache-control', 'no-cache')
            .type('text/html; charset=utf-8')
            .send(await appPage(request, paint, landing));
        };
      const home = withPaint(
        'home',
        async (request) => homePaint((await findBanners(app.services.db, request.site.id))[0]?.image),
        false,
      );
      app.get('/', home);
      app.get('/index.html', home);
      // The lobby's first page: the query and order GET /api/games/listsv2 answers the app with.
      app.get(
        '/game',
        withPaint('lobby', async (request) => {
          // A category, provider, tag, search or later page is another list: the app draws it.
          if (Object.keys(request.query as object).some((key) => LOBBY_FILTERS.has(key))) return undefined;
          const page = await listGames(app.services.db, request.site.id, {
            lang: request.lang,
            page: 1,
            page_size: LOBBY_PAGE_SIZE,
          });
          return lobbyPaint(page.list.map((game) => game.thumbnail));
        }),
      );
      app.get<{ Params: { code: string } }>(
        '/originals/:code',
        withPaint('game', async (request) => {
          const { code } = request.params as { code: string };
          const game = await findGame(app.services.db, request.site.id, {
            name: code,
            providerCode: HOUSE_PLATFORM,
          });
          // The rules card's artwork (original-game-page.tsx): the same URL.
          return gamePaint(game?.code === code ? `/media/games/${code}-banner.svg` : undefined);
        }),
      );
      await app.register(fastifyStatic, {
        root: options.root,
        prefix: '/',
        wildcard: true,
        index: ['index.html'],
        // The build's own records (.vite/manifest.json names every source module) are not the site's.
        dotfiles: 'ignore',
        cacheControl: false,
        setHeaders: (res, path) => {
          if (isEntryFile(path)) res.header('cache-control', 'no-cache');
          else if (/[\\/]assets[\\/]/.test(path))
            res.header('cache-control', 'public, max-age=31536000, immutable');
          else res.header('cache-control', 'public, max-age=3600');
        },
      });
    }

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0]!;
      if (path.startsWith('/api/')) {
        // A path that exists under another method is a 405 naming the ones it takes.
        // (The web app's catch-all static route, a `*` wildcard, names no API path.)
        const allow = ROUTE_METHODS.filter((method) => {
          const found = app.findRoute({ method, url: path });
          return found !== null && !('*' in (found.params ?? {}));
        });
        if (allow.length > 0)
          throw new AppError('METHOD_NOT_ALLOWED', { headers: { allow: allow.join(', ') } });
      }
      if (!wantsHtml(request)) throw new AppError('NOT_FOUND');
      if (fallbackPage)
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(await fallbackPage(request));
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          // The operator's log says why (see server.ts); the player gets a translated notice.
          htmlPage(request.lang, request.site.name, translate(request.lang, 'messages.app_unavailable')),
        );
    });
  },
  { name: 'static-web' },
);
