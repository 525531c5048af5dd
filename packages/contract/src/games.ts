import { z } from 'zod';
import { parseMinor } from './money.ts';
import { ZRecordPeriod } from './records.ts';
import { M } from './validation.ts';

/**
 * Games: the catalogue (providers, games, favourites, recently played), launching a game, the game
 * record, the provably-fair seeds, and bets on the in-house ("originals") games. Money is always a
 * "0.00" string on the wire; a multiplier is a display string with up to 4 decimals ("1.98").
 */

/** The spec's categories (§1), as stable codes. */
export const GAME_CATEGORIES = [
  'slots',
  'live_casino',
  'arcade',
  'crash',
  'fish',
  'bingo',
  'card',
  'lottery',
  'sports',
  'video_game',
] as const;
export type TGameCategory = (typeof GAME_CATEGORIES)[number];

/**
 * Maps keyed by game category (wagering weights, rebate rates) take these keys only, so a key the
 * catalogue does not use ('live' for 'live_casino') cannot compile, and the back office refuses it.
 * `default` is the weight of every category a weights map leaves out.
 */
export type TCategoryRates = Partial<Record<TGameCategory, number>>;
export type TCategoryWeights = Partial<Record<TGameCategory | 'default', number>>;
export const CATEGORY_WEIGHT_KEYS = [...GAME_CATEGORIES, 'default'] as const;

/** The message of a category map with a key outside the contract's list. */
export const CATEGORY_KEY_MESSAGE = 'validation.category_unknown';

export function isGameCategory(value: unknown): value is TGameCategory {
  return typeof value === 'string' && (GAME_CATEGORIES as readonly string[]).includes(value);
}

export const GAME_TAGS = ['new', 'popular', 'hot'] as const;
export type TGameTag = (typeof GAME_TAGS)[number];

/** In-house games whose every bet is settled by the server in one request (no live rounds). */
export const INSTANT_ORIGINALS = ['dice', 'limbo', 'plinko', 'keno', 'roulette', 'slot', 'bingo'] as const;
/** In-house games played in steps (start, pick/call, cash out), settled exactly once. */
export const STEPPED_ORIGINALS = ['mines', 'hilo'] as const;
export type TInstantOriginal = (typeof INSTANT_ORIGINALS)[number];
export type TSteppedOriginal = (typeof STEPPED_ORIGINALS)[number];
export type TOriginal = TInstantOriginal | TSteppedOriginal;

/** Largest page of any games list. */
export const GAMES_PAGE_SIZE_MAX = 100;
export const GAME_RECORD_PAGE_SIZE_MAX = 50;
/** Idempotency keys are chosen by the client (a UUID is ideal). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,64}$/;

const ZLang = z.string().max(10).optional();
const ZSearch = z.string().trim().max(64, { error: M.tooLong });
/** A database id as text; at most 18 digits so it always fits a PostgreSQL bigint. */
const ZId = z.string().regex(/^[1-9]\d{0,17}$/, { error: 'validation.invalid' });
const ZIdNumber = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const ZPage = z.coerce.number({ error: M.wrongType }).int({ error: M.wrongType }).min(1).max(10_000);

/** A "0.00" money amount above zero (at most two decimals, no sign). */
export const ZStake = z
  .string({ error: (issue) => (issue.input === undefined ? 'validation.required.amount' : M.wrongType) })
  .trim()
  .min(1, { error: 'validation.required.amount' })
  .max(16, { error: M.tooLong })
  .refine((text) => (parseMinor(text) ?? 0n) > 0n, { error: 'validation.amount_invalid' });

// ---------------------------------------------------------------------------------------------
// Catalogue

export const ZProvider = z.object({
  code: z.string(),
  name: z.string(),
  /** Also accepted as `platType` by the list calls. */
  logo: z.string(),
  is_inhouse: z.boolean(),
  game_count: z.number().int(),
});
export type TProvider = z.infer<typeof ZProvider>;

export const ZGame = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  provider: z.string(),
  provider_name: z.string(),
  category: z.enum(GAME_CATEGORIES),
  tags: z.array(z.enum(GAME_TAGS)),
  /** Theoretical return to player in percent, e.g. "99.00"; a range for games with options. */
  rtp: z.string(),
  rtp_max: z.string(),
  min_bet: z.string(),
  max_bet: z.string(),
  max_win: z.string(),
  thumbnail: z.string(),
  is_inhouse: z.boolean(),
  /** Guests may open it with fun money (in-house games). */
  has_demo: z.boolean(),
});
export type TGame = z.infer<typeof ZGame>;

