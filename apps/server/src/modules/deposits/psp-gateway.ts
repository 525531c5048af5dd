import { AppError } from '../../errors.ts';
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
export class PspGateway {
  private current: PspConnection | null = null;

  attach(connection: PspConnection): void {
    this.current = connection;
  }

  /** The connection, or PAYMENT_SERVICE_UNAVAILABLE while there is none. */
  connection(): PspConnection {
    if (!this.current) throw new AppError('PAYMENT_SERVICE_UNAVAILABLE');
    return this.current;
  }

  get attached(): PspConnection | null {
    return this.current;
  }

  async close(): Promise<void> {
    const connection = this.current;
    this.current = null;
    await connection?.close();
  }
}
