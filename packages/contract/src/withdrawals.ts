import { z } from 'zod';
import { ZIdInput, ZMemberIdEcho, ZMoney, ZMoneyInput } from './deposits.ts';
import { IDEMPOTENCY_KEY_PATTERN } from './games.ts';
import { M, ZQkPwd } from './validation.ts';

/** Withdrawals: the withdraw page data, the request (spec §3 withdraw post fields), records, review. */

const optionalText = (max: number) => z.string().trim().max(max, { error: M.tooLong }).optional();

/**
 * POST /api/drawing. The destination is the member's own bank card `member_bank_id`; the other
 * account fields describe it as the form shows it and are kept with the order, never trusted to
 * redirect money.
 */
export const ZWithdrawRequest = z.object({
  name: optionalText(100),
  money: ZMoneyInput('amount'),
  account: optionalText(77),
  member_bank_id: ZIdInput('member_bank_id'),
  member_bank_text: optionalText(120),
  member_remark: optionalText(200),
  qk_pwd: ZQkPwd,
  /**
   * The withdrawal password typed again. A player who has none sets it with the first withdrawal
   * (it is no longer asked at registration); ignored once a password is set.
   */
  qk_pwd_confirmation: z.string().max(32, { error: M.tooLong }).optional(),
  /** The authenticator (or recovery) code, when the account has two-factor authentication on. */
  totp_code: z
    .string({ error: M.wrongType })
    .trim()
    .max(16, { error: M.tooLong })
    .regex(/^(\d{6}|[a-z0-9]{4}-[a-z0-9]{4})$/i, { error: 'validation.code_format' })
    .optional(),
  payment_type: optionalText(32),
  cpf_id: optionalText(20),
  phone_number: optionalText(20),
  email: optionalText(77),
  cnpj: optionalText(20),
  evp: optionalText(40),
  member_id: ZMemberIdEcho,
});
export type TWithdrawRequest = z.input<typeof ZWithdrawRequest>;

/**
 * The `Idempotency-Key` header of a money request: one key per submit (the web app draws a UUID),
 * so a double tap or a retry after a lost answer makes one order. The same key with the same body
 * answers the first order; with another body, IDEMPOTENCY_CONFLICT.
 */
export const ZIdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, { error: 'validation.idempotency_key' })
    .optional(),
});

/** POST /api/drawing/cancel: the caller's own order, while it waits for review. */
export const ZWithdrawCancelRequest = z.object({
  order_no: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{8,40}$/, { error: 'errors.ORDER_NOT_FOUND' }),
});

export const WITHDRAWAL_STATUSES = [
  'pending_review',
  'approved',
  'paying',
  'paid',
  'rejected',
  'failed',
  /** Withdrawn by the player while it waited for review; the held amount went back to cash. */
  'cancelled',
] as const;
export type TWithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export const REVIEW_STATUSES = ['not_reviewed', 'reviewed'] as const;

export const ZWithdrawalOrder = z.object({
  id: z.string(),
  order_no: z.string(),
  amount: ZMoney,
  fee: ZMoney,
  /** What reaches the player's account: amount − fee. */
  actual: ZMoney,
  status: z.enum(WITHDRAWAL_STATUSES),
  review_status: z.enum(REVIEW_STATUSES),
  bank_card_id: z.string(),
  /** The destination as shown: account type and a masked PIX key. */
  account_type: z.string(),
  account: z.string(),
  payee_name: z.string(),
  member_remark: z.string().nullable(),
  /** The reviewer's remark (e.g. why it was rejected). */
  remark: z.string().nullable(),
  created_at: z.string(),
  reviewed_at: z.string().nullable(),
  paid_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
});
export type TWithdrawalOrder = z.infer<typeof ZWithdrawalOrder>;

export const ZWithdrawResponse = ZWithdrawalOrder;

/** GET /api/drawing/info?money=: the withdraw page (bounds, fee rule, receipt preview, rules). */
export const ZWithdrawInfoQuery = z.object({
  lang: z.string().max(16).optional(),
  /** Optional amount to preview fee and actual receipt for. */
  money: z.string().max(32).optional(),
});

export const ZWithdrawInfoResponse = z.object({
  currency: z.literal('BRL'),
  /** Cash balance and what may be withdrawn now (0 while wagering is outstanding). */
  balance: ZMoney,
  withdrawable: ZMoney,
  /** Turnover still to bet before a withdrawal is allowed. */
  wagering_required: ZMoney,
  min_money: ZMoney,
  max_money: ZMoney,
  /** The payout channel the fee below is set for ('pix'); fees are per site and channel. */
  channel: z.string(),
  /** Fee rule of the channel: fee = max(fee_min, amount × fee_rate%); both zero by default on PIX. */
  fee_rate: z.string(),
  fee_min: ZMoney,
  daily_count_max: z.number().int(),
  today_count: z.number().int(),
  has_qk_pwd: z.boolean(),
  /** The site allows only PIX keys in the member's own CPF (br). */
  own_cpf_only: z.boolean(),
  /** The fee and actual receipt for `money`, when it was given and valid. */
  preview: z.object({ amount: ZMoney, fee: ZMoney, actual: ZMoney }).nullable(),
  /** Trading rules, translated. */
  rules: z.array(z.string()),
});
export type TWithdrawInfoResponse = z.infer<typeof ZWithdrawInfoResponse>;

export const ZWithdrawListResponse = z.object({
  list: z.array(ZWithdrawalOrder),
  next: z.string().nullable(),
  prev: z.string().nullable(),
});
export type TWithdrawListResponse = z.infer<typeof ZWithdrawListResponse>;

/** Back office: GET /api/admin/withdrawals?status=pending_review&before= */
export const ZAdminWithdrawalsQuery = z.object({
  lang: z.string().max(16).optional(),
  status: z.enum(WITHDRAWAL_STATUSES).optional(),
  before: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const ZAdminWithdrawal = ZWithdrawalOrder.extend({
  member_id: z.string(),
  username: z.string(),
  pix_key: z.string(),
  payout_id: z.string().nullable(),
  fail_reason: z.string().nullable(),
});
export const ZAdminWithdrawalsResponse = z.object({
  list: z.array(ZAdminWithdrawal),
  next: z.string().nullable(),
});

export const ZAdminWithdrawalParams = z.object({ order_no: z.string().trim().min(1).max(40) });
export const ZAdminRejectRequest = z.object({
  remark: z
    .string({ error: M.required('remark') })
    .trim()
    .min(1, { error: M.required('remark') })
    .max(200, { error: M.tooLong }),
});
/** Approving needs a reason too (kept with the order and in the audit log). */
export const ZAdminApproveRequest = z.object({
  remark: z
    .string({ error: M.required('remark') })
    .trim()
    .min(1, { error: M.required('remark') })
    .max(200, { error: M.tooLong }),
});