export const ZProvidersQuery = z.object({
  lang: ZLang,
  category: z.enum(GAME_CATEGORIES, { error: 'validation.invalid' }).optional(),
});
export const ZProvidersResponse = z.object({ list: z.array(ZProvider) });

/** GET /api/games/listsv2 */
export const ZGamesListQuery = z.object({
  lang: ZLang,
  category: z.enum(GAME_CATEGORIES, { error: 'validation.invalid' }).optional(),
  /** Provider code; `platType` is the spec's name for it. */
  provider: z.string().max(32).optional(),
  platType: z.string().max(32).optional(),
  /** Search by game name (case-insensitive, any part of the name). */
  name: ZSearch.optional(),
  tag: z.enum(GAME_TAGS, { error: 'validation.invalid' }).optional(),
  page: ZPage.default(1),
  page_size: z.coerce.number({ error: M.wrongType }).int().min(1).max(GAMES_PAGE_SIZE_MAX).default(30),
});
export type TGamesListQuery = z.infer<typeof ZGamesListQuery>;

export const ZGamesPage = z.object({
  list: z.array(ZGame),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  last_page: z.number().int(),
});
export type TGamesPage = z.infer<typeof ZGamesPage>;

/** GET /api/games/promotion?name and /api/games/popular?name: `name` narrows to one category. */
export const ZGameSectionQuery = z.object({
  lang: ZLang,
  name: z.union([z.enum(GAME_CATEGORIES), z.literal('all'), z.literal('')]).optional(),
  limit: z.coerce.number({ error: M.wrongType }).int().min(1).max(GAMES_PAGE_SIZE_MAX).default(20),
});
export const ZGameList = z.object({ list: z.array(ZGame) });
export type TGameList = z.infer<typeof ZGameList>;

/** POST /api/games/follow?member_id&name: the caller's favourites (`name` narrows to a category). */
export const ZFollowListQuery = z.object({
  lang: ZLang,
  member_id: ZId.optional(),
  name: z.union([z.enum(GAME_CATEGORIES), z.literal('all'), z.literal('')]).optional(),
});

/**
 * POST /api/games/follow/set and /follow/delete. The game is named by `game_id`, or by `name` (its
 * code or its exact name), with `platType` (provider code) to tell equal names apart.
 */
export const ZFollowRequest = z
  .object({
    member_id: z.union([ZId, ZIdNumber]).optional(),
    game_id: z.union([ZId, ZIdNumber]).optional(),
    name: ZSearch.optional(),
    platType: z.string().max(32).optional(),
  })
  .refine((body) => body.game_id !== undefined || (body.name !== undefined && body.name !== ''), {
    path: ['name'],
    error: 'validation.required.name',
  });
export type TFollowRequest = z.infer<typeof ZFollowRequest>;
export const ZFollowResponse = z.object({ game_id: z.string(), is_favorite: z.boolean() });

// ---------------------------------------------------------------------------------------------
// Launch

/** POST /api/day7/day7LoginV2 */
export const ZLaunchRequest = z
  .object({
    game_id: z.union([ZId, ZIdNumber]).optional(),
    /** Game code (e.g. "dice") or exact name. */
    name: ZSearch.optional(),
    platType: z.string().max(32).optional(),
    /** Ask for fun money even when logged in. Guests always get demo mode. */
    demo: z.boolean().optional(),
    /** A guest's existing demo session, to keep its fun-money balance. */
    demo_token: z.string().max(128).optional(),
  })
  .nullish()
  .transform((body) => body ?? {})
  .refine((body) => body.game_id !== undefined || (body.name !== undefined && body.name !== ''), {
    path: ['name'],
    error: 'validation.required.name',
  });

export const ZLaunchResponse = z.object({
  /** Where the web app sends the player (the relay /gameInfo reads this same answer). */
  url: z.string(),
  mode: z.enum(['real', 'demo']),
  game: ZGame,
  /** Real money ("0.00") or the demo session's fun money. */
  balance: z.string(),
  /** Demo mode: send it as the `X-Demo-Token` header on every originals call. */
  demo_token: z.string().nullable(),
});
export type TLaunchResponse = z.infer<typeof ZLaunchResponse>;

