import type { TCertificationMode, TCertificationResponse, TCertifiedGame } from '@sorte/contract';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFail } from '../../../components/load-fail.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import {
  formatChance,
  formatDateTime,
  formatDecimal,
  formatNumber,
  formatPercent,
} from '../../../lib/format.ts';
import { useCertification } from '../api/get-certification.ts';

/** A fraction of the stakes (0.99) as the reader writes a percentage ("99%"; "99,5%" in pt). */
const rate = (fraction: number | null) => (fraction === null ? '—' : formatPercent(fraction * 100));
/** A measured rate, always with two places so a column of them lines up ("98,86%", "99,50%"). */
const measured = (fraction: number) => formatChance(fraction * 100);
/** Hundredths in the report's ids ("5000" → "50,00", "101" → "1,01"). */
const hundredths = (text: string) => formatDecimal(Number(text) / 100);

/**
 * The mode's name in the reader's language, from the report's id (`<game>:<mode>`); the report's
 * own English name when the id has a shape this page does not know.
 */
export function modeLabel(mode: TCertificationMode, t: TFunction): string {
  const [game, rest = ''] = mode.id.split(':');
  const parts = rest.split('-');
  const k = (key: string, params: Record<string, string> = {}) =>
    t(`certification.mode.${key}`, { ...params, defaultValue: mode.label });
  switch (game) {
    case 'crash':
      return k('crash', { x: hundredths(rest) });
    case 'limbo':
      return k('limbo', { x: hundredths(rest) });
    case 'dice':
      return k(parts[0] === 'over' ? 'dice_over' : 'dice_under', { n: hundredths(parts[1] ?? '') });
    case 'mines':
      return k('mines', { mines: parts[0] ?? '', picks: parts[1] ?? '' });
    case 'plinko':
      return k('plinko', {
        rows: parts[0] ?? '',
        risk: t(`certification.risk.${parts[1]}`, { defaultValue: parts[1] }),
      });
    case 'keno':
      return k('keno', { n: rest });
    case 'slot':
      return k('slot', { n: parts[0] ?? '' });
    case 'bingo':
      return k('bingo');
    case 'roulette': {
      const [bet = '', numbers = ''] = rest.split('-');
      return k(`roulette_${bet}`, { n: numbers.split('.').join(', ') });
    }
    case 'hilo': {
      const cashOut = parts.at(-1) ?? '';
      return k(rest.startsWith('always-higher') ? 'hilo_higher' : 'hilo_likelier', { n: cashOut });
    }
    default:
      return mode.label;
  }
}

function Figures({ figures }: { figures: TCertificationResponse }) {
  const { t } = useTranslation();
  const modes = figures.games[0]?.modes ?? [];
  const { dieharder, nist } = figures.batteries;
  const rounds = modes[0]?.rounds ?? figures.sizes.rounds_per_mode;
  return (
    <div className="certification" data-testid="certification-figures">
      {!figures.sizes.full_sizes && (
        <p className="original__notice certification__smoke" role="note" data-testid="certification-smoke">
          {t('certification.smoke')}
        </p>
      )}
      <p className="certification__meta">
        {t('certification.measured_at', {
          date: formatDateTime(figures.generated_at),
          commit: figures.commit.slice(0, 12),
        })}
      </p>
      <p className="certification__meta">
        {t('certification.sizes', {
          rounds: formatNumber(rounds),
          confidence: formatPercent(figures.confidence * 100),
        })}
      </p>
      {modes.length === 0 ? (
        <p className="original__notice">{t('certification.none')}</p>
      ) : (
        <div className="certification__scroll">
          <table className="certification__table">
            <thead>
              <tr>
                <th scope="col">{t('certification.col.mode')}</th>
                <th scope="col">{t('certification.col.declared')}</th>
                <th scope="col">{t('certification.col.enumerated')}</th>
                <th scope="col">{t('certification.col.measured')}</th>
              </tr>
            </thead>
            <tbody>
              {modes.map((mode) => (
                <tr key={mode.id} data-testid="certification-mode">
                  <th scope="row">{modeLabel(mode, t)}</th>
                  <td>{rate(mode.declared_rtp)}</td>
                  <td>{rate(mode.enumerated_rtp)}</td>
                  <td>
                    <strong>{measured(mode.measured_rtp)}</strong>
                    <small className="certification__ci">
                      {t('certification.ci', { low: measured(mode.ci_low), high: measured(mode.ci_high) })}
                    </small>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3 className="original__subtitle">{t('certification.batteries')}</h3>
      <ul className="certification__batteries">
        <li>
          {t('certification.dieharder', {
            passed: dieharder.passed,
            total: dieharder.results,
            weak: dieharder.weak,
            failed: dieharder.failed,
          })}
        </li>
        <li>
          {t('certification.nist', {
            passed: nist.tests_passed,
            total: nist.tests,
            sequences: nist.sequences,
          })}
        </li>
      </ul>
      <p className="certification__meta">{t('certification.lab_note')}</p>
    </div>
  );
}

/** The rules panel's link to the game's latest certification figures, shown in a dialog. */
export function CertificationLink({ game }: { game: TCertifiedGame }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const figures = useCertification(game, open);
  const missing = figures.error instanceof ApiError && figures.error.code === 'CERTIFICATION_REPORT_MISSING';
  return (
    <>
      <button
        type="button"
        className="button button--ghost button--small certification__open"
        onClick={() => setOpen(true)}
        data-testid="certification-open"
      >
        {t('certification.open')}
      </button>
      {open && (
        <Modal title={t('certification.title')} onClose={() => setOpen(false)} testId="certification-dialog">
          {figures.isPending ? (
            <Spinner />
          ) : figures.data ? (
            <Figures figures={figures.data} />
          ) : missing ? (
            <p className="original__notice" role="alert">
              {figures.error.message}
            </p>
          ) : (
            <LoadFail onRetry={() => void figures.refetch()} />
          )}
        </Modal>
      )}
    </>
  );
}
