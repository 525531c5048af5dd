import type { TSportsMarket } from '@sorte/contract';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Icon } from '../../../components/icon.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSportsEvent } from '../api/sports-api.ts';
import { formatKickoff, marketName } from './labels.ts';
import { OddsButton } from './odds-button.tsx';
import { EventClock, useSlipPrices } from './sports-home-page.tsx';
import { SportsLayout } from './sports-layout.tsx';

/** `/sports/event?id=<id>` (the spec's routes take no parameters): every market of one match. */
export default function EventPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const event = useSportsEvent(id);
  useSlipPrices(event.data ? [event.data] : undefined);
  const notFound =
    !/^[1-9]\d{0,17}$/.test(id) || (event.error instanceof ApiError && event.error.status === 404);
  return (
    <SportsLayout title={event.data?.competition_name ?? t('sports.title')}>
      {notFound ? (
        <div className="sports-missing">
          <EmptyState message={t('sports.event_missing')} icon="trophy" />
          <Link to="/sports" className="button button--ghost button--small">
            {t('sports.back_home')}
          </Link>
        </div>
      ) : event.isPending ? (
        <Spinner />
      ) : event.isError ? (
        <LoadFail onRetry={() => void event.refetch()} />
      ) : (
        <>
          <header className="event-head card" data-testid="event-head">
            <EventClock event={event.data} />
            <div className="event-head__teams">
              <strong>{event.data.home_team}</strong>
              <span className="event-head__score" data-testid="event-score">
                {event.data.score ? `${event.data.score.home} – ${event.data.score.away}` : t('sports.vs')}
              </span>
              <strong>{event.data.away_team}</strong>
            </div>
            <p className="event-head__meta">
              {[
                event.data.round !== null ? t('sports.round', { round: event.data.round }) : null,
                // A scheduled match already shows its kick-off above.
                event.data.status !== 'scheduled' ? formatKickoff(event.data.kickoff_at) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
          </header>
          {event.data.markets.length === 0 ? (
            <EmptyState message={t('sports.no_markets')} icon="trophy" />
          ) : (
            event.data.markets.map((market: TSportsMarket) => (
              <section
                key={market.id}
                className={`market card${market.status !== 'open' ? ' market--locked' : ''}`}
                aria-labelledby={`market-${market.id}`}
                data-testid="market"
                data-market-type={market.type}
              >
                <header className="market__header">
                  <h2 id={`market-${market.id}`} className="market__name">
                    {marketName(market.type, t)}
                  </h2>
                  {market.status === 'suspended' && (
                    <span className="market__status" data-testid="market-suspended">
                      <Icon name="lock" size={14} /> {t('sports.suspended')}
                    </span>
                  )}
                  {market.status === 'settled' && (
                    <span className="market__status">{t('sports.settled')}</span>
                  )}
                </header>
                <div className={`market__selections market__selections--${market.selections.length}`}>
                  {market.selections.map((selection) => (
                    <OddsButton key={selection.id} event={event.data} market={market} selection={selection} />
                  ))}
                </div>
              </section>
            ))
          )}
        </>
      )}
    </SportsLayout>
  );
}
