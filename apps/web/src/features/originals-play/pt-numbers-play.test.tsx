import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadCatalogue } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { mockApi, ok } from '../../test/api-mock.ts';
import { CrashPlay } from './crash-play.tsx';
import { DicePlay } from './dice-play.tsx';
import { HiloPlay } from './hilo-play.tsx';
import { LimboPlay } from './limbo-play.tsx';
import { MinesPlay } from './mines-play.tsx';
import { instantFrames, launchOf, roundOf } from './play-fixtures.ts';

/**
 * A Brazilian player reads every figure of a game screen the way the balance beside it is written:
 * "R$ 0,20", "×2,00", "49,50%". A decimal point is the English way, and on a pt screen it is a
 * defect wherever it appears.
 */

// A point between digits that is not a thousands group ("1.000.000,00" is Portuguese).
const ENGLISH_DECIMAL = /\d\.(?!\d{3}(?:\D|$))\d/;
const text = (testId: string) => (screen.getByTestId(testId).textContent ?? '').replace(/\u00a0/g, ' ');

beforeEach(async () => {
  instantFrames();
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
  i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
  await i18next.changeLanguage('pt');
});

/** A socket that never opens: the crash screen's fields are there before the first round. */
class SilentSocket {
  static readonly OPEN = 1;
  readyState = 0;
  onopen = null;
  onmessage = null;
  onclose = null;
  send() {}
  close() {}
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('game screens in Portuguese', () => {
  it('dice writes its target, chance, multiplier, payout and result in pt digits', async () => {
    mockApi({
      'POST /api/originals/dice/bet': () => ({
        body: ok({
          round: roundOf('dice', {
            stake: '0.10',
            payout: '0.00',
            win_loss: '-0.10',
            outcome: { roll: 7712 },
          }),
          balance: '999.90',
        }),
      }),
    });
    render(<DicePlay launch={launchOf('dice')} demo onBalance={() => {}} />);
    const screenText = text('dice-play');
    expect(screenText).toContain('menor que 49,50');
    expect(screenText).toContain('49,50%');
    expect(screenText).toContain('×2,00');
    expect(screenText).toContain('R$ 0,20');
    expect(screenText).not.toMatch(ENGLISH_DECIMAL);

    await userEvent.click(screen.getByTestId('dice-roll'));
    expect(await screen.findByText('Você perdeu R$ 0,10', { normalizer: (t) => t.replace(/\u00a0/g, ' ') }));
    expect(text('dice-result')).toContain('77,12');
    expect(text('dice-play')).not.toMatch(ENGLISH_DECIMAL);
  });

  it('limbo reads and writes its target with a comma', async () => {
    mockApi({});
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={() => {}} />);
    expect(screen.getByTestId('limbo-target')).toHaveProperty('value', '2,00');
    expect(text('limbo-chance')).toBe('49,50%');
    await userEvent.clear(screen.getByTestId('limbo-target'));
    await userEvent.type(screen.getByTestId('limbo-target'), '1,5');
    expect(text('limbo-chance')).toBe('66,00%');
    await userEvent.clear(screen.getByTestId('limbo-target'));
    await userEvent.type(screen.getByTestId('limbo-target'), '1');
    expect(text('limbo-play')).toContain('Escolha um alvo de 1,01 a 1.000.000,00');
    expect(text('limbo-play')).not.toMatch(ENGLISH_DECIMAL);
  });

  it('mines shows its multipliers and the cash-out amount in pt digits', async () => {
    const active = roundOf('mines', {
      id: '77',
      status: 'active',
      stake: '7.68',
      settled_at: null,
      params: { mines: 3, picks: [4] },
      outcome: { mines_count: 3, picks: [4], multiplier: '1.1250', next_multiplier: '1.2857' },
    });
    mockApi({
      'GET /api/originals/mines/active': () => ({ body: ok({ round: active, balance: '992.32' }) }),
    });
    render(<MinesPlay launch={launchOf('mines')} demo onBalance={() => {}} />);
    expect(await screen.findByText(/Sacar R\$/)).toBeTruthy();
    expect(text('mines-play')).toContain('Sacar R$ 8,64');
    expect(text('mines-result')).toContain('×1,125');
    expect(text('mines-result')).toContain('×1,2857');
    expect(text('mines-play')).not.toMatch(ENGLISH_DECIMAL);
  });

  it('hi-lo writes the chance and multiplier of each call in pt digits', async () => {
    const active = roundOf('hilo', {
      id: '88',
      status: 'active',
      stake: '10.00',
      settled_at: null,
      multiplier: '0.0000',
      outcome: { start: { index: 17, rank: 5, suit: 1 }, steps: [], lost: false, canCashOut: false },
    });
    mockApi({ 'GET /api/originals/hilo/active': () => ({ body: ok({ round: active, balance: '990.00' }) }) });
    render(<HiloPlay launch={launchOf('hilo')} demo onBalance={() => {}} />);
    expect(await screen.findByTestId('hilo-cashout')).toBeTruthy();
    expect(text('hilo-play')).toMatch(/\d+,\d+% · ×\d+,\d{2}/);
    expect(text('hilo-play')).toContain('×0,99');
    expect(text('hilo-play')).not.toMatch(ENGLISH_DECIMAL);
  });

  it('crash asks for its auto cash-out with a comma', async () => {
    vi.stubGlobal('WebSocket', SilentSocket);
    render(
      <QueryClientProvider client={queryClient}>
        <CrashPlay launch={launchOf('crash')} demo onBalance={() => {}} />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('crash-auto').getAttribute('placeholder')).toBe('ex.: 2,00');
    await userEvent.type(screen.getByTestId('crash-auto'), '1');
    expect(screen.getByRole('alert').textContent).toBe(
      'Escolha um multiplicador de 1,01 a 1.000.000,00 ou deixe em branco',
    );
  });
});
