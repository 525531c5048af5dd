import type { TRound } from '@sorte/contract';
import {
  crashPointHundredths,
  crashSaltFromSeeds,
  createHashChain,
  createSeedPair,
  createServerSeed,
  replayBet,
  rotateSeeds,
  sha256Hex,
} from '@sorte/fairness';
import { describe, expect, it } from 'vitest';
import {
  canonical,
  verifyChainSalt,
  verifyRound,
  verifySeedHistory,
  verifySeedRotation,
} from './verify-round.ts';

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
      server_seed_hash: sha256Hex(SEEDS.serverSeed),
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

  it('reports a mismatch when the revealed seed is not the one its commitment named', () => {
    const round = settledRound('dice', { bet }, stored);
    round.fairness!.server_seed_hash = sha256Hex(createServerSeed());
    expect(verifyRound(round)).toMatchObject({
      status: 'mismatch',
      recomputed: { server_seed_hash: sha256Hex(SEEDS.serverSeed) },
    });
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
    // On a ceremony chain the salt must also come from its published client seeds.
    const seeds = ['first bettor', 'second: bettor'];
    const ceremonySalt = crashSaltFromSeeds(chain.terminatingHash, seeds);
    const ceremonyCrash = crashPointHundredths(roundHash, ceremonySalt);
    const ceremony = {
      ...outcome,
      crash_point: `${Math.floor(ceremonyCrash / 100)}.${String(ceremonyCrash % 100).padStart(2, '0')}`,
      public_salt: ceremonySalt,
      salt_source: 'bets',
      salt_inputs: seeds,
    };
    expect(verifyRound(settledRound('crash', {}, ceremony))).toMatchObject({
      status: 'match',
      recomputed: { salt_verified: true },
    });
    expect(
      verifyRound(settledRound('crash', {}, { ...ceremony, salt_inputs: ['first bettor'] })),
    ).toMatchObject({
      status: 'mismatch',
      recomputed: { salt_verified: false },
    });
    // A bet cashed out while the round still runs has no revealed round hash yet.
    expect(verifyRound(settledRound('crash', {}, { ...outcome, round_hash: null })).status).toBe(
      'unrevealed',
    );
  });
});

describe('seed commitments on the fairness page', () => {
  const NEXT = 'e3b7c5a1d9f20486b1c3e5a7d9f1b3c5e7a9d1f3b5c7e9a1d3f5b7c9e1a3d5f7';
  const pair = createSeedPair('mine', SEEDS.serverSeed, NEXT);
  const shown = { server_seed_hash: pair.serverSeedHash, next_server_seed_hash: pair.nextServerSeedHash };

  it('accepts a rotation that revealed the shown seed and activated the shown next seed', () => {
    const { revealed, current } = rotateSeeds(pair, 'chosen after');
    const after = {
      revealed: { server_seed: revealed.serverSeed },
      current: { server_seed_hash: current.serverSeedHash },
    };
    expect(verifySeedRotation(shown, after)).toBe('match');
    // A server that drew another seed after seeing the client seed is caught…
    const regrind = { ...after, current: { server_seed_hash: sha256Hex(createServerSeed()) } };
    expect(verifySeedRotation(shown, regrind)).toBe('mismatch');
    // …and so is a revealed seed that is not the one the active hash committed to.
    expect(verifySeedRotation(shown, { ...after, revealed: { server_seed: NEXT } })).toBe('mismatch');
  });

  it('checks the revealed history: each seed against its hash and the next hash shown before it', () => {
    let live = pair;
    const revealed: {
      server_seed: string;
      server_seed_hash: string;
      next_server_seed_hash: string | null;
    }[] = [];
    for (let i = 0; i < 3; i++) {
      const rotation = rotateSeeds(live, `seed ${i}`);
      revealed.unshift({
        server_seed: rotation.revealed.serverSeed,
        server_seed_hash: rotation.revealed.serverSeedHash,
        next_server_seed_hash: rotation.revealed.nextServerSeedHash,
      });
      live = rotation.current;
    }
    expect(verifySeedHistory(revealed)).toEqual(['linked', 'linked', 'match']);
    const swapped = [
      { ...revealed[0]!, server_seed: NEXT, server_seed_hash: sha256Hex(NEXT) },
      ...revealed.slice(1),
    ];
    expect(verifySeedHistory(swapped)).toEqual(['mismatch', 'linked', 'match']);
    const wrongSeed = [{ ...revealed[0]!, server_seed: NEXT }, ...revealed.slice(1)];
    expect(verifySeedHistory(wrongSeed)[0]).toBe('mismatch');
    // A pair from before the next-seed commitment showed no next hash: its successor only matches.
    const legacy = [revealed[0]!, { ...revealed[1]!, next_server_seed_hash: null }];
    expect(verifySeedHistory(legacy)).toEqual(['match', 'match']);
  });

  it('recomputes a crash chain salt from its published seeds', () => {
    const terminating = createHashChain('0f'.repeat(32), 5).terminatingHash;
    const inputs = [
      { bet_id: '7', client_seed: 'alpha' },
      { bet_id: '9', client_seed: 'beta' },
    ];
    const chain = {
      terminating_hash: terminating,
      salt: crashSaltFromSeeds(terminating, ['alpha', 'beta']),
      salt_source: 'bets' as const,
      salt_inputs: inputs,
    };
    expect(verifyChainSalt(chain)).toBe('match');
    expect(verifyChainSalt({ ...chain, salt_inputs: [...inputs].reverse() })).toBe('mismatch');
    expect(verifyChainSalt({ ...chain, salt: null, salt_inputs: [] })).toBe('pending');
    expect(verifyChainSalt({ ...chain, salt_source: 'server', salt_inputs: [] })).toBe('server');
  });
});
