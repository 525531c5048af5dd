import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, mockApi, ok } from '../../test/api-mock.ts';
import { hundredthsText, LimboPlay, limboChance, limboTarget } from './limbo-play.tsx';
import { instantFrames, launchOf, roundOf } from './play-fixtures.ts';

vi.mock('../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

beforeEach(() => {
  instantFrames();
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
});

describe('limbo target', () => {
  it('accepts 1.01 to 1000000.00 with up to two decimals', () => {
    expect(limboTarget('2')).toBe(200);
    expect(limboTarget('1.01')).toBe(101);
    expect(limboTarget('1000000.00')).toBe(100_000_000);
    expect(limboTarget('1.00')).toBeNull();
    expect(limboTarget('1000000.01')).toBeNull();
    expect(limboTarget('2.555')).toBeNull();
    expect(limboTarget('')).toBeNull();
    expect(hundredthsText(12_345)).toBe('123.45');
    expect(limboChance(200)).toBe('49.50');
    expect(limboChance(101)).toBe('98.01');
  });
});

describe('limbo screen', () => {
  it('refuses a target or a stake outside the limits without calling the server', async () => {
    const api = mockApi({});
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={() => {}} />);
    const target = screen.getByTestId('limbo-target');
    await userEvent.clear(target);
    await userEvent.type(target, '1.00');
    expect(screen.getByText('Choose a target from 1.01 to 1,000,000.00')).toBeTruthy();
    expect(screen.getByTestId('limbo-bet')).toHaveProperty('disabled', true);
    await userEvent.clear(target);
    await userEvent.type(target, '4');
    expect(screen.getByTestId('limbo-chance').textContent).toBe('24.75%');
    const amount = screen.getByTestId('limbo-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.01');
    expect(screen.getByText('Bet between R$0.10 and R$5,000.00')).toBeTruthy();
    expect(screen.getByTestId('limbo-bet')).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByTestId('limbo-bet'));
    expect(api.calls).toEqual([]);
  });

  it('sends the bet once and shows the result the server drew', async () => {
    const onBalance = vi.fn();
    const api = mockApi({
      'POST /api/originals/limbo/bet': () => ({
        body: ok({
          round: roundOf('limbo', {
            payout: '2.50',
            win_loss: '1.50',
            multiplier: '2.5000',
            params: { targetHundredths: 250 },
            outcome: { resultHundredths: 731, win: true, multiplier: { num: '5', den: '2' } },
          }),
          balance: '1001.50',
        }),
      }),
    });
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={onBalance} />);
    const target = screen.getByTestId('limbo-target');
    await userEvent.clear(target);
    await userEvent.type(target, '2.5');
    const amount = screen.getByTestId('limbo-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '1');
    await userEvent.click(screen.getByTestId('limbo-bet'));
    await waitFor(() => expect(screen.getByTestId('limbo-result').textContent).toBe('×7.31'));
    expect(await screen.findByText('You won R$2.50 (×2.50)')).toBeTruthy();
    expect(onBalance).toHaveBeenCalledWith('1001.50');
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]?.body).toMatchObject({ amount: '1.00', target: '2.50' });
    expect(api.calls[0]?.headers['X-Demo-Token']).toBe('demo-token-1');
    expect(api.calls[0]?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows a lost round in the loss colour and keeps the balance from the server', async () => {
    const onBalance = vi.fn();
    mockApi({
      'POST /api/originals/limbo/bet': () => ({
        body: ok({
          round: roundOf('limbo', { outcome: { resultHundredths: 104, win: false } }),
          balance: '999.00',
        }),
      }),
    });
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={onBalance} />);
    await userEvent.click(screen.getByTestId('limbo-bet'));
    expect(await screen.findByText('You lost R$1.00')).toBeTruthy();
    expect(screen.getByTestId('limbo-result').textContent).toBe('×1.04');
    expect(onBalance).toHaveBeenCalledWith('999.00');
  });

  it('tells the player why the server refused and plays again afterwards', async () => {
    const { toast } = await import('../../lib/toast.ts');
    mockApi({
      'POST /api/originals/limbo/bet': () => ({
        status: 422,
        body: fail('INSUFFICIENT_BALANCE', 'Insufficient balance'),
      }),
    });
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={() => {}} />);
    await userEvent.click(screen.getByTestId('limbo-bet'));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Insufficient balance'));
    expect(screen.getByTestId('limbo-bet')).toHaveProperty('disabled', false);
    expect(screen.getByTestId('limbo-result').textContent).toBe('×1.00');
  });
});
