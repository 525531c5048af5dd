import type { FastifyInstance } from 'fastify';

/**
 * A background job of a server process: `work` runs every `everyMs` once the server starts (when it
 * listens, or with `start: 'ready'` as soon as the app is ready), never twice at once (a tick that
 * finds the previous run still going is skipped), and stops when the app closes. A failed run is
 * logged under `failure`; the next tick tries again (every job here is keyed or resumable, so a
 * second process running it too, or a retry, changes nothing twice).
 */
export function repeatingJob(
  app: FastifyInstance,
  options: {
    everyMs: number;
    failure: string;
    /** Also run once right away (default: first run after `everyMs`). */
    runAtStart?: boolean;
    /** 'listen' (default): only a server that takes requests runs it; 'ready': inject-only apps too. */
    start?: 'listen' | 'ready';
    level?: 'error' | 'warn';
  },
  work: () => Promise<unknown>,
): void {
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await work();
    } catch (error) {
      app.log[options.level ?? 'error']({ err: error }, options.failure);
    } finally {
      running = false;
    }
  };
  app.addHook(options.start === 'ready' ? 'onReady' : 'onListen', async () => {
    timer = setInterval(() => void tick(), options.everyMs);
    timer.unref();
    if (options.runAtStart) void tick();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
