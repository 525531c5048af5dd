import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { translate } from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import { htmlPage } from '../http/html-page.ts';

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
