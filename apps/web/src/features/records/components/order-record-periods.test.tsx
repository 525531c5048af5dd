import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { RechargeRecordPage } from './recharge-record-page.tsx';
import { WithdrawalRecordPage } from './withdrawal-record-page.tsx';

const PAGES: [string, ComponentType, string][] = [
  ['recharge records', RechargeRecordPage, 'POST /api/recharge/list'],
  ['withdrawal records', WithdrawalRecordPage, 'POST /api/drawing/list'],
];

describe.each(PAGES)('the %s period chips', (_name, Page, call) => {
  it('ask for today, the last 3 and 7 days, and all again, each from its newest page', async () => {
    setToken('player-token');
    const api = mockApi({ [call]: () => ({ body: ok({ list: [], next: '5', prev: null }) }) });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <Page />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('No records found')).toBeTruthy();
    expect(api.calls.at(-1)?.body).toMatchObject({ period: 'all' });
    const chips = screen.getAllByRole('button', { pressed: false }).map((chip) => chip.textContent);
    expect(chips).toEqual(['Today', 'Last 3 days', 'Last 7 days']);
    expect(screen.getByTestId('period-all').getAttribute('aria-pressed')).toBe('true');

    await userEvent.click(screen.getByTestId('records-next'));
    await waitFor(() => expect(api.calls.at(-1)?.body).toMatchObject({ before: '5', period: 'all' }));
    await userEvent.click(screen.getByTestId('period-today'));
    await waitFor(() => expect(api.calls.at(-1)?.body).toEqual({ period: 'today', limit: 10 }));
    expect(screen.getByTestId('period-today').getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByTestId('period-last_3_days'));
    await waitFor(() => expect(api.calls.at(-1)?.body).toEqual({ period: 'last_3_days', limit: 10 }));
    await userEvent.click(screen.getByTestId('period-last_7_days'));
    await waitFor(() => expect(api.calls.at(-1)?.body).toEqual({ period: 'last_7_days', limit: 10 }));
    // "All" is the reset: every order again.
    await userEvent.click(screen.getByTestId('period-all'));
    await waitFor(() => expect(api.calls.at(-1)?.body).toEqual({ period: 'all', limit: 10 }));
  });
});
