import { LateBound } from '../../core/late-bound.ts';
import type { AggregatorConnection } from './aggregator.connection.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The game aggregator of third-party games; attached by server.ts once the server listens. */
    aggregator: AggregatorGateway;
  }
}

/**
 * Late-bound access to the aggregator, like the PSP: it calls our wallet back on the port we
 * listen on, so it is connected after `listen` (server.ts) or by a test. Until then launches answer
 * PROVIDER_UNAVAILABLE and wallet calls RS_ERROR_INVALID_SIGNATURE (there is no secret to check).
 */
export class AggregatorGateway extends LateBound<AggregatorConnection> {
  constructor() {
    super('PROVIDER_UNAVAILABLE');
  }

  /** Origins the player site may frame (the Content-Security-Policy frame-src). */
  frameOrigins(): string[] {
    const connection = this.attached;
    return connection ? [connection.origin] : [];
  }
}
