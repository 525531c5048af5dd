import type { TAdminAuditEntry } from '@sorte/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../components/data-table.tsx';
import { formatDateTime } from '../i18n.ts';

/** A before/after snapshot as compact JSON. */
function Snapshot({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  return <code className="snapshot">{JSON.stringify(value, null, 1)}</code>;
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
