import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { mockApi, ok } from '../../../test/api-mock.ts';
import { LegalSections } from './legal-sections.tsx';

async function renderFor(jurisdiction: 'intl' | 'br') {
  i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
  await i18next.changeLanguage('pt');
  mockApi({ 'GET /api/dynamicwebs/getdata': () => ({ body: ok({ jurisdiction }) }) });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/support#terms']}>
        <LegalSections />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  queryClient.clear();
});

describe('the legal texts', () => {
  it('read the br profile’s own rules on a br site: CPF, PIX from your own CPF, the central self-exclusion', async () => {
    await renderFor('br');
    expect(await screen.findByText(/conta em seu próprio nome e CPF/)).toBeTruthy();
    expect(screen.getByText(/conta bancária no seu CPF/)).toBeTruthy();
    expect(screen.getByText(/Portaria SPA\/MF 1\.231\/2024/)).toBeTruthy();
    expect(screen.getByText(/plataforma centralizada de autoexclusão/)).toBeTruthy();
    // What no profile rewords is the common text.
    expect(screen.getByText(/Nunca os vendemos/)).toBeTruthy();
  });

  it('read the common rules on an intl site, which point to the self-service limits and the password reset', async () => {
    await renderFor('intl');
    expect(await screen.findByText(/Uma conta por pessoa/)).toBeTruthy();
    expect(screen.queryByText(/CPF/)).toBeNull();
    expect(screen.getByText(/Central de segurança → Jogo responsável/)).toBeTruthy();
    expect(screen.getByText(/Esqueceu a senha\?/)).toBeTruthy();
  });
});
