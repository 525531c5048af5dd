import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/http/free-port.ts';

/** Where Debian's package puts PgBouncer (`apt-get install pgbouncer`), else the PATH's. */
const BINARIES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

export function pgbouncerBinary(): string | null {
  return BINARIES.find((path) => existsSync(path)) ?? null;
}

export type TPgBouncer = {
  /** `serverUrl` with the host and port of PgBouncer in front of it (same user, database, password). */
  urlFor(serverUrl: string): string;
  port: number;
  stop(): Promise<void>;
};

/**
 * A PgBouncer of its own in front of the PostgreSQL of `serverUrl`, in transaction mode, on a free
 * loopback port, with a generated configuration in a temporary directory (removed by `stop`).
 * Clients sign in as the server's user (trust on loopback); PgBouncer signs in to PostgreSQL with
 * the URL's password. PgBouncer refuses to run as root: as root it runs as the postgres user.
 */
export async function startPgBouncer(
  serverUrl: string,
  settings: { poolSize?: number } = {},
): Promise<TPgBouncer> {
  const binary = pgbouncerBinary();
  if (!binary) throw new Error('pgbouncer is not installed (apt-get install pgbouncer)');
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sorte-pgbouncer-'));
  const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;
  const ini = [
    '[databases]',
    `* = host=${server.hostname} port=${server.port || '5432'} user=${user}${password ? ` password=${password}` : ''}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${settings.poolSize ?? 20}`,
    'max_client_conn = 500',
    // Statements such as extra_float_digits that node-postgres sends at start are accepted.
    'ignore_startup_parameters = extra_float_digits,options',
    'server_reset_query =',
    'log_connections = 0',
    'log_disconnections = 0',
    'log_pooler_errors = 1',
  ].join('\n');
  writeFileSync(join(dir, 'users.txt'), `${quote(user)} ${quote(password)}\n`);
  writeFileSync(join(dir, 'pgbouncer.ini'), `${ini}\n`);
  // Read by the postgres user when this runs as root (a throwaway config on loopback).
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'users.txt'), 0o644);
  chmodSync(join(dir, 'pgbouncer.ini'), 0o644);
  const asRoot = process.getuid?.() === 0;
  const child = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await listening(port, exited);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`pgbouncer did not start: ${(error as Error).message}\n${stderr}`);
  }
  return {
    port,
    urlFor: (url) => {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    stop: async () => {
      await stopChild(child, exited);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `port` accepts a TCP connection; rejects if the process exits first (or 10 s pass). */
async function listening(port: number, exited: Promise<number | null>): Promise<void> {
  let gone: number | null | undefined;
  void exited.then((code) => {
    gone = code;
  });
  for (let attempt = 0; attempt < 200; attempt++) {
    if (gone !== undefined) throw new Error(`it exited with code ${gone}`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM'); // PgBouncer's immediate shutdown
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
