import type { TSportsMarket, TSportsServerMessage } from '@sorte/contract';
import { useEffect } from 'react';
import { subscribeBalancePush } from '../../../lib/balance-socket.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { subscribeRealtime } from '../../../lib/realtime-messages.ts';
import { updatePrice, updateSlip } from '../slip/slip-state.ts';
import { applyEventPush, applyMarketPush, BETS_KEY, SPORTS_KEY } from './sports-api.ts';

/** A market push is one market of three selections at most; anything far larger is not ours. */
const MAX_MESSAGE_CHARS = 8192;
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
const MAX_ATTEMPTS = 10;

/** A pushed market: the cached events show the new prices and the slip learns them. */
export function receiveMarket(eventId: string, market: TSportsMarket): void {
  applyMarketPush(eventId, market);
  updateSlip((slip) =>
    market.selections.reduce(
      (next, selection) =>
        updatePrice(next, selection.id, { odds: selection.odds, suspended: market.status !== 'open' }),
      slip,
    ),
  );
}

function receive(message: TSportsServerMessage): void {
  if (message.type === 'sports_market') receiveMarket(message.event_id, message.market);
  else if (message.type === 'sports_event') {
    applyEventPush(message.event_id, { status: message.status, score: message.score });
  } else if (message.type === 'sports_bet') {
    void queryClient.invalidateQueries({ queryKey: BETS_KEY });
  }
}

function isSportsMessage(value: unknown): value is TSportsServerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  if (message.type === 'sports_market') {
    const market = message.market as Record<string, unknown> | undefined;
    return typeof message.event_id === 'string' && Array.isArray(market?.selections);
  }
  if (message.type === 'sports_event') return typeof message.event_id === 'string';
  return message.type === 'sports_bet';
}

/** After the last sports page closes, the watch socket stays this long (a page change reopens none). */
const LINGER_MS = 10_000;

/**
 * The watch socket on `/ws`: asks for the site's sports messages (`sports_watch`, guests too) and
 * comes back after a drop (1 s, 2 s, 4 s… up to 30 s, ten tries), refetching what the pages show
 * since a push missed while away stays missed. Returns the function that closes it.
 */
function startWatching(): () => void {
  let socket: WebSocket | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;
  let reconnecting = false;

  const open = () => {
    if (stopped) return;
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const current = new WebSocket(`${scheme}//${window.location.host}/ws`);
    socket = current;
    current.addEventListener('open', () => {
      current.send(JSON.stringify({ type: 'sports_watch' }));
      failures = 0;
      if (reconnecting) void queryClient.invalidateQueries({ queryKey: SPORTS_KEY });
    });
    current.addEventListener('message', (event) => {
      if (typeof event.data !== 'string' || event.data.length > MAX_MESSAGE_CHARS) return;
      try {
        const message: unknown = JSON.parse(event.data);
        if (isSportsMessage(message)) receive(message);
      } catch {
        // Not JSON: not a message of ours.
      }
    });
    current.addEventListener('close', () => {
      if (socket !== current || stopped) return;
      socket = null;
      if (failures >= MAX_ATTEMPTS) return;
      reconnecting = true;
      retry = setTimeout(open, Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** failures));
      failures += 1;
    });
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(retry);
    const current = socket;
    socket = null;
    current?.close(1000);
  };
}

/** One watch socket for every open sports page. */
let watchers = 0;
let stopWatching: (() => void) | null = null;
let lingering: ReturnType<typeof setTimeout> | undefined;

/**
 * The sports pages' live prices and bets: while any sports page is open, one watch socket brings
 * odds, suspensions and scores to the cached pages and the slip, so a guest sees prices move as a
 * player does. The member's own bets arrive on the app's balance socket (`sports_bet`, then a
 * `balance` with a sports reason); "My bets" refetches on either.
 */
export function useSportsFeed(): void {
  useEffect(() => {
    const offRealtime = subscribeRealtime((message) => {
      if (isSportsMessage(message)) receive(message);
    });
    const offBalance = subscribeBalancePush((push) => {
      if (push.reason.startsWith('sports')) void queryClient.invalidateQueries({ queryKey: BETS_KEY });
    });
    watchers += 1;
    clearTimeout(lingering);
    if (!stopWatching && typeof WebSocket !== 'undefined') stopWatching = startWatching();
    return () => {
      offRealtime();
      offBalance();
      watchers -= 1;
      if (watchers > 0) return;
      lingering = setTimeout(() => {
        stopWatching?.();
        stopWatching = null;
      }, LINGER_MS);
    };
  }, []);
}
