import { z } from 'zod';
import { MAX_MINOR, parseMinor } from './money.ts';
import { ZRecordPeriod } from './records.ts';
import { M } from './validation.ts';

/**
 * Deposits (recharges) by PIX: the payment catalogue, order creation, records. Money is a decimal
 * string "0.00" on the wire and a bigint of centavos once parsed.
 */

export const AMOUNT_INVALID = 'validation.amount_invalid';

/**
 * A positive money amount typed by a player: "100", "100.5", "100.50" (a JSON number is accepted
 * and read through its decimal text, so 0.1 + 0.2 is refused rather than rounded). Negative, zero,
 * more than two decimals, above MAX_MINOR or not a number → `validation.amount_invalid`.
 * Parses to centavos (bigint).
 */
export const ZMoneyInput = (field: string) =>
  z
    .union([z.string().max(32, { error: AMOUNT_INVALID }), z.number()], {
      error: (issue) => (issue.input === undefined ? M.required(field) : AMOUNT_INVALID),
    })
    .transform((value, ctx) => {
      const text = typeof value === 'number' ? String(value) : value.trim();
      if (text === '') {
        ctx.addIssue({ code: 'custom', message: M.required(field) });
        return z.NEVER;
      }
      const minor = parseMinor(text);
      if (minor === null || minor <= 0n || minor > MAX_MINOR) {
        ctx.addIssue({ code: 'custom', message: AMOUNT_INVALID });
        return z.NEVER;
      }
      return minor;
    });

/** "0.00" as the server writes it. */
export const ZMoney = z.string().regex(/^-?\d+\.\d{2}$/);

/** A positive id as a number or a digit string (forms send either). */
export const ZIdInput = (field: string) =>
  z
    .union(
      [z.string().regex(/^[1-9]\d{0,17}$/, { error: M.wrongType }), z.number().int().positive().safe()],
      {
        error: (issue) => (issue.input === undefined ? M.required(field) : M.wrongType),
      },
    )
    .transform((value) => BigInt(value));

/**
 * `member_id` may ride along in money payloads (older clients send it); identity always comes from
 * the session, and a member_id that is not the caller's is refused with FORBIDDEN.
 */
export const ZMemberIdEcho = z
  .union([z.string().regex(/^\d{1,19}$/, { error: M.wrongType }), z.number().int().positive().safe()], {
    error: M.wrongType,
  })
  .optional();

/** GET /api/payments/list?lang&domain: the payment methods of the site. */
export const ZPaymentsListQuery = z.object({
  lang: z.string().max(16).optional(),
  domain: z.string().max(255).optional(),
});

export const ZPaymentMethod = z.object({
  /** The method code, sent back as `payment_type`. */
  payment_type: z.string(),
  name: z.string(),
  /** Smallest and largest amount over the method's channels. */
  min_money: ZMoney,
  max_money: ZMoney,
  channel_count: z.number().int(),
});
export const ZPaymentsListResponse = z.object({ currency: z.literal('BRL'), list: z.array(ZPaymentMethod) });
export type TPaymentsListResponse = z.infer<typeof ZPaymentsListResponse>;

/** GET /api/payment/online/list?payment_type=pix: the channels of a method. */
export const ZPaymentChannelsQuery = z.object({
  lang: z.string().max(16).optional(),
  payment_type: z.string().max(32).optional(),
});

export const ZPaymentChannel = z.object({
  /** Sent back as `payment_id`. */
  id: z.number().int(),
  payment_type: z.string(),
  code: z.string(),
  name: z.string(),
  min_money: ZMoney,
  max_money: ZMoney,
  /** Fee in percent of the amount ("0.00" = free) and the reward promised on payment. */
  fee_rate: z.string(),
  bonus_rate: z.string(),
  /** Turnover multiple a reward requires before withdrawal (5). */
  bonus_wagering_multiple: z.number().int(),
  /** Quick-pick amounts. */
  presets: z.array(ZMoney),
  /** How long a created charge can be paid, in seconds. */
  expires_in: z.number().int(),
});
export const ZPaymentChannelsResponse = z.object({
  currency: z.literal('BRL'),
  list: z.array(ZPaymentChannel),
});
export type TPaymentChannelsResponse = z.infer<typeof ZPaymentChannelsResponse>;

/** POST /api/recharge/online */
export const ZRechargeRequest = z.object({
  money: ZMoneyInput('amount'),
  /** The channel id from /api/payment/online/list. */
  payment_id: ZIdInput('type'),
  /** The method code ("pix"). */
  payment_type: z
    .string({ error: M.required('type') })
    .trim()
    .min(1, { error: M.required('type') })
    .max(32),
  /** Free text the player may add (shown to the payer's bank). */
  payment_desc: z.string().trim().max(140, { error: M.tooLong }).optional(),
  member_id: ZMemberIdEcho,
});
export type TRechargeRequest = z.input<typeof ZRechargeRequest>;

export const DEPOSIT_STATUSES = ['pending', 'paid', 'expired', 'refunded', 'failed'] as const;
export type TDepositStatus = (typeof DEPOSIT_STATUSES)[number];

export const ZDepositOrder = z.object({
  id: z.string(),
  order_no: z.string(),
  amount: ZMoney,
  bonus: ZMoney,
  payment_type: z.string(),
  channel: z.string(),
  status: z.enum(DEPOSIT_STATUSES),
  created_at: z.string(),
  expires_at: z.string(),
  paid_at: z.string().nullable(),
});
export type TDepositOrder = z.infer<typeof ZDepositOrder>;

/** The created order plus what the player needs to pay it. */
export const ZRechargeResponse = ZDepositOrder.extend({
  txid: z.string(),
  /** The PIX copy-and-paste code (EMV BR Code); also the QR code's content. */
  pix_copy_paste: z.string(),
  qr_code: z.string(),
  /** Seconds left to pay. */
  expires_in: z.number().int(),
  /** The PSP's payer page (sandbox) to send the browser to; null for a real PSP (show the QR). */
  pay_url: z.string().nullable(),
});
export type TRechargeResponse = z.infer<typeof ZRechargeResponse>;

/** GET /api/recharge/detail?order_no=: one of the caller's orders (the payment page polls it). */
export const ZRechargeDetailQuery = z.object({
  lang: z.string().max(16).optional(),
  order_no: z.string().trim().min(1).max(40),
});

/**
 * Keyset paging shared by the record lists: newest first; `before` = the `next` cursor of the
 * previous page (older rows), `after` = the `prev` cursor (newer rows). `period` limits to today,
 * the last 3 or the last 7 days in the site's time zone, as every record call does (records.ts).
 */
export const ZRecordsRequest = z
  .object({
    before: z
      .string()
      .regex(/^\d{1,19}$/)
      .optional(),
    after: z
      .string()
      .regex(/^\d{1,19}$/)
      .optional(),
    limit: z.coerce.number().int().min(1).max(50).optional(),
    period: ZRecordPeriod,
    status: z.string().max(32).optional(),
    member_id: ZMemberIdEcho,
  })
  .nullish()
  .transform((value) => value ?? { period: 'all' as const });

export const ZRechargeListResponse = z.object({
  list: z.array(ZDepositOrder),
  /** Cursor for older rows (null: none). */
  next: z.string().nullable(),
  /** Cursor for newer rows (null: none). */
  prev: z.string().nullable(),
});
export type TRechargeListResponse = z.infer<typeof ZRechargeListResponse>;
