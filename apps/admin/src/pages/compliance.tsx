import {
  AML_CASE_STATUSES,
  type TAmlAlert,
  type TAmlCaseRow,
  type TAmlCaseStatus,
  type TAmlReportRow,
} from '@sorte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, downloadFile } from '../api.ts';
import { formatDateTime } from '../i18n.ts';
import { can } from '../providers.ts';
import { CasePanel, minorMoney } from './compliance-case.tsx';
import './reports.css';

type TTab = 'cases' | 'alerts' | 'files';

function CasesTab({ selected, onSelect }: { selected: number | null; onSelect: (id: number) => void }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<TAmlCaseStatus>('open');
  const cases = useQuery({
    queryKey: ['compliance-cases', status],
    queryFn: async () =>
      (await api<{ list: TAmlCaseRow[] }>('/admin/compliance/cases', { query: { status, limit: 200 } })).data
        .list,
  });
  return (
    <section className="card section">
      <label className="field">
        <span className="field__label">{t('compliance.col.status')}</span>
        <select
          value={status}
          onChange={(event) => setStatus(event.target.value as TAmlCaseStatus)}
          data-testid="cases-status"
        >
          {AML_CASE_STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(`compliance.status.${value}`)}
            </option>
          ))}
        </select>
      </label>
      {cases.isError && <p className="alert alert--error">{(cases.error as Error).message}</p>}
      {cases.data?.length === 0 && <p className="muted">{t('compliance.no_cases')}</p>}
      <table className="table" data-testid="cases-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t('compliance.col.player')}</th>
            <th scope="col">{t('compliance.col.rules')}</th>
            <th scope="col">{t('compliance.col.amount')}</th>
            <th scope="col">{t('compliance.col.assigned')}</th>
            <th scope="col">{t('compliance.col.when')}</th>
          </tr>
        </thead>
        <tbody>
          {cases.data?.map((row) => (
            <tr key={row.id} aria-selected={row.id === selected}>
              <td>
                <button
                  type="button"
                  className="button button--ghost"
                  onClick={() => onSelect(row.id)}
                  data-testid={`case-${row.id}`}
                >
                  {row.id}
                </button>
              </td>
              <td>
                {row.username} {row.held && <span className="badge badge--bad">{t('compliance.held')}</span>}
              </td>
              <td>{row.rules.map((rule) => t(`compliance.rule.${rule}`)).join(', ')}</td>
              <td>{minorMoney(row.amount_minor)}</td>
              <td>{row.assigned_to ?? '—'}</td>
              <td>{formatDateTime(row.updated_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AlertsTab({ onSelect }: { onSelect: (id: number) => void }) {
  const { t } = useTranslation();
  const alerts = useQuery({
    queryKey: ['compliance-alerts'],
    queryFn: async () =>
      (await api<{ list: TAmlAlert[] }>('/admin/compliance/alerts', { query: { limit: 200 } })).data.list,
  });
  return (
    <section className="card section">
      {alerts.isError && <p className="alert alert--error">{(alerts.error as Error).message}</p>}
      {alerts.data?.length === 0 && <p className="muted">{t('compliance.no_alerts')}</p>}
      <table className="table" data-testid="alerts-table">
        <thead>
          <tr>
            <th scope="col">{t('compliance.col.when')}</th>
            <th scope="col">{t('compliance.col.player')}</th>
            <th scope="col">{t('compliance.col.rule')}</th>
            <th scope="col">{t('compliance.col.amount')}</th>
            <th scope="col">{t('compliance.col.case')}</th>
          </tr>
        </thead>
        <tbody>
          {alerts.data?.map((row) => (
            <tr key={row.id}>
              <td>{formatDateTime(row.event_at)}</td>
              <td>{row.username}</td>
              <td title={row.legal_basis}>{t(`compliance.rule.${row.rule}`)}</td>
              <td>{minorMoney(row.amount_minor)}</td>
              <td>
                <button type="button" className="button button--ghost" onClick={() => onSelect(row.case_id)}>
                  {row.case_id}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

type TFilesNotice = { tone: 'ok' | 'error'; text: string } | null;

/** The yearly files: make one (owner and compliance.manage), list and download every file made. */
function FilesTab() {
  const [notice, setNotice] = useState<TFilesNotice>(null);
  const reports = useQuery({
    queryKey: ['compliance-reports'],
    queryFn: async () => (await api<{ list: TAmlReportRow[] }>('/admin/compliance/reports')).data.list,
  });
  return (
    <section className="card section">
      {notice && <p className={notice.tone === 'error' ? 'alert alert--error' : 'alert'}>{notice.text}</p>}
      {can('compliance.manage') && <ExportForm onNotice={setNotice} />}
      <ReportsTable rows={reports.data ?? []} onNotice={setNotice} />
    </section>
  );
}

/** The non-occurrence declaration or the annual report of a year, made on the server. */
function ExportForm({ onNotice }: { onNotice: (notice: TFilesNotice) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<'non_occurrence' | 'annual'>('annual');
  const [year, setYear] = useState(String(new Date().getFullYear()));
  const make = useMutation({
    mutationFn: async () => api('/admin/compliance/exports', { body: { kind, year: Number(year) } }),
    onSuccess: async ({ message }) => {
      onNotice({ tone: 'ok', text: message });
      await queryClient.invalidateQueries({ queryKey: ['compliance-reports'] });
    },
    onError: (error) =>
      onNotice({ tone: 'error', text: error instanceof ApiError ? error.message : String(error) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onNotice(null);
    make.mutate();
  };
  return (
    <form className="decision" onSubmit={submit}>
      <label className="field">
        <span className="field__label">{t('compliance.export_kind')}</span>
        <select
          value={kind}
          onChange={(event) => setKind(event.target.value as 'non_occurrence' | 'annual')}
          data-testid="export-kind"
        >
          <option value="annual">{t('compliance.report_kind.annual')}</option>
          <option value="non_occurrence">{t('compliance.report_kind.non_occurrence')}</option>
        </select>
      </label>
      <label className="field">
        <span className="field__label">{t('compliance.year')}</span>
        <input
          inputMode="numeric"
          value={year}
          onChange={(event) => setYear(event.target.value)}
          maxLength={4}
          data-testid="export-year"
        />
      </label>
      <button
        type="submit"
        className="button button--primary"
        disabled={make.isPending}
        data-testid="export-submit"
      >
        {t('compliance.export')}
      </button>
    </form>
  );
}

function ReportsTable({
  rows,
  onNotice,
}: {
  rows: TAmlReportRow[];
  onNotice: (notice: TFilesNotice) => void;
}) {
  const { t } = useTranslation();
  return (
    <table className="table" data-testid="reports-table">
      <thead>
        <tr>
          <th scope="col">{t('compliance.col.kind')}</th>
          <th scope="col">{t('compliance.year')}</th>
          <th scope="col">{t('compliance.col.file')}</th>
          <th scope="col">{t('compliance.col.by')}</th>
          <th scope="col">{t('compliance.col.when')}</th>
          <th scope="col" />
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <td>{t(`compliance.report_kind.${row.kind}`)}</td>
            <td>{row.year}</td>
            <td>
              {row.file_name} <code title={row.sha256}>{row.sha256.slice(0, 12)}…</code>
            </td>
            <td>{row.created_by}</td>
            <td>{formatDateTime(row.created_at)}</td>
            <td>
              <button
                type="button"
                className="button button--ghost"
                onClick={() =>
                  downloadFile(`/admin/compliance/reports/${row.id}/file`, row.file_name).catch(
                    (error: Error) => onNotice({ tone: 'error', text: error.message }),
                  )
                }
              >
                {t('compliance.download')}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Compliance (ADR 040): AML cases and alerts, a case with the player's timeline, the COAF and yearly files. */
export default function CompliancePage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<TTab>('cases');
  const [selected, setSelected] = useState<number | null>(null);
  const select = (id: number) => {
    setSelected(id);
    setTab('cases');
  };
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('compliance.title')}</h1>
        <p className="muted">{t('compliance.subtitle')}</p>
      </header>
      <div className="decision__actions" role="tablist">
        {(['cases', 'alerts', 'files'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={`button ${tab === name ? 'button--primary' : 'button--ghost'}`}
            onClick={() => setTab(name)}
            data-testid={`compliance-tab-${name}`}
          >
            {t(`compliance.tab.${name}`)}
          </button>
        ))}
      </div>
      {tab === 'cases' && <CasesTab selected={selected} onSelect={select} />}
      {tab === 'alerts' && <AlertsTab onSelect={select} />}
      {tab === 'files' && <FilesTab />}
      {tab === 'cases' && selected !== null && <CasePanel key={selected} caseId={selected} />}
    </div>
  );
}