// ---------------------------------------------------------------------------------------------
// Rounds, game record

export const ZRoundFairness = z.object({
  server_seed_hash: z.string(),
  /** Revealed once the seed pair has been rotated; null before. */
  server_seed: z.string().nullable(),
  client_seed: z.string(),
  nonce: z.number().int(),
});

export const ZRound = z.object({
  id: z.string(),
  game: z.string(),
  game_name: z.string(),
  status: z.enum(['active', 'settled']),
  demo: z.boolean(),
  stake: z.string(),
  payout: z.string(),
  /** payout − stake, e.g. "-1.00" or "0.98". */
  win_loss: z.string(),
  multiplier: z.string(),
  /** The bet as placed (game parameters), as replayBet's input expects them. */
  params: z.record(z.string(), z.unknown()),
  /**
   * What happened. For an active stepped round only what the player has already seen (cards
   * drawn, tiles opened, the multiplier if cashed out now) — never the mines or the next card.
   */
  outcome: z.record(z.string(), z.unknown()),
  /** The seeds to verify an in-house round; null for a third-party round (the provider's own RNG). */
  fairness: ZRoundFairness.nullable(),
  created_at: z.string(),
  settled_at: z.string().nullable(),
});
export type TRound = z.infer<typeof ZRound>;

/** POST /api/game/record */
export const ZGameRecordRequest = z
  .object({
    /** Which days (records.ts: the one period vocabulary of the record calls). */
    period: ZRecordPeriod,
    /** Only one game (code). */
    game: z.string().max(32).optional(),
    /** Next page: rounds older than this id. Previous page: `after_id` (newer). */
    before_id: ZId.optional(),
    after_id: ZId.optional(),
    page_size: z.coerce
      .number({ error: M.wrongType })
      .int()
      .min(1)
      .max(GAME_RECORD_PAGE_SIZE_MAX)
      .default(20),
  })
  .nullish()
  .transform((body) => body ?? { period: 'all' as const, page_size: 20 });

export const ZGameRecordItem = z.object({
  id: z.string(),
  /** Provider (brand) name. */
  brand: z.string(),
  name: z.string(),
  game: z.string(),
  bet_time: z.string(),
  bet_amount: z.string(),
  payout: z.string(),
  win_loss: z.string(),
  multiplier: z.string(),
  status: z.enum(['active', 'settled']),
});
export const ZGameRecordResponse = z.object({
  list: z.array(ZGameRecordItem),
  /** Pass as before_id for the next (older) page; null when there is none. */
  next_before_id: z.string().nullable(),
  /** Pass as after_id for the previous (newer) page; null when there is none. */
  prev_after_id: z.string().nullable(),
  totals: z.object({ bet_amount: z.string(), win_loss: z.string(), count: z.number().int() }),
});
export type TGameRecordResponse = z.infer<typeof ZGameRecordResponse>;

/** POST /api/game/record/details */
export const ZRoundDetailsRequest = z.object({ id: ZId });

// ---------------------------------------------------------------------------------------------
// Fairness

export const ZSeedPairView = z.object({
  server_seed_hash: z.string(),
  /**
   * SHA-256 of the server seed the NEXT pair will use, committed before you choose its client seed:
   * setting the client seed or rotating makes exactly that seed active.
   */
  next_server_seed_hash: z.string(),
  client_seed: z.string(),
  /** Nonce of the next bet. */
  nonce: z.number().int(),
});
export const ZRevealedSeedPair = z.object({
  server_seed: z.string(),
  server_seed_hash: z.string(),
  /** The next-seed hash this pair showed: the following pair's server_seed_hash (null on older pairs). */
  next_server_seed_hash: z.string().nullable(),
  client_seed: z.string(),
  /** Bets made under the pair (nonces 0 … bets − 1). */
  bets: z.number().int(),
  created_at: z.string(),
  revealed_at: z.string(),
});
export const ZClientSeedRequest = z.object({
  client_seed: z
    .string({ error: 'validation.required.client_seed' })
    .min(1, { error: 'validation.required.client_seed' })
    .max(64, { error: M.tooLong })
    .regex(/^[\x20-\x7e]+$/, { error: 'validation.client_seed_format' }),
});
export const ZRotateRequest = z
  .object({ client_seed: ZClientSeedRequest.shape.client_seed.optional() })
  .nullish()
  .transform((body) => body ?? {});
