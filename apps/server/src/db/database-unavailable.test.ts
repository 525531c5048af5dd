import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './client.ts';

/** A driver error as node-postgres gives it, wrapped as drizzle wraps a failed query. */
function wrapped(driver: object): Error {
  return Object.assign(new Error('Failed query: SELECT 1'), {
    cause: Object.assign(new Error('driver'), driver),
  });
}

describe('isDatabaseUnavailable', () => {
  it('knows a database that went away, by SQLSTATE, socket error or node-postgres’s words, wrapped or not', () => {
    for (const error of [
      wrapped({ code: '57P01', message: 'terminating connection due to administrator command' }),
      wrapped({ code: '57P03', message: 'the database system is starting up' }),
      wrapped({ code: '08006', message: 'connection failure' }),
      wrapped({ code: '53300', message: 'sorry, too many clients already' }),
      wrapped({ code: 'ECONNRESET', message: 'read ECONNRESET' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      wrapped({ message: 'Client has encountered a connection error and is not queryable' }),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      expect(isDatabaseUnavailable(error), String((error as Error).cause ?? error)).toBe(true);
    }
  });

  it('leaves every other error to its own answer', () => {
    for (const error of [
      wrapped({ code: '23505', message: 'duplicate key value violates unique constraint' }),
      wrapped({ code: '22012', message: 'division by zero' }),
      wrapped({ code: '40P01', message: 'deadlock detected' }),
      wrapped({ code: 'P0004', message: 'VIP totals changed while the group was written' }),
      new Error('something else'),
      { code: 8006 },
      null,
      'Connection terminated',
    ]) {
      expect(isDatabaseUnavailable(error), JSON.stringify(String(error))).toBe(false);
    }
  });
});
