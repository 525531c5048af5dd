import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, mockApi, ok } from '../../test/api-mock.ts';
import {
  AUTO_FORM,
  afterRound,
  planOf,
  signedMinor,
  signedText,
  type TAutoPlan,
  type TAutoState,
} from './auto-bet.tsx';
import { LimboPlay } from './limbo-play.tsx';
import { instantFrames, launchOf, roundOf } from './play-fixtures.ts';

vi.mock('../../lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/toast.ts')>()),
  toast: { error: vi.fn(), success: vi.fn() },
}));

beforeEach(() => {
  instantFrames();
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
});

const plan = (overrides: Partial<TAutoPlan>): TAutoPlan => ({
  count: 100,
  stopProfitMinor: null,
  stopLossMinor: null,
  onWin: { mode: 'reset' },
  onLoss: { mode: 'reset' },
  ...overrides,
});
const start: TAutoState = { baseMinor: 100n, stakeMinor: 100n, bets: 0, profitMinor: 0n };
const won = (stake: string, payout: string) => ({ stake, payout });

describe('auto-bet plan', () => {
  it('reads the form, and names the first field it cannot use', () => {
    expect(planOf(AUTO_FORM).plan).toEqual(plan({ count: 10 }));
    expect(planOf({ ...AUTO_FORM, count: '0' }).field).toBe('count');
    expect(planOf({ ...AUTO_FORM, count: '1001' }).field).toBe('count');
    expect(planOf({ ...AUTO_FORM, stopProfit: '1.234' }).field).toBe('stopProfit');
    expect(planOf({ ...AUTO_FORM, stopLoss: 'x' }).field).toBe('stopLoss');
    expect(planOf({ ...AUTO_FORM, onLoss: 'increase', onLossPercent: '0' }).field).toBe('onLossPercent');
    // A percentage is only read when the stake is to be increased.
    expect(planOf({ ...AUTO_FORM, onWin: 'reset', onWinPercent: '' }).field).toBeNull();
    expect(
      planOf({ ...AUTO_FORM, stopProfit: '5', stopLoss: '2.50', onWin: 'increase', onWinPercent: '50' }).plan,
    ).toEqual(
      plan({
        count: 10,
        stopProfitMinor: 500n,
        stopLossMinor: 250n,
        onWin: { mode: 'increase', percent: 50 },
      }),
    );
    expect(signedMinor('-1.50')).toBe(-150n);
    expect(signedMinor('0.00')).toBe(0n);
    expect([signedText(120n), signedText(-30n), signedText(0n)]).toEqual(['+1.20', '-0.30', '0.00']);
  });

  it('raises the stake by the percentage after a loss and goes back to the first stake after a win', () => {
    const martingale = plan({ onLoss: { mode: 'increase', percent: 100 } });
    let step = afterRound(martingale, start, won('1.00', '0.00'), 500_000n);
    expect(step).toEqual({ state: { ...start, stakeMinor: 200n, bets: 1, profitMinor: -100n }, stop: null });
    step = afterRound(martingale, step.state, won('2.00', '0.00'), 500_000n);
    expect(step.state.stakeMinor).toBe(400n);
    step = afterRound(martingale, step.state, won('4.00', '8.00'), 500_000n);
    expect(step.state).toEqual({ ...start, bets: 3, profitMinor: 100n });
    // 10 % of 1.05 is 0.105: rounded up to a whole centavo.
    const tenPercent = plan({ onWin: { mode: 'increase', percent: 10 } });
    const up = afterRound(tenPercent, { ...start, stakeMinor: 105n }, won('1.05', '2.10'), 500_000n);
    expect(up.state.stakeMinor).toBe(116n);
  });

  it('counts a partial return as a loss', () => {
    const raise = plan({ onLoss: { mode: 'increase', percent: 50 }, onWin: { mode: 'reset' } });
    const step = afterRound(raise, start, won('1.00', '0.50'), 500_000n);
    expect(step.state.stakeMinor).toBe(150n);
    expect(step.state.profitMinor).toBe(-50n);
  });

  it('stops on the profit target, the loss limit, the number of bets and a stake over the maximum', () => {
    expect(afterRound(plan({ stopProfitMinor: 100n }), start, won('1.00', '2.00'), 500_000n).stop).toBe(
      'profit',
    );
    expect(afterRound(plan({ stopProfitMinor: 101n }), start, won('1.00', '2.00'), 500_000n).stop).toBeNull();
    expect(afterRound(plan({ stopLossMinor: 100n }), start, won('1.00', '0.00'), 500_000n).stop).toBe('loss');
    expect(afterRound(plan({ stopLossMinor: 101n }), start, won('1.00', '0.00'), 500_000n).stop).toBeNull();
    expect(afterRound(plan({ count: 1 }), start, won('1.00', '0.00'), 500_000n).stop).toBe('count');
    const doubling = plan({ onLoss: { mode: 'increase', percent: 100 } });
    expect(afterRound(doubling, start, won('1.00', '0.00'), 199n).stop).toBe('max_bet');
    expect(afterRound(doubling, start, won('1.00', '0.00'), 200n).stop).toBeNull();
  });
});

const lostRound = (stake: string) =>
  roundOf('limbo', {
    stake,
    payout: '0.00',
    win_loss: `-${stake}`,
    outcome: { resultHundredths: 104, win: false },
  });

async function openAuto() {
  await userEvent.click(screen.getByTestId('limbo-mode-auto'));
  const count = screen.getByTestId('limbo-auto-count');
  await userEvent.clear(count);
  return count;
}

