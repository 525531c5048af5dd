import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { freePort } from './http/free-port.ts';

/**
 * `npm run serve` entry: WORKERS server processes (node:cluster) sharing PORT on one database.
 * WORKERS=1 (default) runs the server in this process. WORKERS=auto: one per CPU.
 *
 * Everything that must happen once already does across processes (docs/scaling.md): migrations
 * take an advisory lock, the crash engine runs in the process holding the crash leader lock,
 * promotion and community jobs claim their period in the database, balance pushes and
 * notifications travel by pg_notify, sessions are invalidated by pg_notify. Workers start one
 * after the other (the first migrates and seeds the demo data, the next starts once it listens). A worker that
 * dies is replaced; SIGTERM/SIGINT are passed to every worker, which drain and finish in-flight
 * requests (SHUTDOWN_DRAIN_SECONDS) before the primary exits.
 *
 * The loopback sandboxes (PSP, game aggregator, self-exclusion registry, mail catcher, KYC) are
 * per process: worker k gets the configured port + k − 1 (or a free port when it is 0), so each
 * has its own. The KYC sandboxes share one webhook key for the run, since a decision one of them
 * sends may reach any worker. They are for local trials; production configures the real services.
 */

const SHUTDOWN = 'sorte:shutdown';

const SANDBOX_PORTS: Record<string, number> = {
  PSP_SANDBOX_PORT: 4010,
  AGGREGATOR_SANDBOX_PORT: 0,
  MAIL_CATCHER_PORT: 4020,
  REGISTRY_SANDBOX_PORT: 4030,
  KYC_SANDBOX_PORT: 4040,
};

function workerCount(): number {
  const text = (process.env.WORKERS ?? '1').trim();
  if (text === 'auto') return availableParallelism();
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`WORKERS must be 1..64 or auto (got ${JSON.stringify(text)})`);
    process.exit(78); // EX_CONFIG
  }
  return n;
}

const KYC_SANDBOX_WEBHOOK_SECRET = randomBytes(32).toString('base64url');

async function sandboxEnv(index: number): Promise<Record<string, string>> {
  const env: Record<string, string> = { KYC_SANDBOX_WEBHOOK_SECRET };
  for (const [name, fallback] of Object.entries(SANDBOX_PORTS)) {
    const configured = Number(process.env[name] ?? fallback);
    env[name] = String(configured === 0 ? await freePort() : configured + index);
  }
  return env;
}

async function primary(workers: number): Promise<void> {
  let stopping = false;
  const envOf = new Map<number, Record<string, string>>();
  const fork = async (index: number) => {
    const env = { ...(await sandboxEnv(index)), SORTE_WORKER_INDEX: String(index) };
    const worker = cluster.fork(env);
    envOf.set(worker.id, env);
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`worker ${index + 1} exited (${signal ?? code}); starting another`);
      void fork(index);
    });
    return worker;
  };
  const listening = (worker: ReturnType<typeof cluster.fork>) =>
    new Promise<void>((resolve, reject) => {
      worker.once('listening', () => resolve());
      worker.once('exit', (code) =>
        reject(new Error(`the first worker exited with ${code} before listening`)),
      );
    });
  // One after the other: each migrates (a no-op after the first) and seeds the demo data alone.
  for (let i = 0; i < workers; i++) {
    try {
      await listening(await fork(i));
    } catch (error) {
      console.error(String(error));
      process.exit(1);
    }
  }

  // A terminal's Ctrl-C (and `timeout`, `kill -- -pgid`) signals the whole process group, the
  // workers too; an orchestrator signals only this process. So the primary asks each worker to
  // stop a moment later, and a worker that was already signalled ignores the request (a second
  // signal would make it exit at once instead of draining).
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) {
        if (worker?.isConnected()) worker.send({ type: SHUTDOWN, signal }, () => undefined);
      }
    }, 250);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  cluster.on('exit', () => {
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
}

const workers = workerCount();
if (workers > 1 && !process.env.DATABASE_URL) {
  // PGlite is one process's embedded database: several processes need PostgreSQL.
  console.error('WORKERS > 1 needs DATABASE_URL (PostgreSQL)');
  process.exit(78);
}
if (cluster.isWorker) {
  let signalled = false;
  const mark = () => {
    signalled = true;
  };
  process.once('SIGTERM', mark);
  process.once('SIGINT', mark);
  process.on('message', (message: { type?: string; signal?: NodeJS.Signals }) => {
    if (message?.type === SHUTDOWN && !signalled) process.kill(process.pid, message.signal ?? 'SIGTERM');
  });
  await import('./server.ts');
} else if (workers === 1) {
  await import('./server.ts');
} else {
  await primary(workers);
}
