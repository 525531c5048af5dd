import { useInvalidate } from '@refinedev/core';
import {
  PLAYER_SEARCH_FIELDS,
  type TPlayerDetail,
  type TPlayerRow,
  TRANSACTION_KINDS,
} from '@sorte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Route, Routes, useNavigate, useParams } from 'react-router';
import { ApiError, api } from '../api.ts';
import { DataTable } from '../components/data-table.tsx';
import { formatDateTime, formatMoney } from '../i18n.ts';
import { can } from '../providers.ts';
import './reports.css';

type TTransferRow = {
  id: number;
  created_at: string;
  kind: string;
  account: string;
  counterparty: string;
  change: string;
  balance_after: string;
  reference: string;
};
type TRoundRow = {
  source: string;
  id: string;
  game: string;
  created_at: string;
  status: string;
  stake: string;
  payout: string;
  multiplier: string | null;
};
type TSessionRow = {
  id: number;
  created_at: string;
  last_seen_at: string;
  ended_at: string | null;
  end_reason: string | null;
  active: boolean;
  restricted: boolean;
  ip: string | null;
  user_agent: string | null;
};
type TNoteRow = { id: number; created_at: string; operator: string; body: string };
type TAuditRow = {
  id: number;
  created_at: string;
  operator: string;
  action: string;
  before: unknown;
  after: unknown;
};

function StatusBadge({ status }: { status: 'active' | 'frozen' }) {
  const { t } = useTranslation();
  return (
    <span className={`badge badge--${status === 'active' ? 'ok' : 'bad'}`} data-testid="player-status">
      {t(`players.status.${status}`)}
    </span>
  );
}

/** A signed money change ("+10.00" / "-10.00") in the operator's language. */
function signedMoney(change: string): string {
  return change.startsWith('-') ? formatMoney(change) : `+${formatMoney(change.replace(/^\+/, ''))}`;
}

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  return <pre className="json">{JSON.stringify(value, null, 1)}</pre>;
}

/** Search: any player of the site by username, name, CPF, phone, email or address. */
function PlayerSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('players.title')}</h1>
        <p className="muted">{t('players.subtitle')}</p>
      </header>
      {!can('players.pii') && (
        <p className="alert alert--info page__alert" data-testid="pii-masked">
          {t('players.pii_masked')}
        </p>
      )}
      <DataTable<TPlayerRow>
        resource="players"
        path="/admin/players"
        csvName="players"
        rowKey={(row) => String(row.id)}
        onRowClick={(row) => navigate(`/players/${row.id}`)}
        filters={[
          { field: 'q', label: t('players.filter.q'), type: 'text', placeholder: t('players.filter.q_hint') },
          {
            field: 'field',
            label: t('players.filter.field'),
            type: 'select',
            initial: 'any',
            options: PLAYER_SEARCH_FIELDS.map((field) => ({
              value: field,
              label: t(`players.field.${field}`),
            })),
          },
          {
            field: 'status',
            label: t('players.filter.status'),
            type: 'select',
            options: [
              { value: '', label: t('players.status.all') },
              { value: 'active', label: t('players.status.active') },
              { value: 'frozen', label: t('players.status.frozen') },
            ],
          },
        ]}
        columns={[
          {
            key: 'username',
            header: t('players.col.username'),
            render: (row) => <strong>{row.username}</strong>,
          },
          { key: 'realname', header: t('players.col.name') },
          { key: 'cpf', header: t('players.col.cpf'), render: (row) => row.cpf ?? '—' },
          { key: 'phone', header: t('players.col.phone') },
          { key: 'email', header: t('players.col.email'), render: (row) => row.email ?? '—' },
          {
            key: 'cash',
            header: t('players.col.cash'),
            align: 'right',
            render: (row) => formatMoney(row.cash),
          },
          {
            key: 'status',
            header: t('players.col.status'),
            render: (row) => <StatusBadge status={row.status} />,
          },
          {
            key: 'created_at',
            header: t('players.col.joined'),
            render: (row) => formatDateTime(row.created_at),
          },
        ]}
      />
    </div>
  );
}

