import type { TCrashPhase, TCrashRoundBetsResponse, TMyCrashBetsResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { formatDateTime, formatMoney, formatMultiplier } from '../../lib/format.ts';
import { getToken } from '../../lib/storage.ts';
import { getDemoToken } from '../originals/api/originals-api.ts';

/** While a round takes bets or runs, its table is read again this often. */
const LIVE_REFRESH_MS = 1000;

/**
 * The crash round's players as the leading crash games show them: everyone's bet in this round
 * and each cash-out as it happens (real money only, names masked), and a tab with the player's own
 * last bets and where those rounds crashed.
 */
export function CrashBets({
  roundId,
  phase,
  demo,
}: {
  roundId: string | null;
  phase: TCrashPhase | null;
  demo: boolean;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'round' | 'mine'>('round');
  const tabsId = useId();
  const demoToken = demo ? getDemoToken() : null;
  const canSeeMine = demoToken !== null || getToken() !== null;
  const live = phase === 'betting' || phase === 'running';

  const round = useQuery<TCrashRoundBetsResponse>({
    queryKey: ['crash', 'round-bets', roundId],
    queryFn: ({ signal }) => api.get('/api/crash/round-bets', { signal, silent: true }),
    enabled: roundId !== null && tab === 'round',
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
  const mine = useQuery<TMyCrashBetsResponse>({
    queryKey: ['crash', 'my-bets', demoToken ?? 'member'],
    queryFn: ({ signal }) =>
      api.get('/api/crash/my-bets', {
        signal,
        silent: true,
        ...(demoToken ? { headers: { 'X-Demo-Token': demoToken } } : {}),
      }),
    enabled: canSeeMine && tab === 'mine',
  });
  const refetchRound = round.refetch;
  const refetchMine = mine.refetch;
  // A crash settles every open bet: read both lists once more as it happens.
  useEffect(() => {
    if (phase !== 'crashed') return;
    if (tab === 'round') void refetchRound();
    else if (canSeeMine) void refetchMine();
  }, [phase, tab, canSeeMine, refetchRound, refetchMine]);

  const tabButton = (id: 'round' | 'mine', label: string) => (
    <button
      type="button"
      role="tab"
      id={`${tabsId}-${id}`}
      aria-selected={tab === id}
      aria-controls={`${tabsId}-panel`}
      className={`crash-bets__tab${tab === id ? ' is-active' : ''}`}
      data-testid={`crash-bets-tab-${id}`}
      onClick={() => setTab(id)}
    >
      {label}
    </button>
  );

  return (
    <section className="card crash-bets" aria-label={t('crash.bets_title')} data-testid="crash-bets">
      <div className="crash-bets__tabs" role="tablist">
        {tabButton('round', t('crash.bets_round'))}
        {canSeeMine && tabButton('mine', t('crash.bets_mine'))}
      </div>
      <div id={`${tabsId}-panel`} role="tabpanel" aria-labelledby={`${tabsId}-${tab}`}>
        {tab === 'round' ? (
          <RoundTable data={round.data} loading={round.isPending} failed={round.isError} />
        ) : (
          <MineTable data={mine.data} loading={mine.isPending} failed={mine.isError} />
        )}
      </div>
    </section>
  );
}

function RoundTable({
  data,
  loading,
  failed,
}: {
  data: TCrashRoundBetsResponse | undefined;
  loading: boolean;
  failed: boolean;
}) {
  const { t } = useTranslation();
  if (failed) return <p className="crash-bets__empty">{t('lobby.load_fail')}</p>;
  if (loading) return <p className="crash-bets__empty">{t('crash.connecting')}</p>;
  if (!data || data.list.length === 0) return <p className="crash-bets__empty">{t('crash.bets_none')}</p>;
  return (
    <>
      <p className="crash-bets__summary" data-testid="crash-bets-summary">
        {t('crash.bets_summary', { count: data.count, total: formatMoney(data.total) })}
      </p>
      <table className="crash-bets__table" data-testid="crash-bets-table">
        <thead>
          <tr>
            <th scope="col">{t('crash.bets_player')}</th>
            <th scope="col">{t('crash.bets_amount')}</th>
            <th scope="col">{t('crash.bets_cashout')}</th>
            <th scope="col">{t('crash.bets_payout')}</th>
          </tr>
        </thead>
        <tbody>
          {data.list.map((bet, index) => (
            <tr
              // biome-ignore lint/suspicious/noArrayIndexKey: masked names repeat; the order is the server's
              key={`${bet.player}-${index}`}
              className={`is-${bet.status}${bet.mine ? ' is-mine' : ''}`}
              data-testid="crash-bets-row"
            >
              <td>{bet.mine ? t('crash.bets_you') : bet.player}</td>
              <td>{formatMoney(bet.amount)}</td>
              <td>{bet.cashout_multiplier ? formatMultiplier(bet.cashout_multiplier) : '—'}</td>
              <td>{bet.status === 'cashed' ? formatMoney(bet.payout) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function MineTable({
  data,
  loading,
  failed,
}: {
  data: TMyCrashBetsResponse | undefined;
  loading: boolean;
  failed: boolean;
}) {
  const { t } = useTranslation();
  if (failed) return <p className="crash-bets__empty">{t('lobby.load_fail')}</p>;
  if (loading) return <p className="crash-bets__empty">{t('crash.connecting')}</p>;
  if (!data || data.list.length === 0)
    return <p className="crash-bets__empty">{t('crash.bets_mine_none')}</p>;
  return (
    <table className="crash-bets__table" data-testid="crash-my-bets-table">
      <thead>
        <tr>
          <th scope="col">{t('crash.bets_time')}</th>
          <th scope="col">{t('crash.bets_amount')}</th>
          <th scope="col">{t('crash.bets_crash_point')}</th>
          <th scope="col">{t('crash.bets_payout')}</th>
        </tr>
      </thead>
      <tbody>
        {data.list.map((bet) => (
          <tr key={bet.round_id} className={`is-${bet.status}`}>
            <td>{formatDateTime(bet.created_at)}</td>
            <td>{formatMoney(bet.amount)}</td>
            <td>{bet.crash_point ? formatMultiplier(bet.crash_point) : '—'}</td>
            <td>
              {bet.status === 'cashed'
                ? `${formatMoney(bet.payout)} (${formatMultiplier(bet.cashout_multiplier ?? '0')})`
                : bet.status === 'lost'
                  ? formatMoney('0.00')
                  : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
