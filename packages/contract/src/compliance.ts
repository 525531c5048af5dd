import { z } from 'zod';
import { M, requiredString } from './validation.ts';

/**
 * Back office: AML monitoring (issue 36 §2, ADR 040) — alerts, cases with the player's timeline,
 * decisions, the COAF communication and the yearly files. Only roles with compliance.read see
 * any of it; the player never does.
 */

export const AML_RULES = [
  'large_amount',
  'quick_cashout',
  'structuring',
  'shared_identifier',
  'payer_cpf_mismatch',
  'disproportionate_win',
  'pep',
  'surge',
] as const;
export type TAmlRule = (typeof AML_RULES)[number];

export const AML_CASE_STATUSES = ['open', 'closed', 'reported'] as const;
export type TAmlCaseStatus = (typeof AML_CASE_STATUSES)[number];

export const AML_REPORT_KINDS = ['coaf', 'non_occurrence', 'annual'] as const;
export type TAmlReportKind = (typeof AML_REPORT_KINDS)[number];

const ZLimit = z.coerce
  .number({ error: M.wrongType })
  .int({ error: 'validation.invalid' })
  .min(1, { error: 'validation.invalid' })
  .max(200, { error: 'validation.invalid' })
  .optional();

const ZYear = z.coerce
  .number({ error: (issue) => (issue.input === undefined ? M.required('year') : M.wrongType) })
  .int({ error: 'validation.invalid' })
  .min(2000, { error: 'validation.invalid' })
  .max(2200, { error: 'validation.invalid' });

export const ZComplianceListQuery = z.object({
  lang: z.string().max(16).optional(),
  status: z.enum(AML_CASE_STATUSES, { error: 'validation.invalid' }).optional(),
  rule: z.enum(AML_RULES, { error: 'validation.invalid' }).optional(),
  limit: ZLimit,
});
export type TComplianceListQuery = z.infer<typeof ZComplianceListQuery>;

export const ZComplianceCaseParams = z.object({
  id: z.coerce
    .number({ error: M.wrongType })
    .int({ error: 'validation.invalid' })
    .positive({ error: 'validation.invalid' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'validation.invalid' }),
});

export const ZComplianceAssignBody = z.object({
  /** The operator (of this site, with compliance.manage) to assign; null unassigns. */
  operator_id: z
    .number({ error: (issue) => (issue.input === undefined ? M.required('operator_id') : M.wrongType) })
    .int({ error: 'validation.invalid' })
    .positive({ error: 'validation.invalid' })
    .nullable(),
});

export const ZComplianceNoteBody = z.object({ note: requiredString('note', 4000) });

export const ZComplianceDecideBody = z.object({
  decision: z.enum(['close', 'report'], {
    error: (issue) => (issue.input === undefined ? M.required('decision') : 'validation.invalid'),
  }),
  /** close: why nothing is suspicious; report: the operator's narrative sent to COAF. */
  reason: requiredString('reason', 2000),
});

export const ZComplianceExportBody = z.object({
  kind: z.enum(['non_occurrence', 'annual'], {
    error: (issue) => (issue.input === undefined ? M.required('kind') : 'validation.invalid'),
  }),
  year: ZYear,
});

export const ZComplianceReportParams = z.object({
  id: ZComplianceCaseParams.shape.id,
});

const ZMoney = z.string().describe('amount in minor units, as a decimal string');

export const ZAmlAlert = z.object({
  id: z.number().int(),
  case_id: z.number().int(),
  member_id: z.number().int(),
  username: z.string(),
  rule: z.enum(AML_RULES),
  amount_minor: ZMoney,
  evidence: z.record(z.string(), z.unknown()),
  legal_basis: z.string(),
  event_at: z.string(),
  created_at: z.string(),
});
export type TAmlAlert = z.infer<typeof ZAmlAlert>;

export const ZAmlCaseRow = z.object({
  id: z.number().int(),
  member_id: z.number().int(),
  username: z.string(),
  status: z.enum(AML_CASE_STATUSES),
  alerts: z.number().int(),
  rules: z.array(z.string()),
  amount_minor: ZMoney,
  assigned_to: z.string().nullable().describe('operator username'),
  held: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TAmlCaseRow = z.infer<typeof ZAmlCaseRow>;

export const ZComplianceAlertsResponse = z.object({ list: z.array(ZAmlAlert) });
export const ZComplianceCasesResponse = z.object({ list: z.array(ZAmlCaseRow) });

const ZTimelineEntry = z.object({
  at: z.string(),
  kind: z.string(),
  amount_minor: ZMoney.nullable(),
  detail: z.string(),
});

export const ZAmlCaseDetail = z.object({
  case: ZAmlCaseRow.extend({
    decision_reason: z.string().nullable(),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
  }),
  player: z.object({
    member_id: z.number().int(),
    username: z.string(),
    realname: z.string(),
    cpf: z.string().nullable(),
    birth_date: z.string().nullable(),
    pep: z.boolean(),
    created_at: z.string(),
  }),
  alerts: z.array(ZAmlAlert),
  notes: z.array(
    z.object({ id: z.number().int(), operator: z.string(), note: z.string(), created_at: z.string() }),
  ),
  timeline: z.array(ZTimelineEntry),
  bets: z.object({ count: z.number().int(), staked_minor: ZMoney, won_minor: ZMoney, since: z.string() }),
  devices: z.array(
    z.object({
      kind: z.string(),
      value: z.string(),
      last_seen: z.string(),
      other_accounts: z.number().int(),
    }),
  ),
  kyc: z.array(
    z.object({ check: z.string(), outcome: z.string(), reason: z.string().nullable(), at: z.string() }),
  ),
  reports: z.array(
    z.object({
      id: z.number().int(),
      kind: z.enum(AML_REPORT_KINDS),
      file_name: z.string(),
      created_at: z.string(),
    }),
  ),
});
export type TAmlCaseDetail = z.infer<typeof ZAmlCaseDetail>;

export const ZAmlReportRow = z.object({
  id: z.number().int(),
  kind: z.enum(AML_REPORT_KINDS),
  year: z.number().int(),
  case_id: z.number().int().nullable(),
  file_name: z.string(),
  sha256: z.string(),
  created_by: z.string(),
  created_at: z.string(),
});
export const ZComplianceReportsResponse = z.object({ list: z.array(ZAmlReportRow) });
export type TAmlReportRow = z.infer<typeof ZAmlReportRow>;
