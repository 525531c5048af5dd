import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../components/data-table.tsx';
import { formatDateTime } from '../i18n.ts';
import './reports.css';

type TMailRow = {
  id: number;
  created_at: string;
  to_address: string;
  username: string | null;
  subject: string;
  body: string;
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
};

const STATUSES = ['pending', 'sent', 'failed'] as const;

/** The site's outgoing mail (read-only; one-time codes masked by the server). */
export default function MailOutboxPage() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<TMailRow | null>(null);
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('mail.title')}</h1>
        <p className="muted">{t('mail.subtitle')}</p>
      </header>
      <div className={`split${open ? ' split--open' : ''}`}>
        <DataTable<TMailRow>
          resource="mail-outbox"
          path="/admin/mail-outbox"
          csvName="mail-outbox"
          rowKey={(row) => String(row.id)}
          selectedKey={open ? String(open.id) : null}
          onRowClick={(row) => setOpen(row)}
          filters={[
            {
              field: 'status',
              label: t('mail.filter.status'),
              type: 'select',
              options: [
                { value: '', label: t('mail.status.all') },
                ...STATUSES.map((status) => ({ value: status, label: t(`mail.status.${status}`) })),
              ],
            },
            { field: 'q', label: t('mail.filter.q'), type: 'text' },
          ]}
          columns={[
            {
              key: 'created_at',
              header: t('mail.col.queued'),
              render: (row) => formatDateTime(row.created_at),
            },
            { key: 'to_address', header: t('mail.col.to') },
            { key: 'subject', header: t('mail.col.subject') },
            {
              key: 'status',
              header: t('mail.col.status'),
              render: (row) => (
                <span
                  className={`badge badge--${row.status === 'sent' ? 'ok' : row.status === 'failed' ? 'bad' : 'info'}`}
                >
                  {t(`mail.status.${row.status}`)}
                </span>
              ),
            },
            { key: 'attempts', header: t('mail.col.attempts'), align: 'right' },
          ]}
        />
        {open && (
          <aside className="card panel" aria-label={open.subject} data-testid="mail-panel">
            <header className="panel__header">
              <h2>{open.subject}</h2>
              <button
                type="button"
                className="button button--ghost"
                onClick={() => setOpen(null)}
                aria-label={t('common.close')}
              >
                ✕
              </button>
            </header>
            <dl className="facts" style={{ margin: '12px 0' }}>
              <dt>{t('mail.col.to')}</dt>
              <dd>{open.to_address}</dd>
              <dt>{t('mail.player')}</dt>
              <dd>{open.username ?? '—'}</dd>
              <dt>{t('mail.col.queued')}</dt>
              <dd>{formatDateTime(open.created_at)}</dd>
              <dt>{t('mail.sent_at')}</dt>
              <dd>{formatDateTime(open.sent_at)}</dd>
              {open.last_error && (
                <>
                  <dt>{t('mail.last_error')}</dt>
                  <dd>{open.last_error}</dd>
                </>
              )}
            </dl>
            <pre className="mail-body">{open.body}</pre>
          </aside>
        )}
      </div>
    </div>
  );
}
