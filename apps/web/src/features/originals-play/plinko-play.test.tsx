import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { mockApi, ok } from '../../test/api-mock.ts';
import { instantFrames, launchOf, roundOf } from './play-fixtures.ts';
import { ballOffset, PlinkoPlay, plinkoSlots, slotLabel } from './plinko-play.tsx';

vi.mock('../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

const EIGHT_HIGH = [
  '29.0000',
  '4.0000',
  '1.5000',
  '0.3000',
  '0.2000',
  '0.3000',
  '1.5000',
  '4.0000',
  '29.0000',
];
const PAYTABLE = { high: { '8': { slots: EIGHT_HIGH, rtp: 0.99 } }, medium: {}, low: {} };

beforeEach(() => {
  instantFrames();
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
});

function renderPlinko(onBalance = vi.fn()) {
  render(
    <QueryClientProvider client={queryClient}>
      <PlinkoPlay launch={launchOf('plinko')} demo onBalance={onBalance} />
    </QueryClientProvider>,
  );
  return onBalance;
}

describe('plinko helpers', () => {
  it('reads the published slots and follows a path row by row', () => {
    expect(plinkoSlots(PAYTABLE, 'high', 8)).toEqual(EIGHT_HIGH);
    expect(plinkoSlots(PAYTABLE, 'low', 8)).toEqual([]);
    expect(plinkoSlots(null, 'high', 8)).toEqual([]);
    expect(ballOffset(['R', 'R', 'L'], 0)).toBe(0);
    expect(ballOffset(['R', 'R', 'L'], 2)).toBe(1);
    expect(ballOffset(['R', 'R', 'L'], 3)).toBe(0.5);
    expect(ballOffset(['L', 'L', 'L'], 9)).toBe(-1.5);
    expect(['1000.0000', '110.0000', '5.6000', '0.2000', '1000.5000'].map(slotLabel)).toEqual([
      '1k',
      '110',
      '5.6',
      '0.2',
      '1,000.5',
    ]);
  });
});

describe('plinko screen', () => {
  it('refuses a stake outside the limits', async () => {
    const api = mockApi({ 'GET /api/originals/rules': () => ({ body: ok({ list: [] }) }) });
    renderPlinko();
    const amount = screen.getByTestId('plinko-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.05');
    expect(screen.getByText('Bet between R$0.10 and R$5,000.00')).toBeTruthy();
    expect(screen.getByTestId('plinko-bet')).toHaveProperty('disabled', true);
    await userEvent.clear(amount);
    expect(screen.getByText('Enter an amount like 1.00')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('drops the ball the server drew into its slot, on the board the player chose', async () => {
    const api = mockApi({
      'GET /api/originals/rules': () => ({
        body: ok({ list: [{ game: 'plinko', rtp: '99.00', paytable: PAYTABLE }] }),
      }),
      'POST /api/originals/plinko/bet': () => ({
        body: ok({
          round: roundOf('plinko', {
            payout: '4.00',
            win_loss: '3.00',
            multiplier: '4.0000',
            outcome: { path: ['R', 'R', 'L', 'R', 'R', 'R', 'R', 'L'], slot: 6 },
          }),
          balance: '1003.00',
        }),
      }),
    });
    const onBalance = renderPlinko();
    await userEvent.selectOptions(screen.getByTestId('plinko-rows'), '8');
    await userEvent.click(screen.getByTestId('plinko-risk-high'));
    await waitFor(() => expect(screen.getByTestId('plinko-slot-0').textContent).toBe('29'));
    expect(screen.getByTestId('plinko-slot-3').textContent).toBe('0.3');
    const amount = screen.getByTestId('plinko-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '1');
    await userEvent.click(screen.getByTestId('plinko-bet'));
    expect(await screen.findByText('You won R$4.00 (×4.00)')).toBeTruthy();
    expect(screen.getByTestId('plinko-slot-6').getAttribute('class')).toContain('is-hit');
    expect(screen.getByTestId('plinko-slot-2').getAttribute('class')).not.toContain('is-hit');
    expect(screen.getByTestId('plinko-result').textContent).toContain('×4.00');
    expect(onBalance).toHaveBeenCalledWith('1003.00');
    const bet = api.calls.find((call) => call.url.pathname === '/api/originals/plinko/bet');
    expect(bet?.body).toMatchObject({ amount: '1.00', rows: 8, risk: 'high' });
  });

  it('says so when the ball lands on a slot below one', async () => {
    mockApi({
      'GET /api/originals/rules': () => ({ body: ok({ list: [] }) }),
      'POST /api/originals/plinko/bet': () => ({
        body: ok({
          round: roundOf('plinko', {
            payout: '0.20',
            win_loss: '-0.80',
            multiplier: '0.2000',
            outcome: { path: ['L', 'R', 'L', 'R', 'L', 'R', 'L', 'R', 'L', 'R', 'L', 'R'], slot: 6 },
          }),
          balance: '999.20',
        }),
      }),
    });
    renderPlinko();
    await userEvent.click(screen.getByTestId('plinko-bet'));
    expect(await screen.findByText('Paid R$0.20 (×0.20)')).toBeTruthy();
  });
});
