import { DEFAULT_LANGUAGE, normalizeLanguage, type TLanguage } from '@sorte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { TSite } from '../core/site.ts';
import { AppError } from '../errors.ts';
import type { SiteResolver } from '../modules/sites/sites.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The site named by the Host header. Set for every route (unknown hosts are refused first). */
    site: TSite;
    /** Language of server messages: the `lang` query parameter, else the site's default. */
    lang: TLanguage;
  }
}

/** Paths answered without a site: the load balancer's health check. */
// The PSP calls its webhooks on whatever host it was given (often not a site domain); each
// notification names its order, and the order names its site.
const SITELESS = new Set([
  '/healthz',
  '/readyz',
  '/metrics',
  '/api/psp/webhook/pix',
  '/api/psp/webhook/payout',
]);

function queryLang(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | null | undefined;
  // Requests refused by the router itself (a bad URL) come without a parsed query.
  if (!query) return new URLSearchParams(request.url.split('?')[1] ?? '').get('lang') ?? undefined;
  const value = query?.lang;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/** The language of a request's messages: `lang` when it names one, else the site's, else the default. */
export function languageOf(request: FastifyRequest, site: TSite | null | undefined): TLanguage {
  return (
    normalizeLanguage(queryLang(request)) ??
    (site ? normalizeLanguage(site.defaultLang) : undefined) ??
    DEFAULT_LANGUAGE
  );
}

/**
 * Gives every request its language and site before anything else reads them. The language comes
 * from `lang` (aliases such as zh_cn included), falling back to the site's default language.
 */
export const requestContextPlugin = fp(
  async (app: FastifyInstance, options: { sites: SiteResolver }) => {
    app.decorateRequest('site', null as unknown as TSite);
    app.decorateRequest('lang', DEFAULT_LANGUAGE);
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
      request.lang = languageOf(request, null);
      if (SITELESS.has(request.url.split('?')[0]!)) return;
      const site = await options.sites.byHost(request.host);
      if (!site) throw new AppError('UNKNOWN_SITE');
      request.site = site;
      request.lang = languageOf(request, site);
    });
    app.addHook('onSend', async (request, reply) => {
      // API answers carry balances and identity: never let a browser, proxy or worker cache them.
      if (request.url.startsWith('/api/') && !request.url.startsWith('/api/docs')) {
        reply.header('cache-control', 'no-store');
      }
    });
  },
  { name: 'request-context' },
);
