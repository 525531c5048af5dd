import { z } from 'zod';
import { ZLangQuery } from './site.ts';
import { M } from './validation.ts';

/**
 * Records and the order center (spec §2 transaction record, §3 "Order center", §7 ordercenter and
 * day7 calls). Money is a decimal string with two places ("0.00"), signed where it says so.
 *
 * Date filters are calendar days in the site's time zone (America/Sao_Paulo on `br` sites, UTC
 * elsewhere; `time_zone` in each answer says which): `today` is from midnight today, `last_3_days`
 * from midnight two days ago (today and the two days before), `last_7_days` from midnight six days
 * ago, and `all` (the "reset" button) has no bound.
 */

const money = z.string().describe('decimal string, 2 places, BRL');
const signedMoney = z.string().describe('decimal string, 2 places, "-" when money left the balance');

/**
 * The one period vocabulary of every record call (transactions, game record, recharge and
 * withdrawal records, order center): the web's period chips send these words.
 */
export const RECORD_PERIODS = ['today', 'last_3_days', 'last_7_days', 'all'] as const;
export type TRecordPeriod = (typeof RECORD_PERIODS)[number];

/** Largest page of the transaction record. */
export const RECORD_PAGE_SIZE_MAX = 50;
export const RECORD_PAGE_SIZE_DEFAULT = 20;
/** Longest opaque cursor we read (ours are far shorter). */
export const RECORD_CURSOR_MAX = 200;

/** A record call's `period` (absent: `all`). */
export const ZRecordPeriod = z.enum(RECORD_PERIODS, { error: M.wrongType }).default('all');

/** POST /api/transaction/record: one page of the caller's wallet movements, newest first. */
export const ZTransactionRecordRequest = z
  .object({
    period: ZRecordPeriod,
    /**
     * `next_cursor` or `prev_cursor` of an earlier answer (absent: the newest page). Pages are keyset
     * pages on (created_at, id): movements arriving meanwhile never shift or repeat rows.
     */
    cursor: z
      .string({ error: M.wrongType })
      .max(RECORD_CURSOR_MAX, { error: 'validation.cursor_invalid' })
      .regex(/^[A-Za-z0-9_-]*$/, { error: 'validation.cursor_invalid' })
      .optional(),
    page_size: z
      .number({ error: M.wrongType })
      .int({ error: M.wrongType })
      .min(1, { error: M.wrongType })
      .max(RECORD_PAGE_SIZE_MAX, { error: M.wrongType })
      .default(RECORD_PAGE_SIZE_DEFAULT),
  })
  .nullish()
  .transform((body) => ({
    period: body?.period ?? 'all',
    cursor: body?.cursor || undefined,
    page_size: body?.page_size ?? RECORD_PAGE_SIZE_DEFAULT,
  }));
export type TTransactionRecordRequest = z.input<typeof ZTransactionRecordRequest>;

/** What a movement was (the wallet's transfer kinds); the web translates each as a label. */
export const TRANSACTION_KINDS = [
  'deposit',
  'withdrawal_hold',
  'withdrawal_release',
  'withdrawal_payout',
  'withdrawal_fee',
  'bet',
  'win',
  'refund',
  'bonus_grant',
  'bonus_convert',
  'bonus_forfeit',
  'rebate',
  'commission',
  'correction',
  'chat_rain',
  /** Sports: a payout taken back when a corrected result resettles the bet (the new outcome pays anew). */
  'win_reversal',
] as const;
export type TTransactionKind = (typeof TRANSACTION_KINDS)[number];

export const ZTransactionRow = z.object({
  id: z.number().int(),
  created_at: z.string().describe('ISO 8601'),
  kind: z.enum(TRANSACTION_KINDS),
  amount: money.describe('size of the movement'),
  /**
   * What it did to the member's playable balance (cash + bonus): "+100.00" credited, "-20.00" taken
   * (a withdrawal request takes the money at once), "0.00" when it only moved held money (payout).
   */
  change: signedMoney,
  direction: z.enum(['in', 'out', 'none']),
  /** The member's account the row is about: cash, bonus or withdrawal_hold. */
  account: z.enum(['cash', 'bonus', 'withdrawal_hold']),
  /** That account's balance right after the movement. */
  balance_after: money,
  /** The order / bet this movement belongs to (e.g. a recharge order number), or "". */
  reference: z.string(),
});
export type TTransactionRow = z.infer<typeof ZTransactionRow>;

export const ZTransactionRecordResponse = z.object({
  list: z.array(ZTransactionRow),
  /** Older rows ("next" button); null on the last page. */
  next_cursor: z.string().nullable(),
  /** Newer rows ("previous" button); null on the newest page. */
  prev_cursor: z.string().nullable(),
  period: z.enum(RECORD_PERIODS),
  page_size: z.number().int(),
  time_zone: z.string().describe('IANA zone the periods are counted in'),
});
export type TTransactionRecordResponse = z.infer<typeof ZTransactionRecordResponse>;

