import { closeSync, openSync, writeSync } from 'node:fs';
import { betBytes, sha256Hex } from '@sorte/fairness';

/**
 * The raw generator output: exactly the bytes the games turn into floats. For nonce 0, 1, 2 … under
 * one server seed and client seed, rounds (the cursor) 0 and 1 of HMAC-SHA256(serverSeed,
 * "clientSeed:nonce:round"), 64 bytes per bet, concatenated: what a lab feeds to dieharder, ent and
 * the NIST suite.
 */
export const STREAM_SERVER_SEED = sha256Hex('sorte-certify:raw-stream');
export const STREAM_CLIENT_SEED = 'sorte-certify';
export const ROUNDS_PER_BET = 2;

export function streamBytes(fromNonce: number, bets: number): Uint8Array {
  const out = new Uint8Array(bets * 32 * ROUNDS_PER_BET);
  for (let i = 0; i < bets; i++) {
    const seeds = { serverSeed: STREAM_SERVER_SEED, clientSeed: STREAM_CLIENT_SEED, nonce: fromNonce + i };
    for (let round = 0; round < ROUNDS_PER_BET; round++) {
      out.set(betBytes(seeds, round), (i * ROUNDS_PER_BET + round) * 32);
    }
  }
  return out;
}

/** Writes `bytes` bytes of the stream to `file` in 1 MiB blocks. */
export function writeStream(file: string, bytes: number, onProgress?: (written: number) => void): void {
  const perBet = 32 * ROUNDS_PER_BET;
  const blockBets = (1 << 20) / perBet;
  const fd = openSync(file, 'w');
  try {
    let written = 0;
    let nonce = 0;
    while (written < bytes) {
      const block = streamBytes(nonce, blockBets);
      const take = Math.min(block.length, bytes - written);
      writeSync(fd, block, 0, take);
      written += take;
      nonce += blockBets;
      onProgress?.(written);
    }
  } finally {
    closeSync(fd);
  }
}
