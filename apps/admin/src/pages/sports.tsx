import type {
  TSportsCollectResponse,
  TSportsEvent,
  TSportsEventsResponse,
  TSportsMarket,
  TSportsSettings,
  TSportsUnrecoveredResponse,
} from '@sorte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../api.ts';
import { formatDateTime, formatMoney } from '../i18n.ts';
import './sports.css';

/**
 * The sportsbook's trading screen (issue 17): matches by competition with their four markets. An
 * operator enters or corrects a final score (settles every bet at once, through the wallet), marks a
 * match cancelled (every stake returned), suspends or reopens a market and sets its odds by hand,
 * updates a live score (a goal suspends the match's markets until repriced) and sets the site's
 * in-play bet delay and goal suspension window.
 * Every call is audited by the server (permission games.manage).
 */

const STATES = ['open', 'finished', 'all'] as const;
type TNotice = { tone: 'ok' | 'error'; text: string } | null;

function errorText(error: unknown): string {
  return error instanceof ApiError ? error.message : String(error);
}

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const tone = status === 'finished' || status === 'open' ? 'ok' : status === 'cancelled' ? 'bad' : 'info';
  return <span className={`badge badge--${tone}`}>{t(`sports.status.${status}`)}</span>;
}

function MarketEditor({ market, onDone }: { market: TSportsMarket; onDone: (notice: TNotice) => void }) {
  const { t, i18n } = useTranslation();
  const [odds, setOdds] = useState<Record<string, string>>(
    Object.fromEntries(market.selections.map((selection) => [selection.id, selection.odds])),
  );
  const save = useMutation({
    mutationFn: async () =>
      api(`/admin/sports/markets/${market.id}/odds`, {
        body: {
          selections: market.selections
            .filter((selection) => odds[selection.id] !== selection.odds)
            .map((selection) => ({ selection_id: selection.id, odds: odds[selection.id] })),
        },
      }),
    onSuccess: ({ message }) => onDone({ tone: 'ok', text: message }),
    onError: (error) => onDone({ tone: 'error', text: errorText(error) }),
  });
  const toggle = useMutation({
    mutationFn: async () =>
      api(`/admin/sports/markets/${market.id}/${market.status === 'open' ? 'suspend' : 'reopen'}`, {
        method: 'POST',
      }),
    onSuccess: ({ message }) => onDone({ tone: 'ok', text: message }),
    onError: (error) => onDone({ tone: 'error', text: errorText(error) }),
  });
  const changed = market.selections.some((selection) => odds[selection.id] !== selection.odds);
  const settled = market.status === 'settled';
  return (
    <li className="market" data-testid="admin-market">
      <div className="market__head">
        <strong>{t(`sports.market.${market.type}`)}</strong>
        <StatusBadge status={market.status} />
        <span className="muted">
          {t('sports.margin', {
            margin: new Intl.NumberFormat(i18n.language, {
              style: 'percent',
              maximumFractionDigits: 2,
            }).format(Number(market.margin)),
          })}
        </span>
      </div>
      <form
        className="market__odds"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          if (changed) save.mutate();
        }}
      >
        {market.selections.map((selection) => (
          <label key={selection.id} className="field">
            <span className="field__label">
              {t(`sports.selection.${selection.code}`)}
              {selection.result ? ` · ${t(`sports.result.${selection.result}`)}` : ''}
            </span>
            <input
              inputMode="decimal"
              value={odds[selection.id] ?? ''}
              disabled={settled}
              onChange={(event) => setOdds({ ...odds, [selection.id]: event.target.value })}
            />
          </label>
        ))}
        {!settled && (
          <div className="market__actions">
            <button type="submit" className="button button--primary" disabled={!changed || save.isPending}>
              {t('sports.save_odds')}
            </button>
            <button type="button" className="button button--ghost" onClick={() => toggle.mutate()}>
              {market.status === 'open' ? t('sports.suspend') : t('sports.reopen')}
            </button>
          </div>
        )}
      </form>
    </li>
  );
}

