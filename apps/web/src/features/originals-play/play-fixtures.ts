import type { TLaunchResponse, TRound } from '@sorte/contract';
import { vi } from 'vitest';

/** A demo launch of an in-house game, as the game page hands it to a screen. */
export function launchOf(code: string): TLaunchResponse {
  return {
    url: `/originals/${code}?mode=demo`,
    mode: 'demo',
    balance: '1000.00',
    demo_token: 'demo-token-1',
    game: {
      id: '7',
      code,
      name: code,
      provider: 'sorte',
      provider_name: 'Sorte Originals',
      category: 'arcade',
      tags: [],
      rtp: '99.00',
      rtp_max: '99.00',
      min_bet: '0.10',
      max_bet: '5000.00',
      max_win: '500000.00',
      thumbnail: `/media/games/${code}.svg`,
      is_inhouse: true,
      has_demo: true,
    },
  };
}

/** A round as the server answers it; tests override what their game is about. */
export function roundOf(game: string, overrides: Partial<TRound>): TRound {
  return {
    id: '41',
    game,
    game_name: game,
    status: 'settled',
    demo: true,
    stake: '1.00',
    payout: '0.00',
    win_loss: '-1.00',
    multiplier: '0.0000',
    params: {},
    outcome: {},
    fairness: { server_seed_hash: 'ab'.repeat(32), server_seed: null, client_seed: 'seed', nonce: 3 },
    created_at: '2026-11-23T03:00:00.000Z',
    settled_at: '2026-11-23T03:00:00.000Z',
    ...overrides,
  };
}

/** Animations run to their end at the next tick, so a test sees the server's result at once. */
export function instantFrames() {
  vi.stubGlobal('requestAnimationFrame', (step: FrameRequestCallback) =>
    setTimeout(() => step(performance.now() + 60_000), 0),
  );
  vi.stubGlobal('cancelAnimationFrame', (id: number) => clearTimeout(id));
}
