import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { TConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { ALL_JOBS } from './jobs/all-jobs.ts';
import { jobRunnerPlugin, type TJob } from './jobs/runner.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { adminPermissionsPlugin } from './modules/admin/permissions.ts';
import { agencyRoutes } from './modules/agency/agency.routes.ts';
import { complianceRoutes } from './modules/aml/aml.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import type { TAuthDeps } from './modules/auth/auth.service.ts';
import {
  type CaptchaGenerator,
  CaptchaService,
  defaultCaptchaGenerator,
} from './modules/auth/captcha.service.ts';
import {
  backofficeContentRoutes,
  siteChangesPlugin,
} from './modules/backoffice-content/backoffice-content.routes.ts';
import { backofficeReportsRoutes } from './modules/backoffice-reports/backoffice-reports.routes.ts';
import { bankCardsRoutes } from './modules/bank-cards/bank-cards.routes.ts';
import { certificationRoutes } from './modules/certification/certification.routes.ts';
import { chatPlugin, chatRoutes } from './modules/chat/chat.routes.ts';
import { crashPlugin } from './modules/crash/crash.routes.ts';
import { depositsRoutes } from './modules/deposits/deposits.routes.ts';
import { PspGateway } from './modules/deposits/psp-gateway.ts';
import { pspPixWebhookRoutes } from './modules/deposits/psp-webhook.routes.ts';
import { gamesMediaRoutes, gamesRoutes } from './modules/games/games.routes.ts';
import { informationRoutes } from './modules/information/information.routes.ts';
import { KycGateway } from './modules/kyc/kyc.connection.ts';
import { kycRoutes } from './modules/kyc/kyc.routes.ts';
import { vaultFromConfig } from './modules/kyc/kyc.vault.ts';
import { kycReviewRoutes } from './modules/kyc/kyc-review.routes.ts';
import { liveFeedRoutes } from './modules/live-feed/live-feed.routes.ts';
import { MailOutbox } from './modules/mail/outbox.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { originalsRoutes } from './modules/originals/originals.routes.ts';
import { profilePicturesRoutes } from './modules/profile-pictures/profile-pictures.routes.ts';
import { promotionsPlugin, promotionsRoutes } from './modules/promotions/promotions.routes.ts';
import { AggregatorGateway } from './modules/providers/aggregator.gateway.ts';
import { providersRoutes } from './modules/providers/providers.routes.ts';
import { realtimePlugin } from './modules/realtime/realtime.routes.ts';
import { recordsRoutes } from './modules/records/records.routes.ts';
import { regulatorRoutes } from './modules/regulator/regulator.routes.ts';
import { RealityChecks } from './modules/responsible-gaming/reality-check.ts';
import { RegistryGateway } from './modules/responsible-gaming/registry.connection.ts';
import { responsibleGamingRoutes } from './modules/responsible-gaming/rg.routes.ts';
import { securityRoutes } from './modules/security/security.routes.ts';
import { LoginThrottle } from './modules/sessions/login-throttle.ts';
import { manifestRoutes } from './modules/sites/manifest.routes.ts';
import { sitesRoutes } from './modules/sites/sites.routes.ts';
import { SiteResolver } from './modules/sites/sites.service.ts';
import { sportsAdminRoutes, sportsPlugin, sportsRoutes } from './modules/sports/sports.routes.ts';
import { termsRoutes } from './modules/terms/terms.routes.ts';
import {
  pspPayoutWebhookRoutes,
  withdrawalsAdminRoutes,
  withdrawalsRoutes,
} from './modules/withdrawals/withdrawals.routes.ts';
import { errorHandlerPlugin, frameworkErrors } from './plugins/error-handler.ts';
import { externalPlugins } from './plugins/external.ts';
import { isOperationsPath, operationsPlugin } from './plugins/operations.ts';
import { requestContextPlugin } from './plugins/request-context.ts';
import { sessionAuthPlugin } from './plugins/session-auth.ts';
import { staticAdminPlugin } from './plugins/static-admin.ts';
import { staticWebPlugin } from './plugins/static-web.ts';
import { storableInputPlugin } from './plugins/storable-input.ts';
import type { TServices } from './services.ts';

export type AppOptions = {
  config: TConfig;
  database: Database;
  /** Captcha image maker; tests inject one whose answers they know. */
  captchaGenerator?: CaptchaGenerator;
  /** The PSP link of the money flows; server.ts attaches the connection once listening. */
  psp?: PspGateway;
  /** The game aggregator of third-party games; server.ts attaches the connection once listening. */
  aggregator?: AggregatorGateway;
  /** PostgreSQL URL for the realtime LISTEN connection (default: DATABASE_URL on PostgreSQL). */
  realtimeListenUrl?: string;
  /** The periodic jobs to run (default: every job of the server; tests give their own). */
  jobs?: readonly TJob[];
};

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Largest request body we read (JSON forms are tiny; this stops memory abuse). */
const BODY_LIMIT_BYTES = 64 * 1024;

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * The access log: ONE line per request, when it is answered (the request, the status, the time it
 * took, an error if any), instead of fastify's two (received, completed): every line costs CPU on
 * every request (docs/bench-log/2026-11-28.md). The operations paths (probes every few seconds) are
 * left out.
 */
class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (isOperationsPath(request.routeOptions.url)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

function loggerOptions(config: TConfig): FastifyServerOptions['logger'] {
  if (config.LOG_LEVEL === 'silent') return false;
  return {
    level: config.LOG_LEVEL,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  };
}

/**
 * Builds the whole server as one Fastify instance. Plugins load in a fixed order:
 *   1. external (helmet, rate limits, compression, OpenAPI),
 *   2. app (error handler, request id/lang/site context, session auth),
 *   3. routes (API under /api, media, then the static web app with its SPA fallback).
 * The caller listens (server.ts) or injects requests (tests).
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  // LISTEN and session advisory locks need a session of their own: PostgreSQL itself, not a
  // transaction-mode pooler in front of it (DATABASE_DIRECT_URL, ADR 043).
  const sessionUrl =
    database.kind === 'postgres' ? (config.DATABASE_DIRECT_URL ?? config.DATABASE_URL) : undefined;
  const sites = new SiteResolver(database.db);
  const app = Fastify({
    logger: loggerOptions(config),
    logController: new AccessLog(),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrors(sites),
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    // Shutdown serves what already reached us (plugins/operations.ts closes each connection after).
    return503OnClosing: false,
    pluginTimeout: 60_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // An empty body on a JSON POST (captcha, me, logout) means "no fields", not a syntax error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });

  const captcha = new CaptchaService(
    database.db,
    config.CAPTCHA,
    options.captchaGenerator ?? defaultCaptchaGenerator,
  );
  const throttle = new LoginThrottle(database.db, config.LOGIN_LOCK_MINUTES);
  // The self-exclusion registry waits, like the PSP, until server.ts (or a test) attaches it.
  const registry = new RegistryGateway();
  const auth: TAuthDeps = {
    executor: database.db,
    captcha,
    throttle,
    limits: {
      maxFailuresPerAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerIp: config.LOGIN_MAX_FAILURES_PER_IP,
    },
    registry,
  };
  const services: TServices = {
    config,
    db: database.db,
    readDb: database.readDb,
    sites,
    captcha,
    throttle,
    auth,
  };
  app.decorate('services', services);
  app.decorate('psp', options.psp ?? new PspGateway());
  app.decorate('registry', registry);
  // The KYC provider waits, like the PSP, until server.ts (or a test) attaches it.
  app.decorate('kyc', new KycGateway());
  app.decorate('kycVault', vaultFromConfig(config));
  const aggregator = options.aggregator ?? new AggregatorGateway();
  app.decorate('aggregator', aggregator);
  // Mail waits in the outbox until server.ts (or a test) connects a sender.
  app.decorate('mail', new MailOutbox(database.db, app.log));
  app.addHook('onClose', async () => app.mail.close());
  // The reality-check reminders of this process's live sockets (sent by the reality-checks job).
  app.decorate('realityChecks', new RealityChecks(database.db));

  // 1. External plugins.
  await app.register(externalPlugins, { config, frameOrigins: () => aggregator.frameOrigins() });
  // 2. Application plugins.
  await app.register(errorHandlerPlugin);
  await app.register(requestContextPlugin, { sites });
  await app.register(storableInputPlugin);
  // Before any route: every /api/admin route must declare its operator permission.
  await app.register(adminPermissionsPlugin);
  await app.register(sessionAuthPlugin, {
    listenUrl: options.realtimeListenUrl ?? sessionUrl,
  });
  await app.register(realtimePlugin, {
    listenUrl: options.realtimeListenUrl ?? sessionUrl,
  });
  await app.register(promotionsPlugin);
  await app.register(siteChangesPlugin, {
    listenUrl: options.realtimeListenUrl ?? sessionUrl,
  });
  await app.register(chatPlugin, {
    listenUrl: options.realtimeListenUrl ?? sessionUrl,
  });
  await app.register(sportsPlugin, {
    listenUrl: options.realtimeListenUrl ?? sessionUrl,
  });
  await app.register(crashPlugin, {
    autoStart: config.CRASH_ENGINE,
    lockUrl: sessionUrl,
  });
  // Every periodic job, started with the app and stopped before it closes (ADR 035).
  await app.register(jobRunnerPlugin, { jobs: options.jobs ?? ALL_JOBS });
  // 3. Routes.
  await app.register(operationsPlugin, {
    database,
    metricsToken: config.METRICS_TOKEN,
    starting: () => (app.crashStarting() ? ['crash'] : []),
  });
  await app.register(
    async (api) => {
      await api.register(authRoutes);
      await api.register(sitesRoutes);
      await api.register(profilePicturesRoutes);
      await api.register(adminRoutes);
      await api.register(backofficeReportsRoutes);
      await api.register(gamesRoutes);
      await api.register(originalsRoutes);
      await api.register(certificationRoutes, { webDist: config.WEB_DIST ?? DEFAULT_WEB_DIST });
      await api.register(depositsRoutes);
      await api.register(pspPixWebhookRoutes);
      await api.register(withdrawalsRoutes);
      await api.register(withdrawalsAdminRoutes);
      await api.register(regulatorRoutes);
      await api.register(complianceRoutes);
      await api.register(pspPayoutWebhookRoutes);
      await api.register(bankCardsRoutes);
      await api.register(recordsRoutes);
      await api.register(providersRoutes);
      await api.register(promotionsRoutes);
      await api.register(securityRoutes);
      await api.register(responsibleGamingRoutes);
      await api.register(kycRoutes);
      await api.register(kycReviewRoutes);
      await api.register(termsRoutes);
      await api.register(informationRoutes);
      await api.register(agencyRoutes);
      await api.register(chatRoutes);
      await api.register(backofficeContentRoutes);
      await api.register(liveFeedRoutes);
      await api.register(sportsRoutes);
      await api.register(sportsAdminRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(mediaRoutes);
  await app.register(gamesMediaRoutes);
  await app.register(manifestRoutes);
  await app.register(staticAdminPlugin);
  await app.register(staticWebPlugin, { root: config.WEB_DIST ?? DEFAULT_WEB_DIST });
  return app;
}
