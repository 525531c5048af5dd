import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN, ZClientSeedRequest, ZStake } from './games.ts';
import { ZLangQuery } from './site.ts';

/**
 * Crash (multiplayer rounds): HTTP bodies and answers, and the WebSocket messages of `/ws/crash`.
 * Multipliers are decimal strings with two places ("2.37"); money is "0.00" strings.
 * The crash point and the round hash appear only once a round has crashed.
 */

export const CRASH_PHASES = ['betting', 'running', 'crashed'] as const;
export type TCrashPhase = (typeof CRASH_PHASES)[number];

const ZMultiplierText = z.string().regex(/^\d{1,7}(\.\d{1,2})?$/, { error: 'validation.invalid' });

export const ZCrashBetRequest = z.object({
  amount: ZStake,
  /** Cash out automatically when the multiplier reaches this ("2.00"; 1.01 – 1000000.00). */
  auto_cashout: ZMultiplierText.optional(),
  idempotency_key: z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, { error: 'validation.idempotency_key' })
    .optional(),
  /**
   * The seed this bet brings to a new chain's salt ceremony (1–64 printable characters); default:
   * your provably-fair client seed. Only the first bets of a chain's first round are used.
   */
  client_seed: ZClientSeedRequest.shape.client_seed.optional(),
});
export type TCrashBetRequest = z.infer<typeof ZCrashBetRequest>;

export const ZCrashCashoutRequest = z.object({
  round_id: z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }),
});

export const ZCrashHistoryQuery = ZLangQuery.extend({
  limit: z.coerce.number({ error: 'validation.invalid' }).int().min(1).max(100).default(20),
});

export const ZCrashBet = z.object({
  id: z.string(),
  round_id: z.string(),
  amount: z.string(),
  auto_cashout: z.string().nullable(),
  status: z.enum(['placed', 'cashed', 'lost']),
  cashout_multiplier: z.string().nullable(),
  payout: z.string(),
  /** The client seed the bet recorded for the salt ceremony (null on bets from before it). */
  client_seed: z.string().nullable(),
});
export type TCrashBet = z.infer<typeof ZCrashBet>;

export const ZCrashState = z.object({
  round_id: z.string(),
  phase: z.enum(CRASH_PHASES),
  /** The current multiplier ("1.00" while betting; the crash point once crashed). */
  multiplier: z.string(),
  /** SHA-256 of this round's hash (= the previous round's hash): the commitment shown in advance. */
  hash_commitment: z.string(),
  /** The published end of the round's hash chain and its public salt (for verifyCrashRound). */
  terminating_hash: z.string(),
  /**
   * Null while the chain's salt is not fixed yet: on a new chain the first round's bets fix it when
   * its betting closes, and that round takes bets until it has at least one (ADR 008).
   */
  public_salt: z.string().nullable(),
  /** Milliseconds left for bets (0 unless betting). */
  betting_ms_left: z.number().int(),
  bets: z.object({ count: z.number().int(), total: z.string() }),
  /** Present only once the round has crashed. */
  crash_point: z.string().nullable(),
  round_hash: z.string().nullable(),
  /** The caller's bet in this round (members only). */
  my_bet: ZCrashBet.nullable(),
});
export type TCrashState = z.infer<typeof ZCrashState>;

export const ZCrashBetResponse = z.object({ bet: ZCrashBet, balance: z.string() });

export const ZCrashHistoryRound = z.object({
  round_id: z.string(),
  chain_position: z.number().int(),
  crash_point: z.string(),
  round_hash: z.string(),
  hash_commitment: z.string(),
  terminating_hash: z.string(),
  public_salt: z.string(),
  chain_length: z.number().int(),
  crashed_at: z.string(),
});
export const ZCrashHistoryResponse = z.object({ list: z.array(ZCrashHistoryRound) });

export const ZCrashChainsQuery = ZLangQuery.extend({
  limit: z.coerce.number({ error: 'validation.invalid' }).int().min(1).max(50).default(10),
});

/**
 * A published hash chain (GET /api/crash/chains, the same for every site). The terminating hash is
 * published when the chain is created (committed_at); the salt is fixed later, when the chain's
 * first round stops taking bets: salt = SHA-256(terminating_hash + ":" + seed₁ + ":" + … + ":" + seedₖ)
 * over `salt_inputs` in order (verifyCrashSalt). `salt_source: "server"` marks a chain from before
 * the ceremony, whose salt the server drew with the chain.
 */
export const ZCrashChain = z.object({
  id: z.string(),
  terminating_hash: z.string(),
  committed_at: z.string(),
  length: z.number().int(),
  /** Rounds opened on the chain so far (the one in play included). */
  rounds_played: z.number().int(),
  salt: z.string().nullable(),
  salt_fixed_at: z.string().nullable(),
  salt_source: z.enum(['bets', 'server']),
  /** The bets whose client seeds made the salt, in the order hashed (empty until it is fixed). */
  salt_inputs: z.array(z.object({ bet_id: z.string(), client_seed: z.string() })),
});
export type TCrashChain = z.infer<typeof ZCrashChain>;
export const ZCrashChainsResponse = z.object({
  /** At most this many client seeds make a salt (the first bets of the chain's first round). */
  salt_seeds_max: z.number().int(),
  list: z.array(ZCrashChain),
});
export type TCrashChainsResponse = z.infer<typeof ZCrashChainsResponse>;

/** Client → server messages of `/ws/crash` (JSON text frames). */
export const ZCrashClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(512) }),
  /** A guest plays with the fun money of its demo session (the X-Demo-Token of the HTTP calls). */
  z.object({ type: z.literal('demo'), demo_token: z.string().min(1).max(128) }),
  z.object({ type: z.literal('ping') }),
  z.object({
    type: z.literal('bet'),
    amount: ZCrashBetRequest.shape.amount,
    auto_cashout: ZCrashBetRequest.shape.auto_cashout,
    idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN, { error: 'validation.idempotency_key' }),
    client_seed: ZCrashBetRequest.shape.client_seed,
  }),
  z.object({ type: z.literal('cashout'), round_id: ZCrashCashoutRequest.shape.round_id }),
]);
export type TCrashClientMessage = z.infer<typeof ZCrashClientMessage>;

/** Server → client messages of `/ws/crash`. */
export type TCrashServerMessage =
  | ({ type: 'state' } & TCrashState)
  | { type: 'tick'; round_id: string; multiplier: string; at: number }
  | { type: 'crashed'; round_id: string; crash_point: string; round_hash: string }
  | { type: 'bet_accepted'; bet: TCrashBet; balance: string }
  | { type: 'bet_refused'; code: string; message: string }
  | { type: 'cashed_out'; round_id: string; bet_id: string; multiplier: string; payout: string }
  | { type: 'cashout_refused'; code: string; message: string }
  /** After auth (member: true) or a demo session (member: false, demo: true). */
  | { type: 'ready'; member: boolean; demo?: boolean }
  | { type: 'pong' }
  | { type: 'error'; code: string; message: string };
