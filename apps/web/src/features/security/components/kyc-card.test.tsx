import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { setToken } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { KycCard } from './kyc-card.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const BASIS = 'Lei 14.790/2023 art. 26 I; Portaria SPA/MF 722/2024';
const BR_RULES = (['deposit', 'bet', 'withdrawal'] as const).map((action) => ({
  action,
  required_checks: ['cpf', 'identity'],
  above_amount: null,
  above_total: null,
  legal_basis: BASIS,
  legal_basis_key: `br_${action}`,
}));

function renderCard() {
  render(
    <QueryClientProvider client={queryClient}>
      <KycCard />
    </QueryClientProvider>,
  );
}

describe('identity verification card on /security-center', () => {
  it('says what br needs before what and why, runs the CPF check and links to the capture page (pt)', async () => {
    i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
    await i18next.changeLanguage('pt');
    setToken('player-token');
    queryClient.clear();
    const { calls } = mockApi({
      'GET /api/kyc/status': () => ({
        body: ok({
          passed_checks: [],
          missing_checks: ['cpf', 'identity'],
          requirements: BR_RULES,
          session: null,
        }),
      }),
      'POST /api/kyc/verifications': () => ({
        body: ok({
          passed_checks: ['cpf'],
          missing_checks: ['identity'],
          requirements: BR_RULES,
          session: {
            status: 'created',
            reason: null,
            capture_url: 'http://127.0.0.1:4040/capture/abc',
            updated_at: '2026-12-02T12:00:00.000Z',
          },
        }),
      }),
    });
    renderCard();
    expect((await screen.findByTestId('kyc-summary')).textContent).toBe('Ainda faltam verificações.');
    expect(screen.getByTestId('kyc-check-cpf').textContent).toBe('Verificação do CPFPendente');
    expect(screen.getByText('Antes de depositar: Verificação do CPF, Documento e selfie')).toBeTruthy();
    // The rule's legal basis in Portuguese (its message key), not the server's English citation.
    expect(screen.getAllByText(/^Regra: .*anexo sobre a identificação do apostador/)).toHaveLength(3);
    expect(screen.getByText(/^Regra: .*reconhecimento facial antes da ativação da conta/)).toBeTruthy();
    expect(screen.queryByText(`Regra: ${BASIS}`)).toBeNull();

    await userEvent.click(screen.getByTestId('kyc-start'));
    const link = await screen.findByTestId('kyc-continue');
    expect(link.getAttribute('href')).toBe('http://127.0.0.1:4040/capture/abc');
    expect(link.textContent).toBe('Enviar documento e selfie');
    expect(screen.getByTestId('kyc-check-cpf').textContent).toBe('Verificação do CPFVerificado');
    expect(screen.getByTestId('kyc-session-status').textContent).toBe('Aguardando seu documento e selfie.');
    expect(calls.filter((call) => call.url.pathname === '/api/kyc/verifications')).toHaveLength(1);
    await i18next.changeLanguage('en');
  });

  it('shows the intl withdrawal thresholds, and a refused CPF check as the server words it', async () => {
    await i18next.changeLanguage('en');
    setToken('player-token');
    queryClient.clear();
    mockApi({
      'GET /api/kyc/status': () => ({
        body: ok({
          passed_checks: [],
          missing_checks: ['identity'],
          requirements: [
            {
              action: 'deposit',
              required_checks: [],
              above_amount: null,
              above_total: null,
              legal_basis: 'policy',
              legal_basis_key: 'intl_deposit',
            },
            {
              action: 'withdrawal',
              required_checks: ['identity'],
              above_amount: '2000.00',
              above_total: '10000.00',
              legal_basis: 'Operator policy',
              // A rule whose key has no message yet shows the server's text.
              legal_basis_key: 'site_own_rule',
            },
          ],
          session: null,
        }),
      }),
      'POST /api/kyc/verifications': () => ({
        status: 503,
        body: fail('KYC_PROVIDER_UNAVAILABLE', 'Identity verification is unavailable right now'),
      }),
    });
    renderCard();
    expect(
      await screen.findByText(
        /^Before a withdrawal above R\$\s?2,000\.00 or once your withdrawals pass R\$\s?10,000\.00: Document and selfie$/,
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/Before you deposit/)).toBeNull();
    expect(screen.getByText('Rule: Operator policy')).toBeTruthy();
    await userEvent.click(screen.getByTestId('kyc-start'));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Identity verification is unavailable right now'),
    );
  });
});