/** Freeze / unfreeze, force offline and the balance adjustment, each with its reason. */
function PlayerActions({ player }: { player: TPlayerDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const id = player.profile.id;
  const [open, setOpen] = useState<'status' | 'adjust' | null>(null);
  const [reason, setReason] = useState('');
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['player', id] });
    await invalidate({ resource: `player-${id}-audit`, invalidates: ['list'] });
    await invalidate({ resource: `player-${id}-transfers`, invalidates: ['list'] });
    await invalidate({ resource: `player-${id}-sessions`, invalidates: ['list'] });
  };
  const action = useMutation({
    mutationFn: async (input: { path: string; body?: unknown }) =>
      api<unknown>(`/admin/players/${id}/${input.path}`, { method: 'POST', body: input.body ?? {} }),
    onSuccess: async ({ message }) => {
      setNotice({ tone: 'ok', text: message });
      setOpen(null);
      setReason('');
      setAmount('');
      setKey(crypto.randomUUID());
      await refresh();
    },
    onError: (error) =>
      setNotice({ tone: 'error', text: error instanceof ApiError ? error.message : String(error) }),
  });
  const frozen = player.profile.status === 'frozen';

  const submitStatus = (event: FormEvent) => {
    event.preventDefault();
    action.mutate({ path: frozen ? 'unfreeze' : 'freeze', body: { reason } });
  };
  const submitAdjust = (event: FormEvent) => {
    event.preventDefault();
    action.mutate({
      path: 'adjust-balance',
      body: { direction, amount: amount.replace(',', '.'), reason, idempotency_key: key },
    });
  };
  const toggle = (which: 'status' | 'adjust') => {
    setNotice(null);
    setReason('');
    setOpen(open === which ? null : which);
  };

  return (
    <>
      <div className="player-actions">
        {can('players.manage') && (
          <>
            <button
              type="button"
              className="button"
              disabled={action.isPending}
              onClick={() => action.mutate({ path: 'force-offline' })}
              data-testid="action-force-offline"
            >
              {t('players.action.force_offline')}
            </button>
            <button
              type="button"
              className={`button ${frozen ? '' : 'button--danger'}`}
              onClick={() => toggle('status')}
              aria-expanded={open === 'status'}
              data-testid="action-freeze"
            >
              {frozen ? t('players.action.unfreeze') : t('players.action.freeze')}
            </button>
          </>
        )}
        {can('balance.adjust') && (
          <button
            type="button"
            className="button button--primary"
            onClick={() => toggle('adjust')}
            aria-expanded={open === 'adjust'}
            data-testid="action-adjust"
          >
            {t('players.action.adjust')}
          </button>
        )}
      </div>
      {notice && (
        <p
          className={`alert alert--${notice.tone === 'ok' ? 'ok' : 'error'}`}
          role="status"
          data-testid="action-notice"
        >
          {notice.text}
        </p>
      )}
      {open === 'status' && (
        <form className="card action-form" onSubmit={submitStatus} data-testid="status-form">
          <strong>{frozen ? t('players.action.unfreeze') : t('players.action.freeze')}</strong>
          <p className="muted">{frozen ? t('players.unfreeze_hint') : t('players.freeze_hint')}</p>
          <label className="field">
            <span className="field__label">{t('players.reason')}</span>
            <textarea
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              rows={2}
              maxLength={500}
              required
              data-testid="status-reason"
            />
          </label>
          <div className="action-form__row">
            <button
              type="submit"
              className="button button--danger"
              disabled={action.isPending}
              data-testid="status-submit"
            >
              {t('players.confirm')}
            </button>
          </div>
        </form>
      )}
      {open === 'adjust' && (
        <form className="card action-form" onSubmit={submitAdjust} data-testid="adjust-form">
          <strong>{t('players.action.adjust')}</strong>
          <p className="muted">{t('players.adjust_hint')}</p>
          <div className="action-form__row">
            <label className="field">
              <span className="field__label">{t('players.direction')}</span>
              <select
                value={direction}
                onChange={(event) => setDirection(event.target.value as 'credit' | 'debit')}
                data-testid="adjust-direction"
              >
                <option value="credit">{t('players.credit')}</option>
                <option value="debit">{t('players.debit')}</option>
              </select>
            </label>
            <label className="field">
              <span className="field__label">{t('players.amount')}</span>
              <input
                inputMode="decimal"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
                placeholder="0,00"
                required
                data-testid="adjust-amount"
              />
            </label>
          </div>
          <label className="field">
            <span className="field__label">{t('players.reason')}</span>
            <textarea
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              rows={2}
              maxLength={500}
              required
              data-testid="adjust-reason"
            />
          </label>
          <div className="action-form__row">
            <button
              type="submit"
              className="button button--primary"
              disabled={action.isPending}
              data-testid="adjust-submit"
            >
              {t('players.confirm')}
            </button>
          </div>
        </form>
      )}
    </>
  );
}

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {items.map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Overview({ player }: { player: TPlayerDetail }) {
  const { t } = useTranslation();
  const p = player.profile;
  const yes = (value: boolean) => (value ? t('players.yes') : t('players.no'));
  return (
    <div className="grid-2">
      <section className="card section">
        <h2>{t('players.profile')}</h2>
        <Facts
          items={[
            [t('players.col.name'), p.realname],
            [t('players.col.cpf'), p.cpf ?? '—'],
            [t('players.col.phone'), p.phone],
            [
              t('players.col.email'),
              p.email
                ? `${p.email} (${p.email_verified ? t('players.verified') : t('players.unverified')})`
                : '—',
            ],
            [t('players.birth_date'), p.birth_date ?? '—'],
            [t('players.register_ip'), p.register_ip ?? '—'],
            [t('players.col.joined'), formatDateTime(p.created_at)],
            [t('players.last_login'), formatDateTime(p.last_login_at)],
            [t('players.online'), String(player.online_sessions)],
            [t('players.two_factor'), yes(p.totp_enabled)],
            [t('players.level'), String(p.level)],
            [t('players.invite_code'), p.invite_code],
          ]}
        />
      </section>
      <section className="card section">
        <h2>{t('players.balances')}</h2>
        <Facts
          items={[
            [
              t('players.cash'),
              <strong key="cash" data-testid="balance-cash">
                {formatMoney(player.balances.cash)}
              </strong>,
            ],
            [t('players.bonus'), formatMoney(player.balances.bonus)],
            [t('players.hold'), formatMoney(player.balances.withdrawal_hold)],
            [t('players.wagering'), formatMoney(player.balances.wagering_required)],
            [t('players.withdrawable'), formatMoney(player.balances.withdrawable)],
            [t('players.total_deposits'), formatMoney(player.totals.deposits)],
            [t('players.total_withdrawals'), formatMoney(player.totals.withdrawals)],
            [t('players.total_bets'), formatMoney(player.totals.bets)],
            [t('players.total_wins'), formatMoney(player.totals.wins)],
          ]}
        />
        <h3>{t('players.rg')}</h3>
        {player.rg.limits.length === 0 && player.rg.exclusions.length === 0 ? (
          <p className="muted">{t('players.rg_none')}</p>
        ) : (
          <ul className="history">
            {player.rg.limits.map((limit) => (
              <li key={`${limit.kind}-${limit.period}`}>
                <span>
                  {t(`players.limit.${limit.kind}`)} · {t(`players.period.${limit.period}`)}
                </span>
                <strong>
                  {limit.value === null
                    ? '—'
                    : limit.kind === 'session_time'
                      ? t('players.minutes', { count: Number(limit.value) })
                      : formatMoney(limit.value)}
                </strong>
              </li>
            ))}
            {player.rg.exclusions.map((exclusion) => (
              <li key={`${exclusion.kind}-${exclusion.starts_at}`}>
                <span>{t(`players.exclusion.${exclusion.kind}`)}</span>
                <span>
                  {formatDateTime(exclusion.starts_at)} →{' '}
                  {exclusion.ends_at ? formatDateTime(exclusion.ends_at) : '∞'}
                </span>
                {exclusion.active && <span className="badge badge--warn">{t('players.active_now')}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function Notes({ id }: { id: number }) {
  const { t } = useTranslation();
  const invalidate = useInvalidate();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: async () => api(`/admin/players/${id}/notes`, { method: 'POST', body: { body } }),
    onSuccess: async () => {
      setBody('');
      setError(null);
      await invalidate({ resource: `player-${id}-notes`, invalidates: ['list'] });
      await invalidate({ resource: `player-${id}-audit`, invalidates: ['list'] });
    },
    onError: (failure) => setError(failure instanceof ApiError ? failure.message : String(failure)),
  });
  return (
    <>
      {can('players.manage') && (
        <form
          className="card action-form"
          onSubmit={(event) => {
            event.preventDefault();
            add.mutate();
          }}
        >
          <label className="field">
            <span className="field__label">{t('players.new_note')}</span>
            <textarea
              value={body}
              onChange={(event) => setBody(event.target.value)}
              rows={3}
              maxLength={2000}
              required
              data-testid="note-body"
            />
          </label>
          {error && <p className="alert alert--error">{error}</p>}
          <div className="action-form__row">
            <button
              type="submit"
              className="button button--primary"
              disabled={add.isPending}
              data-testid="note-submit"
            >
              {t('players.add_note')}
            </button>
          </div>
        </form>
      )}
      <DataTable<TNoteRow>
        resource={`player-${id}-notes`}
        path={`/admin/players/${id}/notes`}
        csvName={`player-${id}-notes`}
        rowKey={(row) => String(row.id)}
        columns={[
          {
            key: 'created_at',
            header: t('players.col.when'),
            render: (row) => formatDateTime(row.created_at),
          },
          { key: 'operator', header: t('players.col.operator') },
          {
            key: 'body',
            header: t('players.col.note'),
            render: (row) => <span className="mail-body">{row.body}</span>,
          },
        ]}
      />
    </>
  );
}

function PlayerDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const detail = useQuery({
    queryKey: ['player', id],
    queryFn: async () => (await api<TPlayerDetail>(`/admin/players/${id}`)).data,
    enabled: Number.isSafeInteger(id) && id > 0,
  });
  const player = detail.data;
  const tabs = [
    ['', t('players.tab.overview')],
    ['ledger', t('players.tab.ledger')],
    ['rounds', t('players.tab.rounds')],
    ['sessions', t('players.tab.sessions')],
    ['notes', t('players.tab.notes')],
    ['audit', t('players.tab.audit')],
  ] as const;
  return (
    <div className="page">
      <button type="button" className="link" onClick={() => navigate('/players')}>
        ‹ {t('players.back')}
      </button>
      {detail.isError && <p className="alert alert--error">{(detail.error as Error).message}</p>}
      {!player && detail.isLoading && <p className="muted">{t('common.loading')}</p>}
      {player && (
        <>
          <header className="page__header player-head">
            <div className="player-head__title">
              <h1 data-testid="player-username">{player.profile.username}</h1>
              <StatusBadge status={player.profile.status} />
              <span className="muted">#{player.profile.id}</span>
            </div>
            <PlayerActions player={player} />
          </header>
          <nav className="tabs" aria-label={t('players.tabs')}>
            {tabs.map(([path, label]) => (
              <NavLink key={path} to={path ? `/players/${id}/${path}` : `/players/${id}`} end>
                {label}
              </NavLink>
            ))}
          </nav>
          <Routes>
            <Route index element={<Overview player={player} />} />
            <Route
              path="ledger"
              element={
                <DataTable<TTransferRow>
                  key={`transfers-${id}`}
                  resource={`player-${id}-transfers`}
                  path={`/admin/players/${id}/transfers`}
                  csvName={`player-${id}-ledger`}
                  rowKey={(row) => `${row.id}-${row.account}`}
                  filters={[
                    {
                      field: 'kind',
                      label: t('players.filter.kind'),
                      type: 'select',
                      options: [
                        { value: '', label: t('players.status.all') },
                        ...TRANSACTION_KINDS.map((kind) => ({ value: kind, label: kind })),
                      ],
                    },
                  ]}
                  columns={[
                    {
                      key: 'created_at',
                      header: t('players.col.when'),
                      render: (row) => formatDateTime(row.created_at),
                    },
                    { key: 'kind', header: t('players.col.kind'), render: (row) => <code>{row.kind}</code> },
                    { key: 'account', header: t('players.col.account') },
                    { key: 'counterparty', header: t('players.col.counterparty') },
                    {
                      key: 'change',
                      header: t('players.col.change'),
                      align: 'right',
                      render: (row) => <strong>{signedMoney(row.change)}</strong>,
                    },
                    {
                      key: 'balance_after',
                      header: t('players.col.balance_after'),
                      align: 'right',
                      render: (row) => formatMoney(row.balance_after),
                    },
                    {
                      key: 'reference',
                      header: t('players.col.reference'),
                      render: (row) => row.reference || '—',
                    },
                  ]}
                />
              }
            />
            <Route
              path="rounds"
              element={
                <DataTable<TRoundRow>
                  key={`rounds-${id}`}
                  resource={`player-${id}-rounds`}
                  path={`/admin/players/${id}/rounds`}
                  csvName={`player-${id}-rounds`}
                  rowKey={(row) => `${row.source}-${row.id}`}
                  columns={[
                    {
                      key: 'created_at',
                      header: t('players.col.when'),
                      render: (row) => formatDateTime(row.created_at),
                    },
                    {
                      key: 'source',
                      header: t('players.col.source'),
                      render: (row) => t(`players.source.${row.source}`),
                    },
                    { key: 'game', header: t('players.col.game') },
                    { key: 'status', header: t('players.col.status') },
                    {
                      key: 'stake',
                      header: t('players.col.stake'),
                      align: 'right',
                      render: (row) => formatMoney(row.stake),
                    },
                    {
                      key: 'payout',
                      header: t('players.col.payout'),
                      align: 'right',
                      render: (row) => formatMoney(row.payout),
                    },
                    {
                      key: 'multiplier',
                      header: t('players.col.multiplier'),
                      align: 'right',
                      render: (row) => row.multiplier ?? '—',
                    },
                  ]}
                />
              }
            />
            <Route
              path="sessions"
              element={
                <DataTable<TSessionRow>
                  key={`sessions-${id}`}
                  resource={`player-${id}-sessions`}
                  path={`/admin/players/${id}/sessions`}
                  csvName={`player-${id}-sessions`}
                  rowKey={(row) => String(row.id)}
                  columns={[
                    {
                      key: 'created_at',
                      header: t('players.col.started'),
                      render: (row) => formatDateTime(row.created_at),
                    },
                    {
                      key: 'last_seen_at',
                      header: t('players.col.last_seen'),
                      render: (row) => formatDateTime(row.last_seen_at),
                    },
                    {
                      key: 'active',
                      header: t('players.col.status'),
                      render: (row) =>
                        row.active ? (
                          <span className="badge badge--ok">{t('players.session_active')}</span>
                        ) : (
                          <span className="badge">
                            {row.end_reason
                              ? t(`players.end_reason.${row.end_reason}`)
                              : t('players.session_expired')}
                          </span>
                        ),
                    },
                    { key: 'ip', header: t('players.col.ip'), render: (row) => row.ip ?? '—' },
                    {
                      key: 'user_agent',
                      header: t('players.col.device'),
                      render: (row) => <span className="muted">{row.user_agent ?? '—'}</span>,
                    },
                  ]}
                />
              }
            />
            <Route path="notes" element={<Notes id={id} />} />
            <Route
              path="audit"
              element={
                <DataTable<TAuditRow>
                  key={`audit-${id}`}
                  resource={`player-${id}-audit`}
                  path={`/admin/players/${id}/audit`}
                  csvName={`player-${id}-audit`}
                  rowKey={(row) => String(row.id)}
                  columns={[
                    {
                      key: 'created_at',
                      header: t('players.col.when'),
                      render: (row) => formatDateTime(row.created_at),
                    },
                    { key: 'operator', header: t('players.col.operator') },
                    {
                      key: 'action',
                      header: t('players.col.action'),
                      render: (row) => <code>{row.action}</code>,
                    },
                    {
                      key: 'before',
                      header: t('players.col.before'),
                      render: (row) => <Json value={row.before} />,
                    },
                    {
                      key: 'after',
                      header: t('players.col.after'),
                      render: (row) => <Json value={row.after} />,
                    },
                  ]}
                />
              }
            />
          </Routes>
        </>
      )}
    </div>
  );
}

/** Players: the search, and one player's detail (/players/:id/…). */
export default function PlayersPage() {
  return (
    <Routes>
      <Route index element={<PlayerSearch />} />
      <Route path=":id/*" element={<PlayerDetailPage />} />
    </Routes>
  );
}
