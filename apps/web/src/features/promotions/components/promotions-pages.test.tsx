import type { TCoverHistory, TGrant, TPromotionCheck } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import {
  ActivityPage,
  LotteryWheelPage,
  RechargeActivityPage,
  RechargeRebatePage,
  ReliefFundPage,
  VipPage,
  wheelLabel,
} from './promotions-pages.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const RULES: TPromotionCheck['rules'] = {
  activation: 'MANUAL_CLAIM',
  time_zone: 'America/Sao_Paulo',
  ratio: '10.00',
  fixed_reward: null,
  min_amount: '100.00',
  cap: null,
  wagering_multiple: 5,
  wagering_base: 'deposit',
  max_bet: '25.00',
  expiry_days: 7,
  locks_cash: true,
  tiers: [],
};

function check(overrides: Partial<TPromotionCheck> = {}): TPromotionCheck {
  return {
    code: 'ftd',
    enabled: true,
    off_reason: null,
    eligible: true,
    claimed: false,
    amount: '10.00',
    reason: null,
    next_at: null,
    rules: RULES,
    list: [],
    extra: {},
    ...overrides,
  };
}

const GRANT: TGrant = {
  id: 1,
  campaign: 'ftd',
  period: 'once',
  amount: '10.00',
  balance: '10.00',
  wagering_required: '500.00',
  wagering_done: '0.00',
  wagering_left: '500.00',
  max_bet: '25.00',
  status: 'active',
  expires_at: '2026-12-02T12:00:00.000Z',
  created_at: '2026-11-25T12:00:00.000Z',
  closed_at: null,
  converted: '0.00',
  forfeited: '0.00',
};

const NO_BONUS: TCoverHistory['active'] = {
  count: 0,
  balance: '0.00',
  wagering_left: '0.00',
  wagering_required: '0.00',
  wagering_done: '0.00',
};

function renderAt(path: string, element: React.ReactNode, handlers: Parameters<typeof mockApi>[0]) {
  setToken('player-token');
  queryClient.clear();
  const api = mockApi({
    'POST /api/cover/history': () => ({ body: ok({ list: [], active: NO_BONUS, next_before_id: null }) }),
    ...handlers,
  });
  const router = createMemoryRouter([{ path, element }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return api;
}

afterEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});

