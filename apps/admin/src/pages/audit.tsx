import type { TAdminAuditEntry, TAuditChainReport } from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../api.ts';
import { DataTable } from '../components/data-table.tsx';
import { formatDateTime, intlLocale } from '../i18n.ts';
import { can } from '../providers.ts';

/** A before/after snapshot as compact JSON. */
function Snapshot({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  return <code className="snapshot">{JSON.stringify(value, null, 1)}</code>;
}

/**
 * "Verify chain" (owner): the server walks the site's audit hash chain and answers intact with the
 * number of entries, or the first broken entry with the hash it should have and the one it has.
 */
const formatNumber = (value: number) => new Intl.NumberFormat(intlLocale()).format(value);

function ChainCheck() {
  const { t } = useTranslation();
  const verify = useMutation({
    mutationFn: () => api<TAuditChainReport>('/admin/audit/verify', { method: 'POST', body: {} }),
  });
  const report = verify.data?.data;
  return (
    <section className="card chain-check" aria-labelledby="chain-check-title">
      <div className="chain-check__row">
        <div>
          <h2 id="chain-check-title">{t('audit.chain.title')}</h2>
          <p className="muted">{t('audit.chain.help')}</p>
        </div>
        <button
          type="button"
          className="button button--primary"
          disabled={verify.isPending}
          onClick={() => verify.mutate()}
          data-testid="verify-chain"
        >
          {verify.isPending ? t('audit.chain.checking') : t('audit.chain.verify')}
        </button>
      </div>
      {verify.error && (
        <p className="alert alert--error" role="alert">
          {verify.error instanceof ApiError ? verify.error.message : String(verify.error)}
        </p>
      )}
      {report?.intact && (
        <p className="alert alert--ok" role="status" data-testid="chain-result">
          {t('audit.chain.intact', { count: report.entries, entries: formatNumber(report.entries) })}
          <br />
          <span className="chain-check__hash">
            {t('audit.chain.head')} <code>{report.head_hash}</code>
          </span>
        </p>
      )}
      {report && !report.intact && report.broken && (
        <div className="alert alert--error" role="alert" data-testid="chain-result">
          <p>
            <strong>
              {report.broken.id
                ? t('audit.chain.broken', { id: report.broken.id, seq: report.broken.seq })
                : t('audit.chain.broken_head')}
            </strong>{' '}
            {t(`audit.chain.reason.${report.broken.reason}`)}
          </p>
          <p>{t('audit.chain.checked', { entries: formatNumber(report.entries) })}</p>
          <dl className="facts chain-check__hash">
            <dt>{t('audit.chain.expected')}</dt>
            <dd>
              <code>{report.broken.expected}</code>
            </dd>
            <dt>{t('audit.chain.stored')}</dt>
            <dd>
              <code>{report.broken.stored}</code>
            </dd>
          </dl>
        </div>
      )}
    </section>
  );
}

/** The append-only audit log: every operator action with who, what, before and after. */
export default function AuditPage() {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<TAdminAuditEntry | null>(null);
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('audit.title')}</h1>
        <p className="muted">{t('audit.subtitle')}</p>
      </header>
      {can('audit.verify') && <ChainCheck />}
      <div className={`split${selected ? ' split--open' : ''}`}>
        <DataTable<TAdminAuditEntry>
          resource="audit"
          csvName="audit"
          rowKey={(row) => row.id}
          selectedKey={selected?.id ?? null}
          onRowClick={setSelected}
          filters={[
            { field: 'operator', label: t('audit.operator'), type: 'text' },
            { field: 'action', label: t('audit.action'), type: 'text', placeholder: 'withdrawal.' },
            { field: 'entity_id', label: t('audit.entity_id'), type: 'text' },
          ]}
          columns={[
            { key: 'at', header: t('audit.at'), render: (row) => formatDateTime(row.at) },
            { key: 'operator', header: t('audit.operator') },
            { key: 'action', header: t('audit.action'), render: (row) => <code>{row.action}</code> },
            {
              key: 'target',
              header: t('audit.target'),
              render: (row) => row.username ?? (row.entity ? `${row.entity} ${row.entity_id ?? ''}` : '—'),
            },
          ]}
        />
        {selected && (
          <aside className="card panel" aria-label={t('audit.entry')}>
            <header className="panel__header">
              <h2>
                <code>{selected.action}</code>
              </h2>
              <button
                type="button"
                className="button button--ghost"
                onClick={() => setSelected(null)}
                aria-label={t('common.close')}
              >
                ✕
              </button>
            </header>
            <dl className="facts">
              <dt>{t('audit.at')}</dt>
              <dd>{formatDateTime(selected.at)}</dd>
              <dt>{t('audit.operator')}</dt>
              <dd>{selected.operator}</dd>
              <dt>{t('audit.target')}</dt>
              <dd>
                {[
                  selected.username,
                  selected.entity ? `${selected.entity} ${selected.entity_id ?? ''}` : null,
                ]
                  .filter(Boolean)
                  .join(' · ') || '—'}
              </dd>
              <dt>{t('audit.ip')}</dt>
              <dd>{selected.ip ?? '—'}</dd>
            </dl>
            <h3>{t('audit.before')}</h3>
            <Snapshot value={selected.before} />
            <h3>{t('audit.after')}</h3>
            <Snapshot value={selected.after} />
          </aside>
        )}
      </div>
    </div>
  );
}
