import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './client.ts';
import { newClient, parseMultiHostUrl } from './primary.ts';

describe('parseMultiHostUrl', () => {
  it('reads the host list and target_session_attrs of a pg_autoctl formation URL', () => {
    const parsed = parseMultiHostUrl(
      'postgres://app:secret@10.0.0.1:6001,10.0.0.2:6002,db3/sorte?target_session_attrs=read-write&sslmode=disable',
    );
    expect(parsed.endpoints).toEqual([
      { host: '10.0.0.1', port: 6001 },
      { host: '10.0.0.2', port: 6002 },
      { host: 'db3', port: 5432 },
    ]);
    expect(parsed.readWrite).toBe(true);
    expect(parsed.singleHostUrl).toBe('postgres://app:secret@10.0.0.1:6001/sorte?sslmode=disable');
  });

  it('takes bracketed IPv6 hosts and a URL without port or query', () => {
    const parsed = parseMultiHostUrl('postgresql://[::1]:6001,[fe80::2]/db');
    expect(parsed.endpoints).toEqual([
      { host: '::1', port: 6001 },
      { host: 'fe80::2', port: 5432 },
    ]);
    expect(parsed.readWrite).toBe(false);
    expect(parsed.singleHostUrl).toBe('postgresql://[::1]:6001/db');
  });

  it('refuses what it cannot honour', () => {
    expect(() => parseMultiHostUrl('postgres://a,b/db?target_session_attrs=standby')).toThrow(
      /not supported/,
    );
    expect(() => parseMultiHostUrl('postgres://a:99999/db')).toThrow(/bad port/);
    expect(() => parseMultiHostUrl('mysql://a/db')).toThrow();
  });
});

describe('a client on a host list', () => {
  it('answers "database unavailable" (503) when no host takes writes', async () => {
    // Two loopback ports nobody listens on (1 and 2 need privileges to bind).
    const client = newClient('postgres://u:p@127.0.0.1:1,127.0.0.1:2/db?target_session_attrs=read-write');
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/no primary among the database hosts/);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('answers "database unavailable" when a host takes the connection and never answers', async () => {
    // A listener that accepts and stays silent, as a host that swallows packets looks to a client.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const client = newClient(`postgres://u:p@127.0.0.1:${port},127.0.0.1:${port}/db?connect_timeout=1`);
      const error = await client.connect().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      silent.close();
    }
  });
});
