import { coveredNumbers } from '@sorte/fairness';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/api-mock.ts';
import { launchOf, roundOf } from './play-fixtures.ts';
import {
  addChip,
  bestReturn,
  chipLabel,
  insideSpots,
  nextSpotKey,
  pocketColour,
  RoulettePlay,
  returnOf,
  scaleTable,
  spotKey,
  type TSpot,
  tableTotal,
  WHEEL,
} from './roulette-play.tsx';

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

// The wheel turns for 2.6 s of real time, and a busy machine renders the board slowly.
describe('roulette screen', { timeout: 15_000 }, () => {
  it('needs a chip on the table and a valid chip value', async () => {
    const api = mockApi({});
    render(<RoulettePlay launch={launchOf('roulette')} demo onBalance={() => {}} />);
    expect(screen.getByTestId('roulette-bet')).toHaveProperty('disabled', true);
    const amount = screen.getByTestId('roulette-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.01');
    expect(screen.getByText('Bet between R$0.10 and R$5,000.00')).toBeTruthy();
    await userEvent.click(screen.getByTestId('roulette-spot-red-'));
    expect(screen.getByTestId('roulette-total').textContent).toBe('R$0.00');
    // No chips, no quick spin bar.
    expect(screen.queryByTestId('roulette-quickbar')).toBeNull();
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
    expect(screen.getByTestId('roulette-total').textContent).toBe('R$3.00');
    expect(within(screen.getByTestId('roulette-spot-red-')).getByText('2')).toBeTruthy();
    await userEvent.click(screen.getByTestId('roulette-bet'));
    expect(await screen.findByText('You won R$4.00 (×1.3333)', undefined, { timeout: 6000 })).toBeTruthy();
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

describe('roulette inside bets', { timeout: 15_000 }, () => {
  it('puts every split, street, corner and line of the layout on the board once, each one the server accepts', () => {
    const spots = insideSpots();
    const count = (type: string) => spots.filter(({ spot }) => spot.type === type).length;
    expect([count('split'), count('street'), count('corner'), count('line')]).toEqual([60, 12, 22, 11]);
    expect([count('trio'), count('first_four')]).toEqual([2, 1]);
    expect(new Set(spots.map(({ spot }) => spotKey(spot))).size).toBe(spots.length);
    for (const { spot } of spots) {
      expect(() => coveredNumbers({ ...spot, stakeMinor: 1n })).not.toThrow();
    }
    // Two bets never share a place on the felt.
    expect(new Set(spots.map(({ u, v }) => `${u}:${v}`)).size).toBe(spots.length);
  });

  it('places each inside bet where its numbers meet', () => {
    const at = (type: TSpot['type'], numbers: number[]) =>
      insideSpots().find(({ spot }) => spotKey(spot) === spotKey({ type, numbers }));
    // 1 | 2 side by side in row 1: on the line between their columns.
    expect(at('split', [1, 2])).toMatchObject({ u: 0.5, v: 1 });
    // 1 above 4: on the line between rows 1 and 2.
    expect(at('split', [1, 4])).toMatchObject({ u: 1, v: 0.5 });
    expect(at('split', [0, 3])).toMatchObject({ u: 0, v: 2.5 });
    expect(at('corner', [2])).toMatchObject({ u: 1, v: 2 });
    expect(at('street', [34])).toMatchObject({ u: 11.5, v: 0 });
    expect(at('line', [31])).toMatchObject({ u: 11, v: 0 });
    // 0, 1 and 2 meet on the zero's edge between columns 1 and 2; 0-1-2-3 at its outer corner.
    expect(at('trio', [1])).toMatchObject({ u: 0, v: 1 });
    expect(at('first_four', [])).toMatchObject({ u: 0, v: 0 });
  });

  it('knows what each bet pays and the best return of a table', () => {
    expect(returnOf({ type: 'split', numbers: [1, 2] })).toBe(18);
    expect(returnOf({ type: 'street', numbers: [4] })).toBe(12);
    expect(returnOf({ type: 'corner', numbers: [1] })).toBe(9);
    expect(returnOf({ type: 'line', numbers: [1] })).toBe(6);
    let table = addChip(new Map(), { type: 'split', numbers: [1, 2] }, 100n);
    table = addChip(table, { type: 'corner', numbers: [1] }, 100n);
    table = addChip(table, { type: 'red', numbers: [] }, 100n);
    // Pocket 1 (red) pays the split 18, the corner 9 and red 2: 29.00 for 3.00.
    expect(bestReturn(table)).toBe(2_900n);
    expect(tableTotal(scaleTable(table, 600n))).toBe(600n);
    expect(scaleTable(table, 300n)).toBe(table);
    expect([chipLabel(10n), chipLabel(150n), chipLabel(500_000n), chipLabel(250_000n)]).toEqual([
      '0.1',
      '1.5',
      '5k',
      '2.5k',
    ]);
  });

  it('takes split, street, corner and line chips from the board, with undo and the bet list', async () => {
    const api = mockApi({
      'POST /api/originals/roulette/bet': () => ({
        body: ok({
          round: roundOf('roulette', { stake: '4.00', outcome: { pocket: 36, results: [] } }),
          balance: '996.00',
        }),
      }),
    });
    render(<RoulettePlay launch={launchOf('roulette')} demo onBalance={() => {}} />);
    await userEvent.click(screen.getByTestId('roulette-chip-1.00'));
    await userEvent.click(screen.getByTestId('roulette-spot-split-1-2'));
    await userEvent.click(screen.getByTestId('roulette-spot-street-4'));
    await userEvent.click(screen.getByTestId('roulette-spot-corner-5'));
    await userEvent.click(screen.getByTestId('roulette-spot-line-31'));
    await userEvent.click(screen.getByTestId('roulette-spot-line-31'));
    expect(screen.getByTestId('roulette-total').textContent).toBe('R$5.00');
    await userEvent.click(screen.getByTestId('roulette-undo'));
    expect(screen.getByTestId('roulette-total').textContent).toBe('R$4.00');
    const slip = within(screen.getByTestId('roulette-slip'));
    expect(slip.getByText('Split 1/2')).toBeTruthy();
    expect(slip.getByText('Street 4–6')).toBeTruthy();
    expect(slip.getByText('Corner 5/6/8/9')).toBeTruthy();
    expect(slip.getByText('Line 31–36')).toBeTruthy();
    expect(slip.getByText('pays 17:1')).toBeTruthy();
    // Pocket 5 or 6 pays the street (12) and the corner (9).
    expect(screen.getByTestId('roulette-best').textContent).toBe('R$21.00');
    // The phone's quick bar (kept in reach under the tall table) spins the same table.
    expect(within(screen.getByTestId('roulette-quickbar')).getByText('R$4.00')).toBeTruthy();
    await userEvent.click(screen.getByTestId('roulette-quick-spin'));
    await vi.waitFor(() => expect(api.calls).toHaveLength(1));
    expect(api.calls[0]?.body).toMatchObject({
      bets: [
        { type: 'split', numbers: [1, 2], amount: '1.00' },
        { type: 'street', numbers: [4], amount: '1.00' },
        { type: 'corner', numbers: [5], amount: '1.00' },
        { type: 'line', numbers: [31], amount: '1.00' },
      ],
    });
  });

  it('is played from the keyboard: a focused spot names its bet and payout, Enter puts a chip on it', async () => {
    mockApi({});
    render(<RoulettePlay launch={launchOf('roulette')} demo onBalance={() => {}} />);
    const corner = screen.getByRole('button', { name: 'Corner 1/2/4/5, pays 8:1' });
    // Focus from outside an event handler renders on the next tick: act waits for it.
    act(() => corner.focus());
    expect(screen.getByTestId('roulette-preview').textContent).toBe('Corner 1/2/4/5 · pays 8:1');
    // The numbers the focused bet covers light up on the board.
    expect(screen.getByTestId('roulette-spot-straight-4').className).toContain('is-covered');
    expect(screen.getByTestId('roulette-spot-straight-3').className).not.toContain('is-covered');
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTestId('roulette-total').textContent).toBe('R$0.10');
    await userEvent.click(screen.getByRole('button', { name: 'Remove Corner 1/2/4/5' }));
    expect(screen.getByTestId('roulette-total').textContent).toBe('R$0.00');
  });

  it('refuses a table over the maximum bet', async () => {
    const api = mockApi({});
    render(
      <RoulettePlay
        launch={{ ...launchOf('roulette'), game: { ...launchOf('roulette').game, max_bet: '1.00' } }}
        demo
        onBalance={() => {}}
      />,
    );
    await userEvent.click(screen.getByTestId('roulette-chip-1.00'));
    await userEvent.click(screen.getByTestId('roulette-spot-split-0-1'));
    expect(screen.getByTestId('roulette-bet')).toHaveProperty('disabled', false);
    await userEvent.click(screen.getByTestId('roulette-spot-split-0-1'));
    expect(screen.getByText('Bet between R$0.10 and R$1.00')).toBeTruthy();
    expect(screen.getByTestId('roulette-bet')).toHaveProperty('disabled', true);
    expect(api.calls).toEqual([]);
  });
});

describe('roulette board from the keyboard', { timeout: 15_000 }, () => {
  it('moves half a cell per arrow on the standing table and on the lying one', () => {
    expect(nextSpotKey('straight:1', 'ArrowRight', false)).toBe('split:1-2');
    expect(nextSpotKey('split:1-2', 'ArrowRight', false)).toBe('straight:2');
    expect(nextSpotKey('straight:1', 'ArrowDown', false)).toBe('split:1-4');
    expect(nextSpotKey('split:1-4', 'ArrowRight', false)).toBe('corner:1');
    expect(nextSpotKey('straight:1', 'ArrowLeft', false)).toBe('street:1');
    expect(nextSpotKey('street:1', 'ArrowDown', false)).toBe('line:1');
    expect(nextSpotKey('straight:1', 'ArrowUp', false)).toBe('split:0-1');
    expect(nextSpotKey('split:0-1', 'ArrowUp', false)).toBe('straight:0');
    expect(nextSpotKey('straight:0', 'ArrowDown', false)).toBe('split:0-2');
    expect(nextSpotKey('straight:3', 'ArrowRight', false)).toBeNull();
    expect(nextSpotKey('straight:34', 'ArrowDown', false)).toBeNull();
    // Lying down, 1 is bottom left: up goes across the row, right along the rows.
    expect(nextSpotKey('straight:1', 'ArrowUp', true)).toBe('split:1-2');
    expect(nextSpotKey('straight:1', 'ArrowRight', true)).toBe('split:1-4');
    expect(nextSpotKey('straight:1', 'ArrowDown', true)).toBe('street:1');
    expect(nextSpotKey('red:', 'ArrowUp', true)).toBeNull();
  });

  it('keeps one spot of the board in the tab order and puts a chip where the arrows lead', async () => {
    mockApi({});
    render(<RoulettePlay launch={launchOf('roulette')} demo onBalance={() => {}} />);
    const zero = screen.getByTestId('roulette-spot-straight-0');
    expect(zero.tabIndex).toBe(0);
    expect(screen.getByTestId('roulette-spot-split-1-2').tabIndex).toBe(-1);
    zero.focus();
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowLeft}');
    const split = screen.getByTestId('roulette-spot-split-1-2');
    expect(document.activeElement).toBe(split);
    expect(split.tabIndex).toBe(0);
    expect(zero.tabIndex).toBe(-1);
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTestId('roulette-total').textContent).toBe('R$0.10');
    expect(within(screen.getByTestId('roulette-slip')).getByText('Split 1/2')).toBeTruthy();
  });
});
