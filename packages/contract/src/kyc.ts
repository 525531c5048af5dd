import { z } from 'zod';
import { isValidCpf } from './cpf.ts';
import { M } from './validation.ts';

/** Identity verification, KYC (issue 36 §1): the checks a jurisdiction profile requires. */

/** 'cpf': the CPF is regular and matches the name and birth date; 'identity': document + selfie. */
export const KYC_CHECKS = ['cpf', 'identity'] as const;
export type TKycCheck = (typeof KYC_CHECKS)[number];
export const KYC_ACTIONS = ['deposit', 'bet', 'withdrawal'] as const;
export type TKycAction = (typeof KYC_ACTIONS)[number];
export const KYC_SESSION_STATUSES = [
  'created',
  'submitted',
  /** The provider sent the session to the operator's own review (the back-office queue). */
  'manual_review',
  'approved',
  'rejected',
  'resubmission_requested',
] as const;
export type TKycSessionStatus = (typeof KYC_SESSION_STATUSES)[number];

/** What the site requires before one action, and why (the article the rule encodes). */
export const ZKycRequirement = z.object({
  action: z.enum(KYC_ACTIONS),
  required_checks: z.array(z.enum(KYC_CHECKS)),
  /** Withdrawals only: the rule applies above this amount, or once the total withdrawn passes the other. */
  above_amount: z.string().nullable(),
  above_total: z.string().nullable(),
  /** The citation, in the request's language (the message kyc.legal_basis.<legal_basis_key>). */
  legal_basis: z.string(),
  /** The rule's message key: the player's app translates kyc.legal_basis.<key> itself. */
  legal_basis_key: z.string(),
});

/** GET /api/kyc/status and the answer of POST /api/kyc/verifications. */
export const ZKycStatus = z.object({
  passed_checks: z.array(z.enum(KYC_CHECKS)),
  /** The checks some rule of the site requires that have not passed yet. */
  missing_checks: z.array(z.enum(KYC_CHECKS)),
  requirements: z.array(ZKycRequirement),
  /** The member's latest verification session at the provider, if any. */
  session: z
    .object({
      status: z.enum(KYC_SESSION_STATUSES),
      reason: z.string().nullable(),
      /** Where the player sends the document and selfie (while the session waits for them). */
      capture_url: z.string().nullable(),
      updated_at: z.string(),
    })
    .nullable(),
});
export type TKycStatus = z.infer<typeof ZKycStatus>;

/**
 * POST /api/kyc/cpf-lookup: the sign-up form of a site whose profile allows it asks for the name
 * and birth date registered for a CPF, to prefill them. Rate-limited per address and per CPF.
 */
export const ZCpfLookupRequest = z.object({
  cpf: z
    .string({ error: (issue) => (issue.input === undefined ? M.required('cpf') : M.wrongType) })
    .trim()
    .max(20, { error: M.tooLong })
    .refine((cpf) => isValidCpf(cpf), { error: 'validation.cpf_invalid' }),
});
export type TCpfLookupRequest = z.infer<typeof ZCpfLookupRequest>;
/**
 * found: false for a CPF that is not regular, unknown, or already has an account here (the answer
 * never says which); else the registered name and birth date (YYYY-MM-DD), nothing more.
 */
export const ZCpfLookupResponse = z.union([
  z.object({ found: z.literal(false) }),
  z.object({ found: z.literal(true), realname: z.string(), birth_date: z.string() }),
]);
export type TCpfLookupResponse = z.infer<typeof ZCpfLookupResponse>;

/** The document images a provider hands over for a manual review. */
export const KYC_DOCUMENT_KINDS = ['document_front', 'document_back', 'selfie'] as const;
export type TKycDocumentKind = (typeof KYC_DOCUMENT_KINDS)[number];

/** One session of the back office's verification queue (GET /api/admin/kyc/reviews). */
export const ZAdminKycReview = z.object({
  session_id: z.string(),
  status: z.enum(KYC_SESSION_STATUSES),
  member_id: z.number().int(),
  username: z.string(),
  realname: z.string(),
  /** Masked without players.pii (***.456.789-**), as in every back-office answer. */
  cpf: z.string().nullable(),
  /** YYYY-MM-DD; the year alone (1990-**-**) without players.pii. */
  birth_date: z.string().nullable(),
  pep: z.boolean(),
  passed_checks: z.array(z.enum(KYC_CHECKS)),
  review_requested_at: z.string().nullable(),
  /** Why the documents could not be taken (unsupported_type, too_large, provider_unavailable…), or null. */
  documents_error: z.string().nullable(),
  /** Listed for every operator of the queue; opening one needs kyc.documents. */
  documents: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(KYC_DOCUMENT_KINDS),
      content_type: z.string(),
      size_bytes: z.number().int(),
    }),
  ),
});
export type TAdminKycReview = z.infer<typeof ZAdminKycReview>;
export const ZAdminKycReviewsResponse = z.object({ list: z.array(ZAdminKycReview) });
export type TAdminKycReviewsResponse = z.infer<typeof ZAdminKycReviewsResponse>;
export const ZAdminKycSessionParams = z.object({ session_id: z.string().regex(/^\d{1,18}$/) });
export const ZAdminKycDocumentParams = z.object({ document_id: z.string().regex(/^\d{1,18}$/) });
/** Approve or reject a session in manual review: a reason either way (kept with it and in the audit log). */
export const ZAdminKycDecisionRequest = z.object({
  decision: z.enum(['approve', 'reject']),
  reason: z
    .string({ error: (issue) => (issue.input === undefined ? M.required('reason') : M.wrongType) })
    .trim()
    .min(1, { error: M.required('reason') })
    .max(300, { error: M.tooLong }),
});
export type TAdminKycDecisionRequest = z.infer<typeof ZAdminKycDecisionRequest>;