export const ZRotateResponse = z.object({ revealed: ZRevealedSeedPair, current: ZSeedPairView });
export const ZSeedHistoryQuery = z.object({
  lang: ZLang,
  page: ZPage.default(1),
  page_size: z.coerce.number({ error: M.wrongType }).int().min(1).max(50).default(20),
});
export const ZSeedHistoryResponse = z.object({ list: z.array(ZRevealedSeedPair), total: z.number().int() });

// ---------------------------------------------------------------------------------------------
// Originals bets

const idempotency = {
  /** Same key → the bet is placed once; a retry answers the first result. Or the Idempotency-Key header. */
  idempotency_key: z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, { error: 'validation.idempotency_key' })
    .optional(),
};
const int = (min: number, max: number) =>
  z
    .number({ error: M.wrongType })
    .int({ error: 'validation.invalid' })
    .min(min, { error: 'validation.invalid' })
    .max(max, { error: 'validation.invalid' });

/** Target in hundredths of a roll: 5000 = 50.00. "under" wins below it, "over" above it. */
export const ZDiceBet = z.object({
  amount: ZStake,
  direction: z.enum(['under', 'over'], { error: 'validation.invalid' }),
  target: int(1, 9998),
  ...idempotency,
});
/** Target multiplier as "2.00" (1.01 – 1000000.00). */
export const ZLimboBet = z.object({
  amount: ZStake,
  target: z.string().regex(/^\d{1,7}(\.\d{1,2})?$/, { error: 'validation.invalid' }),
  ...idempotency,
});
export const ZPlinkoBet = z.object({
  amount: ZStake,
  rows: int(8, 16),
  risk: z.enum(['low', 'medium', 'high'], { error: 'validation.invalid' }),
  ...idempotency,
});
export const ZKenoBet = z.object({
  amount: ZStake,
  picks: z.array(int(1, 40)).min(1, { error: 'validation.invalid' }).max(10, { error: 'validation.invalid' }),
  ...idempotency,
});
export const ROULETTE_BET_TYPES = [
  'straight',
  'split',
  'street',
  'corner',
  'line',
  'trio',
  'first_four',
  'dozen',
  'column',
  'red',
  'black',
  'odd',
  'even',
  'low',
  'high',
] as const;
/** Every chip on the table has its own amount; the round's stake is their sum. */
export const ZRouletteBet = z.object({
  bets: z
    .array(
      z.object({
        type: z.enum(ROULETTE_BET_TYPES, { error: 'validation.invalid' }),
        numbers: z.array(int(0, 36)).max(2, { error: 'validation.invalid' }).default([]),
        amount: ZStake,
      }),
    )
    .min(1, { error: 'validation.invalid' })
    .max(50, { error: 'validation.invalid' }),
  ...idempotency,
});
export const ZSlotBet = z.object({ amount: ZStake, ...idempotency });
export const ZBingoBet = z.object({ amount: ZStake, ...idempotency });
export const ZMinesStart = z.object({ amount: ZStake, mines: int(1, 24), ...idempotency });
export const ZHiloStart = z.object({ amount: ZStake, ...idempotency });
export const ZMinesPick = z.object({ round_id: ZId, tile: int(0, 24) });
export const ZHiloCall = z.object({ round_id: ZId, call: z.enum(['higher', 'lower', 'skip']) });
export const ZRoundAction = z.object({ round_id: ZId });

export const ZBetResponse = z.object({
  round: ZRound,
  /** The balance after the bet: real cash, or fun money in demo mode. */
  balance: z.string(),
});
export type TBetResponse = z.infer<typeof ZBetResponse>;

export const ZActiveRoundResponse = z.object({ round: ZRound.nullable(), balance: z.string() });

/** POST /api/originals/demo/session: a fresh fun-money session for a guest. */
export const ZDemoSessionResponse = z.object({ demo_token: z.string(), balance: z.string() });

/** Rules screen of an in-house game (shown before the first bet). */
export const ZOriginalRules = z.object({
  game: z.string(),
  rtp: z.string(),
  rtp_max: z.string(),
  min_bet: z.string(),
  max_bet: z.string(),
  max_win: z.string(),
  /** Game-specific paytables (plinko/keno/slot/bingo), multipliers as display strings. */
  paytable: z.unknown(),
});
export const ZOriginalsRulesResponse = z.object({ list: z.array(ZOriginalRules) });
