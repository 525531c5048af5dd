import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { EVENTS_PAGE, eventsKey } from '../api/sports-api.ts';
import { EMPTY_SLIP, slipStore, type TNewPick, togglePick } from '../slip/slip-state.ts';
import { BetSlipBody } from './bet-slip.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const pick = (id: string, odds: string, home: string, away: string): TNewPick => ({
  selectionId: id,
  eventId: `event-${id}`,
  eventName: `${home} x ${away}`,
  homeTeam: home,
  awayTeam: away,
  marketKind: '1x2',
  selectionCode: 'home',
  odds,
});

function bet(stake: string) {
  return {
    bet: {
      id: '501',
      type: 'accumulator',
      status: 'open',
      stake,
      total_odds: '3.87',
      potential_return: '38.70',
      payout: '0.00',
      legs: [],
      cash_out: null,
      placed_at: '2026-11-25T14:00:00.000Z',
      settled_at: null,
    },
    balance: '61.30',
  };
}

function renderSlip() {
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <BetSlipBody />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  slipStore.set(
    [pick('11', '2.15', 'Flamengo', 'Palmeiras'), pick('22', '1.80', 'Santos', 'Bahia')].reduce(
      togglePick,
      EMPTY_SLIP,
    ),
  );
});
afterEach(() => {
  slipStore.set(EMPTY_SLIP);
});

