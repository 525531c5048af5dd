import { useInvalidate } from '@refinedev/core';
import type { TAdminAnnouncement } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.ts';
import { DataTable } from '../components/data-table.tsx';
import { formatDateTime } from '../i18n.ts';
import { Field, Notice, Section, useSave } from './content-kit.tsx';

/** The languages an operator writes announcements in (a missing one falls back to the site's default). */
const TEXT_LANGUAGES = ['en', 'pt', 'cn', 'ch', 'vi', 'id', 'th', 'msa'] as const;

const localInput = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 16) : '');
const fromLocalInput = (value: string) => (value ? new Date(`${value}:00Z`).toISOString() : null);

/** Create or edit one announcement: code, title and text per language, order, start and end. */
function AnnouncementForm({ item, onDone }: { item: TAdminAnnouncement | null; onDone: () => void }) {
  const { t } = useTranslation();
  const invalidate = useInvalidate();
  const [code, setCode] = useState(item?.code ?? '');
  const [title, setTitle] = useState<Record<string, string>>(item?.title ?? {});
  const [body, setBody] = useState<Record<string, string>>(item?.body ?? {});
  const [position, setPosition] = useState(item?.position ?? 0);
  const [publishedAt, setPublishedAt] = useState(localInput(item?.published_at ?? null));
  const [expiresAt, setExpiresAt] = useState(localInput(item?.expires_at ?? null));
  const { save, saving, notice } = useSave<Record<string, unknown>>(
    item ? `/admin/announcements/${item.id}` : '/admin/announcements',
    item ? 'PUT' : 'POST',
  );
  const remove = useSave<undefined>(`/admin/announcements/${item?.id ?? 0}`, 'DELETE');
  const refresh = () => void invalidate({ resource: 'announcements', invalidates: ['list'] });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(
      {
        code,
        title,
        body,
        position,
        ...(publishedAt ? { published_at: fromLocalInput(publishedAt) } : {}),
        expires_at: fromLocalInput(expiresAt),
      },
      {
        onSuccess: () => {
          refresh();
          if (!item) onDone();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} data-testid="announcement-form">
      <div className="content-grid">
        <Field id="ann-code" label={t('announcements.code')} hint={t('announcements.code_hint')}>
          <input
            id="ann-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            data-testid="ann-code"
          />
        </Field>
        <Field id="ann-position" label={t('announcements.position')}>
          <input
            id="ann-position"
            type="number"
            value={position}
            onChange={(e) => setPosition(Number(e.target.value))}
          />
        </Field>
        <Field id="ann-published" label={t('announcements.published_at')} hint={t('announcements.utc')}>
          <input
            id="ann-published"
            type="datetime-local"
            value={publishedAt}
            onChange={(e) => setPublishedAt(e.target.value)}
          />
        </Field>
        <Field id="ann-expires" label={t('announcements.expires_at')} hint={t('announcements.utc')}>
          <input
            id="ann-expires"
            type="datetime-local"
            value={expiresAt}
            onChange={(e) => setExpiresAt(e.target.value)}
          />
        </Field>
      </div>
      <div className="lang-texts">
        <span className="field__label">{t('announcements.language')}</span>
        <span className="field__label">{t('announcements.title_field')}</span>
        <span className="field__label">{t('announcements.body')}</span>
        {TEXT_LANGUAGES.map((lang) => (
          <div key={lang} style={{ display: 'contents' }}>
            <span className="lang-texts__code">{lang.toUpperCase()}</span>
            <input
              aria-label={`${t('announcements.title_field')} (${lang})`}
              value={title[lang] ?? ''}
              onChange={(e) => setTitle({ ...title, [lang]: e.target.value })}
              data-testid={`ann-title-${lang}`}
            />
            <textarea
              aria-label={`${t('announcements.body')} (${lang})`}
              rows={2}
              value={body[lang] ?? ''}
              onChange={(e) => setBody({ ...body, [lang]: e.target.value })}
              data-testid={`ann-body-${lang}`}
            />
          </div>
        ))}
      </div>
      <div className="content-actions">
        <button type="submit" className="button button--primary" disabled={saving} data-testid="ann-save">
          {item ? t('content.save') : t('announcements.publish')}
        </button>
        {item && (
          <button
            type="button"
            className="button button--danger"
            disabled={remove.saving}
            onClick={() => {
              if (window.confirm(t('announcements.confirm_delete'))) {
                remove.save(undefined, {
                  onSuccess: () => {
                    refresh();
                    onDone();
                  },
                });
              }
            }}
          >
            {t('content.delete')}
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={onDone}>
          {t('common.close')}
        </button>
      </div>
      <Notice notice={notice ?? remove.notice} testId="ann-notice" />
    </form>
  );
}

/** A message to one player (username) or to every player, delivered live as a notification. */
function MessageForm() {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const [username, setUsername] = useState('');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const { save, saving, notice } = useSave<Record<string, unknown>>('/admin/notifications', 'POST');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (all && !window.confirm(t('messages_form.confirm_all'))) return;
    save(all ? { all: true, title, body } : { username, title, body });
  };
  return (
    <Section title={t('messages_form.title')} hint={t('messages_form.hint')} testId="message-form">
      <form onSubmit={submit}>
        <div className="checks field">
          <label>
            <input type="radio" name="recipient" checked={!all} onChange={() => setAll(false)} />
            {t('messages_form.one')}
          </label>
          <label>
            <input type="radio" name="recipient" checked={all} onChange={() => setAll(true)} />
            {t('messages_form.all')}
          </label>
        </div>
        <div className="content-grid">
          {!all && (
            <Field id="msg-user" label={t('messages_form.username')}>
              <input id="msg-user" value={username} onChange={(e) => setUsername(e.target.value)} />
            </Field>
          )}
          <Field id="msg-title" label={t('announcements.title_field')}>
            <input id="msg-title" value={title} maxLength={120} onChange={(e) => setTitle(e.target.value)} />
          </Field>
          <Field id="msg-body" label={t('messages_form.text')} wide>
            <textarea
              id="msg-body"
              rows={3}
              maxLength={1000}
              value={body}
              onChange={(e) => setBody(e.target.value)}
            />
          </Field>
        </div>
        <button type="submit" className="button button--primary" disabled={saving} data-testid="msg-send">
          {t('messages_form.send')}
        </button>
        <Notice notice={notice} testId="msg-notice" />
      </form>
    </Section>
  );
}

type TTermsRow = {
  version: number;
  effective_at: string;
  summary: string;
  announced_by: string | null;
  announced_at: string;
  accepted: number;
};

/** Terms versions and the announcement of the next one (at least 14 days ahead). */
function TermsSection() {
  const { t } = useTranslation();
  const versions = useQuery({
    queryKey: ['admin-terms'],
    queryFn: async () => (await api<{ list: TTermsRow[] }>('/admin/terms')).data.list,
  });
  const [date, setDate] = useState('');
  const [summary, setSummary] = useState('');
  const { save, saving, notice } = useSave<Record<string, unknown>>('/admin/terms', 'POST', [
    ['admin-terms'],
  ]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save({ effective_at: date ? new Date(`${date}T00:00:00Z`).toISOString() : '', summary });
  };
  return (
    <Section title={t('terms_admin.title')} hint={t('terms_admin.hint')} testId="terms-section">
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t('terms_admin.version')}</th>
              <th scope="col">{t('terms_admin.effective_at')}</th>
              <th scope="col">{t('terms_admin.summary')}</th>
              <th scope="col">{t('terms_admin.announced_by')}</th>
              <th scope="col" className="align-right">
                {t('terms_admin.accepted')}
              </th>
            </tr>
          </thead>
          <tbody>
            {(versions.data ?? []).map((row) => (
              <tr key={row.version}>
                <td data-label={t('terms_admin.version')}>v{row.version}</td>
                <td data-label={t('terms_admin.effective_at')}>{formatDateTime(row.effective_at)}</td>
                <td data-label={t('terms_admin.summary')}>{row.summary || '—'}</td>
                <td data-label={t('terms_admin.announced_by')}>{row.announced_by ?? '—'}</td>
                <td data-label={t('terms_admin.accepted')} className="align-right">
                  {row.accepted}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form onSubmit={submit} style={{ marginTop: 14 }}>
        <div className="content-grid">
          <Field id="terms-date" label={t('terms_admin.effective_at')} hint={t('terms_admin.notice')}>
            <input id="terms-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
          </Field>
          <Field id="terms-summary" label={t('terms_admin.summary')} wide>
            <textarea
              id="terms-summary"
              rows={2}
              value={summary}
              onChange={(e) => setSummary(e.target.value)}
            />
          </Field>
        </div>
        <button type="submit" className="button button--primary" disabled={saving}>
          {t('terms_admin.announce')}
        </button>
        <Notice notice={notice} />
      </form>
    </Section>
  );
}

type TTab = 'announcements' | 'message' | 'terms';

/** Announcements, messages to players and terms versions. */
export default function AnnouncementsPage() {
  const { t, i18n } = useTranslation();
  const [tab, setTab] = useState<TTab>('announcements');
  const [editing, setEditing] = useState<TAdminAnnouncement | 'new' | null>(null);
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('announcements.page_title')}</h1>
        <p className="muted">{t('announcements.subtitle')}</p>
      </header>
      <div className="tabs" role="tablist">
        {(['announcements', 'message', 'terms'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            onClick={() => setTab(name)}
            data-testid={`tab-${name}`}
          >
            {t(`announcements.tabs.${name}`)}
          </button>
        ))}
      </div>
      {tab === 'announcements' && (
        <>
          {editing && (
            <Section title={editing === 'new' ? t('announcements.new') : t('announcements.edit')}>
              <AnnouncementForm
                key={editing === 'new' ? 'new' : editing.id}
                item={editing === 'new' ? null : editing}
                onDone={() => setEditing(null)}
              />
            </Section>
          )}
          <DataTable<TAdminAnnouncement>
            resource="announcements"
            path="/admin/announcements"
            csvName="announcements"
            rowKey={(row) => String(row.id)}
            selectedKey={editing && editing !== 'new' ? String(editing.id) : null}
            onRowClick={(row) => setEditing(row)}
            toolbar={
              <button
                type="button"
                className="button button--primary"
                onClick={() => setEditing('new')}
                data-testid="ann-new"
              >
                + {t('announcements.new')}
              </button>
            }
            columns={[
              {
                key: 'title',
                header: t('announcements.title_field'),
                render: (row) => (
                  <span>
                    <strong>{row.title[i18n.language] ?? row.title.en ?? Object.values(row.title)[0]}</strong>{' '}
                    <code className="muted">{row.code}</code>
                  </span>
                ),
              },
              {
                key: 'published_at',
                header: t('announcements.published_at'),
                render: (row) => formatDateTime(row.published_at),
              },
              {
                key: 'expires_at',
                header: t('announcements.expires_at'),
                render: (row) => formatDateTime(row.expires_at),
              },
              {
                key: 'live',
                header: t('announcements.state'),
                render: (row) => (
                  <span className={`badge badge--${row.live ? 'ok' : 'info'}`}>
                    {row.live ? t('announcements.live') : t('announcements.not_live')}
                  </span>
                ),
              },
            ]}
          />
        </>
      )}
      {tab === 'message' && <MessageForm />}
      {tab === 'terms' && <TermsSection />}
    </div>
  );
}
