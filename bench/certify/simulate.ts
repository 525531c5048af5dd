import { createFloatStream, sha256Hex } from '@sorte/fairness';
import { modeById } from './modes.ts';
import { addRound, emptyTally, type Tally } from './stats.ts';

/**
 * Plays `count` rounds of one mode from round `from` on, the way production draws them: seeded
 * games under one server seed and client seed with the nonce counting up; crash along a hash chain.
 * Deterministic, so a chunk can be re-run anywhere and two runs of the same size agree.
 */
export function simulateChunk(
  modeId: string,
  from: number,
  count: number,
  onProgress?: (done: number) => void,
): Tally {
  const mode = modeById(modeId);
  const tally = emptyTally(mode.probabilities.length);
  const serverSeed = sha256Hex(`sorte-certify:${modeId}`);
  const clientSeed = 'sorte-certify';
  let hash = sha256Hex(`sorte-certify-chain:${modeId}:${from}`);
  const step = Math.max(1, Math.floor(count / 20));
  for (let i = 0; i < count; i++) {
    let result: [number, number];
    if (mode.source === 'chain') {
      hash = sha256Hex(hash);
      result = mode.play(hash);
    } else {
      const seeds = { serverSeed, clientSeed, nonce: from + i };
      result = mode.play(() => createFloatStream(seeds));
    }
    addRound(tally, result[0], result[1]);
    if (onProgress && (i + 1) % step === 0) onProgress(i + 1);
  }
  return tally;
}
