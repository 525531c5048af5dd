import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { translate } from '@sorte/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import { htmlPage } from '../http/html-page.ts';
import { findBanners } from '../modules/sites/sites.repo.ts';

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

/** The banner's place in index.html's skeleton (apps/web/index.html). */
const SKELETON_BANNER = '<div class="carousel carousel--skeleton"></div>';

/** Escapes a value for a double-quoted HTML attribute. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * index.html for the home page with the site's first banner announced in the head: the banner is
 * the home page's largest paint, and without this the browser finds it only after the app's
 * JavaScript has run and asked for the site data. The link is the exact URL the carousel's first
 * <img> loads (eager, high priority), so the image is fetched once. Without banners (or when the
 * database does not answer) the page is served as built.
 */
export function withBannerPreload(html: string, image: string | undefined): string {
  if (!image) return html;
  const link = `<link rel="preload" as="image" href="${attribute(image)}" fetchpriority="high" />`;
  // The page's skeleton (painted before any script runs) shows the banner itself, so it paints as
  // soon as the image arrives; React replaces the skeleton with the carousel on its first render.
  html = html.replace(
    SKELETON_BANNER,
    `${SKELETON_BANNER.slice(0, -6)}<img src="${attribute(image)}" alt="" fetchpriority="high" decoding="async" /></div>`,
  );
  const at = html.indexOf('</title>');
  if (at >= 0) return `${html.slice(0, at + 8)}\n    ${link}${html.slice(at + 8)}`;
  const head = html.indexOf('</head>');
  if (head >= 0) return `${html.slice(0, head)}${link}${html.slice(head)}`;
  return html;
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
    if (built) {
      const indexHtml = readFileSync(join(options.root, 'index.html'), 'utf8');
      // The home page, with its banner announced early (the static files below serve the rest).
      const home = async (request: FastifyRequest, reply: FastifyReply) => {
        let image: string | undefined;
        try {
          image = (await findBanners(app.services.db, request.site.id))[0]?.image;
        } catch (error) {
          request.log.warn({ err: error }, 'home page served without the banner preload');
        }
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(withBannerPreload(indexHtml, image));
      };
      app.get('/', home);
      app.get('/index.html', home);
      await app.register(fastifyStatic, {
        root: options.root,
        prefix: '/',
        wildcard: true,
        index: ['index.html'],
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
      if (built) return reply.header('cache-control', 'no-cache').sendFile('index.html');
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
