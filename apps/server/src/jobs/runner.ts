import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { claimPeriod } from './jobs.repo.ts';

/** The server's configuration as the app's services carry it (the runner sits below the app's wiring). */
type TJobConfig = FastifyInstance['services']['config'];

/**
 * A periodic job of the server (ADR 035), declared in its module's `*.jobs.ts` and listed in
 * `src/jobs/all-jobs.ts`. The runner ticks it every `everyMs` once the app starts, never runs it
 * twice at once in a process (a tick that finds the previous run still going is skipped), and
 * stops it when the app closes.
 */
export interface TJob {
  /** Unique; the claim's key and the `job` field of its log lines. */
  name: string;
  /** What it does, for the reader and the failure log line. */
  does: string;
  everyMs: number;
  /**
   * `periodMs`: the runner claims (name, period) in job_claims before each run, so across every
   * process on the database one run per period happens (a period whose run failed is not retried;
   * the next period's run must cover it). `keyed`: no runner claim; why a second process running
   * it at the same time changes nothing twice (its own claim, row locks, idempotency keys).
   */
  claim: { periodMs: number } | { keyed: string };
  /** Also tick once right away (default: first tick after `everyMs`). */
  runAtStart?: boolean;
  /** 'listen' (default): only a server that takes requests runs it; 'ready': inject-only apps too. */
  start?: 'listen' | 'ready';
  level?: 'error' | 'warn';
  /** Switched by configuration (default: always on). */
  enabled?: (config: TJobConfig) => boolean;
  run: (app: FastifyInstance, now: Date) => Promise<unknown>;
}

/** What one tick did. */
export type TTickOutcome = 'ran' | 'failed' | 'still-running' | 'claimed-elsewhere' | 'stopped';

export interface TJobRunner {
  /** The enabled jobs' names. */
  readonly names: readonly string[];
  /** Ticks a job now (what the timer does; tests call it with their own clock). */
  tick(name: string, now?: Date): Promise<TTickOutcome>;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: TJobRunner;
  }
}

const NAME = /^[a-z0-9-]{1,40}$/;

/** The start of the claimed period `now` falls in (UTC, aligned to the epoch). */
export function periodStart(periodMs: number, now: Date): Date {
  return new Date(Math.floor(now.getTime() / periodMs) * periodMs);
}

/** One job's timer, overlap guard and claim in this process. */
class JobTicker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<TTickOutcome> | null = null;
  private stopped = false;

  constructor(
    private readonly app: FastifyInstance,
    readonly job: TJob,
  ) {}

  start(): void {
    if (this.stopped || this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.job.everyMs);
    this.timer.unref();
    if (this.job.runAtStart) void this.tick();
  }

  tick(now = new Date()): Promise<TTickOutcome> {
    if (this.stopped) return Promise.resolve('stopped');
    if (this.running) return Promise.resolve('still-running');
    this.running = this.runOnce(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Clears the timer and waits for a run in progress (no run starts after this). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async runOnce(now: Date): Promise<TTickOutcome> {
    const { job, app } = this;
    try {
      if ('periodMs' in job.claim) {
        const period = periodStart(job.claim.periodMs, now);
        if (!(await claimPeriod(app.services.db, job.name, period))) return 'claimed-elsewhere';
      }
      await job.run(app, now);
      return 'ran';
    } catch (error) {
      app.log[job.level ?? 'error']({ err: error, job: job.name }, `${job.name} failed: ${job.does}`);
      return 'failed';
    }
  }
}

/** Checks the declarations once at start: a bad one is a programming error, not a run-time log. */
function checked(jobs: readonly TJob[]): readonly TJob[] {
  const seen = new Set<string>();
  for (const job of jobs) {
    if (!NAME.test(job.name)) throw new Error(`job name ${job.name} is not [a-z0-9-]{1,40}`);
    if (seen.has(job.name)) throw new Error(`job ${job.name} is declared twice`);
    if (!(job.everyMs > 0)) throw new Error(`job ${job.name} needs a positive everyMs`);
    if ('periodMs' in job.claim && !(job.claim.periodMs >= job.everyMs))
      throw new Error(`job ${job.name}: a claimed period shorter than its tick would skip periods`);
    seen.add(job.name);
  }
  return jobs;
}

/**
 * The one job runner: every enabled job starts with the app (onReady or onListen) and stops
 * before it closes (preClose, so a run in progress finishes while the database is still open).
 */
export const jobRunnerPlugin = fp(
  async (app: FastifyInstance, options: { jobs: readonly TJob[] }) => {
    const config = app.services.config;
    const tickers = new Map(
      checked(options.jobs)
        .filter((job) => job.enabled?.(config) ?? true)
        .map((job) => [job.name, new JobTicker(app, job)]),
    );
    const startAll = (start: 'listen' | 'ready') => async () => {
      for (const ticker of tickers.values()) if ((ticker.job.start ?? 'listen') === start) ticker.start();
    };
    app.addHook('onReady', startAll('ready'));
    app.addHook('onListen', startAll('listen'));
    app.addHook('preClose', async () => {
      await Promise.all([...tickers.values()].map((ticker) => ticker.stop()));
    });
    app.decorate('jobs', {
      names: [...tickers.keys()],
      tick: (name: string, now?: Date) => {
        const ticker = tickers.get(name);
        if (!ticker) return Promise.reject(new Error(`no enabled job ${name}`));
        return ticker.tick(now);
      },
    } satisfies TJobRunner);
  },
  { name: 'job-runner' },
);
