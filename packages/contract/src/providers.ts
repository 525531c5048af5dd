import { z } from 'zod';

/**
 * Third-party games: the seamless-wallet contract between a game aggregator and Sorte
 * (architecture.md §6). The aggregator owns the game and its RNG; Sorte owns the money. Every
 * money step of a round is one signed server-to-server call the aggregator makes to us:
 *
 *   POST /api/providers/<aggregator>/wallet/balance | bet | win | rollback
 *   header x-aggregator-signature: <hex HMAC-SHA256(secret, raw body)>
 *
 * A call answers HTTP 200 with `{ status: 'RS_OK', balance: '12.34', currency: 'BRL', ... }` or
 * `{ status: 'RS_ERROR_…' }`. `transaction_uuid` is the idempotency key: a retry with the same body
 * gets the same answer and moves nothing twice; the same id with a different body is
 * RS_ERROR_DUPLICATE_TRANSACTION. A rollback naming a transaction we never saw answers RS_OK and
 * leaves a tombstone, so the bet arriving late is refused (RS_ERROR_TRANSACTION_ROLLED_BACK).
 * Amounts are decimal strings with two places ("1.00"); Sorte keeps integer centavos.
 */

export const AGGREGATOR_SIGNATURE_HEADER = 'x-aggregator-signature';

export const PROVIDER_STATUSES = [
  'RS_OK',
  /** The signature header is missing or does not match the raw body. */
  'RS_ERROR_INVALID_SIGNATURE',
  /** The player token is unknown, or belongs to another game. */
  'RS_ERROR_INVALID_TOKEN',
  /** The player token expired (balance and bet only; wins and rollbacks of open rounds still land). */
  'RS_ERROR_TOKEN_EXPIRED',
  'RS_ERROR_NOT_ENOUGH_MONEY',
  /** This transaction id was used before with a different body. */
  'RS_ERROR_DUPLICATE_TRANSACTION',
  /** A win names a round (or bet) we do not know for this player. */
  'RS_ERROR_TRANSACTION_DOES_NOT_EXIST',
  /** A bet whose id was rolled back first, or a win for a round whose bets were rolled back. */
  'RS_ERROR_TRANSACTION_ROLLED_BACK',
  /** A bet into a round that is already settled, or a rollback of a bet whose round paid out. */
  'RS_ERROR_ROUND_CLOSED',
  'RS_ERROR_WRONG_CURRENCY',
  /** The player may not bet now: a pause, a self-exclusion, new terms still to accept. */
  'RS_ERROR_USER_DISABLED',
  /**
   * A responsible-gaming limit the player set (loss, stake) leaves no room for this stake in its
   * period (sent with the balance, like NOT_ENOUGH_MONEY). Nothing was debited; the player sees
   * that a limit was reached, and a smaller bet may pass while some room is left.
   */
  'RS_ERROR_LIMIT_REACHED',
  /**
   * The stake is above what the player may bet now: the max bet of a bonus still wagering (sent with
   * the balance, like NOT_ENOUGH_MONEY). Nothing was debited; a smaller bet may pass.
   */
  'RS_ERROR_BET_LIMIT_EXCEEDED',
  /** The body is not valid JSON of the call's shape (types, lengths, amounts). */
  'RS_ERROR_WRONG_TYPES',
  'RS_ERROR_UNKNOWN',
] as const;
export type TProviderStatus = (typeof PROVIDER_STATUSES)[number];

/** Ids the aggregator chooses: bounded, printable, safe inside our idempotency keys. */
const ZRef = z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/);
/** A positive amount ("0.01" … "99999999999.99") or zero for a win that pays nothing. */
const ZAmount = z.string().regex(/^(0|[1-9]\d{0,10})\.\d{2}$/);
const ZToken = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/);
const ZGameCode = z.string().regex(/^[a-z0-9-]{2,64}$/);

const base = {
  token: ZToken,
  /** Unique per HTTP attempt; informational (logs), not part of the idempotent request. */
  request_uuid: ZRef,
  game_code: ZGameCode,
};

export const ZWalletBalanceRequest = z.strictObject({ ...base, currency: z.string().max(8).optional() });
export type TWalletBalanceRequest = z.infer<typeof ZWalletBalanceRequest>;

