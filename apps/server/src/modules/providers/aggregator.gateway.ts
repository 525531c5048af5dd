import { AppError } from '../../errors.ts';
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
export class AggregatorGateway {
  private current: AggregatorConnection | null = null;

  attach(connection: AggregatorConnection): void {
    this.current = connection;
  }

  connection(): AggregatorConnection {
    if (!this.current) throw new AppError('PROVIDER_UNAVAILABLE');
    return this.current;
  }

  get attached(): AggregatorConnection | null {
    return this.current;
  }

  /** Origins the player site may frame (the Content-Security-Policy frame-src). */
  frameOrigins(): string[] {
    return this.current ? [this.current.origin] : [];
  }

  async close(): Promise<void> {
    const connection = this.current;
    this.current = null;
    await connection?.close();
  }
}
