import { afterEach } from 'vitest';
import { runningServerLogs } from './server.ts';

/**
 * A journey that fails (a timeout too) prints the tail of every server it has running: in CI the
 * log files are gone with the machine, and what the server said is most of what explains a failure.
 */
afterEach(({ task }) => {
  if (task.result?.state !== 'fail') return;
  for (const log of runningServerLogs()) console.error(log);
});
