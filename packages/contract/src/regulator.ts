import { z } from 'zod';
import { M } from './validation.ts';

/**
 * Back office: the daily files for the regulator (issue 36 §4, ADR 039), listed per day and
 * downloaded one by one. The layout of the files is docs/regulator-layout.md.
 */

const ZReportDay = z
  .string({ error: (issue) => (issue.input === undefined ? M.required('day') : M.wrongType) })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.invalid' })
  .refine(
    (text) => {
      const date = new Date(`${text}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
    },
    {
      error: 'validation.invalid',
    },
  );

export const ZRegulatorReportsQuery = z.object({
  lang: z.string().max(16).optional(),
  limit: z.coerce
    .number({ error: M.wrongType })
    .int({ error: 'validation.invalid' })
    .min(1, { error: 'validation.invalid' })
    .max(366, { error: 'validation.invalid' })
    .optional(),
});
export type TRegulatorReportsQuery = z.infer<typeof ZRegulatorReportsQuery>;

export const ZRegulatorFileParams = z.object({
  day: ZReportDay,
  name: z
    .string({ error: M.wrongType })
    .min(1, { error: M.required('name') })
    .max(200, { error: M.tooLong })
    .regex(/^[A-Za-z0-9._-]+$/, { error: 'validation.invalid' }),
});
export type TRegulatorFileParams = z.infer<typeof ZRegulatorFileParams>;

const ZRegulatorFile = z.object({
  name: z.string(),
  kind: z.enum(['bets', 'transactions', 'manifest']),
  sequence: z.number().int(),
  records: z.number().int(),
  bytes: z.number().int(),
  sha256: z.string().describe('hex SHA-256 of the file bytes'),
});

export const ZRegulatorReport = z.object({
  day: z.string().describe('the local day the files cover, YYYY-MM-DD'),
  layout: z.string(),
  status: z.enum(['building', 'ready', 'invalid']),
  problems: z.array(z.string()).describe('why the files failed the structure check (status invalid)'),
  bet_records: z.number().int(),
  transaction_records: z.number().int(),
  built_at: z.string(),
  files: z.array(ZRegulatorFile).describe('the manifest first, then the data files in order'),
});
export type TRegulatorReport = z.infer<typeof ZRegulatorReport>;

export const ZRegulatorReportsResponse = z.object({
  /** Whether the site's jurisdiction profile sends daily files to a regulator. */
  reporting: z.boolean(),
  layout: z.string().nullable(),
  time_zone: z.string().nullable(),
  due_hour: z.number().int().nullable(),
  max_records_per_file: z.number().int().nullable(),
  legal_basis: z.string().nullable(),
  list: z.array(ZRegulatorReport),
});
export type TRegulatorReportsResponse = z.infer<typeof ZRegulatorReportsResponse>;
