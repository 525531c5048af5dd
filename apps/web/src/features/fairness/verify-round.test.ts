import type { TRound } from '@sorte/contract';
import { crashPointHundredths, createHashChain, replayBet, sha256Hex } from '@sorte/fairness';
import { describe, expect, it } from 'vitest';
import { canonical, verifyRound } from './verify-round.ts';

const SEEDS = {
  serverSeed: 'a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
  clientSeed: 'player-chosen seed',
  nonce: 7,
};

/** A JSON copy with the keys in reverse order, as a database may hand them back. */
function reordered(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(reordered);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, child]) => [key, reordered(child)]),
    );
  }
  return value;
}

function settledRound(game: string, params: Record<string, unknown>, outcome: unknown): TRound {
  return {
    id: '41',
    game,
    game_name: game,
    status: 'settled',
    demo: false,
    stake: '1.00',
    payout: '0.00',
    win_loss: '-1.00',
    multiplier: '0.0000',
    params,
    outcome: outcome as Record<string, unknown>,
    fairness: {
      server_seed_hash: 'hash',
      server_seed: SEEDS.serverSeed,
      client_seed: SEEDS.clientSeed,
      nonce: SEEDS.nonce,
    },
    created_at: '2026-01-01T00:00:00.000Z',
    settled_at: '2026-01-01T00:00:00.000Z',
  };
}

describe('round verifier', () => {
  const bet = { direction: 'over' as const, target: 5000 };
  const stored = reordered(replayBet(SEEDS, { game: 'dice', bet }).result);

  it('matches a dice round recomputed from its seeds, whatever the key order of the stored outcome', () => {
    expect(verifyRound(settledRound('dice', { bet }, stored)).status).toBe('match');
  });

  it('reports a mismatch when the stored outcome was altered', () => {
    const altered = { ...(stored as Record<string, unknown>), roll: 12345 };
    expect(canonical(altered)).not.toBe(canonical(stored));
    expect(verifyRound(settledRound('dice', { bet }, altered)).status).toBe('mismatch');
  });

  it('reports a mismatch when the round claims other seeds', () => {
    const round = settledRound('dice', { bet }, stored);
    round.fairness!.client_seed = 'another seed';
    expect(verifyRound(round).status).toBe('mismatch');
  });

  it('replays roulette chips whose stakes were stored as text', () => {
    const bets = [{ type: 'red' as const, numbers: [], stakeMinor: 100n }];
    const result = replayBet(SEEDS, { game: 'roulette', bets }).result;
    const round = settledRound(
      'roulette',
      { bets: [{ type: 'red', numbers: [], stakeMinor: '100' }] },
      reordered(result),
    );
    expect(verifyRound(round).status).toBe('match');
  });

  it('waits for the seed to be revealed and refuses rounds it cannot replay', () => {
    const hidden = settledRound('dice', { bet }, stored);
    hidden.fairness!.server_seed = null;
    expect(verifyRound(hidden).status).toBe('unrevealed');
    expect(verifyRound({ ...settledRound('dice', { bet }, stored), status: 'active' }).status).toBe(
      'unsupported',
    );
    expect(verifyRound(settledRound('crash', {}, {})).status).toBe('unrevealed');
    // A third-party round has no seed pair: its results are the provider's.
    expect(verifyRound({ ...settledRound('aurora-lucky-lagoon', {}, {}), fairness: null }).status).toBe(
      'unsupported',
    );
  });

  it('verifies a crash bet by its place in the hash chain and its crash point', () => {
    const chain = createHashChain('0f'.repeat(32), 50);
    const position = 7; // round p of the chain is hashes[p - 1] (p hashes from the terminating one)
    const roundHash = chain.hashes[position - 1]!;
    const salt = 'a1'.repeat(16);
    const crash = crashPointHundredths(roundHash, salt);
    const point = `${Math.floor(crash / 100)}.${String(crash % 100).padStart(2, '0')}`;
    const outcome = {
      result: 'lost',
      crash_point: point,
      round_hash: roundHash,
      hash_commitment: sha256Hex(roundHash),
      chain_position: position,
      chain_length: 50,
      terminating_hash: chain.terminatingHash,
      public_salt: salt,
    };
    expect(verifyRound(settledRound('crash', {}, outcome))).toMatchObject({
      status: 'match',
      recomputed: { crash_point: point, chain_position: position },
    });
    // A crash point, a position or a hash that is not the chain's own does not verify.
    const wrongPoint = crash === 100 ? '1.01' : '1.00';
    expect(verifyRound(settledRound('crash', {}, { ...outcome, crash_point: wrongPoint })).status).toBe(
      'mismatch',
    );
    expect(verifyRound(settledRound('crash', {}, { ...outcome, chain_position: 8 })).status).toBe('mismatch');
    expect(verifyRound(settledRound('crash', {}, { ...outcome, round_hash: 'ab'.repeat(32) })).status).toBe(
      'mismatch',
    );
    // A bet cashed out while the round still runs has no revealed round hash yet.
    expect(verifyRound(settledRound('crash', {}, { ...outcome, round_hash: null })).status).toBe(
      'unrevealed',
    );
  });
});
