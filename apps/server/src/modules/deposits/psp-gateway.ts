import { LateBound } from '../../core/late-bound.ts';
import type { PspConnection } from '../payments/psp/psp.connection.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The PSP the money flows talk to; attached by server.ts once the server listens. */
    psp: PspGateway;
  }
}

/**
 * Late-bound access to the PSP. The webhook URL the PSP calls back depends on the port the server
 * listens on, so the connection is made after `listen` (server.ts) or by a test once its app runs;
 * until then deposit and payout calls answer PAYMENT_SERVICE_UNAVAILABLE and nothing is created.
 */
export class PspGateway extends LateBound<PspConnection> {
  constructor() {
    super('PAYMENT_SERVICE_UNAVAILABLE');
  }
}
