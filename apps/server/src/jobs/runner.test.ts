import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testConfig } from '../config.ts';
import { jobRunnerPlugin, periodStart, type TJob } from './runner.ts';

/** A job whose runs the test finishes itself. */
function controlledJob(overrides: Partial<TJob> = {}) {
  const runs: { finish: (error?: Error) => void }[] = [];
  const job: TJob = {
    name: 'test-job',
    does: 'waits for the test',
    everyMs: 1_000,
    claim: { keyed: 'a test job' },
    start: 'ready',
    run: () =>
      new Promise<void>((resolve, reject) => {
        runs.push({ finish: (error) => (error ? reject(error) : resolve()) });
      }),
    ...overrides,
  };
  return { runs, job };
}

async function appWith(jobs: TJob[], config = testConfig()) {
  const app = Fastify();
  app.decorate('services', { config } as never);
  await app.register(jobRunnerPlugin, { jobs });
  return app;
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the job runner', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never starts a tick while the previous one still runs, however slow it is', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { runs, job } = controlledJob({ runAtStart: true });
    const app = await appWith([job]);
    await app.ready();
    expect(runs).toHaveLength(1);

    // The first run takes longer than three periods: the timer's ticks and a direct tick are skipped.
    vi.advanceTimersByTime(3_000);
    expect(await app.jobs.tick('test-job')).toBe('still-running');
    expect(runs).toHaveLength(1);
    runs[0]!.finish();
    await settle();
    vi.advanceTimersByTime(1_000);
    expect(runs).toHaveLength(2);
    runs[1]!.finish();
    await settle();
    await app.close();
  });

  it('stops on close: the timer is cleared, a run in progress is waited for, none starts after', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { runs, job } = controlledJob();
    const app = await appWith([job]);
    await app.ready();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(runs).toHaveLength(1);

    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await settle();
    expect(closed).toBe(false);
    runs[0]!.finish();
    await closing;
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(runs).toHaveLength(1);
    expect(await app.jobs.tick('test-job')).toBe('stopped');
  });

  it('logs a failed run with its job name and runs again at the next tick', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { runs, job } = controlledJob({ level: 'warn' });
    const app = await appWith([job]);
    const logged: unknown[][] = [];
    app.log.warn = ((entry: unknown, message: string) => logged.push([entry, message])) as never;
    await app.ready();
    vi.advanceTimersByTime(1_000);
    runs[0]!.finish(new Error('database down'));
    await settle();
    expect(logged).toHaveLength(1);
    expect(logged[0]![0]).toMatchObject({ job: 'test-job' });
    expect(logged[0]![1]).toBe('test-job failed: waits for the test');
    vi.advanceTimersByTime(1_000);
    expect(runs).toHaveLength(2);
    runs[1]!.finish();
    await app.close();
  });

  it("starts 'ready' jobs in an app that never listens, 'listen' jobs only in a listening one", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const onReady = controlledJob({ name: 'on-ready' });
    const onListen = controlledJob({ name: 'on-listen', start: 'listen' });
    const injected = await appWith([onReady.job, onListen.job]);
    await injected.ready();
    vi.advanceTimersByTime(1_000);
    expect(onReady.runs).toHaveLength(1);
    expect(onListen.runs).toHaveLength(0);
    onReady.runs[0]!.finish();
    await injected.close();

    const listened = controlledJob({ name: 'on-listen', start: 'listen' });
    const server = await appWith([listened.job]);
    await server.listen({ port: 0, host: '127.0.0.1' });
    vi.advanceTimersByTime(1_000);
    expect(listened.runs).toHaveLength(1);
    listened.runs[0]!.finish();
    await server.close();
  });

  it('leaves out a job its configuration switches off', async () => {
    const on = controlledJob({ name: 'community-on' });
    const off = controlledJob({ name: 'community-off', enabled: (config) => config.COMMUNITY_JOBS });
    const app = await appWith([on.job, off.job], testConfig({ COMMUNITY_JOBS: false }));
    await app.ready();
    expect(app.jobs.names).toEqual(['community-on']);
    await expect(app.jobs.tick('community-off')).rejects.toThrow('no enabled job community-off');
    await app.close();
  });

  it('refuses declarations that would misbehave: a name twice, a bad name, a period shorter than its tick', async () => {
    const a = controlledJob().job;
    await expect(appWith([a, { ...a }])).rejects.toThrow('declared twice');
    await expect(appWith([{ ...a, name: 'Bad name' }])).rejects.toThrow('is not');
    await expect(appWith([{ ...a, claim: { periodMs: 500 } }])).rejects.toThrow('would skip periods');
  });

  it('aligns a claimed period to the epoch, so every process names the same one', () => {
    const hour = 60 * 60_000;
    expect(periodStart(hour, new Date('2026-12-02T03:59:59.999Z')).toISOString()).toBe(
      '2026-12-02T03:00:00.000Z',
    );
    expect(periodStart(hour, new Date('2026-12-02T04:00:00.000Z')).toISOString()).toBe(
      '2026-12-02T04:00:00.000Z',
    );
  });
});
