import { LANGUAGES, type TLanguage } from '@sorte/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../errors.ts';
import {
  AVATAR_COUNT,
  avatar,
  BANNER_DESIGNS,
  banner,
  flag,
  SOCIAL_NETWORKS,
  safeColor,
  siteFavicon,
  siteLogo,
  socialIcon,
  type TBannerDesign,
  type TPalette,
  type TSocialNetwork,
} from './artwork.ts';

function sendSvg(reply: FastifyReply, svg: string, maxAgeSeconds: number) {
  return (
    reply
      .type('image/svg+xml; charset=utf-8')
      .header('cache-control', `public, max-age=${maxAgeSeconds}`)
      // An SVG opened on its own is a document: allow its inline styles, nothing else.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(svg)
  );
}

function notFound(): AppError {
  return new AppError('NOT_FOUND');
}

/** Generated artwork under /media: the same everywhere except site art, which follows the site's theme. */
export async function mediaRoutes(app: FastifyInstance) {
  const { services } = app;
  const DAY = 86_400;

  async function paletteOf(code: string): Promise<{ name: string; palette: TPalette }> {
    const site = await services.sites.byCode(code);
    if (!site) throw notFound();
    return {
      name: site.name,
      palette: {
        accent: safeColor(site.theme['--color-accent'], '#19c37d'),
        accent2: safeColor(site.theme['--color-gold'], '#f5c542'),
        background: safeColor(site.theme['--color-bg'], '#0b0f17'),
      },
    };
  }

  app.get<{ Params: { code: string; file: string } }>(
    '/media/sites/:code/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const { name, palette } = await paletteOf(request.params.code);
      if (request.params.file === 'logo.svg') return sendSvg(reply, siteLogo(name, palette), DAY);
      if (request.params.file === 'favicon.svg') return sendSvg(reply, siteFavicon(palette), DAY);
      throw notFound();
    },
  );

  app.get<{ Params: { code: string; file: string } }>(
    '/media/sites/:code/banners/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const design = request.params.file.replace(/\.svg$/, '');
      if (!(BANNER_DESIGNS as readonly string[]).includes(design) || !request.params.file.endsWith('.svg')) {
        throw notFound();
      }
      const { palette } = await paletteOf(request.params.code);
      return sendSvg(reply, banner(design as TBannerDesign, palette), DAY);
    },
  );

  app.get<{ Params: { file: string } }>(
    '/media/avatars/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const match = /^(male|female)-(\d{1,2})\.svg$/.exec(request.params.file);
      const index = Number(match?.[2]);
      if (!match || index < 1 || index > AVATAR_COUNT) throw notFound();
      return sendSvg(reply, avatar(match[1] as 'male' | 'female', index), 7 * DAY);
    },
  );

  app.get<{ Params: { file: string } }>(
    '/media/flags/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const lang = request.params.file.replace(/\.svg$/, '');
      if (!(LANGUAGES as readonly string[]).includes(lang) || !request.params.file.endsWith('.svg'))
        throw notFound();
      return sendSvg(reply, flag(lang as TLanguage), 7 * DAY);
    },
  );

  app.get<{ Params: { file: string } }>(
    '/media/social/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const name = request.params.file.replace(/\.svg$/, '');
      if (!(SOCIAL_NETWORKS as readonly string[]).includes(name) || !request.params.file.endsWith('.svg')) {
        throw notFound();
      }
      return sendSvg(reply, socialIcon(name as TSocialNetwork), 7 * DAY);
    },
  );
}
