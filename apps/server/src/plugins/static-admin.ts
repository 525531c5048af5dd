import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { translate } from '@sorte/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { htmlPage } from '../http/html-page.ts';

/** The built back office (apps/admin, `npm run build`). */
export const DEFAULT_ADMIN_DIST = fileURLToPath(new URL('../../../admin/dist', import.meta.url));

/**
 * Serves the back office (apps/admin/dist) under /admin with the history-mode fallback: /admin and
 * any /admin/… path that is not a built file get index.html (the app routes it). Hashed assets are
 * immutable; index.html is no-cache. Without a build, /admin answers a translated 503 page.
 * The back office's API stays under /api/admin.
 */
export async function staticAdminPlugin(app: FastifyInstance, options: { root?: string }) {
  const root = options.root ?? DEFAULT_ADMIN_DIST;
  const built = existsSync(join(root, 'index.html'));
  const indexHtml = built ? readFileSync(join(root, 'index.html'), 'utf8') : '';
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!built) {
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(htmlPage(request.lang, request.site.name, translate(request.lang, 'messages.app_unavailable')));
    }
    return reply
      .header('cache-control', 'no-cache')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(indexHtml);
  };
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/admin/',
      // Files are listed once at start (the build is there before the server starts), so the
      // wildcard below is free for the app's own routes.
      wildcard: false,
      index: false,
      decorateReply: false,
      cacheControl: false,
      setHeaders: (res, path) => {
        if (/[\\/]assets[\\/]/.test(path)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }
  app.get('/admin', { schema: { hide: true } }, page);
  app.get('/admin/*', { schema: { hide: true } }, page);
}
