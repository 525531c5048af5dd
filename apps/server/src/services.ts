import type { TConfig } from './config.ts';
import type { Db } from './db/client.ts';
import type { TAuthDeps } from './modules/auth/auth.service.ts';
import type { CaptchaService } from './modules/auth/captcha.service.ts';
import type { LoginThrottle } from './modules/sessions/login-throttle.ts';
import type { SiteResolver } from './modules/sites/sites.service.ts';

/** What route plugins need, built once in app.ts and reachable as `app.services`. */
export type TServices = {
  config: TConfig;
  db: Db;
  /**
   * Reads that may be a few seconds old, on a read replica when one keeps up (`Database.readDb`,
   * ADR 044): pass it instead of `db` to a route's read of records or reports, never to money,
   * sessions, a transaction or a read of the request's own writes. `db` itself without replicas.
   */
  readDb: Db;
  sites: SiteResolver;
  captcha: CaptchaService;
  throttle: LoginThrottle;
  auth: TAuthDeps;
};

declare module 'fastify' {
  interface FastifyInstance {
    services: TServices;
  }
}