export const ZWalletBetRequest = z.strictObject({
  ...base,
  transaction_uuid: ZRef,
  round: ZRef,
  amount: ZAmount,
  currency: z.string().max(8),
  /** True when no win will follow (the round ends with this bet). */
  round_closed: z.boolean().optional(),
});
export type TWalletBetRequest = z.infer<typeof ZWalletBetRequest>;

export const ZWalletWinRequest = z.strictObject({
  ...base,
  transaction_uuid: ZRef,
  /** The bet this win pays for. */
  reference_transaction_uuid: ZRef,
  round: ZRef,
  amount: ZAmount,
  currency: z.string().max(8),
  /** False when more bets/wins of this round follow (default true: the round ends). */
  round_closed: z.boolean().optional(),
});
export type TWalletWinRequest = z.infer<typeof ZWalletWinRequest>;

export const ZWalletRollbackRequest = z.strictObject({
  ...base,
  transaction_uuid: ZRef,
  /** The bet to undo (it may never have reached us). */
  reference_transaction_uuid: ZRef,
  round: ZRef,
});
export type TWalletRollbackRequest = z.infer<typeof ZWalletRollbackRequest>;

export const WALLET_CALLS = ['balance', 'bet', 'win', 'rollback'] as const;
export type TWalletCall = (typeof WALLET_CALLS)[number];

export const ZWalletResponse = z.object({
  status: z.enum(PROVIDER_STATUSES),
  /** Present with RS_OK (and with NOT_ENOUGH_MONEY): the player's balance after the call. */
  balance: z.string().optional(),
  currency: z.string().optional(),
  /** The player's id at the operator, stable per player (never the token). */
  user: z.string().optional(),
  transaction_uuid: z.string().optional(),
  reference_transaction_uuid: z.string().optional(),
});
export type TWalletResponse = z.infer<typeof ZWalletResponse>;

// ---------------------------------------------------------------------------------------------
// Launch (operator → aggregator), signed the same way with the same secret.

export const AGGREGATOR_LANGUAGES = ['en', 'pt', 'cn', 'ch', 'vi', 'id', 'th', 'msa'] as const;

export const ZAggregatorLaunchRequest = z.strictObject({
  mode: z.enum(['real', 'demo']),
  /** Real mode: the player token the aggregator sends back in every wallet call. */
  token: ZToken.optional(),
  /** The player's id at the operator (real mode), shown nowhere but in the aggregator's logs. */
  user: z.string().max(32).optional(),
  game_code: ZGameCode,
  game_name: z.string().min(1).max(64),
  brand: z.string().min(1).max(64),
  category: z.string().min(1).max(32),
  currency: z.literal('BRL'),
  lang: z.enum(AGGREGATOR_LANGUAGES),
  min_bet: ZAmount,
  max_bet: ZAmount,
  /** The player's balance at launch (display only until the first wallet call). */
  balance: ZAmount.optional(),
});
export type TAggregatorLaunchRequest = z.infer<typeof ZAggregatorLaunchRequest>;

export const ZAggregatorLaunchResponse = z.object({ game_url: z.url() });
export type TAggregatorLaunchResponse = z.infer<typeof ZAggregatorLaunchResponse>;

/** What a game page posts to its parent window (the operator's /play page) after each round. */
export const ZGameFrameMessage = z.object({
  type: z.literal('sorte:game'),
  event: z.enum(['ready', 'balance', 'round']),
  balance: z.string().optional(),
  mode: z.enum(['real', 'demo']).optional(),
});
export type TGameFrameMessage = z.infer<typeof ZGameFrameMessage>;

// ---------------------------------------------------------------------------------------------
// Player API: the /play?game=<code> screen asks for the provider's game page (POST /api/providers/launch).

export const ZProviderLaunchRequest = z.strictObject({
  /** The game's code, e.g. "aurora-golden-macaw". */
  game: ZGameCode,
  /** Fun money even when logged in; guests always play for fun. */
  demo: z.boolean().optional(),
});
export type TProviderLaunchRequest = z.infer<typeof ZProviderLaunchRequest>;

export const ZProviderLaunchResponse = z.object({
  /** The aggregator's game page, framed by the /play screen. */
  game_url: z.string(),
  mode: z.enum(['real', 'demo']),
  /** Real money ("0.00"); in demo mode the game page shows its own fun money. */
  balance: z.string().nullable(),
  game: z.object({ code: z.string(), name: z.string(), provider_name: z.string(), category: z.string() }),
});
export type TProviderLaunchResponse = z.infer<typeof ZProviderLaunchResponse>;
