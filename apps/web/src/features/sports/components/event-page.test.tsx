import type { TSportsEvent, TSportsMarket } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { EMPTY_SLIP, slipStore } from '../slip/slip-state.ts';
import EventPage from './event-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

/** A stand-in for the browser's WebSocket: the test plays the server's side. */
class FakeSocket extends EventTarget {
  static all: FakeSocket[] = [];
  sent: string[] = [];
  constructor(readonly url: string) {
    super();
    FakeSocket.all.push(this);
    queueMicrotask(() => this.dispatchEvent(new Event('open')));
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {}
  push(message: unknown) {
    const event = new MessageEvent('message', { data: JSON.stringify(message) });
    this.dispatchEvent(event);
  }
}

const market = (id: string, type: TSportsMarket['type'], codes: string[], odds: string[]): TSportsMarket => ({
  id,
  type,
  status: 'open',
  margin: '0.06',
  selections: codes.map((code, index) => ({
    id: `${id}${index}`,
    code,
    odds: odds[index] ?? '2.00',
    result: null,
  })),
});

const EVENT: TSportsEvent = {
  id: '91',
  competition_id: '1',
  competition_name: 'Brasileirão Série A',
  round: 10,
  home_team: 'Fluminense FC',
  away_team: 'CR Vasco da Gama',
  kickoff_at: '2026-11-25T21:30:00.000Z',
  status: 'scheduled',
  score: null,
  markets: [
    market('361', '1x2', ['home', 'draw', 'away'], ['1.48', '4.09', '7.02']),
    market('362', 'double_chance', ['home_draw', 'home_away', 'draw_away'], ['1.10', '1.23', '2.61']),
    market('363', 'over_under_2_5', ['over', 'under'], ['2.24', '1.62']),
    market('364', 'btts', ['yes', 'no'], ['2.42', '1.54']),
  ],
};

afterEach(() => {
  slipStore.set(EMPTY_SLIP);
  FakeSocket.all = [];
});

describe('an event page', () => {
  it('names every market, takes a price into the slip, and shows live moves and a suspension', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    mockApi({ 'GET /api/sports/events/91': () => ({ body: ok({ event: EVENT }) }) });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/sports/event?id=91']}>
          <EventPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const markets = await screen.findAllByTestId('market');
    expect(markets.map((section) => section.querySelector('h2')?.textContent)).toEqual([
      'Match result',
      'Double chance',
      'Over/Under 2.5 goals',
      'Both teams to score',
    ]);
    expect(screen.getByText('Fluminense FC or draw')).toBeTruthy();

    const home = () => document.querySelector<HTMLButtonElement>('[data-selection-id="3610"]')!;
    await userEvent.click(home());
    expect(home().getAttribute('aria-pressed')).toBe('true');
    expect(slipStore.get().picks[0]).toMatchObject({ selectionId: '3610', odds: '1.48' });

    // The page watches the site's sports messages; the server pushes a lower price and a suspension.
    const socket = FakeSocket.all[0]!;
    await vi.waitFor(() => expect(socket.sent).toContain(JSON.stringify({ type: 'sports_watch' })));
    act(() => {
      socket.push({
        type: 'sports_market',
        event_id: '91',
        market: {
          ...EVENT.markets[0],
          selections: EVENT.markets[0]!.selections.map((s, i) => (i === 0 ? { ...s, odds: '1.35' } : s)),
        },
      });
      socket.push({
        type: 'sports_market',
        event_id: '91',
        market: { ...EVENT.markets[2], status: 'suspended' },
      });
    });
    await vi.waitFor(() => expect(home().textContent).toContain('1.35'));
    expect(home().className).toContain('is-down');
    expect(home().textContent).toContain('odds down');
    // The slip keeps the agreed price and waits for the player.
    expect(slipStore.get().picks[0]).toMatchObject({ odds: '1.48', currentOdds: '1.35', moved: 'down' });

    expect(screen.getByTestId('market-suspended')).toBeTruthy();
    const over = document.querySelector<HTMLButtonElement>('[data-selection-id="3630"]')!;
    expect(over.disabled).toBe(true);
    expect(over.textContent).toContain('Suspended');
  });
});
