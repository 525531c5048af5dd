import type { TSportsCompetition, TSportsEvent } from '@sorte/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Icon } from '../../../components/icon.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PeriodFilter } from '../../../components/period-filter.tsx';
import { EVENT_STATES, EVENTS_PAGE, type TEventState, useSportsEvents } from '../api/sports-api.ts';
import { updatePrice, updateSlip } from '../slip/slip-state.ts';
import { formatKickoff } from './labels.ts';
import { OddsButton } from './odds-button.tsx';
import { SportsLayout } from './sports-layout.tsx';

/** The most matches the events call answers at once (its `limit` maximum). */
const MAX_EVENTS = 200;

/** Prices fetched over HTTP (first load, refetch after a reconnection) reach the slip too. */
export function useSlipPrices(events: readonly TSportsEvent[] | undefined): void {
  useEffect(() => {
    if (!events) return;
    updateSlip((slip) => {
      let next = slip;
      for (const event of events) {
        const closed = event.status !== 'scheduled' && event.status !== 'live';
        for (const market of event.markets) {
          for (const selection of market.selections) {
            next = updatePrice(next, selection.id, {
              odds: selection.odds,
              suspended: closed || market.status !== 'open',
            });
          }
        }
      }
      return next;
    });
  }, [events]);
}

/** Live: the score and a live mark; scheduled: the kick-off day and time. */
export function EventClock({ event }: { event: TSportsEvent }) {
  const { t } = useTranslation();
  if (event.status === 'live') {
    return (
      <span className="match__clock match__clock--live">
        <span className="live-dot" aria-hidden="true" />
        {t('sports.status.live')}
      </span>
    );
  }
  if (event.status === 'scheduled') {
    return (
      <time className="match__clock" dateTime={event.kickoff_at}>
        {formatKickoff(event.kickoff_at)}
      </time>
    );
  }
  return <span className="match__clock">{t(`sports.status.${event.status}`)}</span>;
}

function MatchRow({ event }: { event: TSportsEvent }) {
  const { t } = useTranslation();
  const result = event.markets.find((market) => market.type === '1x2');
  const others = event.markets.length - (result ? 1 : 0);
  const score = event.score;
  return (
    <li className="match" data-testid="match-row" data-event-id={event.id}>
      <Link to={`/sports/event?id=${event.id}`} className="match__link">
        <EventClock event={event} />
        <span className="match__teams">
          <span className="match__team">
            <span>{event.home_team}</span>
            {score && <strong className="match__score">{score.home}</strong>}
          </span>
          <span className="match__team">
            <span>{event.away_team}</span>
            {score && <strong className="match__score">{score.away}</strong>}
          </span>
        </span>
        {others > 0 && (
          <span className="match__more">
            {t('sports.more_markets', { count: others })}
            <Icon name="chevron" size={16} />
          </span>
        )}
      </Link>
      {result && (
        <div className="match__odds">
          {result.selections.map((selection) => (
            <OddsButton key={selection.id} event={event} market={result} selection={selection} short />
          ))}
        </div>
      )}
    </li>
  );
}

function Skeleton() {
  const { t } = useTranslation();
  return (
    <div className="sports-skeleton" role="status" aria-live="polite" data-testid="sports-loading">
      <span className="visually-hidden">{t('common.loading')}</span>
      {[0, 1].map((group) => (
        <div key={group} className="sports-skeleton__group" aria-hidden="true">
          <span className="sports-skeleton__title" />
          {[0, 1, 2].map((row) => (
            <span key={row} className="sports-skeleton__row" />
          ))}
        </div>
      ))}
    </div>
  );
}

/** Events grouped by competition, the competitions in the site's order (Brasileirão first on br). */
function groupByCompetition(
  competitions: readonly TSportsCompetition[],
  events: readonly TSportsEvent[],
): { id: string; name: string; country: string; events: TSportsEvent[] }[] {
  const groups = new Map<string, { id: string; name: string; country: string; events: TSportsEvent[] }>();
  for (const competition of competitions) {
    groups.set(competition.id, {
      id: competition.id,
      name: competition.name,
      country: competition.country,
      events: [],
    });
  }
  for (const event of events) {
    let group = groups.get(event.competition_id);
    if (!group) {
      group = { id: event.competition_id, name: event.competition_name, country: '', events: [] };
      groups.set(event.competition_id, group);
    }
    group.events.push(event);
  }
  return [...groups.values()].filter((group) => group.events.length > 0);
}

/** `/sports`: the sports home — live and upcoming football by competition, 1×2 odds in each row. */
export default function SportsHomePage() {
  const { t } = useTranslation();
  const [state, setState] = useState<TEventState>('open');
  const [limit, setLimit] = useState(EVENTS_PAGE);
  const events = useSportsEvents(state, limit);
  useSlipPrices(events.data?.list);
  const groups = events.data ? groupByCompetition(events.data.competitions, events.data.list) : [];
  return (
    <SportsLayout title={t('sports.title')}>
      <div className="sports__toolbar">
        <PeriodFilter
          value={state}
          options={EVENT_STATES.map((value) => ({ value, label: t(`sports.filter.${value}`) }))}
          onChange={(next) => {
            setState(next);
            setLimit(EVENTS_PAGE);
          }}
          label={t('sports.filter.label')}
          testIdPrefix="sports-filter"
        />
      </div>
      {events.isPending ? (
        <Skeleton />
      ) : events.isError ? (
        <LoadFail onRetry={() => void events.refetch()} />
      ) : groups.length === 0 ? (
        <EmptyState message={t(`sports.empty.${state}`)} icon="trophy" />
      ) : (
        groups.map((group) => (
          <section key={group.id} className="competition" aria-labelledby={`competition-${group.id}`}>
            <header className="competition__header">
              <h2 id={`competition-${group.id}`} className="competition__name">
                {group.name}
              </h2>
            </header>
            <ul className="competition__matches">
              {group.events.map((event) => (
                <MatchRow key={event.id} event={event} />
              ))}
            </ul>
          </section>
        ))
      )}
      {events.data && events.data.list.length >= limit && limit < MAX_EVENTS && (
        <button
          type="button"
          className="button button--ghost button--block"
          disabled={events.isFetching}
          onClick={() => setLimit((value) => Math.min(MAX_EVENTS, value + EVENTS_PAGE))}
          data-testid="sports-more"
        >
          {t('sports.more_matches')}
        </button>
      )}
    </SportsLayout>
  );
}
