import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN, ZStake } from './games.ts';
import { ZLangQuery } from './site.ts';
import { M } from './validation.ts';

/**
 * Sportsbook (issue 17): football competitions, events, markets and selections priced by the house,
 * the bet slip (singles and accumulators), "My bets", cash-out, and the operator's calls.
 *
 * Odds are exact decimal STRINGS with two places ("2.15"), never floats: the server stores them as
 * numeric and computes returns in integer centavos (potential return = stake × product of the legs'
 * odds, rounded down to the centavo). Money is "0.00" strings as everywhere else.
 *
 * Player calls (site from the Host, member from the session; money calls take an `Idempotency-Key`
 * header, one key per submit):
 *   GET  /api/sports/competitions                → ZSportsCompetitionsResponse
 *   GET  /api/sports/events?competition_id&state → ZSportsEventsResponse (upcoming and live by default)
 *   GET  /api/sports/events/:id                  → ZSportsEventResponse
 *   POST /api/sports/bets                        ZSportsPlaceBetRequest → ZSportsBetResponse
 *   GET  /api/sports/bets?status&cursor          → ZSportsBetsResponse ("My bets")
 *   GET  /api/sports/bets/:id                    → ZSportsBetResponse
 *   POST /api/sports/bets/:id/cash-out           ZSportsCashOutRequest → ZSportsBetResponse
 * Operator calls (operator session, permission sports.manage), see SPORTS_ADMIN_PATHS.
 */

export const SPORTS_PATHS = {
  competitions: '/api/sports/competitions',
  events: '/api/sports/events',
  event: '/api/sports/events/:id',
  bets: '/api/sports/bets',
  bet: '/api/sports/bets/:id',
  cashOut: '/api/sports/bets/:id/cash-out',
} as const;

export const SPORTS_ADMIN_PATHS = {
  /** GET: every event of the site with its markets (all states), ?competition_id&state. */
  events: '/api/admin/sports/events',
  /** POST ZSportsAdminOddsRequest: set selections' odds by hand, or reprice from probabilities + margin. */
  marketOdds: '/api/admin/sports/markets/:id/odds',
  /** POST (no body): suspend a market (no bets, no cash-out on it). */
  marketSuspend: '/api/admin/sports/markets/:id/suspend',
  /** POST (no body): reopen a suspended market. */
  marketReopen: '/api/admin/sports/markets/:id/reopen',
  /** POST ZSportsAdminResultRequest: enter or correct the final score; settles (or resettles) at once. */
  eventResult: '/api/admin/sports/events/:id/result',
  /** POST ZSportsAdminLiveRequest: mark the match live with the current score. */
  eventLive: '/api/admin/sports/events/:id/live',
  /** POST (no body): cancel the match; every market is void and stakes are returned. */
  eventCancel: '/api/admin/sports/events/:id/cancel',
  /** GET / PUT ZSportsSettings: the site's in-play bet delay and how long a goal suspends markets. */
  settings: '/api/admin/sports/settings',
  /** GET ZSportsUnrecoveredResponse: bets whose corrected payout the player still owes. */
  unrecovered: '/api/admin/sports/unrecovered',
  /** POST: collect what the player owes on this bet from the player's cash now. */
  betCollect: '/api/admin/sports/bets/:id/collect',
} as const;

/** Smallest and largest odds the book offers. */
export const SPORTS_ODDS_MIN = '1.01';
export const SPORTS_ODDS_MAX = '1000.00';
/** Most legs in one accumulator. */
export const SPORTS_MAX_LEGS = 10;
export const SPORTS_BETS_PAGE_SIZE = 20;

export const SPORTS_EVENT_STATUSES = ['scheduled', 'live', 'finished', 'cancelled'] as const;
export type TSportsEventStatus = (typeof SPORTS_EVENT_STATUSES)[number];

export const SPORTS_MARKET_STATUSES = ['open', 'suspended', 'settled'] as const;
export type TSportsMarketStatus = (typeof SPORTS_MARKET_STATUSES)[number];

/** The markets of a football match; the web translates each name (and its selections) by code. */
export const SPORTS_MARKET_TYPES = ['1x2', 'double_chance', 'over_under_2_5', 'btts'] as const;
export type TSportsMarketType = (typeof SPORTS_MARKET_TYPES)[number];

