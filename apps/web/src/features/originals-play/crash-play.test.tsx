import type { TCrashBet, TCrashServerMessage, TCrashState } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { mockApi, ok } from '../../test/api-mock.ts';
import { autoCashoutTarget, CrashPlay, multiplierHundredths, potentialPayout } from './crash-play.tsx';
import { instantFrames, launchOf } from './play-fixtures.ts';

/** The crash screen reads its bets tables through the query client. */
const renderCrash = (ui: ReactElement) =>
  render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);

/** A stand-in for the browser's WebSocket: records what the screen sends, lets the test speak as the server. */
class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    act(() => this.onopen?.());
  }
  receive(message: TCrashServerMessage) {
    act(() => this.onmessage?.({ data: JSON.stringify(message) }));
  }
}

const latest = () => {
  const socket = FakeSocket.all[FakeSocket.all.length - 1];
  if (!socket) throw new Error('no socket opened');
  return socket;
};

function stateOf(overrides: Partial<TCrashState>): { type: 'state' } & TCrashState {
  return {
    type: 'state',
    round_id: '12',
    phase: 'betting',
    multiplier: '1.00',
    hash_commitment: 'ab'.repeat(32),
    terminating_hash: 'cd'.repeat(32),
    public_salt: 'salt',
    // Longer than the minute each fixture animation frame jumps (instantFrames), so betting stays open.
    betting_ms_left: 120_000,
    bets: { count: 0, total: '0.00' },
    crash_point: null,
    round_hash: null,
    my_bet: null,
    ...overrides,
  };
}

const betOf = (overrides: Partial<TCrashBet>): TCrashBet => ({
  id: '90',
  round_id: '12',
  amount: '2.00',
  auto_cashout: null,
  status: 'placed',
  cashout_multiplier: null,
  payout: '0.00',
  client_seed: 'my seed',
  ...overrides,
});

beforeEach(() => {
  instantFrames();
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  mockApi({
    'GET /api/crash/history': () => ({
      body: ok({
        list: [
          { round_id: '11', crash_point: '3.41' },
          { round_id: '10', crash_point: '1.00' },
        ],
      }),
    }),
  });
});