describe('promotion pages', () => {
  it('claims once: the success message, the page reloads and the button turns off with why', async () => {
    let claimed = false;
    const api = renderAt('/promotion/activity/recharge', <RechargeActivityPage />, {
      'POST /api/ftd/check': () => ({
        body: ok(
          claimed
            ? check({ eligible: false, claimed: true, amount: '0.00', reason: 'Not eligible to receive' })
            : check(),
        ),
      }),
      'POST /api/ftd/claim': () => {
        claimed = true;
        return { body: ok({ grant: GRANT, prize: null }) };
      },
    });
    expect((await screen.findByTestId('claim-amount')).textContent).toBe('R$10.00');
    expect(screen.getByText('Max bet while wagering: R$25.00')).toBeTruthy();
    const button = screen.getByTestId('claim-button') as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    await userEvent.click(button);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Reward claimed successfully!'));
    expect(api.calls.filter((c) => c.url.pathname === '/api/ftd/claim')).toHaveLength(1);
    // The list reloads after the claim: the check is asked again and now says why not.
    expect((await screen.findByTestId('claim-reason')).textContent).toBe('Not eligible to receive');
    expect((screen.getByTestId('claim-button') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('claim-button').textContent).toBe('Claimed');
    expect(api.calls.filter((c) => c.url.pathname === '/api/ftd/check').length).toBeGreaterThanOrEqual(2);
  });

  it('shows the refusal of a claim in the player’s words', async () => {
    renderAt('/promotion/activity/recharge', <RechargeActivityPage />, {
      'POST /api/ftd/check': () => ({ body: ok(check()) }),
      'POST /api/ftd/claim': () => ({
        status: 422,
        body: fail('PROMO_NOT_ELIGIBLE', "You're not eligible for this reward"),
      }),
    });
    await userEvent.click(await screen.findByTestId('claim-button'));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("You're not eligible for this reward"));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it.each([
    ['lotterywheel', '/promotion/activity/lottery-wheel', <LotteryWheelPage key="w" />],
    ['rechargerebate', '/promotion/activity/recharge-rebate', <RechargeRebatePage key="r" />],
    ['dailyrescue', '/promotion/activity/daily-loss-relief-fund', <ReliefFundPage key="d" />],
  ])(
    'a %s list that fails says the server message, not the first-deposit wording',
    async (call, path, page) => {
      renderAt(path, page, {
        [`POST /api/${call}/check`]: () => ({
          status: 503,
          body: fail('UNAVAILABLE', 'Service unavailable'),
        }),
      });
      expect(await screen.findByText('Service unavailable')).toBeTruthy();
      expect(screen.queryByText(/Error in ftd list/)).toBeNull();
    },
  );

  it('a first-deposit list that fails says so in the words of the spec', async () => {
    renderAt('/promotion/activity/recharge', <RechargeActivityPage />, {
      'POST /api/ftd/check': () => ({ status: 503, body: fail('UNAVAILABLE', 'Service unavailable') }),
    });
    expect(await screen.findByText('Error in ftd list: Service unavailable')).toBeTruthy();
  });

  it('an off campaign says why, with no claim button', async () => {
    const why = 'Proibido no Brasil: Portaria SPA/MF 1.231/2024, art. 42';
    renderAt('/promotion/activity/lottery-wheel', <LotteryWheelPage />, {
      'POST /api/lotterywheel/check': () => ({
        body: ok(check({ code: 'lotterywheel', enabled: false, eligible: false, off_reason: why })),
      }),
    });
    const off = await screen.findByTestId('campaign-off');
    expect(off.textContent).toContain(why);
    expect(screen.queryByTestId('claim-button')).toBeNull();
    expect(screen.queryByTestId('lottery-wheel')).toBeNull();
  });

  it('the activity list shows only the campaigns the site offers, and names the others in one line with their reasons behind it', async () => {
    renderAt('/promotion/activity', <ActivityPage />, {
      'GET /api/activitydetails/get': () => ({
        body: ok({
          jurisdiction: 'br',
          vip_basis: 'wagering',
          list: [
            {
              code: 'ftd',
              enabled: false,
              off_reason: 'Bônus de depósito proibido',
              trigger: 'deposit',
              rules: RULES,
            },
            {
              code: 'dailywheel',
              enabled: true,
              off_reason: null,
              trigger: 'schedule',
              rules: { ...RULES, ratio: '8.00' },
            },
          ],
        }),
      }),
    });
    // Only what the site offers is a card; what it may not offer is one short line at the bottom.
    expect(await screen.findByTestId('campaign-dailywheel')).toBeTruthy();
    expect(screen.queryByTestId('campaign-ftd')).toBeNull();
    expect(document.querySelectorAll('.promo-cards > li')).toHaveLength(1);
    const line = screen.getByTestId('campaigns-not-offered');
    expect(line.querySelector('summary')?.textContent).toBe('Not offered on this site: Recharge bonus');
    expect(line.textContent).toContain('Bônus de depósito proibido');
    expect(line.textContent).not.toMatch(/10%/);
  });

  it('the wagering bar shows how far the bonus is wagered and what is left', async () => {
    renderAt('/promotion/activity/recharge', <RechargeActivityPage />, {
      'POST /api/ftd/check': () => ({ body: ok(check({ eligible: false, claimed: true, amount: '0.00' })) }),
      'POST /api/cover/history': () => ({
        body: ok({
          list: [],
          active: {
            count: 1,
            balance: '10.00',
            wagering_required: '500.00',
            wagering_done: '125.00',
            wagering_left: '375.00',
          },
          next_before_id: null,
        }),
      }),
    });
    const bar = await screen.findByTestId('wagering-bar');
    const progress = within(bar).getByRole('progressbar');
    expect(progress.getAttribute('aria-valuenow')).toBe('25');
    expect(progress.getAttribute('aria-label')).toBe('Wagered R$125.00 of R$500.00');
    expect(screen.getByTestId('bonus-balance').textContent).toBe('R$10.00');
    expect(screen.getByTestId('wagering-left').textContent).toBe(
      'Bet R$375.00 more to turn your bonus into cash and withdraw',
    );
  });

  it('a wheel prize is written short enough for its slice: whole reais without cents', () => {
    expect(wheelLabel('500.00')).toBe('R$500');
    expect(wheelLabel('2.50')).toBe('R$2.50');
  });

  it('VIP: a level without a cashback boost shows a dash, not "+0%"', async () => {
    const level = (lvl: number, name: string, boost: string) => ({
      level: lvl,
      name,
      min: `${lvl * 1000}.00`,
      max: `${lvl * 1000 + 999}.00`,
      gift_min: null,
      gift_max: null,
      rebate_boost: boost,
      reached: lvl === 0,
    });
    renderAt('/promotion/vip', <VipPage />, {
      'POST /api/member/vip/info': () => ({
        body: ok({
          uservip: {
            userviplvl: 0,
            level_name: 'Bronze',
            basis: 'wagering',
            totalrecharge: '0.00',
            totalbetting: '0.00',
            slot_betting: '0.00',
            live_betting: '0.00',
            next_level: 1,
            next_level_name: 'Silver',
            next_level_at: '1000.00',
            needed: '1000.00',
            progress: 0,
            gift_ratio: '0.00',
          },
          data: [level(0, 'Bronze', '0.00'), level(1, 'Silver', '0.50')],
        }),
      }),
    });
    const rows = await screen.findAllByRole('row');
    const text = rows.map((row) => row.textContent ?? '');
    expect(text.find((row) => row.includes('Bronze'))).toContain('—');
    expect(text.join(' ')).not.toContain('+0%');
    expect(text.find((row) => row.includes('Silver'))).toContain('+0.5%');
    // Each tier wears its drawn badge, the metal climbing with the rank; the player's own leads.
    const metals = rows
      .slice(1)
      .map((row) => row.querySelector('[data-testid="vip-badge"]')?.getAttribute('data-metal'));
    expect(metals).toEqual(['bronze', 'silver']);
    const panel = screen.getByTestId('vip-panel');
    expect(panel.querySelector('[data-testid="vip-badge"]')?.getAttribute('data-metal')).toBe('bronze');
  });

  it("a member below the first tier wears a plain steel badge, not the first tier's metal", async () => {
    const level = (lvl: number, name: string) => ({
      level: lvl,
      name,
      min: `${lvl * 1000}.00`,
      max: `${lvl * 1000 + 999}.00`,
      gift_min: null,
      gift_max: null,
      rebate_boost: '0.00',
      reached: false,
    });
    renderAt('/promotion/vip', <VipPage />, {
      'POST /api/member/vip/info': () => ({
        body: ok({
          uservip: {
            userviplvl: 0,
            level_name: 'Member',
            basis: 'wagering',
            totalrecharge: '0.00',
            totalbetting: '0.00',
            slot_betting: '0.00',
            live_betting: '0.00',
            next_level: 1,
            next_level_name: 'Bronze',
            next_level_at: '1000.00',
            needed: '1000.00',
            progress: 0,
            gift_ratio: '0.00',
          },
          data: [level(1, 'Bronze'), level(2, 'Silver')],
        }),
      }),
    });
    const panel = await screen.findByTestId('vip-panel');
    expect(panel.querySelector('[data-testid="vip-badge"]')?.getAttribute('data-metal')).toBe('member');
  });
});
