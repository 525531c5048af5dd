import { z } from 'zod';
import { M, requiredString } from './validation.ts';

/**
 * Bank cards (spec §3 "Bank card"): the PIX keys a member withdraws to. The schemas here check the
 * shape of a request; the server also checks each key against its type (CPF/CNPJ check digits,
 * EVP = UUID v4, phone = Brazilian mobile in E.164, email) and answers a field error on `account`.
 */

/** PIX key types ("account type" on the form). */
export const BANK_ACCOUNT_TYPES = ['CPF', 'CNPJ', 'EVP', 'PHONE', 'EMAIL'] as const;
export type TBankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

/** Most active cards one member may keep. */
export const BANK_CARD_LIMIT = 5;

/** Bank name used when the form leaves it empty: the payout always goes through PIX. */
export const DEFAULT_BANK_NAME = 'PIX';

export const BANK_CARD_FIELD_LIMITS = {
  bankName: 60,
  payeeName: 100,
  /** The DICT limit of a PIX key (an email key may be up to 77 characters). */
  pixKey: 77,
  cpf: 20,
  accountNo: 40,
} as const;

/** A card id: a positive integer, as a JSON number or a string of digits. */
export const ZBankCardId = z
  .union([z.number(), z.string().regex(/^\d{1,15}$/, { error: M.wrongType })], {
    error: (issue) => (issue.input === undefined ? M.required('bank_account') : M.wrongType),
  })
  .transform(Number)
  .pipe(
    z
      .number()
      .int({ error: M.wrongType })
      .positive({ error: M.wrongType })
      .max(Number.MAX_SAFE_INTEGER, { error: M.wrongType }),
  );

/** POST /api/member/bank/add */
export const ZBankCardAddRequest = z.object({
  /** Optional: DEFAULT_BANK_NAME when empty. */
  bank_name: z
    .string({ error: M.wrongType })
    .trim()
    .max(BANK_CARD_FIELD_LIMITS.bankName, { error: M.tooLong })
    .regex(/^[\p{L}\p{M}\p{N} .,&()'/-]*$/u, { error: 'validation.bank_name_format' })
    .optional(),
  /** The PIX key type. */
  account_type: z.enum(BANK_ACCOUNT_TYPES, {
    error: (issue) =>
      issue.input === undefined || issue.input === ''
        ? M.required('type')
        : 'validation.account_type_invalid',
  }),
  /** Payee: the account holder's name. */
  name: requiredString('name', BANK_CARD_FIELD_LIMITS.payeeName).regex(/^[\p{L}\p{M}' .-]+$/u, {
    error: 'validation.payee_format',
  }),
  /** The PIX account: the key itself (CPF, CNPJ, random key, phone or email). */
  account: requiredString('bank_account', BANK_CARD_FIELD_LIMITS.pixKey),
  /** The payee's CPF number, with or without punctuation. */
  cpf_id: requiredString('cpf', BANK_CARD_FIELD_LIMITS.cpf),
  /** Collection account number (optional, informative). */
  account_no: z
    .string({ error: M.wrongType })
    .trim()
    .max(BANK_CARD_FIELD_LIMITS.accountNo, { error: M.tooLong })
    .regex(/^[0-9A-Za-z-]*$/, { error: 'validation.account_no_format' })
    .optional(),
  /** Make this the default card (the first card always is). */
  is_default: z.boolean({ error: M.wrongType }).optional(),
});
export type TBankCardAddRequest = z.infer<typeof ZBankCardAddRequest>;

/** POST /api/member/bank/delete: removes one of the caller's cards. */
export const ZBankCardDeleteRequest = z.object({
  id: ZBankCardId,
});
export type TBankCardDeleteRequest = z.infer<typeof ZBankCardDeleteRequest>;

export const ZBankCard = z.object({
  id: z.number().int(),
  bank_name: z.string(),
  account_type: z.enum(BANK_ACCOUNT_TYPES),
  /** Payee name. */
  name: z.string(),
  /** The PIX key, normalised (CPF/CNPJ without punctuation, phone as +55…, email lower case). */
  account: z.string(),
  /** The same key for display, partly hidden (e.g. "***.982.247-**"). */
  account_masked: z.string(),
  cpf_id: z.string().nullable().describe('11 digits'),
  account_no: z.string().nullable(),
  is_default: z.boolean(),
  created_at: z.string().describe('ISO 8601'),
});
export type TBankCard = z.infer<typeof ZBankCard>;

/** GET /api/member/bank → the caller's active cards, default first, then newest first. */
export const ZBankCardListResponse = z.object({
  list: z.array(ZBankCard),
  /** Most cards allowed (BANK_CARD_LIMIT). */
  max_cards: z.number().int(),
  /** True on `br` sites: every card must carry the member's own CPF, and CNPJ keys are refused. */
  own_cpf_only: z.boolean(),
  /** The member's CPF once bound (br sites, by the first card), to pre-fill and lock the field. */
  member_cpf: z.string().nullable(),
});
export type TBankCardListResponse = z.infer<typeof ZBankCardListResponse>;

/** POST /api/member/bank/add → the new card. */
export const ZBankCardAddResponse = ZBankCard;
export type TBankCardAddResponse = TBankCard;

/** POST /api/member/bank/delete → the removed card's id. */
export const ZBankCardDeleteResponse = z.object({ id: z.number().int() });
export type TBankCardDeleteResponse = z.infer<typeof ZBankCardDeleteResponse>;
