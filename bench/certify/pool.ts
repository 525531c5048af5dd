import { Worker } from 'node:worker_threads';
import { simulateChunk } from './simulate.ts';
import { emptyTally, mergeTallies, type Tally } from './stats.ts';

export interface Chunk {
  modeId: string;
  from: number;
  count: number;
}

/**
 * Runs chunks on `threads` worker threads (0: in this thread, as the smoke test does) and returns
 * their tallies in the order given. `onDone` sees each chunk as it finishes, for progress lines.
 */
export async function runChunks(
  chunks: readonly Chunk[],
  threads: number,
  onDone: (index: number, tally: Tally) => void = () => {},
): Promise<Tally[]> {
  const results: Tally[] = new Array(chunks.length);
  if (threads <= 0) {
    chunks.forEach((c, i) => {
      results[i] = simulateChunk(c.modeId, c.from, c.count);
      onDone(i, results[i]!);
    });
    return results;
  }
  let nextIndex = 0;
  const workers = Array.from({ length: Math.min(threads, chunks.length) }, () => startWorker());
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const feed = () => {
              if (nextIndex >= chunks.length) return resolve();
              const id = nextIndex++;
              worker.postMessage({ id, ...chunks[id]! });
            };
            worker.on('message', (msg: { id: number; tally?: Tally }) => {
              if (!msg.tally) return;
              results[msg.id] = msg.tally;
              onDone(msg.id, msg.tally);
              feed();
            });
            worker.on('error', reject);
            feed();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}

/**
 * A worker thread does not inherit the TypeScript loader of the main thread (Node 20), so each one
 * registers tsx itself before loading the worker module.
 */
function startWorker(): Worker {
  const url = new URL('./sim-worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url)}); })`;
  return new Worker(boot, { eval: true });
}

/** Splits `rounds` of a mode into `parts` chunks of consecutive nonces. */
export function chunksOf(modeId: string, rounds: number, parts: number): Chunk[] {
  const size = Math.ceil(rounds / parts);
  const chunks: Chunk[] = [];
  for (let from = 0; from < rounds; from += size) {
    chunks.push({ modeId, from, count: Math.min(size, rounds - from) });
  }
  return chunks;
}

export function mergeAll(tallies: readonly Tally[], bins: number): Tally {
  return tallies.reduce(mergeTallies, emptyTally(bins));
}
