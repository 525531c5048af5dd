import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { HeaderSearch } from './header-search.tsx';

const game = (code: string, name: string) => ({
  id: code,
  code,
  name,
  provider: 'sorte',
  provider_name: 'Sorte Originals',
  category: 'crash',
  tags: [],
  rtp: '99.00',
  rtp_max: '99.00',
  min_bet: '1.00',
  max_bet: '5000.00',
  max_win: '1000000.00',
  thumbnail: `/media/games/${code}.svg`,
  is_inhouse: true,
  has_demo: true,
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>;
}

describe('header search', () => {
  // The panel is a lazy chunk: transform it before the test, not inside its time (seconds on a
  // loaded 2-core CI machine).
  beforeAll(() => import('./search-panel.tsx'), 30_000);

  it('shows the first matches while typing and opens the full results on Enter', async () => {
    queryClient.clear();
    const api = mockApi({
      'GET /api/games/listsv2': (call) => ({
        body: ok({
          list: call.url.searchParams.get('name') === 'cra' ? [game('crash', 'Crash')] : [],
          total: 12,
          page: 1,
          last_page: 2,
        }),
      }),
    });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/']}>
          <HeaderSearch />
          <Routes>
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByTestId('header-search'));
    const input = await screen.findByTestId('header-search-input');
    // The panel's effects move focus (the dialog, then its field) after paint: typing before they
    // ran sent the last keys to the dialog on a loaded machine, and the search was for "c".
    await waitFor(() => expect(document.activeElement).toBe(input));
    await userEvent.type(input, 'cra');
    const result = await screen.findByTestId('header-search-result');
    expect(result.getAttribute('href')).toBe('/gameInfo?game=crash');
    expect(result.textContent).toContain('Crash');
    expect(result.textContent).toContain('99%');
    // One call per pause in typing, not one per key.
    expect(api.calls.filter((call) => call.url.pathname === '/api/games/listsv2')).toHaveLength(1);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/searchGames?name=cra'));
    expect(screen.queryByTestId('search-panel')).toBeNull();
  }, 15_000);
});
