import type { TErrorCode } from '@sorte/contract';
import { AppError } from '../errors.ts';

/**
 * A connection to an outside service that calls us back on the port we listen on, so it is made
 * after `listen` (server.ts) or by a test once its app runs. Until it is attached, `connection()`
 * refuses with the service's own error and nothing is created.
 */
export class LateBound<TConnection extends { close(): Promise<void> }> {
  private current: TConnection | null = null;

  constructor(private readonly unavailable: TErrorCode) {}

  attach(connection: TConnection): void {
    this.current = connection;
  }

  /** The connection, or the `unavailable` error while there is none. */
  connection(): TConnection {
    if (!this.current) throw new AppError(this.unavailable);
    return this.current;
  }

  get attached(): TConnection | null {
    return this.current;
  }

  async close(): Promise<void> {
    const connection = this.current;
    this.current = null;
    await connection?.close();
  }
}
