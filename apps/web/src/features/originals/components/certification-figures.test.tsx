import type { TCertificationMode, TCertificationResponse } from '@sorte/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCatalogue } from '../../../lib/i18n.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { fail, mockApi, ok } from '../../../test/api-mock.ts';
import { CertificationLink, modeLabel } from './certification-figures.tsx';

vi.mock('../../../lib/toast.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const mode = (id: string, label: string, measured: number): TCertificationMode => ({
  id,
  label,
  declared_rtp: 0.99,
  enumerated_rtp: 0.99,
  enumeration_matches: true,
  best_strategy_rtp: null,
  rounds: 20_000,
  measured_rtp: measured,
  ci_low: measured - 0.0123,
  ci_high: measured + 0.0123,
  declared_within_ci: true,
  chi_square_p: 0.5,
  runs_p: 0.4,
  serial_p: 0.3,
});

const figures = (fullSizes: boolean): TCertificationResponse => ({
  commit: '58bef60ce6ae4fb7d1244194c8f4fbdbc808d0f0',
  dirty_work_tree: false,
  generated_at: '2026-12-02T01:16:35.571Z',
  confidence: 0.999,
  sizes: {
    full_sizes: fullSizes,
    rounds_per_mode: 20_000,
    stream_bytes: 8_388_608,
    nist_sequences: 10,
    nist_bits_per_sequence: 131_072,
    dieharder_tests: [0, 15, 100, 204],
  },
  batteries: {
    dieharder: { results: 5, passed: 4, weak: 1, failed: 0 },
    nist: { tests: 8, tests_passed: 8, sequences: 10 },
    ent: { entropy_bits_per_byte: 7.99998, chi_square_p: 0.2 },
  },
  commands: ['npm ci', 'npm run certify -- --quick'],
  games: [
    {
      game: 'dice',
      modes: [mode('dice:under-5000', 'under 50.00', 0.98864), mode('dice:over-5000', 'over 50.00', 0.99512)],
    },
  ],
});

function renderLink() {
  render(
    <QueryClientProvider client={queryClient}>
      <CertificationLink game="dice" />
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  queryClient.clear();
  await i18next.changeLanguage('en');
});

describe('certification figures of a game', () => {
  it('asks for nothing until opened, then shows the figures with their commit, sizes and smoke-run note', async () => {
    const api = mockApi({ 'GET /api/originals/certification': () => ({ body: ok(figures(false)) }) });
    renderLink();
    expect(api.calls).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Certification figures' }));
    const dialog = await screen.findByTestId('certification-figures');
    expect(api.calls[0]?.url.searchParams.get('game')).toBe('dice');
    expect(within(dialog).getByTestId('certification-smoke').textContent).toContain('not a lab certificate');
    expect(dialog.textContent).toContain('58bef60ce6ae');
    expect(dialog.textContent).toContain('20,000 rounds per mode');
    expect(dialog.textContent).toContain('99.9% confidence interval');
    const rows = within(dialog).getAllByTestId('certification-mode');
    expect(rows.map((row) => row.querySelector('th')?.textContent)).toEqual(['Under 50.00', 'Over 50.00']);
    expect(rows[0]?.textContent).toContain('98.86%');
    expect(rows[0]?.textContent).toContain('CI 97.63% – 100.09%');
    expect(dialog.textContent).toContain('Dieharder: 4 of 5 passed (1 weak, 0 failed)');
    expect(dialog.textContent).toContain('NIST SP 800-22: 8 of 8 tests passed over 10 sequences');
  });

  it('drops the smoke-run note for a report at full sizes', async () => {
    mockApi({ 'GET /api/originals/certification': () => ({ body: ok(figures(true)) }) });
    renderLink();
    await userEvent.click(screen.getByRole('button', { name: 'Certification figures' }));
    await screen.findByTestId('certification-figures');
    expect(screen.queryByTestId('certification-smoke')).toBeNull();
  });

  it("says so in the server's words when no report ships with the build", async () => {
    mockApi({
      'GET /api/originals/certification': () => ({
        status: 404,
        body: fail(
          'CERTIFICATION_REPORT_MISSING',
          'The certification figures are not available on this server yet',
        ),
      }),
    });
    renderLink();
    await userEvent.click(screen.getByRole('button', { name: 'Certification figures' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The certification figures are not available on this server yet',
    );
  });

  it('writes the figures and the modes in Portuguese with Brazilian numbers', async () => {
    i18next.addResourceBundle('pt', 'translation', await loadCatalogue('pt'), true, true);
    await i18next.changeLanguage('pt');
    mockApi({ 'GET /api/originals/certification': () => ({ body: ok(figures(false)) }) });
    renderLink();
    await userEvent.click(screen.getByRole('button', { name: 'Certificação: números' }));
    const dialog = await screen.findByTestId('certification-figures');
    expect(within(dialog).getByRole('columnheader', { name: 'RTP teórico' })).toBeTruthy();
    expect(within(dialog).getByRole('columnheader', { name: 'RTP medido' })).toBeTruthy();
    const first = within(dialog).getAllByTestId('certification-mode')[0]!;
    expect(first.querySelector('th')?.textContent).toBe('Abaixo de 50,00');
    expect(first.textContent).toContain('98,86%');
    expect(dialog.textContent).toContain('20.000 rodadas por modo');
    const t = i18next.t.bind(i18next);
    expect(modeLabel(mode('plinko:16-high', '16 rows, high', 0.99), t)).toBe('16 linhas, risco alto');
    expect(modeLabel(mode('crash:200', 'cash out 2.00×', 0.99), t)).toBe('Sacar em 2,00×');
    expect(modeLabel(mode('roulette:split-0.2', 'split 0 2', 0.99), t)).toBe('Cavalo 0, 2');
    expect(modeLabel(mode('hilo:always-higher-2', 'always higher, cash out after 2', 0.99), t)).toBe(
      'Sempre maior, sacar após 2',
    );
    // A mode this page does not know keeps the report's own name.
    expect(modeLabel(mode('wheel:fast', 'fast wheel', 0.99), t)).toBe('fast wheel');
  });
});
