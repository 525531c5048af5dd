import {
  SPORTS_PATHS,
  type TSportsBet,
  type TSportsBetResponse,
  type TSportsEvent,
  type TSportsEventsResponse,
  type TSportsMarket,
  type TSportsOddsPolicy,
} from '@sorte/contract';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useHasToken } from '../../../lib/session.ts';

/** The sports home's filter: open = upcoming and live together. */
export const EVENT_STATES = ['open', 'live', 'upcoming'] as const;
export type TEventState = (typeof EVENT_STATES)[number];

export const SPORTS_KEY = ['sports'] as const;
export const eventsKey = (state: TEventState, limit?: number) =>
  limit === undefined
    ? ([...SPORTS_KEY, 'events', state] as const)
    : ([...SPORTS_KEY, 'events', state, limit] as const);
/** The sports home shows this many matches at first, and this many more per "show more". */
export const EVENTS_PAGE = 30;
export const eventKey = (id: string) => [...SPORTS_KEY, 'event', id] as const;
export const BETS_KEY = [...SPORTS_KEY, 'bets'] as const;

const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

/** The events of the sports home, their competitions in the site's order, and the book's stake limits. */
export function useSportsEvents(state: TEventState, limit: number = EVENTS_PAGE) {
  return useQuery<TSportsEventsResponse>({
    queryKey: eventsKey(state, limit),
    queryFn: ({ signal }) =>
      api.get<TSportsEventsResponse>(SPORTS_PATHS.events, {
        query: { state, limit },
        signal,
        silent: true,
      }),
    placeholderData: keepPreviousData,
    // Odds arrive over the socket; a slow refetch covers a phone whose socket is down.
    refetchInterval: 60_000,
    staleTime: 15_000,
  });
}

export function useSportsEvent(id: string) {
  return useQuery<TSportsEvent>({
    queryKey: eventKey(id),
    queryFn: async ({ signal }) =>
      (
        await api.get<{ event: TSportsEvent }>(withId(SPORTS_PATHS.event, id), {
          signal,
          silent: true,
        })
      ).event,
    enabled: /^[1-9]\d{0,17}$/.test(id),
    refetchInterval: 60_000,
    staleTime: 15_000,
    retry: false,
  });
}

/** The book's limits as last seen (from the events answer), for the slip's own checks. */
export function cachedLimits(): TSportsEventsResponse['limits'] | null {
  for (const [, data] of queryClient.getQueriesData<TSportsEventsResponse>({
    queryKey: [...SPORTS_KEY, 'events'],
  })) {
    if (data) return data.limits;
  }
  return null;
}

export interface TPlaceBet {
  type: 'single' | 'accumulator';
  stake: string;
  legs: { selection_id: string; odds: string }[];
  accept_odds_changes: TSportsOddsPolicy;
}

/** Places one bet; the Idempotency-Key makes a retried submit count once. Refusals are shown by the slip. */
export function placeSportsBet(body: TPlaceBet, idempotencyKey: string): Promise<TSportsBetResponse> {
  return api.post<TSportsBetResponse>(SPORTS_PATHS.bets, body, {
    headers: { 'Idempotency-Key': idempotencyKey },
    silent: true,
  });
}

export function cashOutBet(id: string, value: string, idempotencyKey: string): Promise<TSportsBetResponse> {
  return api.post<TSportsBetResponse>(
    withId(SPORTS_PATHS.cashOut, id),
    { value },
    { headers: { 'Idempotency-Key': idempotencyKey }, silent: true },
  );
}

/** "My bets" tabs; void and cashed out are settled bets the page picks out. */
export const MY_BETS_TABS = ['open', 'settled', 'void', 'cashed_out'] as const;
export type TMyBetsTab = (typeof MY_BETS_TABS)[number];

interface TBetsPage {
  list: TSportsBet[];
  next_cursor: string | null;
}

export function useMyBets(tab: TMyBetsTab) {
  const hasToken = useHasToken();
  const status = tab === 'open' ? 'open' : 'settled';
  return useInfiniteQuery<TBetsPage>({
    queryKey: [...BETS_KEY, status],
    queryFn: ({ signal, pageParam }) =>
      api.get<TBetsPage>(SPORTS_PATHS.bets, {
        query: { status, cursor: (pageParam as string | null) ?? undefined },
        signal,
        silent: true,
      }),
    initialPageParam: null,
    getNextPageParam: (page) => page.next_cursor,
    enabled: hasToken,
    // The cash-out offer follows the odds: refresh it while the tab is open.
    refetchInterval: status === 'open' ? 15_000 : false,
  });
}

/** Which bets of a "settled" page belong to a tab. */
export function betInTab(bet: TSportsBet, tab: TMyBetsTab): boolean {
  if (tab === 'open') return bet.status === 'open';
  if (tab === 'void') return bet.status === 'void';
  if (tab === 'cashed_out') return bet.status === 'cashed_out';
  return bet.status === 'won' || bet.status === 'lost';
}

/** A market pushed live replaces the same market in every cached event (list and detail). */
export function applyMarketPush(eventId: string, market: TSportsMarket): void {
  const replace = (event: TSportsEvent): TSportsEvent =>
    event.id === eventId
      ? { ...event, markets: event.markets.map((item) => (item.id === market.id ? market : item)) }
      : event;
  queryClient.setQueryData<TSportsEvent>(eventKey(eventId), (event) => (event ? replace(event) : event));
  queryClient.setQueriesData<TSportsEventsResponse>({ queryKey: [...SPORTS_KEY, 'events'] }, (data) =>
    data ? { ...data, list: data.list.map(replace) } : data,
  );
}

/** An event's status or score pushed live. */
export function applyEventPush(eventId: string, change: Pick<TSportsEvent, 'status' | 'score'>): void {
  const replace = (event: TSportsEvent): TSportsEvent =>
    event.id === eventId ? { ...event, status: change.status, score: change.score } : event;
  queryClient.setQueryData<TSportsEvent>(eventKey(eventId), (event) => (event ? replace(event) : event));
  queryClient.setQueriesData<TSportsEventsResponse>({ queryKey: [...SPORTS_KEY, 'events'] }, (data) =>
    data ? { ...data, list: data.list.map(replace) } : data,
  );
}
