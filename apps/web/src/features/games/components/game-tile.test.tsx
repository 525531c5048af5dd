import type { TGame } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { modalStore } from '../../../lib/auth-modal.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { GameTile } from './game-tile.tsx';

vi.mock('../../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

const DICE: TGame = {
  id: '2',
  code: 'dice',
  name: 'Dice',
  provider: 'sorte',
  provider_name: 'Sorte Originals',
  category: 'arcade',
  tags: ['popular'],
  rtp: '99.00',
  rtp_max: '99.00',
  min_bet: '0.10',
  max_bet: '5000.00',
  max_win: '500000.00',
  thumbnail: '/media/games/dice.svg',
  is_inhouse: true,
  has_demo: true,
};

function renderTile() {
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <GameTile game={DICE} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return screen.getByTestId('favorite-toggle');
}

describe('favourite toggle', () => {
  it('asks a guest to log in and calls nothing', async () => {
    const api = mockApi({});
    const heart = renderTile();
    await userEvent.click(heart);
    expect(modalStore.get()).toBe('login');
    expect(api.calls.filter((call) => call.url.pathname.startsWith('/api/games/follow'))).toEqual([]);
  });

  it('fills the heart at once for a member and reloads the favourites when the server agrees', async () => {
    setToken('member-token');
    let favorites: TGame[] = [];
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    const api = mockApi({
      'POST /api/games/follow': () => ({ body: ok({ list: favorites }) }),
      'POST /api/games/follow/set': () => {
        favorites = [DICE];
        return { body: ok({ game_id: DICE.id, is_favorite: true }) };
      },
    });
    const fetchMock = api.fetchMock.getMockImplementation();
    // Hold the server's answer to the set call, to see the heart change before it arrives.
    api.fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/follow/set')) await answered;
      return fetchMock ? fetchMock(input, init) : new Response();
    });
    const heart = renderTile();
    await waitFor(() =>
      expect(api.calls.some((call) => call.url.pathname === '/api/games/follow')).toBe(true),
    );
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(heart);
    expect(heart.getAttribute('aria-pressed')).toBe('true');
    release();
    const set = await waitFor(() => {
      const call = api.calls.find((item) => item.url.pathname === '/api/games/follow/set');
      if (!call) throw new Error('not yet');
      return call;
    });
    expect(set.body).toEqual({ game_id: '2' });
    // Reloaded after the 200: two list calls in all, and the heart stays filled.
    await waitFor(() =>
      expect(api.calls.filter((call) => call.url.pathname === '/api/games/follow')).toHaveLength(2),
    );
    expect(heart.getAttribute('aria-pressed')).toBe('true');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it("says the server's reason when the favourite list is full", async () => {
    setToken('member-token');
    mockApi({
      'POST /api/games/follow': () => ({ body: ok({ list: [] }) }),
      'POST /api/games/follow/set': () => ({
        status: 422,
        body: fail('VALIDATION_FAILED', 'Error in setting favorite list'),
      }),
    });
    const heart = renderTile();
    await userEvent.click(heart);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error in setting favorite list'));
    expect(heart.getAttribute('aria-pressed')).toBe('false');
  });

  it('puts the heart back and says so when the server refuses', async () => {
    setToken('member-token');
    mockApi({
      'POST /api/games/follow': () => ({ body: ok({ list: [] }) }),
      'POST /api/games/follow/set': () => ({ status: 404, body: fail('NOT_FOUND', 'Game not found') }),
    });
    const heart = renderTile();
    await userEvent.click(heart);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error in setting favorite'));
    expect(heart.getAttribute('aria-pressed')).toBe('false');
  });
});