/** Selection codes per market type, in display order. */
export const SPORTS_SELECTION_CODES = {
  '1x2': ['home', 'draw', 'away'],
  double_chance: ['home_draw', 'home_away', 'draw_away'],
  over_under_2_5: ['over', 'under'],
  btts: ['yes', 'no'],
} as const satisfies Record<TSportsMarketType, readonly string[]>;
export type TSportsSelectionCode = (typeof SPORTS_SELECTION_CODES)[TSportsMarketType][number];

/** A selection's result once its market is settled (null before). */
export const SPORTS_SELECTION_RESULTS = ['won', 'lost', 'void'] as const;

export const SPORTS_BET_TYPES = ['single', 'accumulator'] as const;
export type TSportsBetType = (typeof SPORTS_BET_TYPES)[number];

export const SPORTS_BET_STATUSES = ['open', 'won', 'lost', 'void', 'cashed_out'] as const;
export type TSportsBetStatus = (typeof SPORTS_BET_STATUSES)[number];

export const SPORTS_LEG_STATUSES = ['open', 'won', 'lost', 'void'] as const;

/**
 * What the player accepts when odds moved between seeing them and placing: 'none' refuses any change
 * (ODDS_CHANGED), 'higher' accepts only better odds, 'any' accepts every change. Accepted bets are
 * placed at the CURRENT odds, which the answer's legs show.
 */
export const SPORTS_ODDS_POLICIES = ['none', 'higher', 'any'] as const;
export type TSportsOddsPolicy = (typeof SPORTS_ODDS_POLICIES)[number];

/** Odds as text: "2.15" (1–4 whole digits, 1–2 decimals on input; always 2 decimals on output). */
export const ODDS_PATTERN = /^[1-9]\d{0,3}(\.\d{1,2})?$/;
const ZOdds = z.string().describe('decimal odds, 2 places, e.g. "2.15"');
const ZOddsInput = z
  .string({ error: M.wrongType })
  .trim()
  .regex(ODDS_PATTERN, { error: 'validation.invalid' });
const money = z.string().describe('decimal string, 2 places, BRL');
const ZId = z.string().regex(/^[1-9]\d{0,17}$/, { error: 'validation.invalid' });

// ---------------------------------------------------------------------------------------------
// Catalogue

export const ZSportsCompetition = z.object({
  id: z.string(),
  /** 'football' (the only sport for now). */
  sport: z.string(),
  /** ISO 3166 alpha-2 country, e.g. "BR". */
  country: z.string(),
  /** Proper name as the competition calls itself ("Brasileirão Série A"); not translated. */
  name: z.string(),
  season: z.string(),
  /** Events not finished or cancelled. */
  open_event_count: z.number().int(),
});
export type TSportsCompetition = z.infer<typeof ZSportsCompetition>;
export const ZSportsCompetitionsResponse = z.object({ list: z.array(ZSportsCompetition) });

export const ZSportsSelection = z.object({
  id: z.string(),
  code: z.string(),
  odds: ZOdds,
  /** null until the market is settled. */
  result: z.enum(SPORTS_SELECTION_RESULTS).nullable(),
});
export type TSportsSelection = z.infer<typeof ZSportsSelection>;

export const ZSportsMarket = z.object({
  id: z.string(),
  type: z.enum(SPORTS_MARKET_TYPES),
  status: z.enum(SPORTS_MARKET_STATUSES),
  /** The house margin of the market's prices ("0.06" = 6 %). */
  margin: z.string(),
  selections: z.array(ZSportsSelection),
});
export type TSportsMarket = z.infer<typeof ZSportsMarket>;

export const ZSportsScore = z.object({ home: z.number().int(), away: z.number().int() });

export const ZSportsEvent = z.object({
  id: z.string(),
  competition_id: z.string(),
  competition_name: z.string(),
  /** Round ("Matchday 12"), as a number; null for a one-off. */
  round: z.number().int().nullable(),
  home_team: z.string(),
  away_team: z.string(),
  kickoff_at: z.string().describe('ISO 8601'),
  status: z.enum(SPORTS_EVENT_STATUSES),
  /** Live or final score; null while scheduled. */
  score: ZSportsScore.nullable(),
  markets: z.array(ZSportsMarket),
});
export type TSportsEvent = z.infer<typeof ZSportsEvent>;