/** GET /api/ordercenter/details, /fee: `period` as in the transaction record (default all). */
export const ZOrderCenterQuery = ZLangQuery.extend({ period: ZRecordPeriod });
export type TOrderCenterQuery = z.input<typeof ZOrderCenterQuery>;

/** Most rows a details / fee / association list returns (newest first); totals count everything. */
export const ORDER_CENTER_LIST_MAX = 50;

export const ZOrderCenterDetail = z.object({
  type: z.enum(['recharge', 'withdraw']),
  order_no: z.string(),
  amount: money,
  fee: money,
  /** Recharge: the amount; withdrawal: amount − fee (what the player receives). */
  actual_amount: money,
  /** deposit: pending/paid/expired/refunded/failed; withdrawal: pending_review/approved/paying/paid/rejected/failed/cancelled. */
  status: z.string(),
  created_at: z.string().describe('ISO 8601'),
});
export type TOrderCenterDetail = z.infer<typeof ZOrderCenterDetail>;

export const ZOrderCenterDetailsResponse = z.object({
  details: z.array(ZOrderCenterDetail),
  /** Sum of paid recharges in the period. */
  total_recharge_amount: money,
  /** Sum of paid-out withdrawals in the period (amount requested, fee included). */
  total_withdraw_amount: money,
  /** Bonuses, rebates and commissions credited in the period. */
  total_bonus_amount: money,
  /** Withdrawal fees kept in the period. */
  total_fee_amount: money,
  /** True when more orders exist than `details` shows (ORDER_CENTER_LIST_MAX). */
  has_more: z.boolean(),
  period: z.enum(RECORD_PERIODS),
  time_zone: z.string(),
});
export type TOrderCenterDetailsResponse = z.infer<typeof ZOrderCenterDetailsResponse>;

export const ZOrderCenterFee = z.object({
  /** The payout movement's id. */
  id: z.number().int(),
  /** The withdrawal it was kept from. */
  order_no: z.string(),
  withdraw_amount: money,
  fee: money,
  created_at: z.string().describe('ISO 8601'),
});
export type TOrderCenterFee = z.infer<typeof ZOrderCenterFee>;

export const ZOrderCenterFeeResponse = z.object({
  fee: z.array(ZOrderCenterFee),
  total_fee_amount: money,
  has_more: z.boolean(),
  period: z.enum(RECORD_PERIODS),
  time_zone: z.string(),
});
export type TOrderCenterFeeResponse = z.infer<typeof ZOrderCenterFeeResponse>;

export const ZOrderCenterAssociation = z.object({
  id: z.number().int(),
  /** The invitee's username, partly hidden ("ma***09"). */
  name: z.string(),
  /** direct: invited by the caller (agent_id); indirect: further down the caller's tree (top_id). */
  relation: z.enum(['direct', 'indirect']),
  created_at: z.string().describe('ISO 8601 registration time'),
  total_recharge_amount: money,
});
export type TOrderCenterAssociation = z.infer<typeof ZOrderCenterAssociation>;

/** GET /api/ordercenter/association: the caller's invitees and their paid recharges. */
export const ZOrderCenterAssociationResponse = z.object({
  association: z.array(ZOrderCenterAssociation),
  /** How many invitees the caller has in all. */
  total: z.number().int(),
  /** Sum of all invitees' paid recharges. */
  total_recharge_amount: money,
  has_more: z.boolean(),
});
export type TOrderCenterAssociationResponse = z.infer<typeof ZOrderCenterAssociationResponse>;

/** The in-house wallet's platform code in getAllBalance (third-party games share the same wallet). */
export const HOUSE_PLATFORM = 'sorte';

/** GET /api/day7/getAllBalance?currency=BRL&platType */
export const ZAllBalanceQuery = ZLangQuery.extend({
  /** Only BRL exists (spec §9); absent means BRL, anything else is CURRENCY_UNSUPPORTED. */
  currency: z.string({ error: M.wrongType }).max(8, { error: M.tooLong }).optional(),
  platType: z.string({ error: M.wrongType }).max(32, { error: M.tooLong }).optional(),
});
export type TAllBalanceQuery = z.infer<typeof ZAllBalanceQuery>;

export const ZPlatformBalance = z.object({
  plat_type: z.string(),
  name: z.string(),
  /** Cash. */
  money,
  /** Bonus. */
  fs_money: money,
  /** Held by withdrawals waiting for review or payout. */
  hold_money: money,
  /** cash + bonus. */
  total_money: money,
});
export type TPlatformBalance = z.infer<typeof ZPlatformBalance>;

export const ZAllBalanceResponse = z.object({
  currency: z.literal('BRL'),
  list: z.array(ZPlatformBalance),
  /** Sum of total_money over the list. */
  total_money: money,
});
export type TAllBalanceResponse = z.infer<typeof ZAllBalanceResponse>;
