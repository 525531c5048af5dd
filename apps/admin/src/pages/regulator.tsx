import type { TRegulatorReport, TRegulatorReportsResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, downloadFile } from '../api.ts';
import { formatDateTime } from '../i18n.ts';
import './reports.css';

type TFile = TRegulatorReport['files'][number];

/** One day's files: status, counts, problems, and each file with its checksum and a download. */
function DayFiles({
  report,
  onDownload,
}: {
  report: TRegulatorReport;
  onDownload: (day: string, file: TFile) => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="card section" data-testid={`regulator-day-${report.day}`}>
      <h2>
        {report.day}{' '}
        <span
          className={`badge badge--${report.status === 'ready' ? 'ok' : report.status === 'invalid' ? 'bad' : 'info'}`}
        >
          {t(`regulator.status.${report.status}`)}
        </span>
      </h2>
      <p className="muted">
        {t('regulator.counts', { bets: report.bet_records, transactions: report.transaction_records })} ·{' '}
        {t('regulator.built', { at: formatDateTime(report.built_at) })}
      </p>
      {report.problems.length > 0 && (
        <ul className="alert alert--error">
          {report.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t('regulator.col.file')}</th>
            <th scope="col">{t('regulator.col.kind')}</th>
            <th scope="col">{t('regulator.col.records')}</th>
            <th scope="col">{t('regulator.col.bytes')}</th>
            <th scope="col">{t('regulator.col.sha256')}</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {report.files.map((file) => (
            <tr key={file.name}>
              <td>{file.name}</td>
              <td>{t(`regulator.kind.${file.kind}`)}</td>
              <td>{file.records}</td>
              <td>{file.bytes}</td>
              <td>
                <code title={file.sha256}>{file.sha256.slice(0, 16)}…</code>
              </td>
              <td>
                <button
                  type="button"
                  className="button button--ghost"
                  onClick={() => onDownload(report.day, file)}
                >
                  {t('regulator.download')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The daily files for the regulator of this site: each day's status, files, checksums, downloads. */
export default function RegulatorPage() {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const reports = useQuery({
    queryKey: ['regulator-reports'],
    queryFn: async () => (await api<TRegulatorReportsResponse>('/admin/regulator/reports')).data,
  });
  const data = reports.data;
  const download = (day: string, file: TFile) => {
    setError(null);
    downloadFile(`/admin/regulator/reports/${day}/files/${encodeURIComponent(file.name)}`, file.name).catch(
      (caught: Error) => setError(caught.message),
    );
  };
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('regulator.title')}</h1>
        <p className="muted">{t('regulator.subtitle')}</p>
      </header>
      {reports.isError && <p className="alert alert--error">{(reports.error as Error).message}</p>}
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      {data && !data.reporting && <p className="alert">{t('regulator.not_reporting')}</p>}
      {data?.reporting && (
        <p className="muted" data-testid="regulator-profile">
          {t('regulator.profile', {
            layout: data.layout,
            zone: data.time_zone,
            hour: data.due_hour,
            max: data.max_records_per_file,
          })}
        </p>
      )}
      {data && data.list.length === 0 && data.reporting && <p className="muted">{t('regulator.empty')}</p>}
      {data?.list.map((report) => (
        <DayFiles key={report.day} report={report} onDownload={download} />
      ))}
    </div>
  );
}