afterEach(() => {
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('crash helpers', () => {
  it('reads multipliers, auto cash-out targets and payouts', () => {
    expect(multiplierHundredths('2.37')).toBe(237);
    expect(multiplierHundredths('x')).toBeNull();
    expect(autoCashoutTarget('')).toEqual({ value: null, valid: true });
    expect(autoCashoutTarget('2')).toEqual({ value: 200, valid: true });
    expect(autoCashoutTarget('1.00').valid).toBe(false);
    expect(autoCashoutTarget('2.555').valid).toBe(false);
    expect(potentialPayout('2.00', 237)).toBe('4.74');
    expect(potentialPayout('0.15', 133)).toBe('0.19');
  });
});

describe('crash screen', () => {
  it('bets in betting, cashes out while running and shows the new balance', async () => {
    sessionStorage.setItem('token', 'member-token');
    const onBalance = vi.fn();
    renderCrash(<CrashPlay launch={launchOf('crash')} demo={false} onBalance={onBalance} />);
    const socket = latest();
    expect(socket.url).toMatch(/\/ws\/crash\?lang=en$/);
    socket.open();
    expect(socket.sent[0]).toEqual({ type: 'auth', token: 'member-token' });
    expect(await screen.findByText('×3.41')).toBeTruthy();

    socket.receive(stateOf({ bets: { count: 3, total: '1234.50' } }));
    // The round's stakes read as money, as every amount on the page does.
    expect(screen.getByText('Bets: 3 · R$1,234.50')).toBeTruthy();
    expect(screen.getByTestId('crash-bet')).toHaveProperty('disabled', true);
    socket.receive({ type: 'ready', member: true });
    expect(screen.getByTestId('crash-phase').getAttribute('data-phase')).toBe('betting');
    const amount = screen.getByTestId('crash-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '2');
    await userEvent.type(screen.getByTestId('crash-auto'), '5');
    await userEvent.click(screen.getByTestId('crash-bet'));
    const bet = socket.sent.find((message) => message.type === 'bet');
    expect(bet).toMatchObject({ type: 'bet', amount: '2.00', auto_cashout: '5.00' });
    expect(String(bet?.idempotency_key)).toMatch(/^[A-Za-z0-9_.:-]{8,64}$/);

    socket.receive({ type: 'bet_accepted', bet: betOf({ auto_cashout: '5.00' }), balance: '98.00' });
    expect(onBalance).toHaveBeenLastCalledWith('98.00');
    expect(screen.getByTestId('crash-my-bet').textContent).toBe('Bet R$2.00 placed, auto cash-out at ×5.00');
    expect(screen.getByTestId('crash-bet')).toHaveProperty('disabled', true);

    socket.receive(stateOf({ phase: 'running', betting_ms_left: 0 }));
    socket.receive({ type: 'tick', round_id: '12', multiplier: '1.20', at: 1 });
    socket.receive({ type: 'tick', round_id: '12', multiplier: '1.50', at: 2 });
    await waitFor(() => expect(screen.getByTestId('crash-multiplier').textContent).toBe('×1.50'));
    expect(screen.getByTestId('crash-phase').getAttribute('data-phase')).toBe('running');
    expect(screen.queryByTestId('crash-bet')).toBeNull();
    const cashout = screen.getByTestId('crash-cashout');
    expect(cashout.textContent).toBe('Cash out R$3.00');
    await userEvent.click(cashout);
    expect(socket.sent[socket.sent.length - 1]).toEqual({ type: 'cashout', round_id: '12' });
    expect(screen.getByTestId('crash-cashout')).toHaveProperty('disabled', true);

    socket.receive({ type: 'cashed_out', round_id: '12', bet_id: '90', multiplier: '1.50', payout: '3.00' });
    expect(onBalance).toHaveBeenLastCalledWith('101.00');
    expect(screen.getByTestId('crash-my-bet').textContent).toBe('You cashed out at ×1.50: R$3.00');
    expect(screen.queryByTestId('crash-cashout')).toBeNull();

    socket.receive({ type: 'crashed', round_id: '12', crash_point: '2.04', round_hash: 'ef'.repeat(32) });
    expect(screen.getByTestId('crash-result').textContent).toBe('×2.04');
    expect(screen.getByTestId('crash-phase').textContent).toBe('Crashed');
    expect(screen.getByTestId('crash-bet')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('crash-my-bet').textContent).toBe('You cashed out at ×1.50: R$3.00');
  });

  it('shows a refusal in place and a lost bet when the round crashes first', async () => {
    sessionStorage.setItem('token', 'member-token');
    renderCrash(<CrashPlay launch={launchOf('crash')} demo={false} onBalance={() => {}} />);
    const socket = latest();
    socket.open();
    socket.receive({ type: 'ready', member: true });
    socket.receive(stateOf({}));
    await userEvent.click(screen.getByTestId('crash-bet'));
    socket.receive({ type: 'bet_refused', code: 'INSUFFICIENT_FUNDS', message: 'Saldo insuficiente.' });
    expect(screen.getByRole('alert').textContent).toBe('Saldo insuficiente.');
    expect(screen.getByTestId('crash-bet')).toHaveProperty('disabled', false);
    await userEvent.click(screen.getByTestId('crash-bet'));
    socket.receive({ type: 'bet_accepted', bet: betOf({ amount: '0.10' }), balance: '9.90' });
    socket.receive({ type: 'tick', round_id: '12', multiplier: '1.01', at: 1 });
    expect(screen.getByTestId('crash-cashout')).toBeTruthy();
    socket.receive({ type: 'crashed', round_id: '12', crash_point: '1.01', round_hash: 'ef'.repeat(32) });
    expect(screen.getByTestId('crash-result').textContent).toBe('×1.01');
    expect(screen.getByTestId('crash-my-bet').textContent).toBe('You lost R$0.10');
    expect(screen.queryByTestId('crash-cashout')).toBeNull();
  });

  it('lets a demo player bet fun money with its demo session, and reconnects after the socket closes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    sessionStorage.setItem('sorte.demo_token', 'D'.repeat(43));
    const onBalance = vi.fn();
    try {
      const { unmount } = renderCrash(<CrashPlay launch={launchOf('crash')} demo onBalance={onBalance} />);
      expect(screen.getByTestId('crash-demo-note').textContent).toBe(
        'Demo mode: you bet fun money on the live rounds. Log in to play for real.',
      );
      const first = latest();
      first.open();
      // The socket names the demo session, never a member token.
      expect(first.sent).toEqual([{ type: 'demo', demo_token: 'D'.repeat(43) }]);
      first.receive(stateOf({ phase: 'betting' }));
      expect(screen.getByTestId('crash-bet')).toHaveProperty('disabled', true);
      first.receive({ type: 'ready', member: false, demo: true });
      expect(screen.getByTestId('crash-bet')).toHaveProperty('disabled', false);
      act(() => screen.getByTestId('crash-bet').click());
      // The screen opens on R$ 1,00: crash takes whole reais (or any stake from R$ 9,50).
      expect(first.sent[1]).toMatchObject({ type: 'bet', amount: '1.00' });
      first.receive({ type: 'bet_accepted', bet: betOf({ amount: '1.00' }), balance: '999.00' });
      expect(onBalance).toHaveBeenLastCalledWith('999.00');
      first.receive(stateOf({ phase: 'running', multiplier: '1.80' }));
      expect(screen.getByTestId('crash-cashout')).toHaveProperty('disabled', false);
      first.close();
      expect(FakeSocket.all).toHaveLength(1);
      act(() => vi.advanceTimersByTime(1000));
      expect(FakeSocket.all).toHaveLength(2);
      latest().open();
      unmount();
      expect(latest().readyState).toBe(3);
      act(() => vi.advanceTimersByTime(60_000));
      expect(FakeSocket.all).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says in plain words why the first round of a new hash chain waits for a bet, until its salt is fixed', () => {
    renderCrash(<CrashPlay launch={launchOf('crash')} demo={false} onBalance={vi.fn()} />);
    const socket = latest();
    socket.open();
    socket.receive(stateOf({ public_salt: null }));
    expect(screen.getByTestId('crash-salt-pending').textContent).toBe(
      'A new series of rounds starts with the first bet: that bet helps draw the results, so no one can know them in advance.',
    );
    socket.receive(stateOf({ phase: 'running', public_salt: 'ef'.repeat(32), betting_ms_left: 0 }));
    expect(screen.queryByTestId('crash-salt-pending')).toBeNull();
  });

  it('closes the bet button as the betting time runs out, before the round starts on the server', async () => {
    sessionStorage.setItem('token', 'member-token');
    renderCrash(<CrashPlay launch={launchOf('crash')} demo={false} onBalance={vi.fn()} />);
    const socket = latest();
    socket.open();
    socket.receive({ type: 'ready', member: true });
    const button = screen.getByTestId('crash-bet');
    const phase = screen.getByTestId('crash-phase');
    // Too little time for a bet to reach the server before the end: closed, and said so.
    socket.receive(stateOf({ betting_ms_left: 200 }));
    expect(button).toHaveProperty('disabled', true);
    expect(phase.textContent).toBe('Bets closed');
    expect(phase.getAttribute('data-seconds')).toBe('0');
    // A new chain's round without a bet takes bets again: the server says how long.
    socket.receive(stateOf({ betting_ms_left: 90_000 }));
    expect(button).toHaveProperty('disabled', false);
    expect(phase.textContent).toBe('Place your bets · 90 s');
    // The countdown closes it on its own when the time runs out (a fixture frame jumps a minute).
    socket.receive(stateOf({ betting_ms_left: 30_000 }));
    await waitFor(() => expect(button).toHaveProperty('disabled', true));
    expect(phase.textContent).toBe('Bets closed');
    await userEvent.click(button);
    expect(socket.sent.filter((message) => message.type === 'bet')).toEqual([]);
  });
});