describe('the bet slip', () => {
  it('shows an accumulator’s total odds and potential return from a stake typed with a pt comma', async () => {
    i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
    await i18next.changeLanguage('pt');
    renderSlip();
    expect(screen.getByTestId('slip-tab-accumulator').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Múltipla')).toBeTruthy();
    expect(screen.getByTestId('slip-total-odds').textContent).toBe('3,87');
    await userEvent.type(screen.getByTestId('slip-accumulator-stake'), '10,50');
    // 10,50 × 2,15 × 1,80 = 40,635 → R$ 40,63 (never rounded up).
    expect(screen.getByTestId('slip-potential-return').textContent?.replace(/\s/g, ' ')).toBe('R$ 40,63');
    expect(screen.getByTestId('slip-total-stake').textContent?.replace(/\s/g, ' ')).toBe('R$ 10,50');
  });

  it('refuses to send a stake that is no amount and says how to write one', async () => {
    setToken('player-token');
    renderSlip();
    await userEvent.type(screen.getByTestId('slip-accumulator-stake'), '10,5,0');
    expect(screen.getByRole('alert').textContent).toContain('Enter an amount like 10.00');
    expect((screen.getByTestId('slip-place') as HTMLButtonElement).disabled).toBe(true);
  });

  it('on ODDS_CHANGED shows the new price to accept, then places at it with a new idempotency key', async () => {
    setToken('player-token');
    const api = mockApi({
      'POST /api/sports/bets': (call) => {
        const body = call.body as { legs: { selection_id: string; odds: string }[] };
        if (body.legs[0]?.odds === '2.15') {
          return {
            status: 409,
            body: fail('ODDS_CHANGED', 'The odds have changed.', {
              data: { changes: [{ selection_id: '11', odds_seen: '2.15', odds_now: '2.05' }] },
            }),
          };
        }
        return { body: ok(bet('10.00')) };
      },
      'POST /api/auth/me': () => ({ body: ok(null) }),
    });
    renderSlip();
    await userEvent.type(screen.getByTestId('slip-accumulator-stake'), '10');
    expect(screen.getByTestId('slip-potential-return').textContent).toBe('R$38.70');
    await userEvent.click(screen.getByTestId('slip-place'));

    expect(await screen.findByTestId('slip-odds-changed')).toBeTruthy();
    expect(screen.getByTestId('slip-error').textContent).toBe('The odds have changed.');
    // The return follows the agreed price until the player accepts the new one.
    expect(screen.getByTestId('slip-potential-return').textContent).toBe('R$38.70');
    expect((screen.getByTestId('slip-place') as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(screen.getByTestId('slip-accept-odds'));
    expect(screen.queryByTestId('slip-odds-changed')).toBeNull();
    // 10 × 2.05 × 1.80 = 36.90
    expect(screen.getByTestId('slip-potential-return').textContent).toBe('R$36.90');
    await userEvent.click(screen.getByTestId('slip-place'));
    expect(await screen.findByTestId('slip-empty')).toBeTruthy();

    const bets = api.calls.filter((call) => call.url.pathname === '/api/sports/bets');
    expect(bets).toHaveLength(2);
    expect(bets[1]?.body).toEqual({
      type: 'accumulator',
      stake: '10.00',
      legs: [
        { selection_id: '11', odds: '2.05' },
        { selection_id: '22', odds: '1.80' },
      ],
      accept_odds_changes: 'none',
    });
    const firstKey = bets[0]?.headers['Idempotency-Key'];
    expect(firstKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(bets[1]?.headers['Idempotency-Key']).not.toBe(firstKey);
    expect(slipStore.get().picks).toEqual([]);
  });

  it("while a bet takes long (a live match's in-play delay) the button says it is being confirmed", async () => {
    setToken('player-token');
    let answer: () => void = () => undefined;
    mockApi({
      'POST /api/sports/bets': () =>
        new Promise((resolve) => {
          answer = () => resolve({ body: ok(bet('10.00')) });
        }),
      'POST /api/auth/me': () => ({ body: ok(null) }),
    });
    renderSlip();
    await userEvent.type(screen.getByTestId('slip-accumulator-stake'), '10');
    await userEvent.click(screen.getByTestId('slip-place'));
    expect(screen.getByTestId('slip-place').textContent).toBe('Please wait…');
    await waitFor(
      () =>
        expect(screen.getByTestId('slip-place').textContent).toBe('Confirming your bet at the current odds…'),
      { timeout: 3000 },
    );
    answer();
    expect(await screen.findByTestId('slip-empty')).toBeTruthy();
  });

  it('refusing the new price takes that selection out of the slip', async () => {
    setToken('player-token');
    mockApi({
      'POST /api/sports/bets': () => ({
        status: 409,
        body: fail('ODDS_CHANGED', 'The odds have changed.', {
          data: { changes: [{ selection_id: '22', odds_seen: '1.80', odds_now: '1.70' }] },
        }),
      }),
    });
    renderSlip();
    await userEvent.type(screen.getByTestId('slip-accumulator-stake'), '5');
    await userEvent.click(screen.getByTestId('slip-place'));
    await userEvent.click(await screen.findByTestId('slip-refuse-odds'));
    expect(slipStore.get().picks.map((item) => item.selectionId)).toEqual(['11']);
    expect(screen.getByTestId('slip-tab-single').getAttribute('aria-selected')).toBe('true');
  });

  it('places each single as its own bet with its own idempotency key, and a refusal keeps the rest', async () => {
    setToken('player-token');
    const api = mockApi({
      'POST /api/sports/bets': (call) =>
        (call.body as { legs: { selection_id: string }[] }).legs[0]?.selection_id === '22'
          ? { status: 422, body: fail('INSUFFICIENT_FUNDS', 'Insufficient balance.') }
          : { body: ok(bet('2.00')) },
      'POST /api/auth/me': () => ({ body: ok(null) }),
    });
    renderSlip();
    await userEvent.click(screen.getByTestId('slip-tab-single'));
    const [first, second] = screen.getAllByTestId('slip-single-stake');
    await userEvent.type(first!, '2');
    await userEvent.type(second!, '3');
    // 2 × 2.15 + 3 × 1.80 = 4.30 + 5.40
    expect(screen.getByTestId('slip-potential-return').textContent).toBe('R$9.70');
    expect(screen.getByTestId('slip-place').textContent).toBe('Place bet');
    await userEvent.click(screen.getByTestId('slip-place'));

    expect((await screen.findByTestId('slip-error')).textContent).toBe('Insufficient balance.');
    const bets = api.calls.filter((call) => call.url.pathname === '/api/sports/bets');
    expect(bets.map((call) => call.body)).toEqual([
      {
        type: 'single',
        stake: '2.00',
        legs: [{ selection_id: '11', odds: '2.15' }],
        accept_odds_changes: 'none',
      },
      {
        type: 'single',
        stake: '3.00',
        legs: [{ selection_id: '22', odds: '1.80' }],
        accept_odds_changes: 'none',
      },
    ]);
    expect(bets[0]?.headers['Idempotency-Key']).not.toBe(bets[1]?.headers['Idempotency-Key']);
    // The placed single left the slip; the refused one stays with its stake for another try.
    expect(slipStore.get().picks.map((item) => item.selectionId)).toEqual(['22']);
    expect(slipStore.get().singleStakes['22']).toBe('3');
  });

  it('checks the book’s stake range and largest return before sending', async () => {
    setToken('player-token');
    queryClient.setQueryData(eventsKey('open', EVENTS_PAGE), {
      competitions: [],
      list: [],
      limits: { min_stake: '1.00', max_stake: '500.00', max_payout: '30.00', max_legs: 10 },
    });
    renderSlip();
    const stake = screen.getByTestId('slip-accumulator-stake');
    await userEvent.type(stake, '0.50');
    expect(screen.getByRole('alert').textContent).toBe('Stake between R$1.00 and R$500.00');
    await userEvent.clear(stake);
    // 10 × 3.87 = 38.70, above the largest return of 30.00.
    await userEvent.type(stake, '10');
    expect(screen.getByTestId('slip-max-payout').textContent).toBe(
      'One bet can return at most R$30.00: lower the stake.',
    );
    expect((screen.getByTestId('slip-place') as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(stake);
    await userEvent.type(stake, '5');
    expect(screen.queryByTestId('slip-max-payout')).toBeNull();
    expect((screen.getByTestId('slip-place') as HTMLButtonElement).disabled).toBe(false);
  });

  it('a guest is asked to log in instead of placing', () => {
    renderSlip();
    expect(screen.getByTestId('slip-login').textContent).toBe('Log in to bet');
    expect(screen.queryByTestId('slip-place')).toBeNull();
  });
});
