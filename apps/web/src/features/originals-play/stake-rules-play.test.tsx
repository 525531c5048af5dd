import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../lib/i18n.ts';
import { mockApi, ok } from '../../test/api-mock.ts';
import { DicePlay } from './dice-play.tsx';
import { HiloPlay } from './hilo-play.tsx';
import { LimboPlay } from './limbo-play.tsx';
import { MinesPlay } from './mines-play.tsx';
import { instantFrames, launchOf, roundOf } from './play-fixtures.ts';
import { openingStakeWithin } from './play-shared.tsx';

/**
 * Before a bet is sent, each screen runs the stake rules the server runs (@sorte/fairness
 * checkStake): a stake whose whole-centavo payouts would return less than the RTP shown, or a
 * target whose win would pass the cap, disables the button with the reason and offers a stake that
 * works. No request leaves for a refused stake.
 */

const plain = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

beforeEach(() => {
  instantFrames();
  sessionStorage.setItem('sorte.demo_token', 'demo-token-1');
});

describe('stake rules on the play screens', () => {
  it('dice opens on ×2 at R$ 0,10; under 90.01 it explains the R$ 8,92 minimum in Portuguese and sends nothing', async () => {
    i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
    await i18next.changeLanguage('pt');
    const api = mockApi({});
    render(<DicePlay launch={launchOf('dice')} demo onBalance={() => {}} />);
    expect(screen.getByTestId('dice-amount')).toHaveProperty('value', '0,10');
    expect(screen.getByTestId('dice-roll')).toHaveProperty('disabled', false);

    fireEvent.input(screen.getByTestId('dice-target'), { target: { value: '9001' } });
    expect(screen.getByTestId('dice-roll')).toHaveProperty('disabled', true);
    expect(plain(screen.getByRole('alert').textContent)).toBe(
      'Aposta mínima para esta escolha: R$ 8,92 — uma aposta menor receberia menos que o RTP informado',
    );
    await userEvent.click(screen.getByTestId('dice-roll'));
    expect(api.calls.filter((call) => call.url.pathname === '/api/originals/dice/bet')).toEqual([]);

    const fix = screen.getByTestId('dice-amount-fix');
    expect(plain(fix.textContent)).toBe('Apostar R$ 8,92');
    await userEvent.click(fix);
    expect(screen.getByTestId('dice-amount')).toHaveProperty('value', '8,92');
    expect(screen.getByTestId('dice-roll')).toHaveProperty('disabled', false);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('limbo names the minimum and its step at 1.09×, and the highest target at R$ 500,00 for 1,000,000×', async () => {
    mockApi({});
    render(<LimboPlay launch={launchOf('limbo')} demo onBalance={() => {}} />);
    const target = screen.getByTestId('limbo-target');
    await userEvent.clear(target);
    await userEvent.type(target, '1.09');
    expect(screen.getByTestId('limbo-bet')).toHaveProperty('disabled', true);
    expect(screen.getByRole('alert').textContent).toBe(
      'For this choice, bet R$8.56 or more, or a multiple of R$1.00 — other amounts would be paid less than the RTP shown',
    );
    expect(screen.getByTestId('limbo-amount-fix').textContent).toBe('Bet R$1.00');

    await userEvent.clear(target);
    await userEvent.type(target, '1000000');
    const amount = screen.getByTestId('limbo-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '500');
    expect(screen.getByTestId('limbo-bet')).toHaveProperty('disabled', true);
    expect(screen.getByRole('alert').textContent).toBe(
      'The maximum win is R$500,000.00: at this bet amount the highest target is ×1,000.00',
    );
    await userEvent.click(screen.getByTestId('limbo-amount-fix'));
    expect(screen.getByTestId('limbo-amount')).toHaveProperty('value', '0.50');
    expect(screen.getByTestId('limbo-bet')).toHaveProperty('disabled', false);
  });

  it('Hi-Lo opens on its R$ 9,10 minimum and explains it when the stake is lowered', async () => {
    mockApi({
      'GET /api/originals/hilo/active': () => ({ body: ok({ round: null, balance: '1000.00' }) }),
    });
    const launch = launchOf('hilo');
    launch.game.min_bet = '9.10';
    render(<HiloPlay launch={launch} demo onBalance={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('hilo-bet')).toHaveProperty('disabled', false));
    expect(screen.getByTestId('hilo-amount')).toHaveProperty('value', '9.10');
    const amount = screen.getByTestId('hilo-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.10');
    expect(screen.getByTestId('hilo-bet')).toHaveProperty('disabled', true);
    expect(screen.getByRole('alert').textContent).toBe('Bet between R$9.10 and R$5,000.00');
  });

  it('Mines names the minimum for the mine count and offers it', async () => {
    mockApi({
      'GET /api/originals/mines/active': () => ({ body: ok({ round: null, balance: '1000.00' }) }),
    });
    render(<MinesPlay launch={launchOf('mines')} demo onBalance={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('mines-bet')).toHaveProperty('disabled', false));
    // Three mines: the first safe tile pays ×1.125, so R$ 0,25 would get R$ 0,28 of 0.28125.
    expect(screen.getByTestId('mines-amount')).toHaveProperty('value', '7.68');
    const amount = screen.getByTestId('mines-amount');
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.25');
    expect(screen.getByTestId('mines-bet')).toHaveProperty('disabled', true);
    expect(screen.getByRole('alert').textContent).toBe(
      'Minimum bet for this choice: R$7.68 — a smaller bet would be paid less than the RTP shown',
    );
    await userEvent.selectOptions(screen.getByTestId('mines-count'), '24');
    expect(screen.getByRole('alert').textContent).toBe(
      'For this choice, bet R$0.30 or more, or a multiple of R$0.04 — other amounts would be paid less than the RTP shown',
    );
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.12');
    expect(screen.getByTestId('mines-bet')).toHaveProperty('disabled', false);
  });
});

describe('the opening stake', () => {
  it('is the smallest the game takes on a first visit, then the stake of the last accepted bet', async () => {
    mockApi({
      'POST /api/originals/dice/bet': () => ({
        body: ok({
          round: roundOf('dice', {
            stake: '2.50',
            payout: '0.00',
            win_loss: '-2.50',
            outcome: { roll: 9000 },
          }),
          balance: '997.50',
        }),
      }),
    });
    const first = render(<DicePlay launch={launchOf('dice')} demo onBalance={() => {}} />);
    expect(screen.getByTestId('dice-amount')).toHaveProperty('value', '0.10');
    await userEvent.clear(screen.getByTestId('dice-amount'));
    await userEvent.type(screen.getByTestId('dice-amount'), '2.50');
    await userEvent.click(screen.getByTestId('dice-roll'));
    await waitFor(() => expect(screen.getByTestId('dice-roll')).toHaveProperty('disabled', false));
    first.unmount();

    render(<DicePlay launch={launchOf('dice')} demo onBalance={() => {}} />);
    expect(screen.getByTestId('dice-amount')).toHaveProperty('value', '2.50');
  });

  it('is not a remembered stake the game no longer takes', () => {
    localStorage.setItem('sorte.last_stake.mines', '0.10');
    mockApi({ 'GET /api/originals/mines/active': () => ({ body: ok({ round: null, balance: '1000.00' }) }) });
    render(<MinesPlay launch={launchOf('mines')} demo onBalance={() => {}} />);
    // 3 mines take R$ 7,68 or more: the remembered R$ 0,10 would be refused, so it is not offered.
    expect(screen.getByTestId('mines-amount')).toHaveProperty('value', '7.68');
  });

  it('is the last stake within the limits for a game without stake rules', () => {
    localStorage.setItem('sorte.last_stake.slot', '3.00');
    expect(openingStakeWithin('slot', '0.10', '5000.00')).toBe('3.00');
    localStorage.setItem('sorte.last_stake.slot', '9000.00');
    expect(openingStakeWithin('slot', '0.10', '5000.00')).toBe('0.10');
  });
});
