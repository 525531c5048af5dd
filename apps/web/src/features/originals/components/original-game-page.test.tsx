import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { launchOf } from '../../originals-play/play-fixtures.ts';
import { OriginalGamePage, paytableLines } from './original-game-page.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const rules = (game: string, paytable: unknown) => ({
  game,
  rtp: '97.56',
  rtp_max: '97.56',
  min_bet: '0.10',
  max_bet: '1000.00',
  max_win: '1000000.00',
  paytable,
});

function renderPage(code: 'limbo' | 'bingo') {
  mockApi({
    'POST /api/day7/day7LoginV2': () => ({ body: ok(launchOf(code)) }),
    'GET /api/originals/rules': () => ({
      body: ok({ list: [rules(code, [{ max_balls: 12, multiplier: '100.0000' }])] }),
    }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[`/originals/${code}?mode=demo`]}>
        <OriginalGamePage code={code} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('in-house game page', () => {
  it('puts the board and bet controls before the rules, whose heading keeps the RTP in view', async () => {
    renderPage('limbo');
    const board = await screen.findByTestId('limbo-play');
    const rulesCard = screen.getByTestId('game-rules');
    // The board comes first in the page order (on a phone: first on the screen, the rules below).
    expect(board.compareDocumentPosition(rulesCard) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByTestId('game-rtp').textContent).toBe('Return to player (RTP) 97.56%');
    // Shown before the first bet, and folds from its heading.
    expect(rulesCard).toHaveProperty('open', true);
    expect(within(rulesCard).getByText('Maximum win')).toBeTruthy();
    await userEvent.click(within(rulesCard).getByText('Rules'));
    expect(rulesCard).toHaveProperty('open', false);
    expect(screen.getByTestId('game-rtp').textContent).toContain('97.56%');
  });

  it('names the way back to the lobby even when the bar shows only its arrow', async () => {
    renderPage('bingo');
    await screen.findByTestId('bingo-play');
    expect(screen.getByRole('link', { name: 'Back to lobby' }).getAttribute('href')).toBe('/game');
  });
});

describe('paytable summary', () => {
  it('writes multipliers as short as they can be', () => {
    expect(
      paytableLines([
        { max_balls: 12, multiplier: '100.0000' },
        { max_balls: 42, multiplier: '0.1500' },
      ]),
    ).toEqual([
      { kind: 'balls', key: '12', value: '×100' },
      { kind: 'balls', key: '42', value: '×0.15' },
    ]);
    expect(paytableLines({ split: '18', dozen: '3' })).toEqual([
      { kind: 'key', key: 'split', value: '×18' },
      { kind: 'key', key: 'dozen', value: '×3' },
    ]);
  });
});