/** 'open' = scheduled and live (the default), 'finished' includes cancelled. */
export const SPORTS_EVENT_STATES = ['open', 'live', 'upcoming', 'finished', 'all'] as const;
export const ZSportsEventsQuery = ZLangQuery.extend({
  competition_id: ZId.optional(),
  state: z.enum(SPORTS_EVENT_STATES, { error: M.wrongType }).default('open'),
  limit: z.coerce.number({ error: M.wrongType }).int().min(1).max(200).default(100),
});
export type TSportsEventsQuery = z.input<typeof ZSportsEventsQuery>;
/** The book's stake limits (the slip checks them before sending; the server refuses BET_OUT_OF_RANGE). */
export const ZSportsLimits = z.object({
  min_stake: money,
  max_stake: money,
  /** Largest potential return of one bet; a bigger one is refused with BET_OUT_OF_RANGE. */
  max_payout: money,
  max_legs: z.number().int(),
});
export type TSportsLimits = z.infer<typeof ZSportsLimits>;

/**
 * Events ordered by their competition's display order (the site's first competition first, e.g.
 * Brasileirão Série A on `br`), then kickoff. `competitions` lists the competitions of the site in
 * that order, so the page groups `list` by `competition_id` without another call.
 */
export const ZSportsEventsResponse = z.object({
  competitions: z.array(ZSportsCompetition),
  list: z.array(ZSportsEvent),
  limits: ZSportsLimits,
});
export type TSportsEventsResponse = z.infer<typeof ZSportsEventsResponse>;
export const ZSportsEventResponse = z.object({ event: ZSportsEvent });

// ---------------------------------------------------------------------------------------------
// Bet slip and bets

export const ZSportsLegRequest = z.object({
  selection_id: ZId,
  /** The odds the player saw on the slip. */
  odds: ZOddsInput,
});

/**
 * POST /api/sports/bets with header `Idempotency-Key` (required: one key per submit; a retry with the
 * same key and body answers the first bet, another body IDEMPOTENCY_CONFLICT). 'single' takes exactly
 * one leg; 'accumulator' 2–SPORTS_MAX_LEGS legs from different events. Refusals (translated, nothing
 * debited): ODDS_CHANGED (data.changes: [{selection_id, odds_seen, odds_now}]), MARKET_SUSPENDED
 * (data.selection_ids), MARKET_CLOSED (event finished/cancelled or market settled; data.selection_ids),
 * SPORTS_SAME_EVENT, BET_OUT_OF_RANGE (stake limits: min, max), SPORTS_MAX_PAYOUT (the return passes the
 * max payout: data.max_payout, data.max = the largest stake these odds allow), INSUFFICIENT_FUNDS, RG_* limits, COOLING_OFF,
 * SELF_EXCLUDED, TERMS_NOT_ACCEPTED, BONUS_MAX_BET.
 */
export const ZSportsPlaceBetRequest = z
  .object({
    type: z.enum(SPORTS_BET_TYPES, { error: M.wrongType }),
    legs: z
      .array(ZSportsLegRequest, { error: M.wrongType })
      .min(1, { error: 'validation.invalid' })
      .max(SPORTS_MAX_LEGS, { error: 'validation.invalid' }),
    stake: ZStake,
    accept_odds_changes: z.enum(SPORTS_ODDS_POLICIES, { error: M.wrongType }).default('none'),
    /** Or the `Idempotency-Key` header (one of the two is required). */
    idempotency_key: z
      .string()
      .regex(IDEMPOTENCY_KEY_PATTERN, { error: 'validation.idempotency_key' })
      .optional(),
  })
  .refine((body) => (body.type === 'single' ? body.legs.length === 1 : body.legs.length >= 2), {
    error: 'validation.invalid',
    path: ['legs'],
  })
  .refine((body) => new Set(body.legs.map((leg) => leg.selection_id)).size === body.legs.length, {
    error: 'validation.invalid',
    path: ['legs'],
  });
export type TSportsPlaceBetRequest = z.input<typeof ZSportsPlaceBetRequest>;

