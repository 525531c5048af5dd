import type { TAdminCertificationResponse, TCertificationMode } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../api.ts';
import { formatDateTime, intlLocale } from '../i18n.ts';
import './reports.css';

/**
 * A fraction of the stakes as a percentage: declared and exact rates need two places; measured
 * ones four, as the interval of a long run is a few hundredths of a point wide.
 */
const rate = (fraction: number | null, places = 2) =>
  fraction === null
    ? '—'
    : new Intl.NumberFormat(intlLocale(), {
        style: 'percent',
        minimumFractionDigits: places,
        maximumFractionDigits: places,
      }).format(fraction);
const count = (value: number) => new Intl.NumberFormat(intlLocale()).format(value);
const pValue = (p: number) => (p < 0.0001 ? p.toExponential(2) : p.toFixed(4));

function BuildCard({ data }: { data: TAdminCertificationResponse }) {
  const { t } = useTranslation();
  const { build, report } = data;
  const match = data.commit_matches;
  return (
    <section className="card section" data-testid="certification-build">
      <h2>
        {t('certification.build_title')}{' '}
        <span
          className={`badge badge--${match === true ? 'ok' : match === false ? 'bad' : 'info'}`}
          data-testid="certification-match"
        >
          {t(`certification.match.${match === null ? 'unknown' : String(match)}`)}
        </span>
      </h2>
      <dl className="facts">
        <dt>{t('certification.report_commit')}</dt>
        <dd>
          <code className="hash">{report.commit}</code>
          {report.dirty_work_tree && <span className="badge badge--warn">{t('certification.dirty')}</span>}
        </dd>
        <dt>{t('certification.build_commit')}</dt>
        <dd>
          <code className="hash">{build.commit ?? '—'}</code>{' '}
          <span className="muted">{t(`certification.source.${build.commit_source}`)}</span>
          {build.dirty && <span className="badge badge--warn">{t('certification.dirty')}</span>}
        </dd>
        <dt>{t('certification.web_hash')}</dt>
        <dd>
          <code className="hash">{build.web_manifest_sha256 ?? '—'}</code>
          <div className="muted">
            {build.web_manifest_file
              ? t('certification.web_hash_of', { file: build.web_manifest_file })
              : t('certification.web_hash_none')}
          </div>
        </dd>
      </dl>
      {match === false && (
        <p className="alert alert--error" role="alert">
          {t('certification.mismatch')}
        </p>
      )}
    </section>
  );
}

function ModeRow({ game, mode }: { game: string; mode: TCertificationMode }) {
  const { t } = useTranslation();
  return (
    <tr data-testid="certification-row">
      <td>{game}</td>
      <td style={{ whiteSpace: 'nowrap' }}>{mode.label}</td>
      <td className="align-right">{rate(mode.declared_rtp)}</td>
      <td className="align-right">
        {rate(mode.enumerated_rtp)} {mode.enumeration_matches ? '✓' : ''}
      </td>
      <td className="align-right">{rate(mode.best_strategy_rtp)}</td>
      <td className="align-right">
        {rate(mode.measured_rtp, 4)}
        <div className="muted">
          [{rate(mode.ci_low, 4)}, {rate(mode.ci_high, 4)}]
        </div>
      </td>
      <td className="align-right">{count(mode.rounds)}</td>
      <td>
        <span className={`badge badge--${mode.declared_within_ci ? 'ok' : 'bad'}`}>
          {t(mode.declared_within_ci ? 'certification.yes' : 'certification.no')}
        </span>
      </td>
      <td className="align-right">
        {pValue(mode.chi_square_p)} · {pValue(mode.runs_p)} · {pValue(mode.serial_p)}
      </td>
    </tr>
  );
}

/**
 * The in-house games' certification report (docs/certification, `npm run certify`) and the
 * running server's build: its commit and the SHA-256 of the web bundle it serves, flagged when the
 * build is not the certified commit.
 */
export default function CertificationPage() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['certification'],
    queryFn: async () => (await api<TAdminCertificationResponse>('/admin/certification')).data,
  });
  const data = query.data;
  const report = data?.report;
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('certification.title')}</h1>
        <p className="muted">{t('certification.subtitle')}</p>
      </header>
      {query.isError && (
        <p className="alert alert--error" role="alert">
          {(query.error as Error).message}
        </p>
      )}
      {data && report && (
        <div style={{ display: 'grid', gap: 16 }}>
          <p
            className={`alert ${report.sizes.full_sizes ? 'alert--info' : 'alert--error'}`}
            data-testid="certification-label"
          >
            {report.label}
          </p>
          <BuildCard data={data} />
          <section className="card section" data-testid="certification-run">
            <h2>{t('certification.run_title')}</h2>
            <p className="muted">
              {t('certification.run', {
                at: formatDateTime(report.generated_at),
                rounds: count(report.sizes.rounds_per_mode),
                stream: count(report.sizes.stream_bytes),
                sequences: report.sizes.nist_sequences,
                bits: count(report.sizes.nist_bits_per_sequence),
                dieharder:
                  report.sizes.dieharder_tests === 'all' ? '-a' : report.sizes.dieharder_tests.join(', '),
              })}
            </p>
            <p className="muted">
              {t('certification.batteries', {
                passed: report.batteries.dieharder.passed,
                total: report.batteries.dieharder.results,
                weak: report.batteries.dieharder.weak,
                failed: report.batteries.dieharder.failed,
                nist_passed: report.batteries.nist.tests_passed,
                nist_total: report.batteries.nist.tests,
                entropy: report.batteries.ent.entropy_bits_per_byte,
              })}
            </p>
            <p className="muted">
              {t('certification.reproduce')} <code>{report.commands.join(' && ')}</code>
            </p>
          </section>
          <div className="table-wrap">
            <table className="table table--wrap-head" data-testid="certification-table">
              <thead>
                <tr>
                  <th scope="col">{t('certification.col.game')}</th>
                  <th scope="col">{t('certification.col.mode')}</th>
                  <th scope="col">{t('certification.col.declared')}</th>
                  <th scope="col">{t('certification.col.enumerated')}</th>
                  <th scope="col">{t('certification.col.best')}</th>
                  <th scope="col">{t('certification.col.measured')}</th>
                  <th scope="col">{t('certification.col.rounds')}</th>
                  <th scope="col">{t('certification.col.within')}</th>
                  <th scope="col">{t('certification.col.p_values')}</th>
                </tr>
              </thead>
              <tbody>
                {report.games.flatMap((game) =>
                  game.modes.map((mode) => <ModeRow key={mode.id} game={game.game} mode={mode} />),
                )}
              </tbody>
            </table>
          </div>
          <section className="card section">
            <h2>{t('certification.lab_title')}</h2>
            <ul>
              {report.lab_still_must.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </section>
        </div>
      )}
    </div>
  );
}
