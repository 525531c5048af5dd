import { useInvalidate } from '@refinedev/core';
import type { TAdminChatMessage, TCommunitySettings } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.ts';
import { DataTable } from '../components/data-table.tsx';
import { formatDateTime, formatMoney } from '../i18n.ts';
import { can } from '../providers.ts';
import { Field, Notice, Section, useSave } from './content-kit.tsx';

type TMute = {
  username: string;
  until: string | null;
  reason: string;
  muted_by: string | null;
  created_at: string;
};

/** Delete a message, mute its author for a while (or until lifted), lift a mute. */
function Moderation() {
  const { t } = useTranslation();
  const invalidate = useInvalidate();
  const [minutes, setMinutes] = useState('60');
  const refresh = () => void invalidate({ resource: 'chat-messages', invalidates: ['list'] });
  const mutes = useQuery({
    queryKey: ['admin-chat-mutes'],
    queryFn: async () => (await api<{ list: TMute[] }>('/admin/chat/mutes')).data.list,
  });
  const del = useSave<number>((id) => `/admin/chat/messages/${id}/delete`, 'POST');
  const mute = useSave<Record<string, unknown>>('/admin/chat/mute', 'POST', [['admin-chat-mutes']]);
  const unmute = useSave<Record<string, unknown>>('/admin/chat/unmute', 'POST', [['admin-chat-mutes']]);
  const notice = del.notice ?? mute.notice ?? unmute.notice;
  const clear = () => {
    del.setNotice(null);
    mute.setNotice(null);
    unmute.setNotice(null);
  };
  return (
    <>
      <div className="content-actions" style={{ marginBottom: 12 }}>
        <label className="field field--inline" htmlFor="mute-minutes">
          <span className="field__label">{t('chat_admin.mute_for')}</span>
          <select id="mute-minutes" value={minutes} onChange={(e) => setMinutes(e.target.value)}>
            <option value="10">{t('chat_admin.minutes', { count: 10 })}</option>
            <option value="60">{t('chat_admin.hours', { count: 1 })}</option>
            <option value="1440">{t('chat_admin.hours', { count: 24 })}</option>
            <option value="10080">{t('chat_admin.days', { count: 7 })}</option>
            <option value="">{t('chat_admin.until_lifted')}</option>
          </select>
        </label>
      </div>
      <Notice notice={notice} testId="chat-notice" />
      <DataTable<TAdminChatMessage>
        resource="chat-messages"
        path="/admin/chat/messages"
        csvName="chat-messages"
        rowKey={(row) => String(row.id)}
        filters={[
          { field: 'username', label: t('chat_admin.player'), type: 'text' },
          {
            field: 'deleted',
            label: t('chat_admin.state'),
            type: 'select',
            options: [
              { value: '', label: t('chat_admin.any') },
              { value: 'false', label: t('chat_admin.visible') },
              { value: 'true', label: t('chat_admin.deleted') },
            ],
          },
        ]}
        columns={[
          {
            key: 'created_at',
            header: t('chat_admin.when'),
            render: (row) => formatDateTime(row.created_at),
          },
          {
            key: 'username',
            header: t('chat_admin.player'),
            render: (row) => (
              <span>
                <strong>{row.username}</strong>
                {row.muted && <span className="badge badge--warn"> {t('chat_admin.muted')}</span>}
              </span>
            ),
          },
          {
            key: 'text',
            header: t('chat_admin.message'),
            render: (row) => (
              <span
                className="message-text"
                style={row.deleted_at ? { textDecoration: 'line-through' } : undefined}
              >
                {row.text}
              </span>
            ),
          },
          {
            key: 'actions',
            header: t('chat_admin.actions'),
            render: (row) => (
              <span className="inline-actions">
                {!row.deleted_at && (
                  <button
                    type="button"
                    className="button button--danger"
                    onClick={(event) => {
                      event.stopPropagation();
                      clear();
                      del.save(row.id, { onSuccess: refresh });
                    }}
                    data-testid={`delete-${row.id}`}
                  >
                    {t('chat_admin.delete')}
                  </button>
                )}
                {row.muted ? (
                  <button
                    type="button"
                    className="button"
                    onClick={() => {
                      clear();
                      unmute.save({ username: row.username }, { onSuccess: refresh });
                    }}
                  >
                    {t('chat_admin.unmute')}
                  </button>
                ) : (
                  <button
                    type="button"
                    className="button"
                    onClick={() => {
                      clear();
                      mute.save(
                        { username: row.username, minutes: minutes ? Number(minutes) : null },
                        { onSuccess: refresh },
                      );
                    }}
                    data-testid={`mute-${row.id}`}
                  >
                    {t('chat_admin.mute')}
                  </button>
                )}
              </span>
            ),
          },
        ]}
      />
      <Section title={t('chat_admin.mutes')} testId="chat-mutes">
        {(mutes.data ?? []).length === 0 ? (
          <p className="muted">{t('chat_admin.no_mutes')}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <tbody>
                {(mutes.data ?? []).map((row) => (
                  <tr key={row.username}>
                    <td data-label={t('chat_admin.player')}>
                      <strong>{row.username}</strong>
                    </td>
                    <td data-label={t('chat_admin.until')}>
                      {row.until ? formatDateTime(row.until) : t('chat_admin.until_lifted')}
                    </td>
                    <td data-label={t('chat_admin.reason')}>{row.reason || '—'}</td>
                    <td data-label={t('chat_admin.by')}>{row.muted_by ?? '—'}</td>
                    <td>
                      <button
                        type="button"
                        className="button"
                        onClick={() => {
                          clear();
                          unmute.save({ username: row.username }, { onSuccess: refresh });
                        }}
                      >
                        {t('chat_admin.unmute')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </>
  );
}

/** The site's chat and rain settings (operators with content.manage). */
function CommunityForm({ settings }: { settings: TCommunitySettings }) {
  const { t } = useTranslation();
  const [form, setForm] = useState(settings);
  const { save, saving, notice } = useSave('/admin/community', 'PUT', [['admin-community']]);
  const number = (key: keyof TCommunitySettings) => ({
    type: 'number' as const,
    value: String(form[key] ?? ''),
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [key]: Number(e.target.value) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { rain_off_reason: _reason, ...rest } = form;
    save({ ...rest, support_chat_url: form.support_chat_url || null });
  };
  return (
    <form onSubmit={submit}>
      <div className="checks field">
        <label>
          <input
            type="checkbox"
            checked={form.chat_enabled}
            onChange={(e) => setForm({ ...form, chat_enabled: e.target.checked })}
            data-testid="chat-enabled"
          />
          {t('chat_admin.chat_enabled')}
        </label>
        <label>
          <input
            type="checkbox"
            checked={form.rain_enabled}
            onChange={(e) => setForm({ ...form, rain_enabled: e.target.checked })}
          />
          {t('chat_admin.rain_enabled')}
        </label>
      </div>
      {!settings.rain_enabled && settings.rain_off_reason && (
        <p className="muted">
          {t(`chat_admin.off_reason.${settings.rain_off_reason}`, { defaultValue: settings.rain_off_reason })}
        </p>
      )}
      <div className="content-grid">
        <Field id="c-max" label={t('chat_admin.max_chars')}>
          <input id="c-max" min={1} max={500} {...number('chat_max_chars')} />
        </Field>
        <Field id="c-rate" label={t('chat_admin.rate_messages')}>
          <input id="c-rate" min={1} max={100} {...number('chat_rate_messages')} />
        </Field>
        <Field id="c-rate-s" label={t('chat_admin.rate_seconds')}>
          <input id="c-rate-s" min={1} max={3600} {...number('chat_rate_seconds')} />
        </Field>
        <Field id="c-history" label={t('chat_admin.history')}>
          <input id="c-history" min={0} max={200} {...number('chat_history')} />
        </Field>
        <Field id="r-every" label={t('chat_admin.rain_every')}>
          <input id="r-every" min={5} max={10080} {...number('rain_every_minutes')} />
        </Field>
        <Field id="r-pot" label={t('chat_admin.rain_pot')} hint={formatMoney(form.rain_pot)}>
          <input
            id="r-pot"
            inputMode="decimal"
            value={form.rain_pot}
            onChange={(e) => setForm({ ...form, rain_pot: e.target.value })}
          />
        </Field>
        <Field id="r-window" label={t('chat_admin.rain_window')}>
          <input id="r-window" min={1} max={1440} {...number('rain_window_minutes')} />
        </Field>
        <Field id="r-wager" label={t('chat_admin.rain_min_wager')} hint={formatMoney(form.rain_min_wager)}>
          <input
            id="r-wager"
            inputMode="decimal"
            value={form.rain_min_wager}
            onChange={(e) => setForm({ ...form, rain_min_wager: e.target.value })}
          />
        </Field>
        <Field id="r-days" label={t('chat_admin.rain_wager_days')}>
          <input id="r-days" min={1} max={90} {...number('rain_wager_days')} />
        </Field>
        <Field id="c-support" label={t('chat_admin.support_url')}>
          <input
            id="c-support"
            value={form.support_chat_url ?? ''}
            placeholder="https://…"
            onChange={(e) => setForm({ ...form, support_chat_url: e.target.value })}
          />
        </Field>
      </div>
      <button type="submit" className="button button--primary" disabled={saving} data-testid="community-save">
        {t('content.save')}
      </button>
      <Notice notice={notice} testId="community-notice" />
    </form>
  );
}

function Community() {
  const { t } = useTranslation();
  const settings = useQuery({
    queryKey: ['admin-community'],
    queryFn: async () => (await api<TCommunitySettings>('/admin/community')).data,
  });
  return (
    <Section title={t('chat_admin.settings')} hint={t('chat_admin.settings_hint')} testId="community">
      {settings.error && <p className="alert alert--error">{settings.error.message}</p>}
      {settings.data && <CommunityForm key={settings.dataUpdatedAt} settings={settings.data} />}
    </Section>
  );
}

/** Chat moderation (recent messages, delete, mute) and the room's settings. */
export default function ChatPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'moderation' | 'settings'>('moderation');
  const tabs = can('content.manage') ? (['moderation', 'settings'] as const) : (['moderation'] as const);
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('chat_admin.title')}</h1>
        <p className="muted">{t('chat_admin.subtitle')}</p>
      </header>
      {tabs.length > 1 && (
        <div className="tabs" role="tablist">
          {tabs.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={tab === name}
              onClick={() => setTab(name)}
              data-testid={`tab-${name}`}
            >
              {t(`chat_admin.tabs.${name}`)}
            </button>
          ))}
        </div>
      )}
      {tab === 'moderation' ? <Moderation /> : <Community />}
    </div>
  );
}
