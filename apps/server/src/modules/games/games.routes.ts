import {
  ZFollowListQuery,
  ZFollowRequest,
  ZFollowResponse,
  ZGameList,
  ZGameSectionQuery,
  ZGamesListQuery,
  ZGamesPage,
  ZLangQuery,
  ZProvidersQuery,
  ZProvidersResponse,
} from '@sorte/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { gameBanner, gameThumbnail, providerLogo } from './games.artwork.ts';
import { gameProviders, games } from './games.schema.ts';
import {
  assertOwnMemberId,
  listFavorites,
  listGames,
  listPopularGames,
  listPromotedGames,
  listProviders,
  listRecentGames,
  setFavorite,
} from './games.service.ts';

const tags = ['games'];
const bearer = [{ bearerAuth: [] }];

/** Catalogue, favourites and recently played (under /api). */
export async function gamesRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/games/apisv2', {
    schema: {
      tags,
      summary: 'Game providers with games on this site (optionally in one category)',
      querystring: ZProvidersQuery,
      response: responses(ZProvidersResponse),
    },
    handler: async (request) =>
      ok(request.lang, { list: await listProviders(services.db, request.site.id, request.query.category) }),
  });

  r.get('/games/listsv2', {
    schema: {
      tags,
      summary: 'Games by category, provider (provider or platType), tag and name search, paged',
      querystring: ZGamesListQuery,
      response: responses(ZGamesPage),
    },
    handler: async (request) =>
      ok(request.lang, await listGames(services.db, request.site.id, request.query)),
  });

  r.get('/games/promotion', {
    schema: {
      tags,
      summary: 'New and hot games (name: a category, or all)',
      querystring: ZGameSectionQuery,
      response: responses(ZGameList),
    },
    handler: async (request) =>
      ok(request.lang, {
        list: await listPromotedGames(services.db, request.site.id, request.query.name, request.query.limit),
      }),
  });

  r.get('/games/popular', {
    schema: {
      tags,
      summary: 'Most popular games (name: a category, or all)',
      querystring: ZGameSectionQuery,
      response: responses(ZGameList),
    },
    handler: async (request) =>
      ok(request.lang, {
        list: await listPopularGames(services.db, request.site.id, request.query.name, request.query.limit),
      }),
  });

  r.post('/games/follow', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "The caller's favourite games (member_id, when sent, must be the caller's own)",
      security: bearer,
      querystring: ZFollowListQuery,
      response: responses(ZGameList),
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      assertOwnMemberId(memberId, request.query.member_id);
      const list = await listFavorites(services.db, request.site.id, memberId, request.query.name);
      return ok(request.lang, { list });
    },
  });

  for (const [path, favorite] of [
    ['/games/follow/set', true],
    ['/games/follow/delete', false],
  ] as const) {
    r.post(path, {
      onRequest: app.requireMember,
      schema: {
        tags,
        summary: favorite ? 'Add a game to the favourites' : 'Remove a game from the favourites',
        security: bearer,
        querystring: ZLangQuery,
        body: ZFollowRequest,
        response: responses(ZFollowResponse),
      },
      handler: async (request) => {
        const { memberId } = memberOf(request);
        const result = await setFavorite(services.db, request.site.id, memberId, request.body, favorite);
        return ok(request.lang, result, favorite ? 'messages.favorite_added' : 'messages.favorite_removed');
      },
    });
  }

  r.get('/games/recent', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: 'Games the caller played or opened most recently',
      security: bearer,
      querystring: ZLangQuery,
      response: responses(ZGameList),
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      return ok(request.lang, { list: await listRecentGames(services.db, request.site.id, memberId) });
    },
  });
}

const DAY_SECONDS = 86_400;
const SVG_FILE = /^([a-z0-9-]{2,64})\.svg$/;

function sendSvg(reply: FastifyReply, svg: string) {
  return reply
    .type('image/svg+xml; charset=utf-8')
    .header('cache-control', `public, max-age=${DAY_SECONDS}`)
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(svg);
}

/** Generated game thumbnails and provider logos under /media/games. */
export async function gamesMediaRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get<{ Params: { file: string } }>(
    '/media/games/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const file = SVG_FILE.exec(request.params.file)?.[1];
      if (!file) throw new AppError('NOT_FOUND');
      // "<code>.svg" is the square lobby artwork, "<code>-banner.svg" the wide banner.
      const wide = file.endsWith('-banner');
      const code = wide ? file.slice(0, -'-banner'.length) : file;
      const [row] = await db
        .select({
          code: games.code,
          name: games.name,
          category: games.category,
          providerName: gameProviders.name,
        })
        .from(games)
        .innerJoin(gameProviders, eq(gameProviders.id, games.providerId))
        .where(eq(games.code, code))
        .limit(1);
      if (!row) throw new AppError('NOT_FOUND');
      return sendSvg(reply, wide ? gameBanner(row) : gameThumbnail(row));
    },
  );

  app.get<{ Params: { file: string } }>(
    '/media/games/providers/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const code = SVG_FILE.exec(request.params.file)?.[1];
      if (!code) throw new AppError('NOT_FOUND');
      const [row] = await db
        .select({ code: gameProviders.code, name: gameProviders.name })
        .from(gameProviders)
        .where(eq(gameProviders.code, code))
        .limit(1);
      if (!row) throw new AppError('NOT_FOUND');
      return sendSvg(reply, providerLogo(row));
    },
  );
}
