import type { TSportsBet, TSportsBetLeg } from '@sorte/contract';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { PeriodFilter } from '../../../components/period-filter.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { confirmDialog } from '../../../lib/dialog.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { queryClient, USER_QUERY_KEY } from '../../../lib/query-client.ts';
import { SubmitKey } from '../../../lib/submit-key.ts';
import { toast } from '../../../lib/toast.ts';
import {
  BETS_KEY,
  betInTab,
  cashOutBet,
  MY_BETS_TABS,
  type TMyBetsTab,
  useMyBets,
} from '../api/sports-api.ts';
import { useSportsFeed } from '../api/sports-feed.ts';
import { formatOdds, marketName, matchName, selectionLabel } from './labels.ts';
import '../sports.css';

function LegRow({ leg }: { leg: TSportsBetLeg }) {
  const { t } = useTranslation();
  return (
    <li className={`bet-leg bet-leg--${leg.status}`} data-testid="bet-leg">
      <div className="bet-leg__what">
        <strong>{selectionLabel(leg.selection_code, leg, t)}</strong>
        <small>{marketName(leg.market_type, t)}</small>
        <small>
          {matchName(leg, t)}
          {leg.score && ` · ${leg.score.home} – ${leg.score.away}`}
        </small>
      </div>
      <div className="bet-leg__side">
        <strong>{formatOdds(leg.odds)}</strong>
        <span className={`bet-status bet-status--${leg.status}`}>{t(`sports.leg_status.${leg.status}`)}</span>
      </div>
    </li>
  );
}

function BetCard({ bet }: { bet: TSportsBet }) {
  const { t } = useTranslation();
  const key = useRef(new SubmitKey());
  const [busy, setBusy] = useState(false);
  const offer = bet.cash_out;

  const cashOut = async (value: string) => {
    const agreed = await confirmDialog(
      t('sports.my_bets.cash_out_confirm', { amount: formatMoney(value) }),
      t('sports.my_bets.cash_out'),
      t('common.cancel'),
    );
    if (!agreed) return;
    setBusy(true);
    try {
      await cashOutBet(bet.id, value, key.current.for({ bet: bet.id, value }));
      key.current.done();
      toast.success(t('sports.my_bets.cashed_out', { amount: formatMoney(value) }));
    } catch (thrown) {
      if (thrown instanceof ApiError && thrown.code === 'CASH_OUT_CHANGED') {
        const next = (thrown.data as { value?: string } | null)?.value;
        setBusy(false);
        toast.error(thrown.message);
        if (next) await cashOut(next);
        return;
      }
      toast.error(thrown instanceof ApiError ? thrown.message : t('common.error_generic'));
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: BETS_KEY });
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    }
  };

  return (
    <li className="bet card" data-testid="bet-card" data-bet-id={bet.id} data-status={bet.status}>
      <header className="bet__head">
        <strong>
          {bet.type === 'accumulator'
            ? t('sports.my_bets.accumulator', { count: bet.legs.length })
            : t('sports.slip.single_one')}
        </strong>
        <span className={`bet-status bet-status--${bet.status}`} data-testid="bet-status">
          {t(`sports.bet_status.${bet.status}`)}
        </span>
      </header>
      <ul className="bet__legs">
        {bet.legs.map((leg) => (
          <LegRow key={leg.selection_id} leg={leg} />
        ))}
      </ul>
      <dl className="bet__figures">
        <div>
          <dt>{t('sports.slip.stake')}</dt>
          <dd>{formatMoney(bet.stake)}</dd>
        </div>
        <div>
          <dt>{t('sports.slip.total_odds')}</dt>
          <dd>{formatOdds(bet.total_odds)}</dd>
        </div>
        {bet.status === 'open' ? (
          <div>
            <dt>{t('sports.slip.potential_return')}</dt>
            <dd>{formatMoney(bet.potential_return)}</dd>
          </div>
        ) : (
          <div>
            <dt>{t('sports.my_bets.payout')}</dt>
            <dd className={bet.payout !== '0.00' ? 'is-win' : undefined} data-testid="bet-payout">
              {formatMoney(bet.payout)}
            </dd>
          </div>
        )}
      </dl>
      <p className="bet__time">
        {t('sports.my_bets.placed_at', { time: formatDateTime(bet.placed_at) })}
        {bet.settled_at && ` · ${t('sports.my_bets.settled_at', { time: formatDateTime(bet.settled_at) })}`}
      </p>
      {bet.status === 'open' && offer && (
        <button
          type="button"
          className="button button--ghost button--block bet__cash-out"
          disabled={!offer.available || busy}
          onClick={() => void cashOut(offer.value)}
          data-testid="bet-cash-out"
        >
          {offer.available
            ? t('sports.my_bets.cash_out_amount', { amount: formatMoney(offer.value) })
            : t('sports.my_bets.cash_out_unavailable')}
        </button>
      )}
    </li>
  );
}

function MyBets() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<TMyBetsTab>('open');
  const bets = useMyBets(tab);
  const list = (bets.data?.pages ?? []).flatMap((page) => page.list).filter((bet) => betInTab(bet, tab));
  return (
    <div className="my-bets">
      <PeriodFilter
        value={tab}
        options={MY_BETS_TABS.map((value) => ({ value, label: t(`sports.my_bets.tabs.${value}`) }))}
        onChange={setTab}
        label={t('sports.my_bets.title')}
        testIdPrefix="my-bets-tab"
      />
      {bets.isPending ? (
        <Spinner />
      ) : bets.isError ? (
        <LoadFail onRetry={() => void bets.refetch()} />
      ) : list.length === 0 && !bets.hasNextPage ? (
        <div className="sports-missing">
          <EmptyState message={t(`sports.my_bets.empty.${tab}`)} icon="list" />
          <Link to="/sports" className="button button--ghost button--small">
            {t('sports.title')}
          </Link>
        </div>
      ) : (
        <ul className="bets">
          {list.map((bet) => (
            <BetCard key={bet.id} bet={bet} />
          ))}
        </ul>
      )}
      {bets.hasNextPage && (
        <button
          type="button"
          className="button button--ghost button--block"
          disabled={bets.isFetchingNextPage}
          onClick={() => void bets.fetchNextPage()}
        >
          {t('sports.my_bets.more')}
        </button>
      )}
    </div>
  );
}

/** `/sports/my-bets`: the player's sports bets (open, settled, void, cashed out) and cash-out. */
export default function MyBetsPage() {
  const { t } = useTranslation();
  useSportsFeed();
  return (
    <PageFrame title={t('sports.my_bets.title')} requiresLogin>
      <MyBets />
    </PageFrame>
  );
}