export const ZSportsIdempotencyHeaders = z.object({
  'idempotency-key': z
    .string({ error: 'validation.idempotency_key' })
    .regex(IDEMPOTENCY_KEY_PATTERN, { error: 'validation.idempotency_key' })
    .optional(),
});

/** Odds that moved between the slip and the server (data of ODDS_CHANGED). */
export const ZSportsOddsChange = z.object({
  selection_id: z.string(),
  odds_seen: ZOdds,
  odds_now: ZOdds,
});
export type TSportsOddsChange = z.infer<typeof ZSportsOddsChange>;

export const ZSportsBetLeg = z.object({
  selection_id: z.string(),
  selection_code: z.string(),
  market_id: z.string(),
  market_type: z.enum(SPORTS_MARKET_TYPES),
  event_id: z.string(),
  competition_name: z.string(),
  home_team: z.string(),
  away_team: z.string(),
  kickoff_at: z.string(),
  /** The odds the bet was placed at (fixed once placed). */
  odds: ZOdds,
  status: z.enum(SPORTS_LEG_STATUSES),
  /** The event's final score once known. */
  score: ZSportsScore.nullable(),
});
export type TSportsBetLeg = z.infer<typeof ZSportsBetLeg>;

export const ZSportsCashOutOffer = z.object({
  /** What the house pays now to close the bet ("0.00" form). */
  value: money,
  /** False while a leg's market is suspended or its event is not open (value then only informative). */
  available: z.boolean(),
});

export const ZSportsBet = z.object({
  id: z.string(),
  type: z.enum(SPORTS_BET_TYPES),
  status: z.enum(SPORTS_BET_STATUSES),
  stake: money,
  /**
   * Product of the legs' odds (void legs count 1.00), shown with 2 places rounded down. The return is
   * computed from the EXACT product: potential_return = floor(stake × product) to the centavo.
   */
  total_odds: ZOdds,
  /** stake × total odds, rounded down to the centavo. */
  potential_return: money,
  /** What was paid (win, void refund or cash-out); "0.00" while open or lost. */
  payout: money,
  legs: z.array(ZSportsBetLeg),
  /** The current cash-out offer of an open bet; null once settled. */
  cash_out: ZSportsCashOutOffer.nullable(),
  placed_at: z.string(),
  settled_at: z.string().nullable(),
});
export type TSportsBet = z.infer<typeof ZSportsBet>;

export const ZSportsBetResponse = z.object({
  bet: ZSportsBet,
  /** The player's playable balance after the call (cash + bonus). */
  balance: money,
});
export type TSportsBetResponse = z.infer<typeof ZSportsBetResponse>;

/** 'settled' = every bet no longer open; the others one status each. */
export const SPORTS_BET_FILTERS = ['open', 'settled', 'won', 'lost', 'void', 'cashed_out', 'all'] as const;
export type TSportsBetFilter = (typeof SPORTS_BET_FILTERS)[number];
export const ZSportsBetsQuery = ZLangQuery.extend({
  status: z.enum(SPORTS_BET_FILTERS, { error: M.wrongType }).default('all'),
  /** `next_cursor` of the previous page. */
  cursor: ZId.optional(),
});
export const ZSportsBetsResponse = z.object({
  list: z.array(ZSportsBet),
  next_cursor: z.string().nullable(),
});

/**
 * POST /api/sports/bets/:id/cash-out with header `Idempotency-Key`. `value` is the offer the player
 * saw; a different current offer refuses with CASH_OUT_CHANGED (data.value = the new offer). Other
 * refusals: CASH_OUT_UNAVAILABLE (bet settled or cashed out, a market suspended, an event over).
 */
export const ZSportsCashOutRequest = z.object({
  value: ZStake,
  /** Or the `Idempotency-Key` header (one of the two is required). */
  idempotency_key: z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, { error: 'validation.idempotency_key' })
    .optional(),
});

// ---------------------------------------------------------------------------------------------
// Live pushes on /ws (the realtime socket). Send `{ "type": "sports_watch" }` (guests too) to receive
// the site's sports messages; `{ "type": "sports_unwatch" }` stops them. A member's own bet changes
// arrive on their authenticated socket without watching, followed by a `balance` message.

