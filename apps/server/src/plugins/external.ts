import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import { AppError } from '../errors.ts';

/**
 * Content Security Policy for the built React SPA: only our own scripts, no inline script; inline
 * styles are allowed because React style props and per-site theme variables use them; images may
 * be data:/blob: URLs (captcha images, QR codes); the background video may come from a CDN.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  mediaSrc: ["'self'", 'https:'],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  frameSrc: ["'self'"],
};

/** Third-party plugins, first in the stated order: security headers, rate limits, compression, docs. */
export const externalPlugins = fp(
  async (
    app: FastifyInstance,
    options: {
      // Only what this plugin reads, so that plugins do not depend on the app's configuration module.
      config: { NODE_ENV: string; RATE_LIMIT_PER_MINUTE: number };
      frameOrigins?: () => readonly string[];
    },
  ) => {
    const { config, frameOrigins } = options;
    // helmet's middleware is built once: @fastify/helmet built it again for every request
    // (parsing each CSP directive), a visible share of a dice bet's server CPU in bench:bets' profile.
    const securityHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        // Third-party game pages are framed from the game aggregator's origin, known once it is
        // connected (the demo aggregator listens on a port chosen at start): read per request.
        directives: {
          ...CSP_DIRECTIVES,
          frameSrc: [...CSP_DIRECTIVES.frameSrc, () => (frameOrigins?.() ?? []).join(' ') || "'self'"],
        },
      },
      // Served over plain http on localhost in demos; HSTS only makes sense behind TLS in production.
      strictTransportSecurity: config.NODE_ENV === 'production',
    });
    app.addHook('onRequest', (request, reply, done) =>
      securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
    );

    await app.register(rateLimit, {
      global: true,
      max: config.RATE_LIMIT_PER_MINUTE,
      timeWindow: '1 minute',
      // Static files and generated media are cheap and cached by browsers: the limit guards the API.
      allowList: (request) => !request.url.startsWith('/api/'),
      // One process's view; the database-backed login throttle is what holds across processes.
      errorResponseBuilder: (_request, context) =>
        new AppError('RATE_LIMITED', {
          params: { seconds: Math.max(1, Math.ceil(context.ttl / 1000)) },
        }),
    });

    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });

    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Sorte API',
          version: '1.0.0',
          description:
            'Every response is the envelope {status, code, message, data}. Send `lang` as a query parameter and, when logged in, `Authorization: Bearer <token>`.',
        },
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // The docs page is same-origin http in demos: do not force https subresources.
      transformStaticCSP: (header) => header.replace(/upgrade-insecure-requests;?/, '').trim(),
    });
  },
  { name: 'external' },
);