function EventCard({ event, onDone }: { event: TSportsEvent; onDone: (notice: TNotice) => void }) {
  const { t } = useTranslation();
  const [home, setHome] = useState(event.score ? String(event.score.home) : '');
  const [away, setAway] = useState(event.score ? String(event.score.away) : '');
  const result = useMutation({
    mutationFn: async () =>
      api<{ bets_settled: number }>(`/admin/sports/events/${event.id}/result`, {
        body: { home_goals: Number(home), away_goals: Number(away) },
      }),
    onSuccess: ({ data }) => onDone({ tone: 'ok', text: t('sports.settled', { count: data.bets_settled }) }),
    onError: (error) => onDone({ tone: 'error', text: errorText(error) }),
  });
  const cancel = useMutation({
    mutationFn: async () =>
      api<{ bets_settled: number }>(`/admin/sports/events/${event.id}/cancel`, { method: 'POST' }),
    onSuccess: ({ data }) =>
      onDone({ tone: 'ok', text: t('sports.cancelled', { count: data.bets_settled }) }),
    onError: (error) => onDone({ tone: 'error', text: errorText(error) }),
  });
  const live = useMutation({
    mutationFn: async () =>
      api(`/admin/sports/events/${event.id}/live`, {
        body: { home_goals: Number(home), away_goals: Number(away) },
      }),
    onSuccess: () => onDone({ tone: 'ok', text: t('sports.live_saved') }),
    onError: (error) => onDone({ tone: 'error', text: errorText(error) }),
  });
  const valid = /^\d{1,2}$/.test(home) && /^\d{1,2}$/.test(away);
  const finished = event.status === 'finished';
  return (
    <article className="card sports-event" data-testid="admin-event">
      <header className="sports-event__head">
        <div>
          <h3>
            {event.home_team} × {event.away_team}
          </h3>
          <p className="muted">
            {event.competition_name}
            {event.round !== null ? ` · ${t('sports.round', { round: event.round })}` : ''} ·{' '}
            {formatDateTime(event.kickoff_at)}
          </p>
        </div>
        <StatusBadge status={event.status} />
      </header>
      <form
        className="sports-event__result"
        onSubmit={(submitted: FormEvent) => {
          submitted.preventDefault();
          if (!valid) {
            onDone({ tone: 'error', text: t('sports.score_required') });
            return;
          }
          if (finished && !window.confirm(t('sports.confirm_correct'))) return;
          result.mutate();
        }}
      >
        <label className="field">
          <span className="field__label">{event.home_team}</span>
          <input inputMode="numeric" value={home} onChange={(e) => setHome(e.target.value.trim())} />
        </label>
        <label className="field">
          <span className="field__label">{event.away_team}</span>
          <input inputMode="numeric" value={away} onChange={(e) => setAway(e.target.value.trim())} />
        </label>
        <button type="submit" className="button button--primary" disabled={result.isPending}>
          {finished ? t('sports.correct_result') : t('sports.enter_result')}
        </button>
        {(event.status === 'scheduled' || event.status === 'live') && (
          <button
            type="button"
            className="button"
            disabled={live.isPending}
            onClick={() => {
              if (!valid) onDone({ tone: 'error', text: t('sports.score_required') });
              else live.mutate();
            }}
          >
            {t('sports.live_score')}
          </button>
        )}
        {event.status !== 'cancelled' && (
          <button
            type="button"
            className="button button--danger"
            disabled={cancel.isPending}
            onClick={() => {
              if (window.confirm(t('sports.confirm_cancel'))) cancel.mutate();
            }}
          >
            {t('sports.cancel_match')}
          </button>
        )}
      </form>
      <details>
        <summary>{t('sports.markets', { count: event.markets.length })}</summary>
        <ul className="markets">
          {event.markets.map((market) => (
            <MarketEditor
              key={`${market.id}:${market.status}:${market.selections.map((s) => s.odds).join()}`}
              market={market}
              onDone={onDone}
            />
          ))}
        </ul>
      </details>
    </article>
  );
}

/** The site's in-play controls: the bet delay and how long a goal suspends a match's markets. */
function InPlaySettings({ onDone }: { onDone: (notice: TNotice) => void }) {
  const { t } = useTranslation();
  const settings = useQuery({
    queryKey: ['admin-sports-settings'],
    queryFn: async () => (await api<TSportsSettings>('/admin/sports/settings')).data,
  });
  const [delay, setDelay] = useState<string | null>(null);
  const [window_, setWindow] = useState<string | null>(null);
  const delaySeconds = delay ?? (settings.data ? String(settings.data.in_play_delay_ms / 1000) : '');
  const suspension = window_ ?? (settings.data ? String(settings.data.score_suspension_seconds) : '');
  const save = useMutation({
    mutationFn: async () =>
      api<TSportsSettings>('/admin/sports/settings', {
        method: 'PUT',
        body: {
          in_play_delay_ms: Math.round(Number(delaySeconds.replace(',', '.')) * 1000),
          score_suspension_seconds: Number(suspension),
        },
      }),
    onSuccess: ({ message }) => {
      setDelay(null);
      setWindow(null);
      void settings.refetch();
      onDone({ tone: 'ok', text: message });
    },
    onError: (error) => onDone({ tone: 'error', text: errorText(error) }),
  });
  return (
    <form
      className="card sports-settings"
      data-testid="admin-sports-settings"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <h2>{t('sports.in_play.title')}</h2>
      <p className="muted">{t('sports.in_play.hint')}</p>
      <label className="field">
        <span className="field__label">{t('sports.in_play.delay')}</span>
        <input inputMode="decimal" value={delaySeconds} onChange={(e) => setDelay(e.target.value.trim())} />
      </label>
      <label className="field">
        <span className="field__label">{t('sports.in_play.suspension')}</span>
        <input inputMode="numeric" value={suspension} onChange={(e) => setWindow(e.target.value.trim())} />
      </label>
      <button type="submit" className="button button--primary" disabled={save.isPending || !settings.data}>
        {t('sports.in_play.save')}
      </button>
    </form>
  );
}

