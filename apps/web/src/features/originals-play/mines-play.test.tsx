import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/api-mock.ts';
import { MinesPlay, minesBoard } from './mines-play.tsx';
import { launchOf, roundOf } from './play-fixtures.ts';

vi.mock('../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

beforeEach(() => {
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
});

const active = (picks: number[], multiplier: string, next: string | null) =>
  roundOf('mines', {
    id: '77',
    status: 'active',
    settled_at: null,
    params: { mines: 3, picks },
    outcome: { mines_count: 3, picks, multiplier, next_multiplier: next },
  });

describe('mines board', () => {
  it('shows the mines only once the round is settled', () => {
    expect(minesBoard(active([4], '1.1200', '1.2800'))).toEqual({ picks: [4], mines: [], boom: null });
    const lost = roundOf('mines', { outcome: { mines: [2, 9, 20], picks: [4, 9], hitMine: true } });
    expect(minesBoard(lost)).toEqual({ picks: [4, 9], mines: [2, 9, 20], boom: 9 });
  });
});

describe('mines screen', () => {
  it('starts one round for two clicks that land before the screen updates', async () => {
    const api = mockApi({
      'GET /api/originals/mines/active': () => ({ body: ok({ round: null, balance: '1000.00' }) }),
      'POST /api/originals/mines/start': () => ({
        body: ok({ round: active([], '0.0000', '1.2375'), balance: '999.00' }),
      }),
    });
    render(<MinesPlay launch={launchOf('mines')} demo onBalance={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('mines-bet')).toHaveProperty('disabled', false));
    const button = screen.getByTestId('mines-bet');
    act(() => {
      button.click();
      button.click();
    });
    expect(await screen.findByText('Open a tile')).toBeTruthy();
    expect(api.calls.filter((call) => call.url.pathname === '/api/originals/mines/start')).toHaveLength(1);
  });

  it('checks the stake and starts a round with the chosen mine count', async () => {
    const onBalance = vi.fn();
    const api = mockApi({
      'GET /api/originals/mines/active': () => ({ body: ok({ round: null, balance: '1000.00' }) }),
      'POST /api/originals/mines/start': () => ({
        body: ok({ round: active([], '0.0000', '1.2375'), balance: '999.00' }),
      }),
    });
    render(<MinesPlay launch={launchOf('mines')} demo onBalance={onBalance} />);
    await waitFor(() => expect(screen.getByTestId('mines-bet')).toHaveProperty('disabled', false));
    const amount = screen.getByTestId('mines-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '6000');
    expect(screen.getByText('Bet between R$0.10 and R$5,000.00')).toBeTruthy();
    expect(screen.getByTestId('mines-bet')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('mines-tile-0')).toHaveProperty('disabled', true);
    await userEvent.clear(amount);
    await userEvent.type(amount, '10');
    await userEvent.selectOptions(screen.getByTestId('mines-count'), '3');
    await userEvent.click(screen.getByTestId('mines-bet'));
    expect(await screen.findByText('Open a tile')).toBeTruthy();
    const start = api.calls.find((call) => call.url.pathname === '/api/originals/mines/start');
    expect(start?.body).toEqual({ amount: '10.00', mines: 3 });
    expect(start?.headers['X-Demo-Token']).toBe('demo-token-1');
    expect(onBalance).toHaveBeenCalledWith('999.00');
    expect(screen.getByTestId('mines-tile-0')).toHaveProperty('disabled', false);
  });

  it('resumes an open round and reveals the field the server settled on a mine', async () => {
    const api = mockApi({
      'GET /api/originals/mines/active': () => ({
        body: ok({ round: active([4], '1.1200', '1.2800'), balance: '999.00' }),
      }),
      'POST /api/originals/mines/pick': () => ({
        body: ok({
          round: roundOf('mines', {
            id: '77',
            outcome: { mines: [2, 9, 20], picks: [4, 9], hitMine: true, multiplier: { num: '0', den: '1' } },
          }),
          balance: '999.00',
        }),
      }),
    });
    render(<MinesPlay launch={launchOf('mines')} demo onBalance={() => {}} />);
    expect(await screen.findByText('Cash out R$1.12')).toBeTruthy();
    expect(screen.getByTestId('mines-tile-4').className).toContain('is-gem');
    expect(screen.getByTestId('mines-result').textContent).toContain('×1.28');
    await userEvent.click(screen.getByTestId('mines-tile-9'));
    expect(await screen.findByText('Boom! You hit a mine.')).toBeTruthy();
    expect(api.calls.at(-1)?.body).toEqual({ round_id: '77', tile: 9 });
    expect(screen.getByTestId('mines-tile-9').className).toContain('is-boom');
    expect(screen.getByTestId('mines-tile-20').className).toContain('is-mine');
    expect(screen.getByTestId('mines-tile-0').className).toContain('is-safe');
    expect(screen.getByTestId('mines-result').textContent).toContain('You lost R$1.00');
    expect(screen.getByTestId('mines-bet')).toBeTruthy();
  });

  it('cashes out and shows what the server paid', async () => {
    const onBalance = vi.fn();
    const api = mockApi({
      'GET /api/originals/mines/active': () => ({
        body: ok({ round: active([4, 11], '1.2800', '1.4700'), balance: '999.00' }),
      }),
      'POST /api/originals/mines/cashout': () => ({
        body: ok({
          round: roundOf('mines', {
            id: '77',
            payout: '1.28',
            win_loss: '0.28',
            multiplier: '1.2800',
            outcome: { mines: [2, 9, 20], picks: [4, 11], hitMine: false },
          }),
          balance: '1000.28',
        }),
      }),
    });
    render(<MinesPlay launch={launchOf('mines')} demo onBalance={onBalance} />);
    await userEvent.click(await screen.findByTestId('mines-cashout'));
    expect(await screen.findByText('You won R$1.28 (×1.28)')).toBeTruthy();
    expect(api.calls.at(-1)?.body).toEqual({ round_id: '77' });
    expect(onBalance).toHaveBeenCalledWith('1000.28');
    expect(screen.getByTestId('mines-tile-2').className).toContain('is-mine');
  });
});
