import type { TGame } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { mockApi, ok, type TMockCall } from '../../../test/api-mock.ts';
import { GamesRoute, SearchRoute, VideoRoute } from './lobby-page.tsx';

vi.mock('../../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

const game = (id: string, name: string, category: TGame['category'] = 'card'): TGame => ({
  id,
  code: name.toLowerCase().replace(/\W+/g, '-'),
  name,
  provider: 'sorte',
  provider_name: 'Sorte Originals',
  category,
  tags: ['new'],
  rtp: '97.30',
  rtp_max: '97.30',
  min_bet: '0.10',
  max_bet: '5000.00',
  max_win: '500000.00',
  thumbnail: `/media/games/${id}.svg`,
  is_inhouse: true,
  has_demo: true,
});

const page = (list: TGame[]) => ({ list, total: list.length, page: 1, page_size: 24, last_page: 1 });

function renderLobby(
  path: string,
  element: React.ReactElement,
  list: (call: TMockCall) => TGame[] = () => [],
) {
  const api = mockApi({
    'GET /api/games/listsv2': (call) => ({ body: ok(page(list(call))) }),
    'GET /api/games/apisv2': () => ({ body: ok({ list: [{ code: 'sorte', name: 'Sorte Originals' }] }) }),
    'POST /api/games/follow': () => ({ body: ok({ list: [game('7', 'Hi-Lo')] }) }),
  });
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, ...api };
}

const listCalls = (calls: TMockCall[]) => calls.filter((call) => call.url.pathname === '/api/games/listsv2');

describe('games lobby', () => {
  it('shows a member the favourites tab right after "All" and lists the favourites', async () => {
    setToken('player-token');
    renderLobby('/game?category=favorites', <GamesRoute />);
    const tabs = within(screen.getByRole('tablist')).getAllByRole('tab');
    expect(tabs.slice(0, 3).map((tab) => tab.textContent)).toEqual(['All', 'Favorites', 'Slots']);
    expect(tabs[1]?.getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('Hi-Lo')).toBeTruthy();
    // The favourites list is not the catalogue: no provider or tag filter.
    expect(screen.queryByLabelText('Provider')).toBeNull();
  });

  it('says the favourites failed to load (not "none yet") and loads them on retry', async () => {
    setToken('player-token');
    let failing = true;
    mockApi({
      'GET /api/games/apisv2': () => ({ body: ok({ list: [] }) }),
      'POST /api/games/follow': () =>
        failing
          ? { status: 500, body: { status: 'fail', code: 'INTERNAL', message: 'Server error', data: null } }
          : { body: ok({ list: [game('7', 'Hi-Lo')] }) },
    });
    const router = createMemoryRouter([{ path: '*', element: <GamesRoute /> }], {
      initialEntries: ['/game?category=favorites'],
    });
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('Load Fail');
    expect(screen.queryByText(/No favorite games yet/)).toBeNull();
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hi-Lo')).toBeTruthy();
  });

  it('offers a guest no favourites tab', async () => {
    renderLobby('/game', <GamesRoute />);
    expect(await screen.findByRole('tab', { name: 'All' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Favorites' })).toBeNull();
  });

  it('shows the popular / new releases filter a home "More" link sets, and lets the player undo it', async () => {
    const { calls, router } = renderLobby('/game?tag=new', <GamesRoute />, () => [game('3', 'Baccarat')]);
    const filter = (await screen.findByTestId('lobby-tag')) as HTMLSelectElement;
    expect(filter.value).toBe('new');
    expect(filter.selectedOptions[0]?.textContent).toBe('New releases');
    await waitFor(() => expect(listCalls(calls).at(-1)?.url.searchParams.get('tag')).toBe('new'));

    await userEvent.selectOptions(filter, '');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(listCalls(calls).at(-1)?.url.searchParams.get('tag')).toBeNull());
  });

  it('keeps the tag when the player changes the category', async () => {
    const { router } = renderLobby('/game?tag=popular', <GamesRoute />);
    await userEvent.click(await screen.findByRole('tab', { name: 'Slots' }));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('category')).toBe('slots');
    expect(params.get('tag')).toBe('popular');
  });

  it('opens "table games" as the card category', async () => {
    const { calls } = renderLobby('/game?category=table', <GamesRoute />, () => [game('4', 'Blackjack')]);
    expect(await screen.findByText('Blackjack')).toBeTruthy();
    expect(listCalls(calls).at(-1)?.url.searchParams.get('category')).toBe('card');
    expect(screen.getByRole('tab', { name: 'Card games' }).getAttribute('aria-selected')).toBe('true');
  });

  it('lists live casino games only on /video, without category tabs', async () => {
    const { calls } = renderLobby('/video', <VideoRoute />, () => [
      game('5', 'Live Roulette', 'live_casino'),
    ]);
    expect(await screen.findByText('Live Roulette')).toBeTruthy();
    expect(listCalls(calls).at(-1)?.url.searchParams.get('category')).toBe('live_casino');
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  it('pages through the catalogue from the top of the next page', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const api = mockApi({
      'GET /api/games/listsv2': (call) => {
        const current = Number(call.url.searchParams.get('page') ?? '1');
        return {
          body: ok({ ...page([game(String(current), `Game ${current}`)]), page: current, last_page: 3 }),
        };
      },
      'GET /api/games/apisv2': () => ({ body: ok({ list: [] }) }),
    });
    const router = createMemoryRouter([{ path: '*', element: <GamesRoute /> }], {
      initialEntries: ['/game'],
    });
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Game 2', { selector: '.game-tile__name' })).toBeTruthy();
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2');
    expect(listCalls(api.calls).at(-1)?.url.searchParams.get('page')).toBe('2');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('searches by name and says so when nothing matches', async () => {
    const { calls } = renderLobby('/searchGames', <SearchRoute />, (call) =>
      call.url.searchParams.get('name') === 'dice' ? [game('2', 'Dice', 'arcade')] : [],
    );
    await userEvent.type(await screen.findByTestId('search-input'), 'dice');
    expect(await screen.findByText('Dice', { selector: '.game-tile__name' })).toBeTruthy();
    await userEvent.clear(screen.getByTestId('search-input'));
    await userEvent.type(screen.getByTestId('search-input'), 'zzz');
    await waitFor(() => expect(listCalls(calls).at(-1)?.url.searchParams.get('name')).toBe('zzz'));
    expect((await screen.findByRole('status')).textContent).toBe('No games match your search');
  });
});