/** Bets whose corrected payout the player had spent: what is still owed, and collect now. */
function Unrecovered({ onDone }: { onDone: (notice: TNotice) => void }) {
  const { t } = useTranslation();
  const owed = useQuery({
    queryKey: ['admin-sports-unrecovered'],
    queryFn: async () => (await api<TSportsUnrecoveredResponse>('/admin/sports/unrecovered')).data.list,
  });
  const collect = useMutation({
    mutationFn: async (betId: string) =>
      (await api<TSportsCollectResponse>(`/admin/sports/bets/${betId}/collect`, { method: 'POST' })).data
        .list,
    onSuccess: (list) => {
      const [row] = list;
      void owed.refetch();
      onDone({
        tone: 'ok',
        text: row
          ? t('sports.owed.collected', {
              amount: formatMoney(row.collected),
              left: formatMoney(row.still_owed),
            })
          : t('sports.owed.none'),
      });
    },
    onError: (error) => onDone({ tone: 'error', text: errorText(error) }),
  });
  if (!owed.data || owed.data.length === 0) return null;
  return (
    <section className="card sports-owed" data-testid="admin-sports-owed">
      <h2>{t('sports.owed.title')}</h2>
      <p className="muted">{t('sports.owed.hint')}</p>
      <table className="table">
        <thead>
          <tr>
            <th>{t('sports.owed.player')}</th>
            <th>{t('sports.owed.bet')}</th>
            <th>{t('sports.owed.amount')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {owed.data.map((row) => (
            <tr key={row.bet_id}>
              <td>{row.username}</td>
              <td>#{row.bet_id}</td>
              <td>{formatMoney(row.owed)}</td>
              <td>
                <button
                  type="button"
                  className="button"
                  disabled={collect.isPending}
                  onClick={() => collect.mutate(row.bet_id)}
                >
                  {t('sports.owed.collect')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export default function SportsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [state, setState] = useState<(typeof STATES)[number]>('open');
  const [notice, setNotice] = useState<TNotice>(null);
  const events = useQuery({
    queryKey: ['admin-sports-events', state],
    queryFn: async () =>
      (await api<TSportsEventsResponse>('/admin/sports/events', { query: { state, limit: 200 } })).data,
  });
  const done = (next: TNotice) => {
    setNotice(next);
    void queryClient.invalidateQueries({ queryKey: ['admin-sports-events'] });
  };
  return (
    <section className="page">
      <header className="page__header sports-filter">
        <h1>{t('sports.title')}</h1>
        <label className="field">
          <span className="field__label">{t('sports.show')}</span>
          <select value={state} onChange={(event) => setState(event.target.value as (typeof STATES)[number])}>
            {STATES.map((option) => (
              <option key={option} value={option}>
                {t(`sports.state.${option}`)}
              </option>
            ))}
          </select>
        </label>
      </header>
      <p className="muted">{t('sports.intro')}</p>
      <InPlaySettings onDone={done} />
      <Unrecovered onDone={done} />
      {notice && (
        <p className={`alert alert--${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </p>
      )}
      {events.isError && <p className="alert alert--error">{errorText(events.error)}</p>}
      {events.isLoading && <p className="muted">{t('common.loading')}</p>}
      {events.data && events.data.list.length === 0 && <p className="muted">{t('sports.empty')}</p>}
      <div className="sports-events">
        {events.data?.list.map((event) => (
          <EventCard key={`${event.id}:${event.status}`} event={event} onDone={done} />
        ))}
      </div>
    </section>
  );
}
