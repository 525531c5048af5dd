import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/api-mock.ts';
import { launchOf, roundOf } from './play-fixtures.ts';
import { addChip, pocketColour, RoulettePlay, tableTotal, WHEEL } from './roulette-play.tsx';

vi.mock('../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

beforeEach(() => {
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
});

describe('roulette table', () => {
  it('has every pocket once and stacks chips per spot up to fifty spots', () => {
    expect([...WHEEL].sort((a, b) => a - b)).toEqual(Array.from({ length: 37 }, (_, i) => i));
    expect(pocketColour(0)).toBe('green');
    expect(pocketColour(32)).toBe('red');
    expect(pocketColour(15)).toBe('black');
    let table = addChip(new Map(), { type: 'red', numbers: [] }, 100n);
    table = addChip(table, { type: 'red', numbers: [] }, 50n);
    expect(table.size).toBe(1);
    expect(tableTotal(table)).toBe(150n);
    for (let n = 0; n <= 36; n++) table = addChip(table, { type: 'straight', numbers: [n] }, 10n);
    for (let d = 1; d <= 3; d++) table = addChip(table, { type: 'dozen', numbers: [d] }, 10n);
    for (let c = 1; c <= 3; c++) table = addChip(table, { type: 'column', numbers: [c] }, 10n);
    expect(table.size).toBe(44);
    for (const type of ['black', 'odd', 'even', 'low', 'high'] as const) {
      table = addChip(table, { type, numbers: [] }, 10n);
    }
    expect(table.size).toBe(49);
    table = addChip(new Map(table), { type: 'straight', numbers: [99] as [number] }, 10n);
    expect(table.size).toBe(50);
    expect(addChip(table, { type: 'straight', numbers: [98] as [number] }, 10n).size).toBe(50);
  });
});

describe('roulette screen', () => {
  it('needs a chip on the table and a valid chip value', async () => {
    const api = mockApi({});
    render(<RoulettePlay launch={launchOf('roulette')} demo onBalance={() => {}} />);
    expect(screen.getByTestId('roulette-bet')).toHaveProperty('disabled', true);
    const amount = screen.getByTestId('roulette-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.01');
    expect(screen.getByText('Bet between 0.10 and 5000.00')).toBeTruthy();
    await userEvent.click(screen.getByTestId('roulette-spot-red-'));
    expect(screen.getByTestId('roulette-total').textContent).toBe('0.00');
    expect(api.calls).toEqual([]);
  });

  it('sends every chip and lands the wheel on the pocket the server drew', async () => {
    const onBalance = vi.fn();
    const api = mockApi({
      'POST /api/originals/roulette/bet': () => ({
        body: ok({
          round: roundOf('roulette', {
            stake: '3.00',
            payout: '4.00',
            win_loss: '1.00',
            multiplier: '1.3333',
            outcome: {
              pocket: 32,
              results: [
                { bet: { type: 'straight', numbers: [17], stakeMinor: '100' }, win: false },
                { bet: { type: 'red', numbers: [], stakeMinor: '200' }, win: true },
              ],
            },
          }),
          balance: '1001.00',
        }),
      }),
    });
    render(<RoulettePlay launch={launchOf('roulette')} demo onBalance={onBalance} />);
    const amount = screen.getByTestId('roulette-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '1');
    await userEvent.click(screen.getByTestId('roulette-spot-straight-17'));
    await userEvent.click(screen.getByTestId('roulette-spot-red-'));
    await userEvent.click(screen.getByTestId('roulette-spot-red-'));
    expect(screen.getByTestId('roulette-total').textContent).toBe('3.00');
    expect(within(screen.getByTestId('roulette-spot-red-')).getByText('2.00')).toBeTruthy();
    await userEvent.click(screen.getByTestId('roulette-bet'));
    expect(await screen.findByText('You won 4.00 (×1.3333)', undefined, { timeout: 6000 })).toBeTruthy();
    expect(screen.getByTestId('roulette-result').textContent).toBe('32');
    expect(screen.getByTestId('roulette-spot-red-').className).toContain('is-paid');
    expect(screen.getByTestId('roulette-spot-straight-17').className).not.toContain('is-paid');
    expect(onBalance).toHaveBeenCalledWith('1001.00');
    expect(api.calls[0]?.body).toMatchObject({
      bets: [
        { type: 'straight', numbers: [17], amount: '1.00' },
        { type: 'red', numbers: [], amount: '2.00' },
      ],
    });
  });
});
