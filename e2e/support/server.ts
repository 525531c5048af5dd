import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../apps/server/src/http/free-port.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SERVER_ENTRY = join(ROOT, 'apps', 'server', 'src', 'server.ts');
const WEB_DIST = join(ROOT, 'apps', 'web', 'dist', 'index.html');
const LOG_DIR = join(ROOT, 'test-results', 'e2e');

/** Upper bounds: a cold start migrates a fresh PGlite, which takes seconds on a busy machine. */
const READY_TIMEOUT_MS = 120_000;
const READY_POLL_MS = 250;
const STOP_TIMEOUT_MS = 15_000;

export interface RunningServer {
  /** http://localhost:<port>: the default demo site. */
  url: string;
  port: number;
  /** The site a browser sees at another host name on the same server, e.g. siteUrl('br.localhost'). */
  siteUrl(host: string): string;
  /** Where the server's stdout and stderr go (printed on failure). */
  logFile: string;
  /** The server's data directory (kept after stop with keepData). */
  dataDir: string;
  stop(): Promise<void>;
}

/** The servers this test process has started and not stopped, for the logs a failed test prints. */
const running = new Set<RunningServer>();

/** The last `lines` lines of every running server's log, headed by its file (what a failure shows). */
export function runningServerLogs(lines = 80): string[] {
  return [...running].map((server) => {
    const tail = existsSync(server.logFile)
      ? readFileSync(server.logFile, 'utf8').split('\n').slice(-lines).join('\n')
      : '(no log yet)';
    return `--- server log (${server.logFile}), last ${lines} lines ---\n${tail}`;
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface StartOptions {
  /** A data directory to reuse (a server started again on what an earlier one left); else a fresh one. */
  dataDir?: string;
  /** Leave the data directory on stop, for a later startServer({ dataDir }). */
  keepData?: boolean;
  /** More environment for the server (e.g. COMMUNITY_JOBS: 'off'). */
  env?: Record<string, string>;
  /**
   * Runs the server process with its clock this far from now (e.g. -24 h: the journey's play happens
   * "yesterday", so a later server on the same data settles that day as a closed period).
   */
  clockOffsetMs?: number;
}

/** The preload that moves the server process's clock (see clock-offset.ts). */
const CLOCK_OFFSET_PRELOAD = join(import.meta.dirname, 'clock-offset.ts');

/**
 * Starts the real server (`node --import tsx apps/server/src/server.ts`) as a child process on a
 * free port with its own fresh data directory, the captcha off, and the embedded database: the
 * environment's DATABASE_URL (in CI the PostgreSQL admin connection the integration tests use) is
 * removed so a journey never writes into a shared database. Resolves once the server answers HTTP.
 */
export async function startServer(name: string, options: StartOptions = {}): Promise<RunningServer> {
  if (!existsSync(WEB_DIST)) {
    throw new Error(`${WEB_DIST} is missing: build the web app first (npm run build)`);
  }
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), `sorte-e2e-${name}-`));
  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = join(LOG_DIR, `server-${name}.log`);
  const log = createWriteStream(logFile);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CAPTCHA: 'off',
    // Every journey's players come from the one loopback address within a minute or two; the auth
    // limit per address (a defence against scripted sign-ups) is not what these journeys test.
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    // The local sandbox PSP on a free port too, so a journey never collides with a running server.
    PSP_SANDBOX_PORT: '0',
    // The other local stand-ins too (mail catcher, self-exclusion registry and KYC sandboxes).
    MAIL_CATCHER_PORT: '0',
    REGISTRY_SANDBOX_PORT: '0',
    KYC_SANDBOX_PORT: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    ...options.env,
  };
  delete env.DATABASE_URL;
  const preload: string[] = [];
  if (options.clockOffsetMs) {
    env.E2E_CLOCK_OFFSET_MS = String(options.clockOffsetMs);
    preload.push('--import', CLOCK_OFFSET_PRELOAD);
  }

  const child = spawn(process.execPath, ['--import', 'tsx', ...preload, SERVER_ENTRY], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });

  // A server that dies mid-journey (a crash, or a signal from outside) would otherwise show up only
  // as refused connections in the browser: say so where the test output is read.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping)
      console.error(`[e2e] the server exited unexpectedly (code ${code}, signal ${signal}); log: ${logFile}`);
  });

  const url = `http://localhost:${port}`;
  const server: RunningServer = {
    url,
    port,
    siteUrl: (host) => `http://${host}:${port}`,
    logFile,
    dataDir,
    stop: () => stop(),
  };
  const stop = async () => {
    stopping = true;
    running.delete(server);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(killer);
    }
    log.end();
    if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(`http://127.0.0.1:${port}/`, child);
  } catch (error) {
    await stop();
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-60).join('\n');
    throw new Error(`${(error as Error).message}\n--- server log (${logFile}) ---\n${tail}`);
  }

  running.add(server);
  return server;
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the server exited before it was ready (code ${child.exitCode}, signal ${child.signalCode})`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status < 500) return;
    } catch {
      // Not listening yet: keep polling until the deadline.
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(`the server did not answer ${url} within ${READY_TIMEOUT_MS} ms`);
}
