import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

/** The drills' shared pieces: a server process on loopback, and waiting for a URL to answer. */

export const ROOT = resolve(import.meta.dirname, '../..');

/** Waits until `url` answers 2xx (bounded: throws after `seconds`). */
export async function waitFor(url: string, headers: Record<string, string>, seconds: number): Promise<void> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    try {
      if ((await fetch(url, { headers })).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * `apps/server/src/server.ts` as its own process on 127.0.0.1:`port`, on the PostgreSQL at
 * `databaseUrl`, with the local sandboxes on ports of their own choosing, the per-address rate
 * limits lifted (every simulated player comes from 127.0.0.1) and `env` on top.
 */
export function startServerProcess(options: {
  port: number;
  databaseUrl: string;
  dataDir: string;
  env?: Record<string, string>;
  stdio?: 'inherit' | 'pipe';
}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    stdio: ['ignore', options.stdio === 'pipe' ? 'pipe' : 'ignore', options.stdio ?? 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      TRUST_PROXY: 'on',
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      CAPTCHA: 'off',
      PSP_SANDBOX_PORT: '0',
      MAIL_CATCHER_PORT: '0',
      REGISTRY_SANDBOX_PORT: '0',
      KYC_SANDBOX_PORT: '0',
      DATA_DIR: join(options.dataDir, String(options.port)),
      LOG_LEVEL: 'warn',
      ...options.env,
    },
  });
}
