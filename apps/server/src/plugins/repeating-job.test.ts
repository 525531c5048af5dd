import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { repeatingJob } from './repeating-job.ts';

/** A job whose runs the test finishes itself. */
function controlledJob() {
  const runs: { finish: (error?: Error) => void }[] = [];
  const work = () =>
    new Promise<void>((resolve, reject) => {
      runs.push({ finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { runs, work };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('repeatingJob', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs on start when asked, every interval after, never two runs at once, and stops on close', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const app = Fastify();
    const { runs, work } = controlledJob();
    repeatingJob(app, { everyMs: 1_000, failure: 'test job failed', runAtStart: true }, work);
    await app.listen({ port: 0, host: '127.0.0.1' });
    expect(runs).toHaveLength(1);

    // The first run is still going: the ticks meanwhile are skipped.
    vi.advanceTimersByTime(3_000);
    expect(runs).toHaveLength(1);
    runs[0]!.finish();
    await settle();
    vi.advanceTimersByTime(1_000);
    expect(runs).toHaveLength(2);
    runs[1]!.finish();
    await settle();

    await app.close();
    vi.advanceTimersByTime(10_000);
    expect(runs).toHaveLength(2);
  });

  it('logs a failed run and runs again at the next tick', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const app = Fastify();
    const logged: unknown[] = [];
    const { runs, work } = controlledJob();
    repeatingJob(app, { everyMs: 500, failure: 'test job failed', level: 'warn' }, work);
    await app.listen({ port: 0, host: '127.0.0.1' });
    app.log.warn = ((entry: unknown, message: string) => logged.push([entry, message])) as never;
    expect(runs).toHaveLength(0);
    vi.advanceTimersByTime(500);
    runs[0]!.finish(new Error('database down'));
    await settle();
    expect(logged).toHaveLength(1);
    expect((logged[0] as [unknown, string])[1]).toBe('test job failed');
    vi.advanceTimersByTime(500);
    expect(runs).toHaveLength(2);
    runs[1]!.finish();
    await app.close();
  });

  it("with start 'ready' runs in an app that never listens; by default only a listening server runs it", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const ready = Fastify();
    const listening = Fastify();
    const onReady = controlledJob();
    const onListen = controlledJob();
    repeatingJob(ready, { everyMs: 100, failure: 'x', start: 'ready' }, onReady.work);
    repeatingJob(listening, { everyMs: 100, failure: 'x' }, onListen.work);
    await ready.ready();
    await listening.ready();
    vi.advanceTimersByTime(100);
    expect(onReady.runs).toHaveLength(1);
    expect(onListen.runs).toHaveLength(0);
    onReady.runs[0]!.finish();
    await ready.close();
    await listening.close();
  });
});