export type TSportsServerMessage =
  /** A market's odds or status changed (operator, feed or settlement). */
  | { type: 'sports_market'; event_id: string; market: TSportsMarket }
  /** An event's status or score changed (live, finished, cancelled, result corrected). */
  | {
      type: 'sports_event';
      event_id: string;
      status: TSportsEventStatus;
      score: { home: number; away: number } | null;
    }
  /**
   * The member's bet was placed, settled, resettled or cashed out (member socket only). `bet` is the
   * whole bet when it fits a frame (under SPORTS_PUSH_MAX_CHARS), else null: fetch GET /api/sports/bets/:id.
   */
  | { type: 'sports_bet'; bet_id: string; status: TSportsBetStatus; payout: string; bet: TSportsBet | null };

/** Largest `sports_bet` push that carries the whole bet (clients drop frames above 4096 characters). */
export const SPORTS_PUSH_MAX_CHARS = 3800;

// ---------------------------------------------------------------------------------------------
// Operator calls

export const ZSportsAdminEventsQuery = ZSportsEventsQuery.extend({
  state: z.enum(SPORTS_EVENT_STATES, { error: M.wrongType }).default('all'),
});

/**
 * POST /api/admin/sports/markets/:id/odds. Either `selections` (set odds by hand; the market keeps
 * them until repriced) or `margin` (reprice every selection from the market's true probabilities
 * with this margin, e.g. "0.05"), or `probabilities` with a margin (new true probabilities, per
 * selection id, as decimals summing to 1).
 */
export const ZSportsAdminOddsRequest = z
  .object({
    selections: z
      .array(z.object({ selection_id: ZId, odds: ZOddsInput }))
      .min(1)
      .max(3)
      .optional(),
    margin: z
      .string()
      .regex(/^0(\.\d{1,4})?$/, { error: 'validation.invalid' })
      .optional(),
    probabilities: z
      .array(z.object({ selection_id: ZId, probability: z.string().regex(/^0?\.\d{1,6}$|^1(\.0+)?$|^0$/) }))
      .min(2)
      .max(3)
      .optional(),
  })
  .refine(
    (body) => body.selections !== undefined || body.margin !== undefined || body.probabilities !== undefined,
    {
      error: 'validation.invalid',
    },
  );
export type TSportsAdminOddsRequest = z.input<typeof ZSportsAdminOddsRequest>;

/** POST /api/admin/sports/events/:id/result: the final score (a second call corrects it: resettlement). */
export const ZSportsAdminResultRequest = z.object({
  home_goals: z.number({ error: M.wrongType }).int().min(0).max(99),
  away_goals: z.number({ error: M.wrongType }).int().min(0).max(99),
});
export const ZSportsAdminLiveRequest = ZSportsAdminResultRequest;

export const ZSportsAdminSettleResponse = z.object({
  event: ZSportsEvent,
  /** Bets settled (or resettled) by this call. */
  bets_settled: z.number().int(),
});

/**
 * GET/PUT /api/admin/sports/settings: the site's in-play risk controls. A bet with a live leg is
 * accepted only after `in_play_delay_ms`, at the prices and market states of that moment; a goal in
 * a live match suspends its markets for `score_suspension_seconds` or until each is repriced.
 */
export const ZSportsSettings = z.object({
  in_play_delay_ms: z.number({ error: M.wrongType }).int().min(0).max(30_000),
  score_suspension_seconds: z.number({ error: M.wrongType }).int().min(0).max(600),
});
export type TSportsSettings = z.infer<typeof ZSportsSettings>;

/**
 * A corrected result takes the previous payout back from the player's cash; what the player had
 * already spent stays owed on the bet and is collected from the cash as it comes in (a job every few
 * minutes, or an operator's collect now).
 */
export const ZSportsUnrecoveredResponse = z.object({
  list: z.array(
    z.object({
      bet_id: z.string(),
      member_id: z.string(),
      username: z.string(),
      owed: z.string(),
      settled_at: z.string().nullable(),
    }),
  ),
});
export const ZSportsCollectResponse = z.object({
  list: z.array(
    z.object({ bet_id: z.string(), member_id: z.string(), collected: z.string(), still_owed: z.string() }),
  ),
});
export type TSportsUnrecoveredResponse = z.infer<typeof ZSportsUnrecoveredResponse>;
export type TSportsCollectResponse = z.infer<typeof ZSportsCollectResponse>;
