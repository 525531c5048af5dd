import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { setToken } from '../../lib/storage.ts';
import { mockApi, ok } from '../../test/api-mock.ts';
import { TermsGate } from './terms-modal.tsx';

const pending = {
  version: 2,
  effective_at: '2026-12-10T12:00:00.000Z',
  summary: 'Regras de rollover esclarecidas',
};

describe('terms acceptance modal', () => {
  afterEach(() => {
    setToken(null);
    queryClient.clear();
  });

  it('shows pending terms after login and accepts them, then goes away (pt)', async () => {
    i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
    await i18next.changeLanguage('pt');
    let accepted = false;
    const { calls } = mockApi({
      'POST /api/auth/me': () => ({
        body: ok({ id: 7, name: 'maria01', terms_pending: accepted ? null : pending }),
      }),
      'POST /api/terms/accept': () => {
        accepted = true;
        return { body: ok({ current_version: 2, pending: null, upcoming: null }) };
      },
    });
    setToken('token-1');
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <TermsGate />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const modal = await screen.findByTestId('terms-modal');
    expect(modal.textContent).toContain('Termos e condições atualizados');
    expect(modal.textContent).toContain('A versão 2 dos nossos termos vale desde 10 de dezembro de 2026');
    expect(screen.getByTestId('terms-summary').textContent).toBe('Regras de rollover esclarecidas');
    expect(screen.getByRole('link', { name: 'Ler os termos' }).getAttribute('href')).toBe(
      '/information-center/support#terms',
    );

    // Escape does not dismiss it: accepting is the way back to playing.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByTestId('terms-modal')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Aceito os novos termos' }));
    await waitFor(() => expect(screen.queryByTestId('terms-modal')).toBeNull());
    expect(calls.find((call) => call.url.pathname === '/api/terms/accept')?.body).toEqual({ version: 2 });
  });
});
