import { z } from 'zod';

/** Identity verification, KYC (issue 36 §1): the checks a jurisdiction profile requires. */

/** 'cpf': the CPF is regular and matches the name and birth date; 'identity': document + selfie. */
export const KYC_CHECKS = ['cpf', 'identity'] as const;
export type TKycCheck = (typeof KYC_CHECKS)[number];
export const KYC_ACTIONS = ['deposit', 'bet', 'withdrawal'] as const;
export type TKycAction = (typeof KYC_ACTIONS)[number];
export const KYC_SESSION_STATUSES = [
  'created',
  'submitted',
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
  legal_basis: z.string(),
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
