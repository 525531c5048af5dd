import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { readFrameMessage } from './frame-messages.ts';
import { ThirdPartyPage } from './third-party-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const GAME_URL = 'http://127.0.0.1:4020/games/aurora-golden-macaw?session=abcdefghijklmnopqrstuvwxyz012345';
const launch = (mode: 'real' | 'demo') => ({
  game_url: GAME_URL,
  mode,
  balance: mode === 'real' ? '100.00' : null,
  game: {
    code: 'aurora-golden-macaw',
    name: 'Golden Macaw',
    provider_name: 'Aurora Gaming',
    category: 'slots',
  },
});

function renderPage(path: string) {
  listening = vi.spyOn(window, 'addEventListener');
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <ThirdPartyPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

let listening: { mock: { calls: unknown[][] } } | undefined;

/** Posts as the provider frame would, once the page listens (effects run after the first paint). */
async function post(data: unknown, origin = 'http://127.0.0.1:4020') {
  await waitFor(() => expect(listening?.mock.calls.some(([type]) => type === 'message')).toBe(true));
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }));
  });
}

afterEach(() => {
  queryClient.clear();
  setToken(null);
});

describe('third-party game page', () => {
  it('frames the provider page for a member and re-reads the balance when the game says a round ended', async () => {
    setToken('player-token');
    let money = '100.00';
    const api = mockApi({
      'POST /api/providers/launch': () => ({ body: ok(launch('real')) }),
      'POST /api/auth/me': () => ({ body: ok(makeUser({ money })) }),
    });
    renderPage('/play?game=aurora-golden-macaw');
    const frame = await screen.findByTestId('third-party-frame');
    expect(frame.getAttribute('src')).toBe(GAME_URL);
    expect(screen.getByText('by Aurora Gaming')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('game-balance').textContent).toBe('R$100.00'));
    const launchCall = api.calls.find((c) => c.url.pathname === '/api/providers/launch');
    expect(launchCall?.body).toEqual({ game: 'aurora-golden-macaw' });

    money = '97.50';
    // Another window's message changes nothing; the provider's does.
    await post({ type: 'sorte:game', event: 'balance', balance: '1.00', mode: 'real' }, 'http://evil.test');
    await post({ type: 'sorte:game', event: 'balance', balance: '97.50', mode: 'real' });
    await waitFor(() => expect(screen.getByTestId('game-balance').textContent).toBe('R$97.50'));
  });

  it('shows the fun money the provider reports in demo mode', async () => {
    mockApi({ 'POST /api/providers/launch': () => ({ body: ok(launch('demo')) }) });
    renderPage('/play?game=aurora-golden-macaw&mode=demo');
    await screen.findByTestId('third-party-frame');
    expect(screen.getByTestId('game-balance').textContent).toContain('—');
    await post({ type: 'sorte:game', event: 'balance', balance: '1995.00', mode: 'demo' });
    await waitFor(() => expect(screen.getByTestId('game-balance').textContent).toBe('R$1,995.00(fun money)'));
  });

  it('says why a game cannot open and leads back to the lobby', async () => {
    mockApi({
      'POST /api/providers/launch': () => ({
        status: 503,
        body: fail(
          'PROVIDER_UNAVAILABLE',
          'The game provider is not reachable right now. Please try again shortly',
        ),
      }),
    });
    renderPage('/play?game=aurora-golden-macaw');
    expect((await screen.findByRole('alert')).textContent).toContain('not reachable');
    expect(screen.queryByTestId('third-party-frame')).toBeNull();
    expect(screen.getAllByTestId('back-to-lobby').length).toBeGreaterThan(0);
  });
});

describe('frame messages', () => {
  it('are read only from the game page origin and in the agreed shape', () => {
    const event = (data: unknown, origin: string) => new MessageEvent('message', { data, origin });
    expect(
      readFrameMessage(
        event({ type: 'sorte:game', event: 'balance', balance: '1.00' }, 'http://127.0.0.1:4020'),
        GAME_URL,
      ),
    ).toEqual({
      type: 'sorte:game',
      event: 'balance',
      balance: '1.00',
    });
    expect(
      readFrameMessage(event({ type: 'sorte:game', event: 'balance' }, 'http://127.0.0.1:4021'), GAME_URL),
    ).toBeNull();
    expect(readFrameMessage(event({ type: 'other' }, 'http://127.0.0.1:4020'), GAME_URL)).toBeNull();
    expect(
      readFrameMessage(event({ type: 'sorte:game', event: 'balance' }, 'http://127.0.0.1:4020'), 'not a url'),
    ).toBeNull();
  });
});
