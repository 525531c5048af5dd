import {
  ZLanguageListQuery,
  ZLanguageListResponse,
  ZSiteDataQuery,
  ZSiteDataResponse,
  ZSocialLinksQuery,
  ZSocialLinksResponse,
} from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TSite } from '../../core/site.ts';
import { AppError } from '../../errors.ts';
import { ok, responses } from '../../http/reply.ts';
import { getSiteData, getSocialLinks, languageList } from './sites.service.ts';

const tags = ['site'];

/** A site named in the query must be the request's own site: data never crosses sites. */
function assertSameSite(own: TSite, other: TSite | null): void {
  if (!other || other.id !== own.id) throw new AppError('UNKNOWN_SITE');
}

/** What the shell needs to draw a site: languages, look, banners, social links. */
export async function sitesRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/language/getList', {
    schema: {
      tags,
      summary: "This site's languages, default first",
      querystring: ZLanguageListQuery,
      response: responses(ZLanguageListResponse),
    },
    handler: async (request) => {
      if (request.query.domain)
        assertSameSite(request.site, await services.sites.byHost(request.query.domain));
      return ok(request.lang, languageList(request.site));
    },
  });

  r.get('/dynamicwebs/getdata', {
    schema: {
      tags,
      summary: "This site's name, logo, theme, banners, categories and settings",
      querystring: ZSiteDataQuery,
      response: responses(ZSiteDataResponse),
    },
    handler: async (request) =>
      ok(request.lang, await getSiteData(services.db, request.site, services.captcha.required)),
  });

  r.get('/socialmedialinks/get', {
    schema: {
      tags,
      summary: "This site's social media links",
      querystring: ZSocialLinksQuery,
      response: responses(ZSocialLinksResponse),
    },
    handler: async (request) => {
      if (request.query.site) assertSameSite(request.site, await services.sites.byCode(request.query.site));
      return ok(request.lang, await getSocialLinks(services.db, request.site));
    },
  });
}
