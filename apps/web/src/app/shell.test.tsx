import type { TSiteData } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, createRoutesFromElements, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { unreachableStore } from '../lib/api-client.ts';
import { queryClient } from '../lib/query-client.ts';
import { getToken, setToken } from '../lib/storage.ts';
import { mockApi, ok } from '../test/api-mock.ts';
import { makeUser } from '../test/fixtures.ts';
import { routeTree } from './router.tsx';

vi.mock('../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

const SITE = {
  site: 'sorte',
  name: 'Sorte',
  logo: '/media/logo.svg',
  favicon: '/favicon.svg',
  jurisdiction: 'intl',
  currency: 'BRL',
  default_lang: 'en',
  languages: ['en', 'pt'],
  theme: { '--color-accent': '#ff0055', color: 'red' },
  banners: [{ id: 1, image: '/media/b1.jpg', title: { en: 'Welcome bonus', pt: 'Bônus' }, link: null }],
  categories: ['slots', 'live'],
  background_video: null,
  captcha_required: true,
  min_age: 18,
  telegram_link: null,
  registration: {
    requires_cpf: false,
    requires_birth_date: false,
    mandatory_limits: [],
    shows_risk_message: false,
  },
} satisfies TSiteData;

/** A stand-in for the browser's WebSocket: the shell's balance connection talks to it. */
class FakeSocket extends EventTarget {
  static all: FakeSocket[] = [];
  readonly sent: unknown[] = [];
  closed = false;
  constructor(readonly url: string) {
    super();
    FakeSocket.all.push(this);
    queueMicrotask(() => this.dispatchEvent(new Event('open')));
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
  }
  push(message: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});

function renderAt(path: string) {
  const api = mockApi({
    'GET /api/dynamicwebs/getdata': () => ({ body: ok(SITE) }),
    'GET /api/language/getList': () => ({ body: ok([]) }),
    'GET /api/socialmedialinks/get': () => ({ body: ok([]) }),
    'POST /api/auth/me': () => ({ body: ok(makeUser({ money: '12.50' })) }),
    'POST /api/profilepictures/user': () => ({ body: ok({ profileurl: null }) }),
    'POST /api/auth/logout': () => ({ body: ok(null) }),
    // An empty catalogue: the home tabs say so (a failed load would say 'Load Fail' instead).
    'GET /api/games/listsv2': () => ({
      body: ok({ list: [], total: 0, page: 1, page_size: 12, last_page: 1 }),
    }),
    // The deposit records page (issue 3) asks for the player's orders: none yet.
    'POST /api/recharge/list': () => ({ body: ok({ list: [], next: null, prev: null }) }),
  });
  const router = createMemoryRouter(createRoutesFromElements(routeTree), { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, ...api };
}

describe('player shell', () => {
  it('shows a guest the login and register buttons, navigation, banners and category tabs', async () => {
    renderAt('/');
    expect(await screen.findByTestId('open-login')).toBeTruthy();
    expect(screen.getByTestId('open-register')).toBeTruthy();
    expect(screen.getByTestId('bottom-nav')).toBeTruthy();
    expect(screen.getByTestId('side-menu')).toBeTruthy();
    expect(await screen.findByAltText('Welcome bonus')).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'Slots' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Live casino' })).toBeTruthy();
    // The grid is its own chunk; without games from the catalogue the tab says so.
    expect(await screen.findByText('No games in this category yet')).toBeTruthy();
    expect(screen.queryByTestId('header-balance')).toBeNull();
    // Only custom properties from the server's theme reach the page.
    await waitFor(() =>
      expect(document.documentElement.style.getPropertyValue('--color-accent')).toBe('#ff0055'),
    );
    expect(document.documentElement.style.getPropertyValue('color')).toBe('');
  });

  it('shows a logged-in player the balance and logs out from the user menu', async () => {
    setToken('t1');
    renderAt('/');
    const balance = await screen.findByTestId('header-balance');
    expect(balance.textContent).toBe('R$12.50');
    await userEvent.click(screen.getByTestId('user-menu'));
    // Responsible gaming is one tap away in the account menu.
    expect(screen.getByRole('menuitem', { name: 'Responsible gaming' }).getAttribute('href')).toBe(
      '/responsible-gaming',
    );
    await userEvent.click(screen.getByTestId('logout'));
    await waitFor(() => expect(screen.getByTestId('open-login')).toBeTruthy());
    expect(getToken()).toBeNull();
  });

  it('holds one balance socket for a logged-in player: pushes update the header, logout closes it', async () => {
    const { router } = renderAt('/');
    await screen.findByTestId('open-login');
    // A guest opens no socket.
    expect(FakeSocket.all).toHaveLength(0);

    act(() => setToken('t9'));
    const balance = await screen.findByTestId('header-balance');
    // The socket code is its own chunk, loaded once someone logs in: on a busy machine that takes a while.
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1), { timeout: 5000 });
    const socket = FakeSocket.all[0]!;
    await waitFor(() => expect(socket.sent).toEqual([{ type: 'auth', token: 't9' }]));
    act(() =>
      socket.push({
        type: 'balance',
        money: '62.50',
        fs_money: '0.00',
        ml_money: '0.00',
        total_money: '62.50',
        hold_money: '0.00',
        reason: 'game_win',
        order_no: null,
      }),
    );
    // A user info request still in flight is cancelled: it would answer the older figure.
    await waitFor(() => expect(balance.textContent).toBe('R$62.50'), { timeout: 3000 });

    // Moving between pages keeps the one connection.
    await act(() => router.navigate('/profile'));
    expect(await screen.findByTestId('profile-username', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId('header-balance').textContent).toBe('R$62.50');
    expect(FakeSocket.all).toHaveLength(1);

    await userEvent.click(screen.getByTestId('user-menu'));
    await userEvent.click(screen.getByTestId('logout'));
    await waitFor(() => expect(screen.getByTestId('open-login')).toBeTruthy());
    expect(socket.closed).toBe(true);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('opens the register and login modals as modal states, not routes', async () => {
    const { router } = renderAt('/');
    await userEvent.click(await screen.findByTestId('open-register'));
    // The first open downloads the form chunk (zod and the contract schemas).
    const modal = await screen.findByTestId('register-modal', {}, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/');
    await userEvent.click(within(modal).getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('login-modal', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByTestId('register-modal')).toBeNull();
  });

  it('frames a later-issue page: a guest is asked to log in, a player sees the empty state', async () => {
    renderAt('/rechargeRecord');
    expect(await screen.findByRole('heading', { name: 'Deposit records' })).toBeTruthy();
    expect(screen.getByText('currently not logged in, please log in first')).toBeTruthy();
    act(() => setToken('t2'));
    expect(await screen.findByText('No records found')).toBeTruthy();
  });

  it('shows the profile with the username', async () => {
    setToken('t3');
    renderAt('/profile');
    expect((await screen.findByTestId('profile-username')).textContent).toBe('maria_01');
    expect(screen.getByText('Maria Silva')).toBeTruthy();
    expect(screen.getByText('AB12CD')).toBeTruthy();
  });

  it('shows the login page and a 404 for unknown paths', async () => {
    renderAt('/login');
    expect(await screen.findByTestId('login-page')).toBeTruthy();
    cleanupAndRender('/no-such-page');
    expect(await screen.findByText('Page not found')).toBeTruthy();
  });

  it('scrolls to the top on every navigation', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const { router } = renderAt('/');
    await screen.findByTestId('open-login');
    scrollTo.mockClear();
    await act(() => router.navigate('/promotion/vip'));
    // A lazy page too: on a busy machine its chunk may still be loading when act() returns.
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 0));
    scrollTo.mockClear();
    await act(() => router.navigate('/game'));
    // The lobby is its own chunk: the new page commits (and scrolls) once it has loaded.
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 0));
  });

  it('opens the section a footer legal link points at on the support page', async () => {
    renderAt('/information-center/support#terms');
    const terms = await screen.findByText('Terms and conditions', { selector: 'summary' });
    expect(terms.closest('details')?.open).toBe(true);
    expect(screen.getByText(/Terms updates are announced at least two weeks ahead/)).toBeTruthy();
    expect(screen.getByText('Privacy policy', { selector: 'summary' }).closest('details')?.open).toBe(false);
  });

  it('shows the offline notice while the browser is offline', async () => {
    renderAt('/');
    await screen.findByTestId('open-login');
    expect(screen.queryByTestId('offline-notice')).toBeNull();
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByTestId('offline-notice').textContent).toContain('You are offline');
    online.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByTestId('offline-notice')).toBeNull();
  });
});

describe('the offline notice when the server cannot be reached', () => {
  it('shows while requests fail before any answer, though navigator.onLine says online', async () => {
    renderAt('/');
    await screen.findByTestId('open-login');
    act(() => {
      unreachableStore.set(true);
    });
    expect(screen.getByTestId('offline-notice').textContent).toContain('You are offline');
    act(() => {
      unreachableStore.set(false);
    });
    expect(screen.queryByTestId('offline-notice')).toBeNull();
  });
});

function cleanupAndRender(path: string) {
  cleanup();
  renderAt(path);
}
