import { parentPort } from 'node:worker_threads';
import { simulateChunk } from './simulate.ts';

/** A long-lived thread that plays chunks it is sent; posts progress, then each chunk's tally. */
parentPort?.on('message', (task: { id: number; modeId: string; from: number; count: number }) => {
  const tally = simulateChunk(task.modeId, task.from, task.count, (done) =>
    parentPort?.postMessage({ id: task.id, progress: done }),
  );
  parentPort?.postMessage({ id: task.id, tally });
});