// A session waits a moment between real bets; a busy machine needs more than the default 5 s.
describe('auto-bet on a game screen', { timeout: 15_000 }, () => {
  it('places each bet as a normal bet with its own key and doubles the stake after each loss', async () => {
    const api = mockApi({
      'POST /api/originals/limbo/bet': (call) => {
        const { amount } = call.body as { amount: string };
        return { body: ok({ round: lostRound(amount), balance: '990.00' }) };
      },
    });
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={() => {}} />);
    await userEvent.type(await openAuto(), '3');
    await userEvent.click(screen.getByTestId('limbo-auto-loss-increase'));
    await userEvent.click(screen.getByTestId('limbo-auto-start'));
    await waitFor(() => expect(screen.getByTestId('limbo-auto-status').textContent).toContain('Finished'), {
      timeout: 5000,
    });
    expect(api.calls.map((call) => (call.body as { amount: string }).amount)).toEqual([
      '0.10',
      '0.20',
      '0.40',
    ]);
    const keys = api.calls.map((call) => call.headers['Idempotency-Key']);
    expect(new Set(keys).size).toBe(3);
    expect(api.calls.map((call) => (call.body as { idempotency_key: string }).idempotency_key)).toEqual(keys);
    expect(screen.getByTestId('limbo-auto-status').textContent).toContain('Bet 3 of 3');
    expect(screen.getByTestId('limbo-auto-status').textContent).toContain('Profit -R$0.70');
    expect(screen.getByTestId('limbo-auto-start')).toHaveProperty('disabled', false);
  });

  it('stops at the first refusal and shows the server message', async () => {
    const { toast } = await import('../../lib/toast.ts');
    let calls = 0;
    const api = mockApi({
      'POST /api/originals/limbo/bet': () => {
        calls += 1;
        return calls === 1
          ? { body: ok({ round: lostRound('0.10'), balance: '0.05' }) }
          : { status: 422, body: fail('INSUFFICIENT_BALANCE', 'Saldo insuficiente') };
      },
    });
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={() => {}} />);
    await userEvent.type(await openAuto(), '10');
    await userEvent.click(screen.getByTestId('limbo-auto-start'));
    await waitFor(
      () => expect(screen.getByTestId('limbo-auto-status').textContent).toContain('Saldo insuficiente'),
      { timeout: 5000 },
    );
    expect(toast.error).toHaveBeenCalledWith('Saldo insuficiente');
    expect(api.calls).toHaveLength(2);
    expect(screen.getByTestId('limbo-auto-status').className).toContain('is-error');
  });

  it('stops on the profit target', async () => {
    const api = mockApi({
      'POST /api/originals/limbo/bet': () => ({
        body: ok({
          round: roundOf('limbo', {
            stake: '0.10',
            payout: '0.20',
            win_loss: '0.10',
            multiplier: '2.0000',
            outcome: { resultHundredths: 300, win: true },
          }),
          balance: '1000.10',
        }),
      }),
    });
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={() => {}} />);
    await userEvent.type(await openAuto(), '50');
    await userEvent.type(screen.getByTestId('limbo-auto-stopProfit'), '0.25');
    await userEvent.click(screen.getByTestId('limbo-auto-start'));
    await waitFor(
      () => expect(screen.getByTestId('limbo-auto-status').textContent).toContain('profit target reached'),
      { timeout: 5000 },
    );
    expect(api.calls).toHaveLength(3);
  });

  it('stops after the bet in flight when the player presses stop', async () => {
    let release: () => void = () => {};
    const api = mockApi({
      'POST /api/originals/limbo/bet': () =>
        new Promise((resolve) => {
          release = () => resolve({ body: ok({ round: lostRound('0.10'), balance: '999.90' }) });
        }),
    });
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={() => {}} />);
    await userEvent.type(await openAuto(), '100');
    await userEvent.click(screen.getByTestId('limbo-auto-start'));
    await waitFor(() => expect(api.calls).toHaveLength(1));
    // While a session runs the player cannot change the game's inputs.
    expect(screen.getByTestId('limbo-amount')).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByTestId('limbo-auto-stop'));
    release();
    await waitFor(() => expect(screen.getByTestId('limbo-auto-status').textContent).toContain('Stopped.'));
    expect(api.calls).toHaveLength(1);
    expect(screen.getByTestId('limbo-amount')).toHaveProperty('disabled', false);
  });

  it('places one bet for two clicks that land before the screen updates', async () => {
    const api = mockApi({
      'POST /api/originals/limbo/bet': () => ({ body: ok({ round: lostRound('0.10'), balance: '999.90' }) }),
    });
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={() => {}} />);
    const button = screen.getByTestId('limbo-bet');
    // Both in one act: React has not re-rendered (nor disabled the button) between them.
    act(() => {
      button.click();
      button.click();
    });
    expect(await screen.findByText('You lost R$0.10')).toBeTruthy();
    expect(api.calls).toHaveLength(1);
  });

  it('refuses to start with an invalid number of bets, without calling the server', async () => {
    const api = mockApi({});
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={() => {}} />);
    await userEvent.type(await openAuto(), '5000');
    expect(screen.getByText('Choose 1 to 1000 bets')).toBeTruthy();
    expect(screen.getByTestId('limbo-auto-start')).toHaveProperty('disabled', true);
    expect(api.calls).toEqual([]);
  });
});
