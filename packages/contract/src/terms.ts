import { z } from 'zod';

/** The minimum notice, in days, between announcing a new terms version and its effective date. */
export const TERMS_MIN_NOTICE_DAYS = 14;

export const ZTermsVersion = z.object({
  version: z.number().int(),
  effective_at: z.string().describe('ISO instant from which the version applies'),
  summary: z.string().describe('what changes, as the operator announced it'),
});
export type TTermsVersion = z.infer<typeof ZTermsVersion>;

export const ZTermsStatus = z.object({
  current_version: z.number().int().describe('the version in force now'),
  pending: ZTermsVersion.nullable().describe('a version in force that the member has not accepted yet'),
  upcoming: ZTermsVersion.nullable().describe('an announced version not yet in force'),
});
export type TTermsStatus = z.infer<typeof ZTermsStatus>;

export const ZAcceptTermsRequest = z.object({ version: z.number().int().min(1) });
export type TAcceptTermsRequest = z.infer<typeof ZAcceptTermsRequest>;

export const ZAnnounceTermsRequest = z.object({
  effective_at: z
    .string()
    .datetime({ offset: true })
    .describe(`at least ${TERMS_MIN_NOTICE_DAYS} days ahead`),
  summary: z.string().trim().min(1).max(2000),
});
export type TAnnounceTermsRequest = z.infer<typeof ZAnnounceTermsRequest>;
