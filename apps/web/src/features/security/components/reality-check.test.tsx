import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { dispatchRealtime } from '../../../lib/realtime-messages.ts';
import { RealityCheckDialog } from './reality-check.tsx';

describe('reality check', () => {
  it('shows time played and the net result pushed over the socket, in pt, and leads to the limits', async () => {
    i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
    await i18next.changeLanguage('pt');
    render(
      <MemoryRouter initialEntries={['/game']}>
        <Routes>
          <Route path="/game" element={<RealityCheckDialog />} />
          <Route path="/responsible-gaming" element={<p>limits page</p>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.queryByTestId('reality-check')).toBeNull();
    act(() =>
      dispatchRealtime({
        type: 'reality_check',
        minutes_played: 30,
        net_result: '-1234.50',
        staked: '2000.00',
      }),
    );
    const dialog = await screen.findByTestId('reality-check');
    expect(dialog.textContent).toContain('Você está jogando há 30 min nesta sessão.');
    expect(screen.getByTestId('reality-net').textContent?.replace(/\s/g, ' ')).toMatch(/-R\$ 1\.234,50/);
    expect(dialog.textContent?.replace(/\s/g, ' ')).toContain('R$ 2.000,00');
    await userEvent.click(screen.getByRole('button', { name: 'Meus limites e pausas' }));
    expect(await screen.findByText('limits page')).toBeTruthy();
    await i18next.changeLanguage('en');
  });
});
